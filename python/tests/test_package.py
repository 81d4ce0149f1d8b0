"""The ptolab package on the simulator: device facts, tensors, streams,
synchronisation timeouts, repeats, assert_close/quality_report, golden files,
compile_kernel and the seed's ctypes runner pattern."""
import ctypes
import json
import os
import subprocess
import sys
import threading
import time
import types

import numpy as np
import pytest

import ptolab
from ptolab import _core, device
from conftest import KERNELS, FakeTensor, FakeDType


# --- device facts and repeats ---------------------------------------------

def test_simulator_is_the_default_device():
    assert ptolab.get_device().kind == "sim"
    assert ptolab.is_simulator_mode()
    assert ptolab.soc_name() == "Ascend910B2"
    assert (ptolab.cube_core_count(), ptolab.vector_core_count()) == (24, 48)


def test_soc_profile_gives_the_roofline_figures():
    p = ptolab.soc_profile()
    assert (p["name"], p["target"], p["cube_cores"], p["vector_cores"]) == ("Ascend910B2", "A2A3", 24, 48)
    # docs/soc-profiles.md, "Timing": 1.8 GHz, 1600 GB/s HBM, 4096 fp16 MACs and 256 vector bytes per cycle per core
    assert (p["clock_ghz"], p["gm_gbps"]) == (1.8, 1600)
    assert p["cube_fp16_tflops"] == pytest.approx(2 * 4096 * 1.8e9 * 24 / 1e12)
    assert p["vector_gbps"] == pytest.approx(256 * 1.8 * 48)


def test_device_repeats(monkeypatch):
    assert ptolab.device_repeats() == 1
    monkeypatch.setenv("PTO_DEVICE_REPEATS", "3")
    assert ptolab.device_repeats() == 3
    monkeypatch.setenv("PTO_DEVICE_REPEATS", "zero")
    with pytest.raises(ValueError, match="PTO_DEVICE_REPEATS='zero'"):
        ptolab.device_repeats()


def test_run_repeated_calls_and_syncs(monkeypatch):
    calls = []
    assert ptolab.run_repeated(lambda: calls.append(1) or len(calls), repeats=4) == 4
    monkeypatch.setenv("PTO_DEVICE_REPEATS", "2")
    calls.clear()
    ptolab.run_repeated(lambda: calls.append(1))
    assert len(calls) == 2
    with pytest.raises(ValueError):
        ptolab.run_repeated(lambda: None, repeats=0)


def test_bad_device_choice(monkeypatch):
    monkeypatch.setenv("PTOLAB_DEVICE", "gpu")
    with pytest.raises(ValueError, match="PTOLAB_DEVICE"):
        ptolab.get_device()
    device._reset_device_for_tests()
    monkeypatch.setenv("PTOLAB_DEVICE", "npu")
    with pytest.raises(RuntimeError, match="torch_npu"):
        ptolab.get_device()


# --- tensors --------------------------------------------------------------

def test_tensors_are_aligned_registered_numpy_memory():
    x = ptolab.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert x.shape == (3, 4) and x.dtype == "float32" and x.nbytes == 48
    assert x.data_ptr() % 512 == 0
    assert _core.is_device_memory(x.numpy())
    assert isinstance(x._as_parameter_, ctypes.c_void_p)
    np.testing.assert_array_equal(x.numpy(), np.arange(12).reshape(3, 4))
    z = ptolab.zeros((2, 2), "float16")
    assert z.numpy().dtype == np.float16 and not z.numpy().any()
    e = ptolab.empty(5, dtype=np.int32)
    assert e.shape == (5,)
    view = x.numpy()
    del x, view
    import gc
    gc.collect()


def test_memory_is_unregistered_when_the_tensor_dies():
    x = ptolab.empty(1024)
    probe = np.frombuffer((ctypes.c_char * 4096).from_address(x.data_ptr()), dtype=np.uint8)
    assert _core.is_device_memory(probe[:16])
    x._finalizer()
    assert not _core.is_device_memory(probe[:16])


def test_register_rejects_overlap():
    x = ptolab.empty(64)
    with pytest.raises(RuntimeError, match="overlaps"):
        _core.register_memory(x.numpy()[8:])


def test_bfloat16_without_extra_packages():
    b = ptolab.from_numpy(np.array([1.0, 2.5, 3.14159], dtype=np.float32), dtype="bfloat16")
    assert b.dtype == "bfloat16" and b.numpy().dtype == np.uint16
    np.testing.assert_array_equal(b.float32(), np.array([1.0, 2.5, 3.140625], dtype=np.float32))
    assert _core.bf16_from_float32(np.array([1.00390625], np.float32))[0] == 0x3F80  # ties to even


def test_zero_size_tensor():
    t = ptolab.empty((0, 4))
    assert t.numel() == 0


def test_tensor_ptr_accepts_everything_a_runner_passes(fake_torch):
    a = np.zeros(4, np.float32)
    assert ptolab.tensor_ptr(a).value == a.ctypes.data
    t = FakeTensor(np.zeros(4, np.float32))
    assert ptolab.tensor_ptr(t).value == t.data_ptr()
    with pytest.raises(ValueError, match="C-contiguous"):
        ptolab.tensor_ptr(np.zeros((4, 4))[:, 1])
    with pytest.raises(TypeError):
        ptolab.tensor_ptr("x")


# --- streams and synchronize ----------------------------------------------

def test_stream_has_as_parameter():
    s = ptolab.current_stream()
    assert s is ptolab.current_stream()
    assert isinstance(s._as_parameter_, ctypes.c_void_p) and s._as_parameter_.value
    assert ptolab.stream_ptr().value == s._as_parameter_.value
    ptolab.synchronize()
    s.synchronize(5)


def test_sync_timeout_env(monkeypatch):
    assert ptolab.sync_timeout() == 60
    monkeypatch.setenv("PTO_SYNC_TIMEOUT_S", "2.5")
    assert ptolab.sync_timeout() == 2.5
    monkeypatch.setenv("PTO_SYNC_TIMEOUT_S", "-1")
    with pytest.raises(ValueError, match="PTO_SYNC_TIMEOUT_S"):
        ptolab.synchronize()
    with pytest.raises(ValueError):
        ptolab.synchronize(timeout=0)


@pytest.fixture(scope="module")
def slow_lib(tmp_path_factory):
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("slow") / "libslow.so"
    lib = ctypes.CDLL(ptolab.compile_kernel(os.path.join(KERNELS, "slow.cpp"), out))
    lib.call_slow.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    return lib


def test_synchronize_times_out_as_possible_deadlock(slow_lib, monkeypatch):
    y = ptolab.zeros(1)
    slow_lib.call_slow(1, ptolab.stream_ptr(), ptolab.tensor_ptr(y), 1500)
    monkeypatch.setenv("PTO_SYNC_TIMEOUT_S", "0.2")
    with pytest.raises(TimeoutError, match="possible sync deadlock.*PTO_SYNC_TIMEOUT_S"):
        ptolab.synchronize()
    ptolab.synchronize(timeout=30)  # the kernel does finish
    assert y.numpy()[0] == 1.0


# --- the seed's ctypes runner pattern ---------------------------------------

@pytest.mark.parametrize("n,block_dim", [(256, 1), (512, 2), (1000, 3), (256 * 60 + 17, 48)])
def test_ctypes_runner_pattern(add_lib, n, block_dim):
    rng = np.random.default_rng(n)
    x1 = ptolab.from_numpy(rng.standard_normal(n).astype(np.float32))
    x2 = ptolab.from_numpy(rng.standard_normal(n).astype(np.float32))
    y = ptolab.empty(n, "float32")
    stream = ptolab.stream_ptr()  # cached once, as the seed's performance rules ask

    def launch():
        add_lib.call_add(block_dim, stream, ptolab.tensor_ptr(y), ptolab.tensor_ptr(x1), ptolab.tensor_ptr(x2), n)

    ptolab.run_repeated(launch)
    report = ptolab.assert_close(y, x1.numpy() + x2.numpy())
    assert report["passed"] and report["count"] == n


def test_ctypes_runner_with_torch_cpu_tensors(add_lib, fake_torch):
    n = 300
    x1 = FakeTensor(np.linspace(0, 1, n, dtype=np.float32))
    x2 = FakeTensor(np.ones(n, np.float32))
    y = FakeTensor(np.zeros(n, np.float32))
    add_lib.call_add(2, ptolab.stream_ptr(), ptolab.tensor_ptr(y), ptolab.tensor_ptr(x1), ptolab.tensor_ptr(x2), n)
    ptolab.synchronize()
    ptolab.assert_close(y, FakeTensor(x1.numpy() + 1))


def test_half_kernel_and_fp16_tolerance(add_lib):
    n = 512
    x1 = ptolab.from_numpy(np.full(n, 0.1, np.float16))
    x2 = ptolab.from_numpy(np.full(n, 0.2, np.float16))
    y = ptolab.empty(n, "float16")
    add_lib.call_add_half(2, ptolab.stream_ptr(), y, x1, x2, n)  # tensors pass directly via _as_parameter_
    ptolab.synchronize()
    ptolab.assert_close(y, (x1.numpy() + x2.numpy()).astype(np.float16))


def test_kernel_fault_raises_kernel_error(add_lib):
    n = 512
    x = ptolab.zeros(n)
    # Too small: the second tile starts inside y and runs past its end, which
    # the simulator's GM bounds check reports (a store starting outside every
    # registered block would go unchecked, so the test must not do that).
    y = ptolab.zeros(300)
    add_lib.call_add(1, ptolab.stream_ptr(), y, x, x, n)
    with pytest.raises(ptolab.KernelError, match="run past the end"):
        ptolab.synchronize()
    ptolab.synchronize()  # reported once


# --- assert_close / quality_report ------------------------------------------

def test_assert_close_dtype_table():
    assert ptolab.default_tolerance("float16") == (1e-3, 1e-5)
    assert ptolab.default_tolerance("torch.bfloat16") == (1.6e-2, 1e-5)
    assert ptolab.default_tolerance("float32") == (1.3e-6, 1e-5)
    e = np.ones(4, np.float32) * 100
    ptolab.assert_close(e + 100 * 1.2e-6, e)
    with pytest.raises(AssertionError):
        ptolab.assert_close(e + 100 * 2e-6, e)
    h = np.ones(4, np.float16)
    ptolab.assert_close(h, h)


def test_assert_close_failure_message():
    e = np.zeros((4, 8), np.float32)
    a = e.copy()
    a[2, 3] = 0.5
    a[1, 1] = -0.25
    with pytest.raises(AssertionError) as info:
        ptolab.assert_close(a, e, name="add 4x8")
    msg = str(info.value)
    assert msg.startswith("FAIL add 4x8: 2 of 32 elements mismatched")
    assert "[2, 3]" in msg and "[1, 1]" in msg and "0.5" in msg
    assert "RMSE" in msg and "R2" in msg and "rel err" in msg
    assert msg.index("[2, 3]") < msg.index("[1, 1]")  # worst first


def test_assert_close_explicit_overrides_only():
    e = np.ones(4, np.float32)
    r = ptolab.assert_close(e * 1.001, e, rtol=2e-3, atol=1e-5)
    assert not r["default_tolerance"]
    with pytest.raises(ValueError, match="both"):
        ptolab.assert_close(e, e, rtol=1e-3)


def test_assert_close_shape_and_dtype_errors():
    with pytest.raises(ValueError, match="shape mismatch"):
        ptolab.assert_close(np.zeros((2, 3), np.float32), np.zeros(6, np.float32))
    with pytest.raises(ValueError, match="dtype mismatch"):
        ptolab.assert_close(np.zeros(3, np.float16), np.zeros(3, np.float32))
    ptolab.assert_close(np.zeros(3, np.float16), np.zeros(3, np.float32), check_dtype=False)
    with pytest.raises(TypeError):
        ptolab.assert_close(np.array([object()]), np.zeros(1))


def test_assert_close_nan():
    a = np.array([np.nan, 1], np.float32)
    with pytest.raises(AssertionError):
        ptolab.assert_close(a, a)
    ptolab.assert_close(a, a, equal_nan=True)


def test_bfloat16_compare_through_tensors():
    vals = np.linspace(1, 2, 16, dtype=np.float32)
    b = ptolab.from_numpy(vals, dtype="bfloat16")
    ptolab.assert_close(b, ptolab.from_numpy(vals * 1.005, dtype="bfloat16"))
    with pytest.raises(AssertionError):
        ptolab.assert_close(b, ptolab.from_numpy(vals * 1.05, dtype="bfloat16"))


def test_torch_bfloat16_tensor(fake_torch):
    bits = _core.bf16_from_float32(np.array([1.0, 2.0], np.float32)).view(np.int16)
    t = FakeTensor(bits, FakeDType("bfloat16"))
    ptolab.assert_close(t, t)
    d = ptolab.from_torch(t)
    assert d.dtype == "bfloat16" and d.data_ptr() == t.data_ptr()
    np.testing.assert_array_equal(d.float32(), [1.0, 2.0])


def test_quality_report_figures():
    e = np.array([1, 2, 3, 4], np.float32)
    a = np.array([1, 2, 3, 5], np.float32)
    q = ptolab.quality_report(a, e)
    assert not q["passed"] and q["mismatches"] == 1
    assert q["rmse"] == pytest.approx(0.5)
    assert q["relative_rmse"] == pytest.approx(0.5 / np.sqrt(7.5))
    assert q["r2"] == pytest.approx(0.8)
    assert q["worst"][0]["index"] == (3,) and q["worst"][0]["abs_err"] == 1
    assert q["summary"].startswith("FAIL")


def test_python_and_cli_agree(tmp_path):
    rng = np.random.default_rng(1)
    e = rng.standard_normal(1000).astype(np.float32)
    a = e + rng.standard_normal(1000).astype(np.float32) * 1e-5
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "e.npy", e)
    q = ptolab.quality_report(a, e)
    cli = os.environ.get("PTOLAB_CLI")
    if not cli:
        pytest.skip("PTOLAB_CLI not set")
    r = subprocess.run([cli, "compare", tmp_path / "a.npy", tmp_path / "e.npy", "--json"], capture_output=True,
                       text=True)
    j = json.loads(r.stdout)
    for k in ("mismatches", "rmse", "relative_rmse", "r2", "max_abs_err", "max_rel_err"):
        assert j[k] == q[k], k


def test_load_golden(tmp_path):
    np.save(tmp_path / "g.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
    a, name = ptolab.load_golden(tmp_path / "g.npy")
    assert name == "float32" and a.shape == (2, 3)
    (tmp_path / "t.npy").write_bytes((tmp_path / "g.npy").read_bytes()[:-1])
    with pytest.raises(ValueError, match="truncated"):
        ptolab.load_golden(tmp_path / "t.npy")
    np.arange(4, dtype=np.uint16).tofile(tmp_path / "b.bin")
    a, name = ptolab.load_golden(tmp_path / "b.bin", "bfloat16", (2, 2))
    assert name == "bfloat16" and a.dtype == np.uint16


# --- compile_kernel -----------------------------------------------------------

def test_compile_kernel_errors_name_the_command(tmp_path):
    src = tmp_path / "broken.cpp"
    src.write_text('#include <pto/pto-inst.hpp>\nextern "C" void f() { undeclared(); }\n')
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    with pytest.raises(ptolab.CompileError, match="broken.cpp"):
        ptolab.compile_kernel(src)
    with pytest.raises(FileNotFoundError):
        ptolab.compile_kernel(tmp_path / "nope.cpp")
    with pytest.raises(ValueError, match="kind"):
        ptolab.compile_kernel(src, kind="tensor")


def test_compile_kernel_runs_the_directory_script(tmp_path):
    (tmp_path / "compile.sh").write_text("set -e\necho building\ntouch libmine.so\n")
    assert ptolab.compile_kernel(tmp_path) == str(tmp_path / "libmine.so")
    (tmp_path / "compile.sh").write_text("exit 3\n")
    with pytest.raises(ptolab.CompileError, match="exit status 3"):
        ptolab.compile_kernel(tmp_path)
    (tmp_path / "compile.sh").write_text("sleep 30\n")
    with pytest.raises(TimeoutError, match="timed out"):
        ptolab.compile_kernel(tmp_path, timeout=0.5)
    (tmp_path / "compile.sh").unlink()
    with pytest.raises(FileNotFoundError, match="compile script"):
        ptolab.compile_kernel(tmp_path)


def test_find_ptocc_env(monkeypatch):
    monkeypatch.setenv("PTOCC", "/opt/x/ptocc")
    assert ptolab.find_ptocc() == "/opt/x/ptocc"


# --- torch-npu code path, through a stand-in module --------------------------

@pytest.fixture
def fake_npu(fake_torch, monkeypatch):
    torch = fake_torch
    state = {"device": None, "sync_delay": 0.0}

    class Props:
        name = "Ascend910B3"
        cube_core_num = 20
        vector_core_num = 40

    class NpuStream:
        _as_parameter_ = ctypes.c_void_p(0x1234)

    npu = types.SimpleNamespace(
        is_available=lambda: True,
        set_device=lambda i: state.__setitem__("device", i),
        current_device=lambda: state["device"],
        get_device_properties=lambda i: Props(),
        current_stream=lambda: NpuStream(),
        synchronize=lambda: time.sleep(state["sync_delay"]),
    )
    torch.npu = npu
    monkeypatch.setitem(sys.modules, "torch_npu", types.ModuleType("torch_npu"))
    return state


def test_npu_path_with_stand_in(fake_npu, monkeypatch):
    monkeypatch.setenv("NPU_DEVICE", "npu:3")
    assert ptolab.get_device().kind == "npu" and fake_npu["device"] == 3
    assert not ptolab.is_simulator_mode()
    assert ptolab.device_repeats() == 5
    assert ptolab.soc_name() == "Ascend910B3"
    assert (ptolab.cube_core_count(), ptolab.vector_core_count()) == (20, 40)
    assert ptolab.stream_ptr().value == 0x1234
    ptolab.synchronize(timeout=5)
    fake_npu["sync_delay"] = 2.0
    with pytest.raises(TimeoutError, match="possible sync deadlock"):
        ptolab.synchronize(timeout=0.2)
    monkeypatch.setenv("PTO_SIMULATOR", "1")
    assert ptolab.device_repeats() == 1


def test_simulator_forced_despite_npu(fake_npu, monkeypatch):
    monkeypatch.setenv("PTOLAB_DEVICE", "sim")
    assert ptolab.get_device().kind == "sim"


# --- ptolab.check: the checkers from Python ---------------------------------

def test_check_reports_nothing_for_a_synchronised_kernel(add_lib):
    x = ptolab.from_numpy(np.arange(300, dtype=np.float32))
    y = ptolab.empty(300, "float32")
    with ptolab.check("sync,race") as result:
        add_lib.call_add(2, ptolab.stream_ptr(), ptolab.tensor_ptr(y), ptolab.tensor_ptr(x), ptolab.tensor_ptr(x), 300)
        ptolab.synchronize()
    assert result.reports == [] and result.errors == []
    assert result.tools == "sync,race"
    np.testing.assert_array_equal(y.numpy(), 2 * np.arange(300, dtype=np.float32))


def test_check_reports_a_missing_wait_at_both_lines(tmp_path):
    import ctypes
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    src = open(os.path.join(KERNELS, "add.cpp")).read()
    lines = src.splitlines()
    wait = next(i for i, l in enumerate(lines) if "wait_flag(PIPE_MTE2, PIPE_V" in l)
    loads = [i + 1 for i, l in enumerate(lines) if "TLOAD(a, g1)" in l or "TLOAD(b, g2)" in l]
    add = next(i for i, l in enumerate(lines) if "TADD(c, a, b)" in l) + 1
    lines[wait] = "        // the wait is missing"
    bad = tmp_path / "add_no_wait.cpp"
    bad.write_text("\n".join(lines) + "\n")
    lib = ctypes.CDLL(ptolab.compile_kernel(str(bad), tmp_path / "libbad.so"))
    lib.call_add.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                             ctypes.c_int64]
    x = ptolab.from_numpy(np.ones(256, dtype=np.float32))
    y = ptolab.empty(256, "float32")
    with ptolab.check("race") as result:
        lib.call_add(1, ptolab.stream_ptr(), ptolab.tensor_ptr(y), ptolab.tensor_ptr(x), ptolab.tensor_ptr(x), 256)
        with pytest.raises(ptolab.KernelError):
            ptolab.synchronize()
    races = [r for r in result.errors if r["tool"] == "racecheck" and r["kind"] == "read-after-write"]
    assert races, result.reports
    # one report per unordered pair: each TLOAD's write of UB against the TADD reading it
    pairs = sorted(tuple((s["line"], s["op"]) for s in r["locations"]) for r in races)
    assert pairs == [((line, "TLOAD"), (add, "TADD")) for line in loads], result.reports
    assert all(r["buffer"] == "UB" and "set_flag(PIPE_MTE2, PIPE_V" in r["fix"] for r in races)


def test_check_rejects_an_unknown_tool():
    with pytest.raises(ValueError, match="bogus"):
        with ptolab.check("sync,bogus"):
            pass


# --- events (simulated time) ------------------------------------------------------

def test_event_elapsed_time_is_simulated_device_time(add_lib):
    n = 4096
    x = ptolab.from_numpy(np.ones(n, np.float32))
    y = ptolab.empty((n,), "float32")
    start, end = ptolab.Event(enable_timing=True), ptolab.Event(enable_timing=True)
    assert start.time_source == "simulated"
    start.record()
    for _ in range(3):
        add_lib.call_add(2, ptolab.stream_ptr(), ptolab.tensor_ptr(y), ptolab.tensor_ptr(x), ptolab.tensor_ptr(x), n)
    end.record()
    end.synchronize()
    one = ptolab.last_launch_time_us()
    ms = start.elapsed_time(end)
    # Three identical launches of the deterministic model: three times the last one's time.
    assert one is not None and one > 0
    assert ms == pytest.approx(3 * one / 1e3, rel=1e-9)
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        ptolab.Event().elapsed_time(end)
    with pytest.raises(RuntimeError, match="recorded"):
        ptolab.Event(enable_timing=True).elapsed_time(end)
