"""Prints the shell exports that give this CANN-shaped root's Python users
ptolab's stand-ins for packages a real CANN host would have, each only when
the interpreter lacks the real one (docs/drop-in.md, "Python packages"):

- ml_dtypes and en_dtypes, the NumPy element types pto-isa's gen_data.py
  scripts import (ptolab's modules built from ptosim's codecs);
- torch_npu, ptolab's simulated one (PTOLAB_TORCH_NPU=sim lets it import).

bin/setenv.bash and `ptolab env` both run it, so the two agree. It only
locates packages (find_spec): importing a real torch_npu could touch a device.
Generated into the root by cmake/cann_root.cmake from the build's directories.
"""
import importlib.machinery
import os
import shlex
import sys

GOLDEN_DTYPES = "@GOLDEN_DTYPES_DIR@"  # one directory per module
TORCH_NPU_SIM = "@TORCH_NPU_SIM_DIR@"  # holds the simulated torch_npu package
PTOLAB_PYTHON = "@PTOLAB_PYTHON_DIR@"  # the ptolab package the simulated torch_npu uses


def ours(path: str) -> bool:
    p = os.path.realpath(path or ".")
    return any(p == os.path.realpath(d) or p.startswith(os.path.realpath(d) + os.sep)
               for d in (GOLDEN_DTYPES, TORCH_NPU_SIM, PTOLAB_PYTHON) if d)


def installed(module: str) -> bool:
    """True when a package other than ptolab's stand-in provides `module`."""
    return importlib.machinery.PathFinder.find_spec(module, [p for p in sys.path if not ours(p)]) is not None


def main() -> int:
    front = []
    for module in ("ml_dtypes", "en_dtypes"):
        d = os.path.join(GOLDEN_DTYPES, module)
        if not installed(module) and os.path.isdir(d):
            front.append(d)
    torch_npu = not installed("torch_npu") and os.path.isdir(os.path.join(TORCH_NPU_SIM, "torch_npu"))
    if torch_npu:
        front += [TORCH_NPU_SIM, PTOLAB_PYTHON]
    # Sourcing twice must not stack the same directories.
    old = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in front]
    if front:
        print("export PYTHONPATH=" + shlex.quote(os.pathsep.join(front + old)))
    if torch_npu and os.environ.get("PTOLAB_TORCH_NPU", "") not in ("sim", "force-sim"):
        print("export PTOLAB_TORCH_NPU=sim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
