#!/usr/bin/python3
"""ptocc-built kernel libraries loaded with ctypes.CDLL, as the cookbook's
jit runners do, with numeric checks against NumPy.

usage: test_ctypes.py <ptocc> <kernels dir> <libptosim.so> <work dir>
"""
import ctypes
import os
import subprocess
import sys

import numpy as np

ptocc, kernels, libptosim, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = 0


def build(arch, src, out, macro="-DMEMORY_BASE"):
    path = os.path.join(work, out)
    cmd = [ptocc, "-fPIC", "-shared", "-xcce", f"--cce-aicore-arch={arch}", macro, os.path.join(kernels, src), "-o", path]
    subprocess.run(cmd, check=True)
    return ctypes.CDLL(path)


registered = {}


def ptr(a):
    # A kernel's GM must be memory the device maps: a plain NumPy buffer is not
    # (the kernel faults at its first access), a registered one counts as
    # aclrtMalloc memory would. Kept alive so that no later array reuses it.
    if a.ctypes.data not in registered:
        assert rt.ptosim_register_memory(ctypes.c_void_p(a.ctypes.data), ctypes.c_uint64(a.nbytes)) == 0
        registered[a.ctypes.data] = a
    return ctypes.c_void_p(a.ctypes.data)


def check(name, got, want, rtol=1.3e-6, atol=1e-5):
    global failures
    err = np.abs(got - want)
    bad = err > atol + rtol * np.abs(want)
    if bad.any():
        i = int(np.argmax(err))
        print(f"FAIL {name}: {int(bad.sum())} elements out of tolerance; worst index {i}: got {got.flat[i]} want {want.flat[i]}")
        failures += 1
    else:
        print(f"PASS {name}: {got.size} elements, max abs error {err.max():.3g}")


rt = ctypes.CDLL(libptosim)
assert rt.aclInit(None) == 0
assert rt.aclrtSetDevice(0) == 0


def sync():
    rc = rt.aclrtSynchronizeStream(None)
    if rc != 0:
        rt.aclGetRecentErrMsg.restype = ctypes.c_char_p
        raise RuntimeError(f"aclrtSynchronizeStream: {rc}: {rt.aclGetRecentErrMsg().decode()}")


rng = np.random.default_rng(3)

vec = build("dav-c220-vec", "vec_add.cpp", "libvec_add.so")
# Before any memory is registered (the launch then refuses unknown host
# pointers, docs/acl.md): plain NumPy buffers are host memory the device does
# not map, so the kernel's first access faults, as on the device.
host = [np.zeros(32 * 64, np.float32) for _ in range(3)]
vec.call_vec_add(ctypes.c_uint32(1), None, *(ctypes.c_void_p(h.ctypes.data) for h in host))
rc = rt.aclrtSynchronizeStream(None)
rt.aclGetRecentErrMsg.restype = ctypes.c_char_p
src = os.path.join(kernels, "vec_add.cpp")
lo = host[0].ctypes.data
want = (f"aclrtSynchronizeStream: kernel 'vec_add<float, kRows, kCols>' (launched at {src}:33) faulted on AIV block 0 "
        f"at {src}:22: TLOAD: GM bytes [{lo:#x}, {lo + host[0].nbytes:#x}) lie in no device allocation, an address "
        f"the device does not map: host memory (malloc/stack/NumPy) is not device memory: allocate it with "
        f"aclrtMalloc / copy it with aclrtMemcpy")
got = rt.aclGetRecentErrMsg().decode()
if (rc, got) != (507035, want):
    print(f"FAIL unregistered NumPy buffers: {rc}: {got}\n  want 507035: {want}")
    failures += 1
else:
    print("PASS unregistered NumPy buffers fault at the first access")

blocks = 3
x = rng.standard_normal(blocks * 32 * 64).astype(np.float32)
y = rng.standard_normal(blocks * 32 * 64).astype(np.float32)
z = np.zeros_like(x)
vec.call_vec_add(ctypes.c_uint32(blocks), None, ptr(x), ptr(y), ptr(z))
sync()
check("vec_add dav-c220-vec", z, x + y)

cube = build("dav-c220-cube", "cube_matmul.cpp", "libcube.so")
a = rng.uniform(-2, 2, (2, 32, 32)).astype(np.float16)
b = rng.uniform(-2, 2, (2, 32, 32)).astype(np.float16)
c = np.zeros((2, 32, 32), np.float32)
cube.call_cube_matmul(ctypes.c_uint32(2), None, ptr(a), ptr(b), ptr(c))
sync()
check("cube_matmul dav-c220-cube", c, np.matmul(a.astype(np.float32), b.astype(np.float32)), atol=1e-4)

mix = build("dav-c220", "mix_matmul_add.cpp", "libmix.so")
d = rng.uniform(-10, 10, (2, 32, 32)).astype(np.float32)
ws = np.zeros_like(d)
out = np.zeros_like(d)
ffts, ln = ctypes.c_uint64(), ctypes.c_uint32()
assert rt.rtGetC2cCtrlAddr(ctypes.byref(ffts), ctypes.byref(ln)) == 0
mix.call_matmul_add(ctypes.c_uint32(2), None, ptr(a), ptr(b), ptr(d), ptr(ws), ptr(out), ffts)
sync()
check("matmul_add dav-c220 (mix)", out, np.matmul(a.astype(np.float32), b.astype(np.float32)) + d, atol=1e-4)

sys.exit(1 if failures else 0)
