"""Shape sweeps of the dynamic kernels, shared by run_ctypes.py, run_mix.py,
run_pybind.py and benchmark.py. Each case says what it covers: one tile, two
tiles, a non-multiple tail, more tiles than physical cores, and for the mix
kernels one round or several (rounds = tiles a block processes in turn).

block_dim policy (every kernel here is persistent): block_dim = min(tiles,
physical cores of the kernel's kind): Vector cores for add, Cube cores for
matmul, Cube+2-Vector groups for the mix kernels. Never more: extra blocks
would only run in waves. A case may pin block_dim lower to force rounds."""
import numpy as np

H = 256          # add: static hidden width
ADD_ROWS = 32    # add: rows per tile
TILE = 64        # matmul family: 64x64 output tiles, K in steps of 64
ADD_MATMUL_K = 64  # add_matmul: static K


def ceil_div(a, b):
    return -(-a // b)


def mix_groups(ptolab):
    return min(ptolab.cube_core_count(), ptolab.vector_core_count() // 2)


def add_shapes(ptolab):
    cores = ptolab.vector_core_count()
    return [("one_tile", ADD_ROWS), ("two_tiles", 2 * ADD_ROWS), ("tail", 2 * ADD_ROWS + 13),
            (f"more_tiles_than_{cores}_cores", (cores + 3) * ADD_ROWS + 5)]


def matmul_shapes(ptolab):
    cores = ptolab.cube_core_count()
    side = int(np.ceil(np.sqrt(cores + 1)))  # side*side tiles > cores
    return [("one_tile", (64, 64, 64)), ("two_tiles", (64, 128, 128)), ("tail", (100, 70, 64)),
            (f"more_tiles_than_{cores}_cores", (side * 64 - 3, side * 64 + 5, 128))]


def mix_shapes(ptolab, k_static=None):
    """(name, (m, n, k), block_dim or None): rounds 1 and more."""
    groups = mix_groups(ptolab)
    side = int(np.ceil(np.sqrt(groups + 1)))
    k = k_static or 128
    return [("one_tile_rounds1", (64, 64, k), None),
            ("two_tiles_rounds1", (64, 128, k), None),
            ("tail_rounds1", (100, 70, k_static or 64), None),
            ("short_tail_rounds1", (17, 64, k), None),
            ("tail_rounds3_block_dim1", (150, 64, k), 1),
            (f"more_tiles_than_{groups}_groups_rounds2", (side * 64 - 7, side * 64 + 9, k), None)]


def block_dim_for(tiles, cores, pinned=None):
    return pinned if pinned else max(1, min(tiles, cores))


def run_add(ptolab, utils, results, launch, prefix):
    rng = np.random.default_rng(1)
    stream = ptolab.stream_ptr()  # once per process, not per launch
    for name, rows in add_shapes(ptolab):
        def case(rows=rows):
            x = rng.standard_normal((rows, H)).astype(np.float16)
            y = rng.standard_normal((rows, H)).astype(np.float16)
            dx, dy, dz = ptolab.from_numpy(x), ptolab.from_numpy(y), ptolab.zeros((rows, H), "float16")
            bd = block_dim_for(ceil_div(rows, ADD_ROWS), ptolab.vector_core_count())
            ptolab.run_repeated(lambda: launch.add(bd, stream, dx, dy, dz, rows))
            rep = utils.compare(ptolab, dz, x + y, "float16")
            rep.update(block_dim=bd, shape=f"{rows}x{H}")
            return rep
        results.check(f"{prefix} add {name} rows={rows}", case)


def run_matmul(ptolab, utils, results, launch, prefix):
    rng = np.random.default_rng(2)
    stream = ptolab.stream_ptr()
    for name, (m, n, k) in matmul_shapes(ptolab):
        def case(m=m, n=n, k=k):
            a, b = utils.exact_inputs(rng, (m, k)), utils.exact_inputs(rng, (k, n))
            da, db, dc = ptolab.from_numpy(a), ptolab.from_numpy(b), ptolab.zeros((m, n), "float32")
            bd = block_dim_for(ceil_div(m, TILE) * ceil_div(n, TILE), ptolab.cube_core_count())
            ptolab.run_repeated(lambda: launch.matmul(bd, stream, da, db, dc, m, n, k))
            rep = utils.compare(ptolab, dc, a.astype(np.float32) @ b.astype(np.float32), "float32")
            rep.update(block_dim=bd, shape=f"{m}x{n}x{k}")
            return rep
        results.check(f"{prefix} matmul {name} m={m} n={n} k={k}", case)


def run_matmul_add(ptolab, utils, results, launch, prefix):
    rng = np.random.default_rng(3)
    stream = ptolab.stream_ptr()
    for name, (m, n, k), pinned in mix_shapes(ptolab):
        def case(m=m, n=n, k=k, pinned=pinned):
            a, b = utils.exact_inputs(rng, (m, k)), utils.exact_inputs(rng, (k, n))
            d = rng.standard_normal((m, n)).astype(np.float32)
            tiles = ceil_div(m, TILE) * ceil_div(n, TILE)
            bd = block_dim_for(tiles, mix_groups(ptolab), pinned)
            da, db, dd = ptolab.from_numpy(a), ptolab.from_numpy(b), ptolab.from_numpy(d)
            ws, out = ptolab.zeros((bd, TILE, TILE), "float32"), ptolab.zeros((m, n), "float32")
            ptolab.run_repeated(lambda: launch.matmul_add(bd, stream, da, db, dd, ws, out, m, n, k))
            rep = utils.compare(ptolab, out, a.astype(np.float32) @ b.astype(np.float32) + d, "float32")
            rep.update(block_dim=bd, rounds=ceil_div(tiles, bd), shape=f"{m}x{n}x{k}")
            return rep
        results.check(f"{prefix} matmul_add {name} m={m} n={n} k={k}", case)


def run_add_matmul(ptolab, utils, results, launch, prefix):
    rng = np.random.default_rng(4)
    stream = ptolab.stream_ptr()
    k = ADD_MATMUL_K
    for name, (m, n, _), pinned in mix_shapes(ptolab, k_static=k):
        def case(m=m, n=n, pinned=pinned):
            # x + y must stay exact in fp16 for the fp32 check to be order-independent.
            x, y = utils.exact_inputs(rng, (m, k), span=2), utils.exact_inputs(rng, (m, k), span=2)
            b = utils.exact_inputs(rng, (k, n))
            tiles = ceil_div(m, TILE) * ceil_div(n, TILE)
            bd = block_dim_for(tiles, mix_groups(ptolab), pinned)
            dx, dy, db = ptolab.from_numpy(x), ptolab.from_numpy(y), ptolab.from_numpy(b)
            out = ptolab.zeros((m, n), "float32")
            ptolab.run_repeated(lambda: launch.add_matmul(bd, stream, dx, dy, db, out, m, n))
            s = (x + y).astype(np.float32)
            rep = utils.compare(ptolab, out, s @ b.astype(np.float32), "float32")
            rep.update(block_dim=bd, rounds=ceil_div(tiles, bd), shape=f"{m}x{n}x{k}")
            return rep
        results.check(f"{prefix} add_matmul {name} m={m} n={n} k={k}", case)


RUNNERS = {"add": run_add, "matmul": run_matmul, "matmul_add": run_matmul_add, "add_matmul": run_add_matmul}
