"""ptolab: compile, launch, verify and time PTO kernels from Python, on the
ptosim simulator or (with torch_npu) a real NPU. The seed's pto_demo_utils,
for both worlds; see docs/workflow.md.

The names below load on first use (PEP 562), so tools that need none of the
compiled runtime (ptolab.sweep, run on machines that only schedule cases)
import the package without the _core extension being built there."""
import importlib

_EXPORTS = {
    "CompileError": "build", "compile_kernel": "build", "find_ptocc": "build",
    "CheckResult": "checkers", "check": "checkers",
    "assert_close": "compare", "load_golden": "compare", "quality_report": "compare",
    **{name: "device" for name in (
        "Event", "KernelError", "Stream", "Tensor", "cube_core_count", "current_stream", "device_repeats", "empty",
        "from_numpy", "from_torch", "get_device", "is_simulator_mode", "last_launch_time_us", "run_repeated",
        "soc_name", "soc_profile", "stream_ptr", "sync_timeout", "synchronize", "synchronize_device", "tensor_ptr",
        "vector_core_count", "zeros")},
}


def __getattr__(name):
    if name == "_core":
        return importlib.import_module("._core", __name__)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ptolab' has no attribute {name!r}")
    value = getattr(importlib.import_module("." + module, __name__), name)
    globals()[name] = value
    return value


def default_tolerance(dtype):
    """(rtol, atol) of the seed's table for a dtype name."""
    from . import _core
    return _core.default_tolerance(str(dtype).replace("torch.", ""))


__version__ = "0.1.0"
__all__ = sorted([*_EXPORTS, "default_tolerance"])
