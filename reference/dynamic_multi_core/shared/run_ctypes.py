#!/usr/bin/env python3
"""ctypes runner for the single-kind dynamic kernels (add on Vector cores,
matmul on Cube cores): loads build/lib<kernel>.so with ctypes.CDLL and sweeps
the shapes of cases.py. The mix kernels have their own runner, run_mix.py."""
import sys
from pathlib import Path

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name
KERNELS = ["add", "matmul"]


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    import launchers
    kernels = [k for k in KERNELS if not args.kernel or k in args.kernel]
    launch = launchers.Ctypes(libdir, kernels)
    results = utils.Results(f"dynamic_multi_core/{TARGET}/run_ctypes.py", "ctypes")
    for k in kernels:
        cases.RUNNERS[k](ptolab, utils, results, launch, f"dynamic/{TARGET} ctypes")
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
