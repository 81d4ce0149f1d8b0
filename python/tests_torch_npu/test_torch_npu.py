import ctypes
import os
import subprocess
import sys
import threading
import time
import weakref
from concurrent import futures
from pathlib import Path

import numpy as np
import pytest
import torch

import torch_npu
from torch_npu import _runtime, _tensor
from torch_npu._tensor import NpuTensor

HERE = Path(__file__).resolve().parent
KERNELS = HERE.parent.parent / "tests" / "lab" / "kernels"
SIM_DIR = str(HERE.parent / "torch_npu_sim")


def dev_mem(t):
    return _runtime.is_device_memory(t.data_ptr(), t.numel() * t.element_size())


# --- device semantics ----------------------------------------------------------

def test_factory_with_npu_device_string_makes_npu_tensors():
    for spec in ("npu", "npu:0"):
        x = torch.zeros(3, 5, device=spec, dtype=torch.float16)
        assert isinstance(x, NpuTensor)
        assert x.device.type == "npu" and x.device.index == 0
        assert str(x.device) == "npu:0" and x.device == "npu:0"
        assert x.shape == (3, 5) and x.dtype == torch.float16
        assert x.is_npu and not torch.zeros(1).is_npu
        assert torch.equal(x.cpu(), torch.zeros(3, 5, dtype=torch.float16))


def test_privateuseone_device_is_the_npu():
    x = torch.ones(4, device=torch.device("privateuseone:0"))
    assert x.device.type == "npu"
    assert x.cpu().tolist() == [1.0, 1.0, 1.0, 1.0]


def test_to_npu_npu_method_and_cpu_copy_out():
    host = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    for moved in (host.to("npu"), host.to("npu:0"), host.npu(), host.to(device="npu", dtype=torch.float16)):
        assert moved.device.type == "npu"
        assert moved.data_ptr() != host.data_ptr()
        back = moved.cpu()
        assert type(back) is torch.Tensor and back.device.type == "cpu"
        assert back.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x = host.npu()
    x.cpu()[0, 0] = 100  # the copy out is a copy
    assert x.cpu()[0, 0].item() == 0.0
    assert x.npu() is x and x.to("npu:0") is x
    assert x.to("cpu").device.type == "cpu"


def test_empty_like_randn_and_from_numpy_to_device():
    torch.manual_seed(0)
    x = torch.randn(8, 8, device="npu", dtype=torch.float16)
    torch.manual_seed(0)
    ref = torch.randn(8, 8, dtype=torch.float16)
    assert torch.equal(x.cpu(), ref)  # the CPU generator's values, on the device
    y = torch.empty_like(x)
    assert y.device.type == "npu" and y.shape == x.shape and y.dtype == torch.float16
    z = torch.from_numpy(np.full((2, 2), 7, np.int32)).to("npu:0")
    assert z.device.type == "npu" and z.cpu().tolist() == [[7, 7], [7, 7]]


def test_numpy_on_npu_tensor_is_refused():
    x = torch.ones(2, device="npu")
    with pytest.raises(TypeError) as e:
        x.numpy()
    assert str(e.value) == ("can't convert npu:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor "
                            "to host memory first.")


# --- memory ----------------------------------------------------------------------

def test_npu_tensors_live_in_registered_aligned_device_memory():
    x = torch.empty(1000, device="npu", dtype=torch.float16)
    assert dev_mem(x)
    assert x.data_ptr() % 512 == 0
    assert not _runtime.is_device_memory(torch.empty(1000).data_ptr(), 4000)
    for t in (torch.randn(3, 3, device="npu"), torch.ones(2).npu(), torch.empty_like(x), x + x, x.float()):
        assert dev_mem(t), t


def test_views_keep_the_device_address_and_writes_reach_device_memory():
    x = torch.zeros(4, 8, device="npu", dtype=torch.float32)
    row = x[1]
    assert row.device.type == "npu"
    assert row.data_ptr() == x.data_ptr() + 8 * 4
    row.fill_(3.0)
    x[2, 5] = 9.0
    got = (ctypes.c_float * 32).from_address(x.data_ptr())
    assert list(got[8:16]) == [3.0] * 8 and got[21] == 9.0 and got[0] == 0.0
    x.copy_(torch.full((4, 8), 2.0))  # host-to-device copy_
    assert x.cpu().sum().item() == 64.0


def test_device_memory_is_freed_with_the_last_tensor():
    before = torch.npu.memory_allocated()
    x = torch.empty(4096, device="npu", dtype=torch.float32)
    ptr = x.data_ptr()
    assert torch.npu.memory_allocated() == before + 4096 * 4
    view = x[10:]
    del x
    assert _runtime.is_device_memory(ptr, 16)  # the view keeps the block
    del view
    assert torch.npu.memory_allocated() == before
    assert not _runtime.is_device_memory(ptr, 16)


# --- streams, sync, events ------------------------------------------------------------

def test_current_stream_is_ptosims_default_stream():
    s = torch.npu.current_stream()
    assert s.npu_stream == _runtime.default_stream() != 0
    assert s._as_parameter_.value == s.npu_stream
    assert s == torch.npu.default_stream()
    other = torch.npu.Stream()
    assert other.npu_stream not in (0, s.npu_stream)
    with torch.npu.stream(other):
        assert torch.npu.current_stream() is other
    assert torch.npu.current_stream() == s
    other.synchronize()
    torch.npu.synchronize()


def test_the_selected_stream_is_what_cpp_extensions_see_per_thread():
    # c10_npu::getCurrentNPUStream() (the extension header) reads ptosim_current_stream.
    current = _runtime.lib().ptosim_current_stream
    current.restype = ctypes.c_void_p
    default = torch.npu.default_stream().npu_stream
    assert current() == default
    other = torch.npu.Stream()
    with torch.npu.stream(other):
        assert current() == other.npu_stream
        seen = []
        import threading
        t = threading.Thread(target=lambda: seen.append(current()))
        t.start()
        t.join()
        assert seen == [default]  # another thread keeps its own (the default)
    assert current() == default
    torch.npu.set_stream(other)
    assert current() == other.npu_stream
    torch.npu.set_stream(torch.npu.default_stream())
    assert current() == default
    other.synchronize()


def test_device_queries_come_from_the_soc_profile():
    assert torch.npu.is_available() and torch.npu.device_count() == 1
    torch.npu.set_device("npu:0")
    torch.npu.set_device(0)
    assert torch.npu.current_device() == 0
    p = torch.npu.get_device_properties("npu:0")
    assert (p.name, p.cube_core_num, p.vector_core_num) == (_runtime.soc_name(), _runtime.cube_core_count(),
                                                            _runtime.vector_core_count())
    if p.name == "Ascend910B2":
        assert (p.cube_core_num, p.vector_core_num) == (24, 48)
    torch.npu.config.allow_internal_format = False
    torch_npu.npu.set_compile_mode(jit_compile=False)


def test_set_device_out_of_range_is_an_error():
    with pytest.raises(RuntimeError) as e:
        torch.npu.set_device("npu:5")
    assert str(e.value) == ("torch.npu.set_device('npu:5'): invalid device index 5; the simulator has 1 device(s) "
                            "(PTO_SIM_DEVICE_COUNT)")
    with pytest.raises(RuntimeError, match=r"^Invalid device string: 'npux'; use 'npu' or 'npu:N'$"):
        torch.zeros(1, device="npux")


def test_event_misuse_is_refused_as_torch_npu_does():
    with pytest.raises(RuntimeError) as e:
        torch.npu.Event().elapsed_time(torch.npu.Event())
    assert str(e.value) == "Both events must be created with argument 'enable_timing=True'."
    with pytest.raises(RuntimeError) as e:
        torch.npu.Event(enable_timing=True).elapsed_time(torch.npu.Event(enable_timing=True))
    assert str(e.value) == "Both events must be recorded before calculating elapsed time."


# --- fp16/bf16 references ------------------------------------------------------------------

def test_fp16_matmul_accumulates_in_fp32_and_rounds_once():
    # 2048 + 1 + 1: an fp16 running sum stalls at 2048 (its spacing there is 2); fp32 gives 2050, exact in fp16.
    a = torch.tensor([[2048.0, 1.0, 1.0]], dtype=torch.float16, device="npu")
    b = torch.ones(3, 1, dtype=torch.float16, device="npu")
    for c in (a @ b, torch.matmul(a, b), torch.mm(a, b)):
        assert c.dtype == torch.float16 and c.device.type == "npu"
        assert c.cpu().item() == 2050.0
    # 1 + 2^-11 lies halfway between fp16 neighbours 1 and 1 + 2^-10: one rounding, to even, gives 1.
    one = torch.tensor([[1.0, 2.0 ** -11]], dtype=torch.float16, device="npu") @ torch.ones(2, 1, dtype=torch.float16,
                                                                                                 device="npu")
    assert one.cpu().item() == 1.0


def test_bf16_matmul_and_reductions():
    a = torch.tensor([[256.0, 1.0, 1.0]], dtype=torch.bfloat16, device="npu")
    b = torch.ones(3, 1, dtype=torch.bfloat16, device="npu")
    c = a @ b
    assert c.dtype == torch.bfloat16 and c.cpu().float().item() == 258.0
    s = a.sum()
    assert s.dtype == torch.bfloat16 and s.cpu().float().item() == 258.0


def test_fp16_reductions_and_elementwise():
    x = torch.tensor([2048.0, 1.0, 1.0, 2.0], dtype=torch.float16, device="npu")
    assert x.sum().dtype == torch.float16 and x.sum().cpu().item() == 2052.0
    assert x.mean().cpu().item() == 513.0
    assert x.sum(dtype=torch.float32).dtype == torch.float32
    # elementwise: one rounding of the exact result; 2049 is a tie between 2048 and 2050 -> even (2048).
    assert (x[:1] + x[1:2]).cpu().item() == 2048.0
    assert (x > 1.5).cpu().tolist() == [True, False, False, True]
    assert x.to(torch.float32).dtype == torch.float32 and x.to(torch.float32).device.type == "npu"


def test_matmul_dtype_mismatch_is_an_error():
    a = torch.ones(2, 2, dtype=torch.float16, device="npu")
    b = torch.ones(2, 2, dtype=torch.float32, device="npu")
    with pytest.raises(RuntimeError) as e:
        a @ b
    assert str(e.value) == "matmul: expected both inputs to have the same dtype, but got torch.float16 != torch.float32"


def test_assert_close_on_npu_tensors():
    a = torch.tensor([1.0, 2.0], dtype=torch.float16, device="npu")
    torch.testing.assert_close(a, a.clone(), rtol=1e-3, atol=1e-5)
    torch.testing.assert_close(a.cpu(), torch.tensor([1.0, 2.0], dtype=torch.float16))
    with pytest.raises(AssertionError, match="Tensor-likes are not close!"):
        torch.testing.assert_close(a, torch.tensor([1.0, 2.5], dtype=torch.float16, device="npu"))


# --- errors -------------------------------------------------------------------------------

def test_mixing_cpu_and_npu_tensors_is_an_error():
    x = torch.ones(4, device="npu")
    with pytest.raises(RuntimeError) as e:
        x + torch.ones(4)
    assert str(e.value) == ("Expected all tensors to be on the same device, but found at least two devices, npu:0 "
                            "and cpu! (when checking argument for add); move the CPU tensor with .npu() or the "
                            "npu tensor with .cpu()")
    assert (x + torch.tensor(1.0)).cpu().tolist() == [2.0] * 4  # 0-dim CPU scalars are allowed, as in torch


def _import_in_subprocess(env_extra, pythonpath):
    env = dict(os.environ)
    env.pop("PTOLAB_TORCH_NPU", None)
    env.update(env_extra)
    env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    return subprocess.run([sys.executable, "-c", "import torch_npu; print('imported', torch_npu.__version__)"],
                          env=env, capture_output=True, text=True, timeout=120)


def test_import_needs_the_switch():
    r = _import_in_subprocess({}, [SIM_DIR] + sys.path[1:])
    assert r.returncode != 0
    assert "ptolab's simulated torch_npu, imported without PTOLAB_TORCH_NPU=sim (it is '')" in r.stderr


def test_a_real_torch_npu_is_not_shadowed(tmp_path):
    fake = tmp_path / "site" / "torch_npu"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    path = [SIM_DIR, str(tmp_path / "site")] + [p for p in sys.path if p and p != SIM_DIR]
    r = _import_in_subprocess({"PTOLAB_TORCH_NPU": "sim"}, path)
    assert r.returncode != 0
    assert f"a real torch_npu is installed ({fake / '__init__.py'}); ptolab's simulated torch_npu" in r.stderr
    assert "PTOLAB_TORCH_NPU=force-sim" in r.stderr
    r = _import_in_subprocess({"PTOLAB_TORCH_NPU": "force-sim"}, path)
    assert r.returncode == 0, r.stderr
    assert "imported 2.1.0+ptosim" in r.stdout


# --- kernels ---------------------------------------------------------------------------------

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


def test_kernel_reads_and_writes_npu_tensors(add_lib):
    n = 3000
    torch.manual_seed(1)
    x = torch.randn(n, device="npu", dtype=torch.float16)
    z = torch.randn(n, device="npu", dtype=torch.float16)
    y = torch.empty_like(x)
    add_lib.call_add_half(4, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                          ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(z.data_ptr()), n)
    torch.npu.synchronize()
    expected = (x.cpu().float() + z.cpu().float()).half()
    assert torch.equal(y.cpu(), expected)


def test_event_elapsed_time_is_the_simulated_time_of_the_launches_between(add_lib, capfd):
    x = torch.ones(4096, device="npu", dtype=torch.float16)
    y = torch.empty_like(x)
    start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
    assert torch.npu.Event.time_source == "simulated"
    launch = lambda: add_lib.call_add_half(4, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                                           ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(x.data_ptr()), 4096)
    start.record()
    launch()
    end.record()
    end.synchronize()
    last = _runtime.lib().ptosim_last_launch_time_us
    last.restype = ctypes.c_double
    one = last()
    assert one > 0
    assert start.elapsed_time(end) == pytest.approx(one / 1e3, rel=1e-12)
    # Host time between the records is not device time; two launches take twice one.
    start.record()
    time.sleep(0.05)
    end.record()
    assert start.elapsed_time(end) == 0.0
    start.record()
    launch()
    launch()
    end.record()
    assert start.elapsed_time(end) == pytest.approx(2 * one / 1e3, rel=1e-9)
    assert "Event.elapsed_time() is simulated NPU time from ptosim's cost model" in capfd.readouterr().err


def test_kernel_overrunning_an_npu_tensor_runs_as_on_the_device_and_is_reported(add_lib, capfd):
    # npu tensors are aclrtMalloc blocks: the device writes past one into the
    # HBM after it, so ptosim does too (docs/semantics.md, "Faults and
    # reports") and says so once; ptolab check and PTO_SIM_STRICT=1 refuse it.
    x = torch.ones(256, device="npu", dtype=torch.float16)
    y = torch.empty(128, device="npu", dtype=torch.float16)  # too small for n=256
    add_lib.call_add_half(1, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                          ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(x.data_ptr()), 256)
    torch.npu.synchronize()
    assert (y.cpu() == 2).all()
    err = capfd.readouterr().err
    assert "ptosim: memcheck: note: gm-past-allocation in kernel" in err
    assert "past the 256 bytes requested for the allocation at" in err


def test_a_cpu_tensor_passed_to_a_kernel_fails_the_launch(add_lib, capfd):
    # On a device a host address in a kernel argument is an invalid address; ptosim refuses it at the launch.
    n = 256
    x = torch.ones(n, device="npu", dtype=torch.float16)
    y = torch.zeros(n, device="npu", dtype=torch.float16)
    host = torch.full((n,), 2.0, dtype=torch.float16)
    stream = torch.npu.current_stream()._as_parameter_
    capfd.readouterr()
    add_lib.call_add_half(1, stream, ctypes.c_void_p(y.data_ptr()), ctypes.c_void_p(x.data_ptr()),
                          ctypes.c_void_p(host.data_ptr()), n)
    message = (f"kernel 'add_kernel<half>' launched at {KERNELS / 'add.cpp'}:44: argument 3 is {host.data_ptr():#x}, host "
               f"memory in no device block: a device cannot address it. A CPU tensor or host buffer passed to the "
               f"kernel? pass an npu tensor (x.npu()) or aclrtMalloc memory. The kernel did not run.")
    assert capfd.readouterr().err == f"ptosim: error 507035: {message}\n"
    assert _runtime.last_error() == message
    with pytest.raises(RuntimeError) as e:
        torch.npu.synchronize()
    assert str(e.value) == f"torch.npu.synchronize(): a kernel failed (ACL error 507035): ptosim_synchronize: {message}"
    assert y.cpu().tolist() == [0.0] * n
    torch.npu.synchronize()  # reported once
    on_device = host.npu()
    add_lib.call_add_half(1, stream, ctypes.c_void_p(y.data_ptr()), ctypes.c_void_p(x.data_ptr()),
                          ctypes.c_void_p(on_device.data_ptr()), n)
    torch.npu.synchronize()
    assert y.cpu().tolist() == [3.0] * n
    assert capfd.readouterr().err == ""


# --- threads ---------------------------------------------------------------------------------

def test_worker_threads_make_npu_tensors_and_launch_kernels(add_lib):
    n = 1024

    def work(value):
        x = torch.full((n,), value, device="npu", dtype=torch.float16)
        z = torch.ones(n, device="npu", dtype=torch.float16)
        y = torch.empty_like(x)
        add_lib.call_add_half(2, torch.npu.current_stream()._as_parameter_, ctypes.c_void_p(y.data_ptr()),
                              ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(z.data_ptr()), n)
        torch.npu.synchronize()
        return type(x), type(y), y.cpu().tolist()

    results = {}
    t = threading.Thread(target=lambda: results.update(thread=work(1.0)))
    t.start()
    t.join()
    with futures.ThreadPoolExecutor(max_workers=2) as pool:
        results["pool"] = pool.submit(work, 2.0).result()
    assert results == {"thread": (NpuTensor, NpuTensor, [2.0] * n), "pool": (NpuTensor, NpuTensor, [3.0] * n)}


def test_a_finished_thread_leaves_no_function_mode_behind(monkeypatch):
    # Released while the thread still runs Python; torch's C++ thread exit
    # releasing them instead can abort the process at exit (_tensor.remove_modes).
    cleaned = []
    remove_modes = _tensor.remove_modes

    def recording_remove_modes():
        remove_modes()
        cleaned.append((threading.get_ident(), torch._C._len_torch_function_stack(), _tensor._installed.mode))

    monkeypatch.setattr(_tensor, "remove_modes", recording_remove_modes)
    modes = []

    def work():
        assert isinstance(torch.zeros(1, device="npu"), NpuTensor)
        modes.append(weakref.ref(_tensor._installed.mode))
        torch.overrides.TorchFunctionMode().__enter__()  # one the thread's own code leaves behind

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert cleaned == [(t.ident, 0, None)]
    assert len(modes) == 1 and modes[0]() is None


def test_daemon_threads_ask_for_the_mode_with_ensure_thread():
    got = {}

    def work():
        with pytest.raises(RuntimeError) as e:
            torch.zeros(1, device="npu")
        got["before"] = str(e.value)
        torch_npu.ensure_thread()
        got["after"] = type(torch.zeros(1, device="npu"))

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join()
    assert got == {"before": "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, "
                             "xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device string: "
                             "npu",
                   "after": NpuTensor}


def test_a_process_whose_worker_threads_made_npu_tensors_exits_cleanly():
    script = (
        "import threading\n"
        "from concurrent import futures\n"
        "import torch, torch_npu\n"
        "from torch_npu._tensor import NpuTensor\n"
        "work = lambda *_: isinstance(torch.ones(4, device='npu'), NpuTensor)\n"
        "ts = [threading.Thread(target=work) for _ in range(16)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n"
        "with futures.ThreadPoolExecutor(max_workers=4) as pool:\n"
        "    print(all(pool.map(work, range(8))))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout, r.stderr) == (0, "True\n", "")


# --- ptolab run --sim / env --torch-npu -------------------------------------------------

def _ptolab_cli():
    import json
    import ptolab
    paths = Path(ptolab.__file__).with_name("_build_paths.json")
    cli = json.loads(paths.read_text()).get("cli", "") if paths.exists() else ""
    if not cli or not os.access(cli, os.X_OK):
        pytest.skip("no ptolab CLI in this build")
    return cli


def test_env_torch_npu_exports_and_run_sim(tmp_path):
    cli = _ptolab_cli()
    env = {k: v for k, v in os.environ.items() if k not in ("PTOLAB_TORCH_NPU", "PYTHONPATH")}
    env["PTOLAB_PYTHON"] = sys.executable
    out = subprocess.run([cli, "env", "--torch-npu"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "export PTOLAB_TORCH_NPU='sim'\n" in out.stdout
    assert f"export PYTHONPATH='{SIM_DIR}:" in out.stdout
    assert "export PTO_SIMULATOR='1'\n" in out.stdout
    r = subprocess.run([cli, "run", "--sim", "--", sys.executable, "-c",
                        "import torch, torch_npu; print(torch.zeros(2, device='npu').device)"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "npu:0"


def test_run_sim_refuses_to_shadow_a_real_torch_npu(tmp_path):
    cli = _ptolab_cli()
    fake = tmp_path / "torch_npu"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    env = {k: v for k, v in os.environ.items() if k != "PTOLAB_TORCH_NPU"}
    env["PYTHONPATH"] = str(tmp_path)
    env["PTOLAB_PYTHON"] = sys.executable
    r = subprocess.run([cli, "run", "--sim", "--", "true"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert (f"ptolab run --sim: a real torch_npu is installed ({fake / '__init__.py'}); refusing to shadow it with "
            f"ptolab's simulated torch_npu") in r.stderr
    r = subprocess.run([cli, "run", "--sim", "--force", "--", "sh", "-c", "echo $PTOLAB_TORCH_NPU"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "force-sim"
