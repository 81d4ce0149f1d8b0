"""assert_close and quality_report: thin wrappers over ptolab_core's
comparison engine (the same code `ptolab compare` runs), so Python and the
CLI agree on every figure."""
import numpy as np

from . import _core
from .device import Tensor, _dtype_name, _is_torch


def _as_array(x, what):
    """(C-contiguous NumPy array, dtype name) for a ptolab tensor, NumPy array,
    torch tensor (any device; copied to the CPU) or Python sequence."""
    if isinstance(x, Tensor):
        return np.ascontiguousarray(x.numpy()), x.dtype
    if _is_torch(x):
        import torch

        t = x.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        t = t.contiguous()
        name = _dtype_name(str(t.dtype))
        if name == "bfloat16":
            return t.view(torch.int16).numpy().view(np.uint16), name
        return t.numpy(), name
    a = np.ascontiguousarray(np.asarray(x))
    if a.dtype == object:
        raise TypeError(f"{what}: cannot compare objects of type {type(x).__name__}; pass an array or tensor")
    return a, _dtype_name(a.dtype)


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, worst, actual_dtype, expected_dtype):
    if (rtol is None) != (atol is None):
        raise ValueError("pass both rtol and atol, or neither (the seed's table gives both per dtype)")
    a, an = _as_array(actual, "actual")
    e, en = _as_array(expected, "expected")
    an = _dtype_name(actual_dtype) if actual_dtype is not None else an
    en = _dtype_name(expected_dtype) if expected_dtype is not None else en
    return _core.compare(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan, worst=worst, check_dtype=check_dtype,
                         actual_dtype=an, expected_dtype=en)


def assert_close(actual, expected, rtol=None, atol=None, *, equal_nan=False, check_dtype=True, name="assert_close",
                 worst=8, actual_dtype=None, expected_dtype=None):
    """Raises AssertionError unless |actual - expected| <= atol + rtol * |expected|
    everywhere. Defaults per dtype (the seed's table): float16 rtol 1e-3,
    bfloat16 1.6e-2, float32 1.3e-6, atol 1e-5. Relax only through rtol/atol,
    with a documented reason. The message lists the mismatch count, the worst
    elements, RMSE relative to the output magnitude and R². Returns the
    report as a dict on success."""
    report = _compare(actual, expected, rtol, atol, equal_nan, check_dtype, worst, actual_dtype, expected_dtype)
    if not report.passed:
        raise AssertionError(report.format(name))
    return report.as_dict()


def quality_report(actual, expected, rtol=None, atol=None, *, equal_nan=False, check_dtype=True, worst=8,
                   actual_dtype=None, expected_dtype=None):
    """The figures assert_close computes, without raising: mismatches, worst
    elements, max abs/rel error, RMSE, RMSE relative to RMS(expected), R². For
    outlier-heavy kernels report these, not max error alone."""
    report = _compare(actual, expected, rtol, atol, equal_nan, check_dtype, worst, actual_dtype, expected_dtype)
    d = report.as_dict()
    d["summary"] = report.summary_line("quality_report")
    return d


def load_golden(path, dtype=None, shape=None):
    """Reads a golden file (.npy, or raw with dtype and shape) with the CLI's
    checks. Returns (array, dtype name); bfloat16 comes back as uint16 bits."""
    return _core.read_golden(str(path), dtype, None if shape is None else [int(s) for s in shape])
