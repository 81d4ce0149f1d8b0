"""ctypes and pybind launchers for this directory's libraries. Both expose
add/matmul/matmul_add(/add_matmul)(block_dim, stream, *tensors, *sizes)."""
import ctypes
import importlib
import sys

import pto_demo_utils as utils

U32 = ctypes.c_uint32
# Explicit argtypes: ctypes would otherwise pass Python ints as C int and
# tensors through _as_parameter_; the sizes must arrive as uint32_t.
SIGS = {
    "add": ("call_add", [U32, ctypes.c_void_p] + [ctypes.c_void_p] * 3 + [U32]),
    "matmul": ("call_matmul", [U32, ctypes.c_void_p] + [ctypes.c_void_p] * 3 + [U32] * 3),
    "matmul_add": ("call_matmul_add", [U32, ctypes.c_void_p] + [ctypes.c_void_p] * 5 + [U32] * 3),
    "add_matmul": ("call_add_matmul", [U32, ctypes.c_void_p] + [ctypes.c_void_p] * 4 + [U32] * 2),
}


def _addr(x):
    p = getattr(x, "_as_parameter_", x)
    if hasattr(p, "value"):
        return p.value or 0
    return x.data_ptr() if hasattr(x, "data_ptr") else int(p)


class Ctypes:
    def __init__(self, libdir, kernels):
        for k in kernels:
            symbol, argtypes = SIGS[k]
            fn = getattr(utils.load(libdir, k), symbol)
            fn.argtypes, fn.restype = argtypes, None
            setattr(self, k, self._wrap(fn))

    @staticmethod
    def _wrap(fn):
        return lambda bd, stream, *args: fn(bd, _addr(stream), *[_addr(a) if not isinstance(a, int) else a
                                                                for a in args])


class Pybind:
    def __init__(self, libdir, module_name, kernels):
        sys.path.insert(0, str(libdir))
        m = importlib.import_module(module_name)
        for k in kernels:
            fn = getattr(m, k)
            setattr(self, k, lambda bd, stream, *args, fn=fn: fn(
                bd, _addr(stream), *[a if isinstance(a, int) else _addr(a) for a in args]))
