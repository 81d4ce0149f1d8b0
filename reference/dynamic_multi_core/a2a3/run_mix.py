#!/usr/bin/env python3
"""Mix-kernel runner (one Cube core and two Vector cores per block): loads
the mix libraries with ctypes.CDLL and sweeps shapes with rounds 1 and more
(a round is one tile passing through the block's Cube -> Vector handshake)."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name
KERNELS = ["matmul_add"]


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    import launchers
    kernels = [k for k in KERNELS if not args.kernel or k in args.kernel]
    launch = launchers.Ctypes(libdir, kernels)
    results = utils.Results(f"dynamic_multi_core/{TARGET}/run_mix.py", "ctypes (mix kernels)")
    for k in kernels:
        cases.RUNNERS[k](ptolab, utils, results, launch, f"dynamic/{TARGET} mix")
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
