#!/usr/bin/python3
"""The kernel type of a translation unit built without a core-type suffix
(docs/ptocc.md, "Kernel type"): each one-kernel source is built with every
suffix-less spelling and run; its kernel records which cores ran it (one
slot per block for the Cube core and each Vector sub-block).

usage: test_kernel_type.py <ptocc> <kernels dir> <libptosim.so> <work dir>
"""
import ctypes
import os
import subprocess
import sys

import numpy as np

ptocc, kernels, libptosim, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = 0

A2A3 = ["--npu-arch=dav-2201", "--cce-aicore-arch=dav-c220", "--cce-soc-version=Ascend910B2"]
A5 = ["--npu-arch=dav-3510", "--cce-aicore-arch=dav-c310"]


def build(spelling, src, out, extra=(), expect_ok=True):
    macro = "-DREGISTER_BASE" if "3510" in spelling or "c310" in spelling else "-DMEMORY_BASE"
    path = os.path.join(work, out)
    cmd = [ptocc, "-v", "-fPIC", "-shared", "-xcce", spelling, macro, "-I", kernels, *extra, src, "-o", path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if expect_ok and r.returncode != 0:
        sys.exit(f"FAIL build {' '.join(cmd)}:\n{r.stderr}")
    return r, path


def expect(name, cond, detail=""):
    global failures
    if cond:
        print(f"PASS {name}")
    else:
        print(f"FAIL {name} {detail}")
        failures += 1


rt = ctypes.CDLL(libptosim)
assert rt.aclInit(None) == 0
assert rt.aclrtSetDevice(0) == 0
rt.aclGetRecentErrMsg.restype = ctypes.c_char_p


def sync():
    rc = rt.aclrtSynchronizeStream(None)
    if rc != 0:
        raise RuntimeError(f"aclrtSynchronizeStream: {rc}: {rt.aclGetRecentErrMsg().decode()}")


registered = {}


def ptr(a):
    # A kernel's GM must be memory the device maps: a plain NumPy buffer is not
    # (the kernel faults at its first access), a registered one counts as
    # aclrtMalloc memory would. Kept alive so that no later array reuses it.
    if a.ctypes.data not in registered:
        assert rt.ptosim_register_memory(ctypes.c_void_p(a.ctypes.data), ctypes.c_uint64(a.nbytes)) == 0
        registered[a.ctypes.data] = a
    return ctypes.c_void_p(a.ctypes.data)


def cores(rec):
    """(Cube cores, Vector sub-block 0 runs, sub-block 1 runs) over all blocks."""
    r = rec.reshape(-1, 3)
    return int(r[:, 0].sum()), int(r[:, 1].sum()), int(r[:, 2].sum())


# Vector-only, no guard: x += 1 once per block, on Vector sub-block 0 only.
# The A5 spellings run in their own process (one simulated SoC per process).
specs = A5 if os.environ.get("KIND_TARGET") == "A5" else A2A3
for i, spelling in enumerate(specs):
    r, path = build(spelling, os.path.join(kernels, "kind_vec.cpp"), f"libkind_vec{i}.so")
    expect(f"{spelling} kind_vec.cpp: -v names the inferred type",
           "kernel type inferred: Vector-only (Vector instruction TADDS in the Vector variant)" in r.stderr, r.stderr)
    lib = ctypes.CDLL(path)
    blocks = 4
    x = np.arange(blocks * 64, dtype=np.float32)
    want = x + 1
    rec = np.zeros(blocks * 3, dtype=np.int32)
    lib.call_bump(ctypes.c_uint32(blocks), None, ptr(x), ptr(rec))
    sync()
    expect(f"{spelling} kind_vec.cpp: in-place +1 applied once", np.array_equal(x, want), f"got {x[:4]}")
    expect(f"{spelling} kind_vec.cpp: Vector cores only, sub-block 0", cores(rec) == (0, blocks, 0), cores(rec))

rng = np.random.default_rng(5)
for i, spelling in enumerate(specs):
    # Cube-only, no guard.
    r, path = build(spelling, os.path.join(kernels, "kind_cube.cpp"), f"libkind_cube{i}.so")
    expect(f"{spelling} kind_cube.cpp: -v names the inferred type",
           "kernel type inferred: Cube-only (Cube instruction TMATMUL in the Cube variant)" in r.stderr, r.stderr)
    lib = ctypes.CDLL(path)
    blocks = 2
    a = rng.standard_normal((blocks, 32, 32)).astype(np.float16)
    b = rng.standard_normal((blocks, 32, 32)).astype(np.float16)
    c = np.zeros((blocks, 32, 32), dtype=np.float32)
    rec = np.zeros(blocks * 3, dtype=np.int32)
    lib.call_cube_matmul(ctypes.c_uint32(blocks), None, ptr(a), ptr(b), ptr(c), ptr(rec))
    sync()
    expect(f"{spelling} kind_cube.cpp: matmul", np.allclose(c, np.matmul(a.astype(np.float32), b.astype(np.float32)),
                                                         atol=1e-4))
    expect(f"{spelling} kind_cube.cpp: Cube cores only", cores(rec) == (blocks, 0, 0), cores(rec))

    if specs is A5:
        continue  # the mix kernel below is A2A3's (FFTS cross-core flags)
    # Mix: Cube and Vector code behind __DAV_CUBE__ / __DAV_VEC__ stays mix.
    r, path = build(spelling, os.path.join(kernels, "kind_mix.cpp"), f"libkind_mix{i}.so")
    expect(f"{spelling} kind_mix.cpp: -v names the inferred type",
           "kernel type inferred: mix (Cube instruction TMATMUL in the Cube variant, Vector instruction TADD in the "
           "Vector variant)" in r.stderr, r.stderr)
    lib = ctypes.CDLL(path)
    d = rng.standard_normal((blocks, 32, 32)).astype(np.float32)
    ws = np.zeros((blocks, 32, 32), dtype=np.float32)
    out = np.zeros((blocks, 32, 32), dtype=np.float32)
    rec = np.zeros(blocks * 3, dtype=np.int32)
    ffts = ctypes.c_uint64(0)
    rt.rtGetC2cCtrlAddr.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)]
    length = ctypes.c_uint32(0)
    assert rt.rtGetC2cCtrlAddr(ctypes.byref(ffts), ctypes.byref(length)) == 0
    lib.call_matmul_add(ctypes.c_uint32(blocks), None, ptr(a), ptr(b), ptr(d), ptr(ws), ptr(out), ffts, ptr(rec))
    sync()
    expect(f"{spelling} kind_mix.cpp: matmul + add",
           np.allclose(out, np.matmul(a.astype(np.float32), b.astype(np.float32)) + d, atol=1e-4))
    expect(f"{spelling} kind_mix.cpp: one Cube core and two Vector sub-blocks per block",
           cores(rec) == (blocks, blocks, blocks), cores(rec))

if specs is A5:
    sys.exit(1 if failures else 0)

# A kernel whose type cannot be told (scalar code only) is an error; marked, it builds.
scalar = open(os.path.join(kernels, "kind_scalar.cpp")).read()
cases = [("", "", None), ("__vector__", "", (0, 3, 0)), ("__cube__", "", (3, 0, 0)), ("__mix__(1, 2)", "", (3, 3, 3)),
         ("__mix__(0, 1)", "", (0, 3, 0)), ("", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);", (3, 0, 0)),
         ("", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", (3, 3, 3))]
for m, (mark, stmt, want) in enumerate(cases):
    label = mark or stmt or "nothing"
    src = os.path.join(work, f"kind_scalar_{m}.cpp")
    with open(src, "w") as f:
        f.write(scalar.replace("#ifndef KIND_MARK\n#define KIND_MARK\n#endif\n", "")
                .replace("KIND_MARK AICORE", f"{mark} AICORE")
                .replace("{ record_core(rec); }", f"{{ {stmt} record_core(rec); }}"))
    r, path = build("--npu-arch=dav-2201", src, f"libkind_scalar{m}.so", expect_ok=False)
    if want is None:
        expect("scalar-only kernel: an error naming the remedy",
               r.returncode != 0 and "cannot tell the kernel type" in r.stderr and "__vector__" in r.stderr,
               r.stderr)
        continue
    expect(f"scalar kernel marked {label}: builds", r.returncode == 0, r.stderr)
    if r.returncode:
        continue
    lib = ctypes.CDLL(path)
    rec = np.zeros(9, dtype=np.int32)
    lib.call_touch(ctypes.c_uint32(3), None, ptr(rec))
    sync()
    expect(f"scalar kernel marked {label}: cores {want}", cores(rec) == want, cores(rec))

# Two different marks in one source: an error.
src = os.path.join(work, "kind_two_marks.cpp")
with open(src, "w") as f:
    f.write(scalar.replace("KIND_MARK AICORE", "__vector__ AICORE") +
            "__global__ __cube__ AICORE void other(__gm__ int32_t* rec) { record_core(rec); }\n")
r, _ = build("--npu-arch=dav-2201", src, "libkind_two.so", expect_ok=False)
expect("two kernel types in one source: an error", r.returncode != 0 and
       "marks kernels both __vector__ and __cube__" in r.stderr, r.stderr)

# An explicit suffix is never second-guessed: the Vector-only kernel built as -vec.
r, path = build("--cce-aicore-arch=dav-c220-vec", os.path.join(kernels, "kind_vec.cpp"), "libkind_vec_explicit.so")
expect("dav-c220-vec: no inference", "kernel type inferred" not in r.stderr, r.stderr)

sys.exit(1 if failures else 0)
