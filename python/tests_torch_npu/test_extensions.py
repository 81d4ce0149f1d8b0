"""C++ extensions built with torch.utils.cpp_extension.load that make their
outputs in C++ (at::empty_like(x), at::empty(..., x.options()),
torch::zeros_like(x)) and launch a ptocc-built kernel on them: the outputs
are device memory, so the launch runs, under `ptolab check` too."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import torch_npu  # noqa: F401
from torch_npu import _runtime
from torch_npu._tensor import NpuTensor

HERE = Path(__file__).resolve().parent
KERNELS = HERE.parent.parent / "tests" / "lab" / "kernels"

EXTENSION = r"""
#include <torch/extension.h>

using Add = void (*)(uint32_t, void*, uint8_t*, uint8_t*, uint8_t*, int64_t);

at::Tensor add(at::Tensor x, at::Tensor z, int64_t add_fn, int64_t stream, int64_t how) {
    at::Tensor y = how == 0 ? at::empty_like(x) : how == 1 ? at::empty(x.sizes(), x.options()) : torch::zeros_like(x);
    reinterpret_cast<Add>(add_fn)(2, reinterpret_cast<void*>(stream), static_cast<uint8_t*>(y.data_ptr()),
                                  static_cast<uint8_t*>(x.data_ptr()), static_cast<uint8_t*>(z.data_ptr()), x.numel());
    return y;
}

at::Tensor like(at::Tensor x) { return at::empty_like(x); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add", &add);
    m.def("like", &like);
}
"""

# Builds the extension (once per build directory) and the kernel library,
# then runs the three ways of allocating in C++; prints what it saw.
SCRIPT = r"""
import ctypes, json, sys
import torch, torch_npu
from torch.utils.cpp_extension import load
import ptolab
ext_dir, kernel_dir = sys.argv[1:3]
ext = load("npu_alloc_ext", [ext_dir + "/ext.cpp"], build_directory=ext_dir, extra_cflags=["-O0"])
lib = ctypes.CDLL(ptolab.compile_kernel(KERNEL, kernel_dir + "/libadd.so", kind="vec", target="A2A3"))
fn = ctypes.cast(lib.call_add_half, ctypes.c_void_p).value
torch.manual_seed(2)
x = torch.randn(1000, device="npu", dtype=torch.float16)
z = torch.randn(1000, device="npu", dtype=torch.float16)
want = (x.cpu().float() + z.cpu().float()).half()
seen = []
for how in range(3):
    y = ext.add(x, z, fn, torch.npu.current_stream().npu_stream, how)
    seen.append([type(y).__name__, str(y.device), bool(torch.equal(y.cpu(), want))])
host = ext.like(torch.ones(4))
seen.append([type(host).__name__, str(host.device)])
print(json.dumps(seen))
"""


def _cli():
    import ptolab
    paths = json.loads(Path(ptolab.__file__).with_name("_build_paths.json").read_text())
    return paths["cli"]


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory):
    import ptolab
    try:
        ptolab.find_ptocc()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    ext_dir = tmp_path_factory.mktemp("ext")
    (ext_dir / "ext.cpp").write_text(EXTENSION)
    script = tmp_path_factory.mktemp("script") / "run.py"
    script.write_text(SCRIPT.replace("KERNEL", repr(str(KERNELS / "add.cpp"))))
    return ext_dir, tmp_path_factory.mktemp("k"), script


WANT = [["NpuTensor", "npu:0", True]] * 3 + [["Tensor", "cpu"]]


def test_tensors_an_extension_makes_from_npu_tensors_are_npu_tensors(workdirs):
    ext_dir, kernel_dir, script = workdirs
    r = subprocess.run([sys.executable, str(script), str(ext_dir), str(kernel_dir)], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == WANT


def test_an_extension_allocating_in_cpp_is_clean_under_ptolab_check(workdirs):
    ext_dir, kernel_dir, script = workdirs
    r = subprocess.run([_cli(), "check", "--", sys.executable, str(script), str(ext_dir), str(kernel_dir)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == WANT
    assert r.stderr.splitlines()[-1].startswith("ptolab check: 0 report(s), 0 error(s); ")


def test_the_allocator_is_scoped_to_calls_given_npu_tensors(workdirs):
    # In this process: a wrapped extension function called with CPU tensors
    # allocates host memory, as torch does.
    ext_dir, _, _ = workdirs
    from torch.utils.cpp_extension import load
    ext = load("npu_alloc_ext", [str(ext_dir / "ext.cpp")], build_directory=str(ext_dir), extra_cflags=["-O0"])
    host = ext.like(torch.ones(8))
    assert type(host) is torch.Tensor and not _runtime.is_device_memory(host.data_ptr(), host.numel() * 4)
    dev = ext.like(torch.ones(8, device="npu"))
    assert type(dev) is NpuTensor and _runtime.is_device_memory(dev.data_ptr(), dev.numel() * 4)
