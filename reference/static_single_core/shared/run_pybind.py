#!/usr/bin/env python3
"""pybind runner: imports the extension module build/pto_static_<target>
(pybind_module.cpp, built by compile.sh) and launches the same cases as
run_ctypes.py through it. Addresses travel as Python integers."""
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name


def addr(x):
    return x.value if hasattr(x, "value") else (x.data_ptr() if hasattr(x, "data_ptr") else int(x))


def addr_of(obj):
    return addr(obj._as_parameter_) if hasattr(obj, "_as_parameter_") else addr(obj)


class PybindLauncher:
    def __init__(self, module):
        self.m = module

    def add(self, bd, stream, *ptrs):
        self.m.add(bd, addr_of(stream), *map(addr_of, ptrs))

    def matmul(self, bd, stream, *ptrs):
        self.m.matmul(bd, addr_of(stream), *map(addr_of, ptrs))

    def matmul_add(self, bd, stream, *ptrs):
        self.m.matmul_add(bd, addr_of(stream), *map(addr_of, ptrs))


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    sys.path.insert(0, str(libdir))
    module = importlib.import_module(f"pto_static_{TARGET}")
    import cases
    results = utils.Results(f"static_single_core/{TARGET}/run_pybind.py", "pybind")
    cases.run_all(ptolab, utils, results, PybindLauncher(module), f"static/{TARGET} pybind", args.kernel)
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
