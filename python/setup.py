"""Builds ptolab's native part with the repository's CMake project and
bundles it into the package: _core, libptolab_core.so and libptosim.so,
installed side by side with an $ORIGIN run path so the wheel works wherever
it is unpacked.

pip install --no-build-isolation ./python

PTOLAB_BUILD_DIR reuses an existing CMake build directory (default: a fresh
one under build/ of this directory); CMAKE_ARGS adds configure arguments.
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        build_dir = Path(os.environ.get("PTOLAB_BUILD_DIR", HERE / "build" / "cmake")).resolve()
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir)]
        if not (build_dir / "CMakeCache.txt").exists():
            # A fresh directory gets a lean configuration; an existing one keeps its own settings.
            configure += [f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                          "-DPTOLAB_BUILD_BENCH=OFF", "-DPTOLAB_BUILD_TESTS=OFF"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "1")
        try:
            subprocess.check_call(configure)
            subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "ptolab_python", "-j", jobs])
            with tempfile.TemporaryDirectory() as stage:
                subprocess.check_call(["cmake", "--install", str(build_dir), "--component", "python", "--prefix",
                                       stage])
                dest = Path(self.build_lib) / "ptolab"
                dest.mkdir(parents=True, exist_ok=True)
                for f in (Path(stage) / "ptolab").iterdir():
                    shutil.copy2(f, dest / f.name, follow_symlinks=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(f"ptolab: building the native module with CMake failed ({e}); install cmake, ninja-build, "
                             f"g++, python3-dev and pybind11-dev (scripts/install-deps.sh does), or set "
                             f"PTOLAB_BUILD_DIR to a configured build directory") from None


setup(cmdclass={"build_py": BuildWithCMake})
