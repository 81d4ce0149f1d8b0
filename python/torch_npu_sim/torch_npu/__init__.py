"""torch_npu for ptosim: the `npu` device, torch.npu and the C++ headers
runners use, backed by ptolab's simulator. Used only when asked
(PTOLAB_TORCH_NPU=sim, which `ptolab run --sim` and `ptolab env --torch-npu`
set); it refuses to shadow an installed torch_npu unless
PTOLAB_TORCH_NPU=force-sim. What is and is not simulated: docs/torch_npu.md."""
import importlib.machinery
import os
import sys
from pathlib import Path

__version__ = "2.1.0+ptosim"
__ptolab_simulated__ = True

_HERE = Path(__file__).resolve().parent


def _guard():
    mode = os.environ.get("PTOLAB_TORCH_NPU", "")
    if mode not in ("sim", "force-sim"):
        raise ImportError(f"{_HERE} is ptolab's simulated torch_npu, imported without PTOLAB_TORCH_NPU=sim "
                          f"(it is {mode!r}); run under `ptolab run --sim -- ...` or `eval \"$(ptolab env "
                          f"--torch-npu)\"`, or drop {_HERE.parent} from PYTHONPATH")
    others = [p for p in sys.path if Path(p or ".").resolve() != _HERE.parent]
    real = importlib.machinery.PathFinder.find_spec("torch_npu", others)
    if real is not None and mode != "force-sim":
        where = real.origin or list(real.submodule_search_locations or [])
        raise ImportError(f"a real torch_npu is installed ({where}); ptolab's simulated torch_npu ({_HERE}) will "
                          f"not shadow it. Unset PTOLAB_TORCH_NPU and drop {_HERE.parent} from PYTHONPATH to use "
                          f"the real one, or set PTOLAB_TORCH_NPU=force-sim to simulate anyway")


_guard()

import torch  # noqa: E402

from . import _extensions, _runtime, _tensor  # noqa: E402
from . import npu  # noqa: E402

_runtime.lib()
_tensor.patch_tensor_class()
_tensor.patch_device_type()
_tensor.install_mode()
_tensor.patch_threads()
_extensions.patch_cpp_extension()
torch.npu = npu
sys.modules["torch.npu"] = npu

# torch.utils.cpp_extension.load() passes no torch_npu include directory; the
# compiler's own search path makes `#include "torch_npu/csrc/..."` resolve
# for extensions built from this process.
_inc = str(_HERE / "include")
if _inc not in os.environ.get("CPLUS_INCLUDE_PATH", "").split(os.pathsep):
    os.environ["CPLUS_INCLUDE_PATH"] = os.pathsep.join(p for p in (_inc, os.environ.get("CPLUS_INCLUDE_PATH")) if p)


def get_include():
    """Directory of the simulated torch_npu C++ headers (torch_npu/csrc/...)."""
    return str(_HERE / "include")


def ensure_thread():
    """Makes device="npu" work on the calling thread (torch 1.13's function modes are per thread).
    Needed only on daemon threads and threads not started by `threading` after `import torch_npu`;
    others get it for their run, and leave no mode behind when they end."""
    _tensor.install_mode()
