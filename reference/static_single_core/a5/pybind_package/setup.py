"""Builds the pybind11 module pto_static_a5 from ../pybind_module.cpp and
links the kernel libraries ../compile.sh produced (run it first). The
libraries are copied into the package so an installed wheel is self-contained;
they still need libptosim (simulator builds) or CANN's runtime (bisheng builds)."""
import os
import shutil
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE.parent
LIBDIR = Path(os.environ.get("PTO_REF_OUT", SRC / "build"))
LIBS = ["add", "matmul", "matmul_add"]


class BuildWithKernels(build_ext):
    def run(self):
        missing = [n for n in LIBS if not (LIBDIR / f"lib{n}.so").exists()]
        if missing:
            raise SystemExit(f"missing {', '.join('lib%s.so' % n for n in missing)} in {LIBDIR}: run ../compile.sh first")
        super().run()
        dest = Path(self.get_ext_fullpath("pto_static_a5")).parent
        for n in LIBS:
            shutil.copy2(LIBDIR / f"lib{n}.so", dest / f"lib{n}.so")


pybind_inc = "/usr/include" if Path("/usr/include/pybind11").exists() else None
try:
    import pybind11
    pybind_inc = pybind11.get_include()
except ImportError:
    pass

setup(
    py_modules=[],
    packages=[],
    ext_modules=[Extension(
        "pto_static_a5",
        sources=["src/pto_static_a5.cpp"],
        include_dirs=[p for p in (pybind_inc, sysconfig.get_paths()["include"]) if p],
        library_dirs=[str(LIBDIR)],
        libraries=LIBS,
        runtime_library_dirs=["$ORIGIN"],  # the copied kernel libraries sit next to the module
        extra_compile_args=["-std=c++17", "-O1"],
        language="c++",
    )],
    cmdclass={"build_ext": BuildWithKernels},
)
