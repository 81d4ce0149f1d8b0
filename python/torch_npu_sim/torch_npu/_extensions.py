"""Tensors C++ extensions make from npu tensors live in device memory.

At the C++ level an npu tensor is a CPU tensor over an aclrtMalloc block, so
``at::empty_like(x)`` in an extension would allocate host memory, which a
kernel cannot address (ptosim refuses or faults on it, as the device does).
Functions of modules built by ``torch.utils.cpp_extension.load`` /
``load_inline`` are wrapped: a call given an npu tensor runs with torch's
CPU allocator allocating aclrtMalloc blocks (csrc/device_allocator.cpp), and
tensors it returns over such blocks come back as npu tensors.
docs/torch_npu.md, "C++ extensions".
"""
import ctypes
import functools
import importlib.abc
import importlib.machinery
import os
import sys
import threading
from pathlib import Path

import torch

from . import _runtime, _tensor

_NAME = "torch_npu_sim_device_allocator"
_lock = threading.Lock()
_scope = []  # ptosim_torch_device_scope, once the allocator is loaded


def _allocator():
    with _lock:
        if not _scope:
            _runtime.lib()  # the allocator's aclrtMalloc resolves to this simulator
            source = Path(__file__).with_name("csrc") / "device_allocator.cpp"
            cpp = sys.modules["torch.utils.cpp_extension"]
            _original[0](_NAME, [str(source)], extra_cflags=["-O2"], is_python_module=False)
            path = os.path.join(cpp._get_build_directory(_NAME, False), _NAME + ".so")
            fn = ctypes.CDLL(path).ptosim_torch_device_scope
            fn.argtypes, fn.restype = [ctypes.c_int], None
            _scope.append(fn)
        return _scope[0]


def _npu_index(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, (list, tuple)):
            index = _npu_index(a, {})
            if index is not None:
                return index
        elif _tensor.is_npu(a):
            return a._npu_index
    return None


def _adopt(result, index):
    if isinstance(result, (list, tuple)):
        return type(result)(_adopt(r, index) for r in result)
    if isinstance(result, torch.Tensor) and not _tensor.is_npu(result) and result.numel():
        storage = result.storage()
        if _runtime.is_device_memory(storage.data_ptr(), storage.nbytes()):
            return _tensor._wrap(result, index)
    return result


def _scoped(fn, scope):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        index = _npu_index(args, kwargs)
        if index is None:
            return fn(*args, **kwargs)
        scope(1)
        try:
            result = fn(*args, **kwargs)
        finally:
            scope(-1)
        return _adopt(result, index)

    return call


def wrap_module(module):
    """Wraps the module's functions (pybind11 builtins) as described above."""
    scope = _allocator()
    for name, value in vars(module).items():
        if not name.startswith("__") and type(value).__name__ == "builtin_function_or_method":
            setattr(module, name, _scoped(value, scope))
    return module


_original = []  # torch.utils.cpp_extension.load, load_inline


def _wrapping(original):
    @functools.wraps(original)
    def load(*args, **kwargs):
        module = original(*args, **kwargs)
        return wrap_module(module) if module is not None and not isinstance(module, str) else module

    return load


def _patch(cpp):
    _original[:] = [cpp.load, cpp.load_inline]
    cpp.load = _wrapping(cpp.load)
    cpp.load_inline = _wrapping(cpp.load_inline)


class _PatchOnImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Patches torch.utils.cpp_extension when it is first imported: importing
    it costs setuptools and prints CUDA notes, which a runner that builds no
    extension should not pay for."""

    def find_spec(self, name, path, target=None):
        if name != "torch.utils.cpp_extension":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            return None
        self._loader = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        sys.meta_path.remove(self)
        _patch(module)


def patch_cpp_extension():
    if "torch.utils.cpp_extension" in sys.modules:
        _patch(sys.modules["torch.utils.cpp_extension"])
    else:
        sys.meta_path.insert(0, _PatchOnImport())
