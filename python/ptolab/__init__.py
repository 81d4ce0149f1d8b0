"""ptolab: compile, launch, verify and time PTO kernels from Python, on the
ptosim simulator or (with torch_npu) a real NPU. The seed's pto_demo_utils,
for both worlds; see docs/workflow.md."""
from . import _core
from .build import CompileError, compile_kernel, find_ptocc
from .checkers import CheckResult, check
from .compare import assert_close, load_golden, quality_report
from .device import (Event, KernelError, Stream, Tensor, cube_core_count, current_stream, device_repeats, empty,
                     from_numpy, from_torch, get_device, is_simulator_mode, last_launch_time_us, run_repeated, soc_name,
                     soc_profile,
                     stream_ptr, sync_timeout, synchronize, synchronize_device, tensor_ptr, vector_core_count, zeros)


def default_tolerance(dtype):
    """(rtol, atol) of the seed's table for a dtype name."""
    return _core.default_tolerance(str(dtype).replace("torch.", ""))


__version__ = "0.1.0"
__all__ = [
    "CheckResult", "CompileError", "Event", "KernelError", "Stream", "Tensor", "assert_close", "check", "compile_kernel",
    "cube_core_count",
    "current_stream", "default_tolerance", "device_repeats", "empty", "find_ptocc", "from_numpy", "from_torch",
    "get_device", "is_simulator_mode", "last_launch_time_us", "load_golden", "quality_report", "run_repeated",
    "soc_name", "soc_profile", "stream_ptr",
    "sync_timeout", "synchronize", "synchronize_device", "tensor_ptr", "vector_core_count", "zeros",
]
