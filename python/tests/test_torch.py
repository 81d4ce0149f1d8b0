"""The torch paths with real torch (CI installs Debian's python3-torch): CPU
tensors passed to ctypes kernels, compared, and shared with ptolab tensors."""
import numpy as np
import pytest

import ptolab

torch = pytest.importorskip("torch", reason="python3-torch is not installed; scripts/install-deps.sh installs it")


def test_ctypes_runner_with_torch_cpu_tensors(add_lib):
    n = 1000
    x1 = torch.linspace(0, 1, n, dtype=torch.float32)
    x2 = torch.full((n,), 0.5, dtype=torch.float32)
    y = torch.zeros(n, dtype=torch.float32)
    stream = ptolab.stream_ptr()
    add_lib.call_add(3, stream, ptolab.tensor_ptr(y), ptolab.tensor_ptr(x1), ptolab.tensor_ptr(x2), n)
    ptolab.synchronize()
    report = ptolab.assert_close(y, x1 + x2, name="torch add")
    assert report["passed"] and report["count"] == n


def test_fp16_torch_tensors_use_the_fp16_tolerance(add_lib):
    n = 512
    x1 = torch.full((n,), 0.1, dtype=torch.float16)
    x2 = torch.full((n,), 0.2, dtype=torch.float16)
    y = torch.zeros(n, dtype=torch.float16)
    add_lib.call_add_half(2, ptolab.stream_ptr(), ptolab.tensor_ptr(y), ptolab.tensor_ptr(x1), ptolab.tensor_ptr(x2), n)
    ptolab.synchronize()
    ptolab.assert_close(y, x1 + x2)
    off = (x1 + x2).clone()
    off[7] = off[7] * 1.01  # 1 % off: beyond float16's rtol 1e-3
    with pytest.raises(AssertionError, match=r"1 of 512 elements"):
        ptolab.assert_close(y, off)


def test_bfloat16_torch_tensors_are_compared_with_the_bfloat16_tolerance():
    expected = torch.tensor([1.0, 2.0, 4.0, -8.0], dtype=torch.bfloat16)
    close = expected.clone()
    close[1] = 2.015625  # rel error 0.0078 < 1.6e-2
    ptolab.assert_close(close, expected)
    far = expected.clone()
    far[2] = 4.125  # rel error 0.031 > 1.6e-2
    with pytest.raises(AssertionError, match="mismatch"):
        ptolab.assert_close(far, expected)
    assert ptolab.default_tolerance(expected.dtype) == (1.6e-2, 1e-5)


def test_from_torch_shares_memory_with_the_device_tensor():
    t = torch.arange(8, dtype=torch.float32)
    d = ptolab.from_torch(t)
    d.numpy()[3] = 42.0
    assert t[3].item() == 42.0
    b = torch.ones(4, dtype=torch.bfloat16)
    db = ptolab.from_torch(b)
    assert db.numpy().dtype == np.uint16 and db.numpy()[0] == 0x3F80


def test_from_torch_rejects_non_contiguous_tensors():
    t = torch.arange(16, dtype=torch.float32).reshape(4, 4).t()
    with pytest.raises(ValueError, match="not contiguous"):
        ptolab.from_torch(t)
