"""Stream order of host operators on npu tensors, and npu devices torch
accepts (docs/torch_npu.md, "Stream order" and "npu devices").

The kernels in kernels/late.cpp sleep before they touch memory (200 ms
here), so an operator that did not wait for the stream would read the
output before the kernel wrote it (zeros: fresh device memory) or change an
input before the kernel read it. Every check is an exact value."""
import ctypes
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch

import torch_npu  # noqa: F401
from torch_npu import _tensor
from torch_npu._tensor import NpuDevice, NpuTensor

HERE = Path(__file__).resolve().parent
ADD = HERE.parent.parent / "tests" / "lab" / "kernels" / "add.cpp"
MS = 200
N = 64
EXPECTED = [10.0 + i for i in range(N)]  # what late_iota writes with base 10


@pytest.fixture(scope="module")
def late(tmp_path_factory):
    import ptolab
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("late") / "liblate.so"
    lib = ctypes.CDLL(ptolab.compile_kernel(str(HERE / "kernels" / "late.cpp"), str(out), kind="vec", target="A2A3"))
    lib.call_late_iota.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float, ctypes.c_int64,
                                   ctypes.c_int64]
    lib.call_late_double.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_int64, ctypes.c_int64]
    lib.call_late_double_untyped.argtypes = lib.call_late_double.argtypes
    return lib


def launch_iota(lib, y, stream=None, base=10.0):
    """What a runner does: a ctypes launch on the current stream, no synchronize."""
    stream = stream if stream is not None else torch.npu.current_stream()
    lib.call_late_iota(1, stream._as_parameter_, ctypes.c_void_p(y.data_ptr()), base, y.numel(), MS)


def fresh():
    y = torch.empty(N, device="npu", dtype=torch.float32)
    assert isinstance(y, NpuTensor)
    return y


# Each reads the kernel's output right after the launch; the expected value is exact.
READS = {
    "float": (lambda y: y.float().cpu().tolist(), EXPECTED),
    "half": (lambda y: y.half().cpu().tolist(), EXPECTED),
    "to_dtype": (lambda y: y.to(torch.float64).cpu().tolist(), EXPECTED),
    "to_cpu": (lambda y: y.to("cpu").tolist(), EXPECTED),
    "cpu": (lambda y: y.cpu().tolist(), EXPECTED),
    "cpu_numpy": (lambda y: y.cpu().numpy().tolist(), EXPECTED),
    "item": (lambda y: y[5].item(), 15.0),
    "tolist": (lambda y: y.tolist(), EXPECTED),
    "add": (lambda y: (y + 1).cpu().tolist(), [v + 1 for v in EXPECTED]),
    "mul_tensor": (lambda y: (y * y).cpu().tolist(), [v * v for v in EXPECTED]),
    "sum": (lambda y: y.sum().item(), sum(EXPECTED)),
    "max": (lambda y: y.max().item(), EXPECTED[-1]),
    "mean": (lambda y: y.mean().item(), sum(EXPECTED) / N),
    "index_slice": (lambda y: y[3:6].cpu().tolist(), EXPECTED[3:6]),
    "index_tensor": (lambda y: y[torch.tensor([0, 7])].cpu().tolist(), [EXPECTED[0], EXPECTED[7]]),
    "view_reshape": (lambda y: y.view(8, 8)[1].cpu().tolist(), EXPECTED[8:16]),
    "clone": (lambda y: y.clone().cpu().tolist(), EXPECTED),
    "copy_into": (lambda y: torch.zeros(N, device="npu").copy_(y).cpu().tolist(), EXPECTED),
    "cat": (lambda y: torch.cat([y, y]).cpu().tolist(), EXPECTED * 2),
    "stack": (lambda y: torch.stack([y, y])[1].cpu().tolist(), EXPECTED),
    "eq": (lambda y: bool((y == torch.tensor(EXPECTED, device="npu")).all()), True),
    "allclose": (lambda y: torch.allclose(y, torch.tensor(EXPECTED).npu()), True),
    "equal": (lambda y: torch.equal(y, torch.tensor(EXPECTED).npu()), True),
    "repr": (lambda y: "73." in repr(y) and "device='npu:0'" in repr(y), True),
    "str": (lambda y: "73." in str(y), True),
    "numpy_of_cpu": (lambda y: np.asarray(y.cpu()).sum().item(), sum(EXPECTED)),
}


@pytest.mark.parametrize("op", sorted(READS))
def test_a_host_operator_right_after_a_launch_sees_the_kernels_output(late, op):
    read, expected = READS[op]
    y = fresh()
    launch_iota(late, y)
    assert read(y) == expected


def test_assert_close_right_after_a_launch(late):
    y = fresh()
    launch_iota(late, y)
    torch.testing.assert_close(y, torch.tensor(EXPECTED, device="npu"), rtol=0, atol=0)


@pytest.mark.parametrize("write", ["fill_", "zero_", "setitem", "copy_", "add_", "mul_"])
def test_a_host_write_right_after_a_launch_waits_until_the_kernel_read_its_input(late, write):
    x = torch.tensor(EXPECTED, device="npu")
    y = fresh()
    late.call_late_double(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                          ctypes.c_void_p(x.data_ptr()), N, MS)
    {"fill_": lambda: x.fill_(-1.0), "zero_": lambda: x.zero_(), "setitem": lambda: x.__setitem__(slice(None), 5.0),
     "copy_": lambda: x.copy_(torch.full((N,), 3.0)), "add_": lambda: x.add_(1.0), "mul_": lambda: x.mul_(0.0)}[write]()
    torch.npu.synchronize()
    assert y.cpu().tolist() == [2 * v for v in EXPECTED]


@pytest.mark.parametrize("launch", ["call_late_double", "call_late_double_untyped"])
def test_inputs_dropped_right_after_their_launches_stay_until_the_kernels_read_them(late, launch):
    # The last reference to each input goes at once: freeing its device
    # memory waits for the queued launches that read it (docs/acl.md, aclrtFree).
    outs = []
    for k in range(8):
        x = torch.full((N,), float(k), device="npu")
        y = fresh()
        getattr(late, launch)(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                              ctypes.c_void_p(x.data_ptr()), N, 20)
        del x
        outs.append(y)
    torch.npu.synchronize()
    assert [y.cpu().tolist() for y in outs] == [[2.0 * k] * N for k in range(8)]


def test_a_kernel_queued_after_a_host_operator_sees_its_result(late):
    x = torch.zeros(N, device="npu")
    x.fill_(4.0)  # host operator, then a launch reading x
    y = fresh()
    late.call_late_double(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                          ctypes.c_void_p(x.data_ptr()), N, 1)
    assert y.cpu().tolist() == [8.0] * N


def test_factories_on_npu_and_results_of_two_kernels_in_a_row(late):
    y = fresh()
    launch_iota(late, y)
    z = torch.empty_like(y)
    late.call_late_double(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(z.data_ptr()),
                          ctypes.c_void_p(y.data_ptr()), N, 1)
    ones = torch.ones(N, device="npu")
    assert (z + ones).cpu().tolist() == [2 * v + 1 for v in EXPECTED]


def test_work_on_another_stream(late):
    s = torch.npu.Stream()
    y = fresh()
    with torch.npu.stream(s):
        assert torch.npu.current_stream() == s
        launch_iota(late, y)
    # Read on the default stream after wait_stream, as a runner on a device must.
    torch.npu.current_stream().wait_stream(s)
    y.record_stream(s)  # accepted: host operators wait for every stream
    assert y.cpu().tolist() == EXPECTED
    # Without wait_stream the simulator still orders it (it waits for every stream).
    y2 = fresh()
    launch_iota(late, y2, stream=s, base=1.0)
    assert y2.sum().item() == sum(1.0 + i for i in range(N))


def test_events(late):
    y = fresh()
    start, end = torch.npu.Event(), torch.npu.Event()
    start.record()
    launch_iota(late, y)
    end.record()
    end.synchronize()
    assert end.query()
    assert y.cpu().tolist() == EXPECTED


def test_the_host_operator_wait_reports_a_failed_kernel(add):
    # A launch given host memory as its output fails without running (a
    # device could not address it); the next host operator reports it.
    x = torch.ones(512, device="npu", dtype=torch.float16)
    host = torch.empty(512, dtype=torch.float16)
    add.call_add_half(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(host.data_ptr()),
                      ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(x.data_ptr()), 512)
    with pytest.raises(RuntimeError) as e:
        x.float()
    assert str(e.value).startswith("torch_npu: 'float' on an npu tensor waited for the kernels queued before it: "
                                   "a kernel failed (ACL error ")
    assert "host memory in no device block" in str(e.value)
    torch.npu.synchronize()  # reported once


def test_metadata_does_not_wait(monkeypatch):
    calls = []
    monkeypatch.setattr(_tensor, "_wait_hook", [calls.append])
    y = fresh()
    y.data_ptr(), y.shape, y.dtype, y.device, y.numel(), y.stride(), y.is_contiguous(), y.dim(), y.element_size()
    assert calls == []
    y.float()
    assert calls == ["float"]


@pytest.fixture(scope="module")
def add(tmp_path_factory):
    import ptolab
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("add") / "libadd.so"
    lib = ctypes.CDLL(ptolab.compile_kernel(str(ADD), str(out), kind="vec", target="A2A3"))
    lib.call_add_half.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                  ctypes.c_void_p, ctypes.c_int64]
    return lib


def runner_like(add, n):
    """A compiler-generated runner's shape: launch through ctypes, return .float() at once."""
    torch.manual_seed(0)
    x = torch.randn(n, device="npu", dtype=torch.float16)
    z = torch.randn(n, device="npu", dtype=torch.float16)
    out = torch.empty(n, device=x.device, dtype=x.dtype)
    add.call_add_half(8, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(out.data_ptr()),
                      ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(z.data_ptr()), n)
    return out.float(), (x.float() + z.float()).half().float()


def test_a_runner_returning_float_before_synchronize_is_exact_and_repeatable(add):
    n = 1 << 16
    runs = set()
    for _ in range(20):
        got, want = runner_like(add, n)
        assert torch.equal(got, want)
        runs.add(got.cpu().numpy().tobytes())
    assert len(runs) == 1


# --- npu devices -----------------------------------------------------------------------------

FACTORIES = {
    "arange": lambda d: torch.arange(4, dtype=torch.float32, device=d),
    "empty": lambda d: torch.empty((2, 2), device=d, dtype=torch.float16).zero_(),
    "zeros": lambda d: torch.zeros(3, device=d),
    "ones": lambda d: torch.ones(3, device=d, dtype=torch.int32),
    "full": lambda d: torch.full((2,), 7.5, device=d),
    "tensor": lambda d: torch.tensor([1.0, 2.0], device=d),
    "zeros_like": lambda d: torch.zeros_like(torch.ones(3), device=d),
    "ones_like": lambda d: torch.ones_like(torch.ones(2), device=d),
    "empty_like": lambda d: torch.empty_like(torch.ones(2), device=d).fill_(1),
    "full_like": lambda d: torch.full_like(torch.ones(2), 3.0, device=d),
    "rand": lambda d: torch.rand(3, device=d).mul(0),
    "randn": lambda d: torch.randn(3, device=d).mul(0),
    "randint": lambda d: torch.randint(5, 6, (2,), device=d),
    "linspace": lambda d: torch.linspace(0, 1, 3, device=d),
    "eye": lambda d: torch.eye(2, device=d),
    "to": lambda d: torch.arange(3).to(d),
    "to_kw": lambda d: torch.arange(3).to(device=d, dtype=torch.float16),
    "new_zeros": lambda d: torch.ones(1).npu().new_zeros(2),
}
VALUES = {
    "arange": [0.0, 1.0, 2.0, 3.0], "empty": [[0.0, 0.0], [0.0, 0.0]], "zeros": [0.0] * 3, "ones": [1] * 3,
    "full": [7.5, 7.5], "tensor": [1.0, 2.0], "zeros_like": [0.0] * 3, "ones_like": [1.0, 1.0],
    "empty_like": [1.0, 1.0], "full_like": [3.0, 3.0], "rand": [0.0] * 3, "randn": [0.0] * 3, "randint": [5, 5],
    "linspace": [0.0, 0.5, 1.0], "eye": [[1.0, 0.0], [0.0, 1.0]], "to": [0, 1, 2], "to_kw": [0.0, 1.0, 2.0],
    "new_zeros": [0.0, 0.0],
}


@pytest.mark.parametrize("factory", sorted(FACTORIES))
def test_device_of_an_npu_tensor_works_in_every_factory(factory):
    x = torch.ones(2, device="npu")
    t = FACTORIES[factory](x.device)
    assert isinstance(t, NpuTensor) and t.device == x.device
    assert t.cpu().tolist() == VALUES[factory]


def test_the_npu_device_behaves_as_a_device():
    d = torch.ones(1, device="npu").device
    assert isinstance(d, NpuDevice) and isinstance(d, torch.device)
    assert d.type == "npu" and d.index == 0
    assert str(d) == "npu:0" and repr(d) == "device(type='npu', index=0)" and f"{d}" == "npu:0"
    assert d == "npu:0" and d == "npu" and d != "cpu" and d != torch.device("cpu")
    assert d == torch.device("npu:0") == torch.device("npu", 0) == torch.device("npu")
    assert torch.device(d) is d and torch.device(d) == d
    assert torch.device("npu:0").type == "npu"
    assert {d: 1}[torch.device("npu:0")] == 1
    assert d == torch.device("privateuseone:0")
    assert pickle.loads(pickle.dumps(d)) == d


def test_torch_device_is_unchanged_for_other_devices():
    cpu = torch.device("cpu")
    assert type(cpu) is _tensor.RealDevice and cpu.type == "cpu" and cpu.index is None
    assert isinstance(cpu, torch.device) and torch.device("cpu", 0).index == 0
    assert torch.device(type="cpu") == cpu
    assert pickle.loads(pickle.dumps(cpu)) == cpu
    assert torch.zeros(1, device=torch.device("cpu")).device == cpu
    assert torch.ones(1).to(cpu).device.type == "cpu"
    with pytest.raises(RuntimeError):
        torch.device("npux")
    with pytest.raises(RuntimeError):
        torch.device("npu:0", 0)
