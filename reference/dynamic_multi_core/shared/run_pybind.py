#!/usr/bin/env python3
"""pybind runner: imports build/pto_dynamic_<target> (pybind_module.cpp) and
sweeps every kernel of the directory with the shapes of cases.py."""
import sys
from pathlib import Path

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name
KERNELS = ["add", "matmul", "matmul_add"] + (["add_matmul"] if TARGET == "a5" else [])


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    import launchers
    kernels = [k for k in KERNELS if not args.kernel or k in args.kernel]
    launch = launchers.Pybind(libdir, f"pto_dynamic_{TARGET}", kernels)
    results = utils.Results(f"dynamic_multi_core/{TARGET}/run_pybind.py", "pybind")
    for k in kernels:
        cases.RUNNERS[k](ptolab, utils, results, launch, f"dynamic/{TARGET} pybind")
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
