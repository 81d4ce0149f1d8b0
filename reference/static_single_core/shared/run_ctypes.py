#!/usr/bin/env python3
"""ctypes runner: loads build/lib{add,matmul,matmul_add}.so with ctypes.CDLL
and calls their extern "C" entry points with device pointers and the stream
handle (ptolab tensors and streams carry ctypes' _as_parameter_)."""
import sys
from pathlib import Path

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name  # a2a3 or a5: picks the simulated SoC family


class CtypesLauncher:
    def __init__(self, libdir):
        self._add = utils.load(libdir, "add").call_add
        self._matmul = utils.load(libdir, "matmul").call_matmul
        self._matmul_add = utils.load(libdir, "matmul_add").call_matmul_add
        for fn in (self._add, self._matmul, self._matmul_add):
            fn.restype = None

    def add(self, bd, stream, x, y, z):
        self._add(bd, stream, x, y, z)

    def matmul(self, bd, stream, a, b, c):
        self._matmul(bd, stream, a, b, c)

    def matmul_add(self, bd, stream, a, b, d, ws, out):
        self._matmul_add(bd, stream, a, b, d, ws, out)


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    results = utils.Results(f"static_single_core/{TARGET}/run_ctypes.py", "ctypes")
    cases.run_all(ptolab, utils, results, CtypesLauncher(libdir), f"static/{TARGET} ctypes", args.kernel)
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
