"""torch.npu.NPUGraph / torch.npu.graph on ACL graphs (docs/torch_npu.md, "Graphs")."""
import ctypes
from pathlib import Path

import pytest
import torch

import torch_npu  # noqa: F401 -- installs torch.npu
from torch_npu import _runtime

KERNELS = Path(__file__).resolve().parent.parent.parent / "tests" / "lab" / "kernels"


@pytest.fixture(scope="module")
def add_lib(tmp_path_factory):
    import ptolab
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("k") / "libadd.so"
    lib = ctypes.CDLL(ptolab.compile_kernel(str(KERNELS / "add.cpp"), str(out), kind="vec", target="A2A3"))
    lib.call_add_half.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                  ctypes.c_void_p, ctypes.c_int64]
    return lib


def add(lib, out, a, b):
    """out = a + b on the current stream."""
    lib.call_add_half(4, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(out.data_ptr()),
                      ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(b.data_ptr()), out.numel())


def test_graph_captures_launches_and_replay_runs_them(add_lib):
    n = 2048
    torch.manual_seed(3)
    x = torch.randn(n, device="npu", dtype=torch.float16)
    y = torch.randn(n, device="npu", dtype=torch.float16)
    direct = torch.empty_like(x)
    add(add_lib, direct, x, y)
    add(add_lib, direct, direct, x)
    torch.npu.synchronize()

    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        assert torch.npu.is_current_stream_capturing()
        out = torch.empty(n, device="npu", dtype=torch.float16)  # lives with the graph
        add(add_lib, out, x, y)
        add(add_lib, out, out, x)
    assert not torch.npu.is_current_stream_capturing()
    out.zero_()  # torch.empty's contents are arbitrary
    torch.npu.synchronize()
    assert torch.count_nonzero(out.cpu()) == 0, "captured, not run"
    for _ in range(3):
        g.replay()
    torch.npu.synchronize()
    assert torch.equal(out.cpu(), direct.cpu())
    # The replay reads the inputs as they are now.
    x.copy_(torch.ones(n, dtype=torch.float16))
    g.replay()
    torch.npu.synchronize()
    expected = ((torch.ones(n) + y.cpu().float()).half().float() + 1).half()
    assert torch.equal(out.cpu(), expected)
    g.reset()
    with pytest.raises(RuntimeError, match="nothing captured"):
        g.replay()


def test_torch_operators_are_refused_inside_a_capture(add_lib):
    x = torch.ones(64, device="npu", dtype=torch.float16)
    g = torch.npu.NPUGraph()
    with pytest.raises(RuntimeError, match=r"'add' on npu tensors cannot be captured"):
        with torch.npu.graph(g):
            _ = x + x
    with pytest.raises(RuntimeError, match=r"'add_' on npu tensors cannot be captured"):
        with torch.npu.graph(torch.npu.NPUGraph()):
            x.add_(1)
    with pytest.raises(RuntimeError, match=r"'zeros' on npu tensors cannot be captured"):
        with torch.npu.graph(torch.npu.NPUGraph()):
            torch.zeros(4, device="npu")
    with pytest.raises(RuntimeError, match=r"'to\('npu'\)' on npu tensors cannot be captured"):
        with torch.npu.graph(torch.npu.NPUGraph()):
            torch.ones(4).npu()
    # Outside a capture the operators work again.
    assert torch.equal((x + x).cpu(), torch.full((64,), 2, dtype=torch.float16))


def test_sync_inside_a_capture_and_capture_on_the_default_stream_are_errors(add_lib):
    g = torch.npu.NPUGraph()
    with pytest.raises(RuntimeError, match="default stream, which cannot be captured"):
        g.capture_begin()
    with pytest.raises(RuntimeError, match=r"a stream is capturing \(ACL error 107027\)"):
        with torch.npu.graph(g):
            torch.npu.synchronize()
    with pytest.raises(ValueError, match="capture_error_mode"):
        with torch.npu.graph(torch.npu.NPUGraph(), capture_error_mode="loose"):
            pass


def test_graph_replay_pays_the_launch_overhead_once(add_lib):
    x = torch.ones(4096, device="npu", dtype=torch.float16)
    out = torch.empty_like(x)
    start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
    start.record()
    for _ in range(4):
        add(add_lib, out, x, x)
    end.record()
    direct_ms = start.elapsed_time(end)
    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        for _ in range(4):
            add(add_lib, out, x, x)
    start.record()
    g.replay()
    end.record()
    replay_ms = start.elapsed_time(end)
    overhead_us = 1.0  # docs/cost-model.md: the profiles' fixed launch overhead
    assert direct_ms - replay_ms == pytest.approx(3 * overhead_us / 1e3, rel=1e-6)
    g.reset()
    # elapsed_time() warns once per process; the suite's own test of that warning comes later.
    torch.npu._warned.clear()


def test_debug_dump_lists_the_kernels(add_lib, capfd):
    x = torch.ones(256, device="npu", dtype=torch.float16)
    out = torch.empty_like(x)
    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        add(add_lib, out, x, x)
    capfd.readouterr()
    g.debug_dump()
    text = capfd.readouterr().out
    assert "1 task(s) captured on 1 stream(s)" in text
    assert "task 0: kernel 'add_kernel<half>'" in text
    g.reset()


def test_dropping_an_input_the_graph_uses_keeps_its_memory(add_lib):
    import gc
    x = torch.ones(256, device="npu", dtype=torch.float16)
    out = torch.empty_like(x)
    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        add(add_lib, out, x, x)
    address = x.data_ptr()
    del x
    gc.collect()
    # aclrtFree refused the block (the graph would read it at its next replay); nothing crashed.
    assert "is used by task 0 (kernel 'add_kernel<half>'" in _runtime.last_error()
    assert _runtime.is_device_memory(address, 512)
    g.replay()
    torch.npu.synchronize()
    assert torch.equal(out.cpu(), torch.full((256,), 2, dtype=torch.float16))
    g.reset()
