"""The static kernels' test cases, shared by run_ctypes.py and run_pybind.py:
inputs, golden values (NumPy) and the check. A launcher object supplies
add/matmul/matmul_add(block_dim, stream, *pointers); the cases do not care
whether it is ctypes or pybind."""
import numpy as np

DIM = 64  # every kernel here is compiled for 64x64 (x64)
BLOCK_DIM = 1  # static single-core examples: one block, <<<1, nullptr, stream>>>


def run_all(ptolab, utils, results, launcher, prefix, kernels=None):
    rng = np.random.default_rng(2024)
    stream = ptolab.stream_ptr()  # queried once, reused by every launch

    def add():
        x = rng.standard_normal((DIM, DIM)).astype(np.float16)
        y = rng.standard_normal((DIM, DIM)).astype(np.float16)
        dx, dy, dz = ptolab.from_numpy(x), ptolab.from_numpy(y), ptolab.zeros((DIM, DIM), "float16")
        ptolab.run_repeated(lambda: launcher.add(BLOCK_DIM, stream, dx, dy, dz))
        return utils.compare(ptolab, dz, x + y, "float16")

    def matmul():
        a, b = utils.exact_inputs(rng, (DIM, DIM)), utils.exact_inputs(rng, (DIM, DIM))
        da, db, dc = ptolab.from_numpy(a), ptolab.from_numpy(b), ptolab.zeros((DIM, DIM), "float32")
        ptolab.run_repeated(lambda: launcher.matmul(BLOCK_DIM, stream, da, db, dc))
        return utils.compare(ptolab, dc, a.astype(np.float32) @ b.astype(np.float32), "float32")

    def matmul_add():
        a, b = utils.exact_inputs(rng, (DIM, DIM)), utils.exact_inputs(rng, (DIM, DIM))
        d = rng.standard_normal((DIM, DIM)).astype(np.float32)
        da, db, dd = ptolab.from_numpy(a), ptolab.from_numpy(b), ptolab.from_numpy(d)
        ws, out = ptolab.zeros((DIM, DIM), "float32"), ptolab.zeros((DIM, DIM), "float32")
        ptolab.run_repeated(lambda: launcher.matmul_add(BLOCK_DIM, stream, da, db, dd, ws, out))
        return utils.compare(ptolab, out, a.astype(np.float32) @ b.astype(np.float32) + d, "float32")

    table = [("add", f"{prefix} add_64x64_fp16", add),
             ("matmul", f"{prefix} matmul_64x64x64_fp16_fp32", matmul),
             ("matmul_add", f"{prefix} matmul_add_64x64x64_mix", matmul_add)]
    for kernel, name, fn in table:
        if kernels and kernel not in kernels:
            continue
        results.check(name, fn)
