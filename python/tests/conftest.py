import os
import sys
import types

import numpy as np
import pytest

import ptolab
from ptolab import device

KERNELS = os.environ.get("PTOLAB_TEST_KERNELS",
                         os.path.join(os.path.dirname(__file__), "..", "..", "tests", "lab", "kernels"))


@pytest.fixture(autouse=True)
def fresh_device(monkeypatch):
    for var in ("PTOLAB_DEVICE", "PTO_DEVICE_REPEATS", "PTO_SIMULATOR", "PTO_SYNC_TIMEOUT_S", "NPU_DEVICE"):
        monkeypatch.delenv(var, raising=False)
    device._reset_device_for_tests()
    yield
    device._reset_device_for_tests()


@pytest.fixture(scope="session")
def add_lib(tmp_path_factory):
    import ctypes
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("kernels") / "libadd.so"
    lib = ctypes.CDLL(ptolab.compile_kernel(os.path.join(KERNELS, "add.cpp"), out))
    lib.call_add.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64]
    lib.call_add_half.argtypes = lib.call_add.argtypes
    return lib


class FakeDType:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeDevice:
    def __init__(self, type_):
        self.type = type_

    def __str__(self):
        return self.type


class FakeTensor:
    """The slice of torch.Tensor's API ptolab relies on, backed by NumPy."""

    def __init__(self, array, dtype=None, device="cpu"):
        self._a = np.ascontiguousarray(array)
        self.dtype = dtype or FakeDType(self._a.dtype.name)
        self.device = FakeDevice(device)

    def data_ptr(self):
        return self._a.ctypes.data

    def element_size(self):
        return self._a.itemsize

    @property
    def shape(self):
        return self._a.shape

    def numel(self):
        return self._a.size

    def is_contiguous(self):
        return True

    def detach(self):
        return self

    def cpu(self):
        return FakeTensor(self._a, self.dtype, "cpu")

    def contiguous(self):
        return self

    def numpy(self):
        if self.device.type != "cpu":
            raise TypeError("can't convert npu tensor to numpy")
        return self._a

    def view(self, dtype):
        return FakeTensor(self._a.view(np.dtype(dtype.name)), dtype, self.device.type)


FakeTensor.__module__ = "torch"


@pytest.fixture
def fake_torch(monkeypatch):
    """A stand-in torch (and optionally torch_npu) module: real torch is not installed here."""
    torch = types.ModuleType("torch")
    for name in ("float16", "bfloat16", "float32", "float64", "int16", "int32", "int64", "uint8"):
        setattr(torch, name, FakeDType(name))
    torch.Tensor = FakeTensor
    torch.from_numpy = lambda a: FakeTensor(a)
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch
