#!/usr/bin/python3
"""Speed of the cookbook's A2A3 kernels built over pto-isa's own headers
against the same kernels over ptolab's headers, side by side in one process.

Every A2A3 kernel library of reference/ (static_single_core/a2a3 and
dynamic_multi_core/a2a3: add, matmul, matmul_add) is built twice by ptocc
through the directory's own compile.sh: once with --pto-headers=pto-isa and
PTO_LIB_PATH naming the checkout (pto-isa's implementation executed over
ptosim's CCE intrinsics) and once with --pto-headers=ptolab. Both builds are
then loaded into this one process and launched on the same device inputs:
per kernel, warm-up launches on both, then rounds that each time a batch of
launches on one side and then the other (alternating which goes first). The
table gives the median host wall time of one launch (launch, run and
synchronize: what a host program pays on the simulator), the ratio
(pto-isa executed / ptolab headers) and whether the two outputs are
bit-identical. Host time only: it says how fast ptosim runs each build, not
how fast a kernel runs on an NPU.

    scripts/cookbook_speed.py /path/to/pto-isa                 # every kernel, 7 rounds
    scripts/cookbook_speed.py /path/to/pto-isa --rounds 11 --kernels add,matmul

Exit status 1 when an output differs between the two builds. Method and
figures: docs/speed.md, "The cookbook".
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIDES = ("pto-isa", "ptolab")
DIRS = ("static_single_core/a2a3", "dynamic_multi_core/a2a3")
U32 = ctypes.c_uint32
VP = ctypes.c_void_p
# The entry points of each directory's libraries (reference/*/a2a3/*.cpp).
SIGNATURES = {
    "static_single_core/a2a3": {
        "add": ("call_add", [U32, VP] + [VP] * 3),
        "matmul": ("call_matmul", [U32, VP] + [VP] * 3),
        "matmul_add": ("call_matmul_add", [U32, VP] + [VP] * 5),
    },
    "dynamic_multi_core/a2a3": {
        "add": ("call_add", [U32, VP] + [VP] * 3 + [U32]),
        "matmul": ("call_matmul", [U32, VP] + [VP] * 3 + [U32] * 3),
        "matmul_add": ("call_matmul_add", [U32, VP] + [VP] * 5 + [U32] * 3),
    },
}


def build(pto_isa: str, work: str) -> dict:
    """Builds both sides of every directory; returns {(side, dir): library directory}."""
    out = {}
    for side in SIDES:
        for d in DIRS:
            lib = os.path.join(work, side, d.replace("/", "_"))
            env = dict(os.environ, PTO_REF_OUT=lib, PTOCC_PTO_HEADERS=side, PTO_REF_SKIP_PYBIND="1")
            if side == "pto-isa":
                env["PTO_LIB_PATH"] = pto_isa
            else:
                env.pop("PTO_LIB_PATH", None)
            script = os.path.join(REPO, "reference", d, "compile.sh")
            proc = subprocess.run(["bash", script], cwd=os.path.dirname(script), env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            if proc.returncode != 0:
                sys.stdout.write(proc.stdout[-4000:])
                raise SystemExit(f"cookbook_speed: reference/{d}/compile.sh with --pto-headers={side} exited "
                                 f"{proc.returncode}; its output is above")
            out[(side, d)] = lib
    return out


def entry(libdir: str, d: str, kernel: str):
    symbol, argtypes = SIGNATURES[d][kernel]
    fn = getattr(ctypes.CDLL(os.path.join(libdir, f"lib{kernel}.so")), symbol)
    fn.argtypes, fn.restype = argtypes, None
    return fn


def addr(t) -> int:
    p = getattr(t, "_as_parameter_", t)
    return (p.value or 0) if hasattr(p, "value") else int(p)


def workloads(ptolab, np):
    """(directory, kernel, label, block_dim, inputs, output makers, sizes): the runners' shapes."""
    rng = np.random.default_rng(7)

    def half(shape):
        return ptolab.from_numpy(rng.standard_normal(shape).astype(np.float16))

    def exact(shape):  # multiples of 1/8 in [-4, 4]: fp32 matmul sums are exact
        return ptolab.from_numpy((rng.integers(-32, 33, size=shape) / 8).astype(np.float16))

    def f32(shape):
        return ptolab.from_numpy(rng.standard_normal(shape).astype(np.float32))

    vec, cube = ptolab.vector_core_count(), ptolab.cube_core_count()
    groups = min(cube, vec // 2)  # cases.mix_groups: a Cube core and two Vector cores a group
    s = "static_single_core/a2a3"
    out = [
        (s, "add", "static add 64x64 fp16", 1, [half((64, 64)), half((64, 64))],
         [lambda: ptolab.zeros((64, 64), "float16")], []),
        (s, "matmul", "static matmul 64x64x64 fp16->fp32", 1, [exact((64, 64)), exact((64, 64))],
         [lambda: ptolab.zeros((64, 64), "float32")], []),
        (s, "matmul_add", "static matmul_add 64x64x64", 1, [exact((64, 64)), exact((64, 64)), f32((64, 64))],
         [lambda: ptolab.zeros((64, 64), "float32"), lambda: ptolab.zeros((64, 64), "float32")], []),
    ]
    d = "dynamic_multi_core/a2a3"
    for rows in (256, 4096):
        bd = min(vec, -(-rows // 32))
        out.append((d, "add", f"dynamic add {rows}x256 fp16 ({bd} cores)", bd, [half((rows, 256)), half((rows, 256))],
                    [lambda rows=rows: ptolab.zeros((rows, 256), "float16")], [rows]))
    for m in (256, 512):
        tiles = (m // 64) ** 2
        bd, bdm = min(cube, tiles), min(groups, tiles)
        out.append((d, "matmul", f"dynamic matmul {m}^3 fp16->fp32 ({bd} cores)", bd, [exact((m, m)), exact((m, m))],
                    [lambda m=m: ptolab.zeros((m, m), "float32")], [m, m, m]))
        out.append((d, "matmul_add", f"dynamic matmul_add {m}^3 ({bdm} groups)", bdm,
                    [exact((m, m)), exact((m, m)), f32((m, m))],
                    [lambda bdm=bdm: ptolab.zeros((bdm, 64, 64), "float32"),
                     lambda m=m: ptolab.zeros((m, m), "float32")], list((m, m, m))))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pto_isa", help="pto-isa checkout")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--batch-ms", type=float, default=40.0, help="aim of one side's batch per round (default 40 ms)")
    p.add_argument("--kernels", help="comma-separated kernel names (add, matmul, matmul_add); default all")
    p.add_argument("--work", default=os.path.join(os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build")),
                                                  "cookbook-speed"))
    args = p.parse_args()
    pto_isa = os.path.abspath(args.pto_isa)
    if not os.path.isdir(os.path.join(pto_isa, "include", "pto", "npu", "a2a3")):
        print("cookbook_speed: give a pto-isa checkout (one with include/pto/npu/a2a3)", file=sys.stderr)
        return 2
    for v in ("PTO_SIM_TIME", "PTO_SIM_PROFILE", "PTO_SIM_TRACE", "PTO_SIM_CHECK", "PTOCC_PTO_HEADERS"):
        os.environ.pop(v, None)  # ptosim as it runs by default
    libs = build(pto_isa, args.work)
    sys.path.insert(0, os.path.join(REPO, "reference", "common"))
    import numpy as np
    import pto_demo_utils as utils
    ptolab = utils.use_target("a2a3")
    only = set(args.kernels.split(",")) if args.kernels else None
    stream = ptolab.stream_ptr()
    isa_rev = subprocess.run(["git", "-C", pto_isa, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip() or "unknown"
    own_rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip() or "unknown"
    load = open("/proc/loadavg").read().split()[:3]
    print(f"cookbook, A2A3 ({ptolab.soc_name()}): pto-isa {isa_rev}'s headers executed over the CCE layer vs ptolab's "
          f"headers (ptolab {own_rev}), ptocc -O2; {os.cpu_count()} host cores, load average {' '.join(load)}\n")
    print("| Kernel | pto-isa executed (ms) | ptolab headers (ms) | Ratio | Outputs |")
    print("|---|--:|--:|--:|---|")
    differ = 0
    for d, kernel, label, bd, inputs, makers, sizes in workloads(ptolab, np):
        if only and kernel not in only:
            continue
        calls, outs = {}, {}
        for side in SIDES:
            fn = entry(libs[(side, d)], d, kernel)
            outs[side] = [m() for m in makers]
            argv = [bd, addr(stream)] + [addr(t) for t in inputs + outs[side]] + sizes
            calls[side] = (lambda fn=fn, argv=argv: fn(*argv))

        def once(side):
            calls[side]()
            ptolab.synchronize()

        for _ in range(args.warmup):
            for side in SIDES:
                once(side)
        t0 = time.perf_counter()
        once(SIDES[0])
        batch = max(1, int(args.batch_ms / 1e3 / max(time.perf_counter() - t0, 1e-6)))
        times = {side: [] for side in SIDES}
        for r in range(args.rounds):
            for side in (SIDES if r % 2 == 0 else SIDES[::-1]):
                t0 = time.perf_counter()
                for _ in range(batch):
                    once(side)
                times[side].append((time.perf_counter() - t0) / batch)
        med = {side: statistics.median(times[side]) * 1e3 for side in SIDES}
        # The last output of each (matmul_add: its result, not the workspace).
        a, b = (outs[side][-1].numpy().tobytes() for side in SIDES)
        same = a == b
        differ += not same
        print(f"| {label} | {med['pto-isa']:.3f} | {med['ptolab']:.3f} | {med['pto-isa'] / med['ptolab']:.2f}x | "
              f"{'bit-identical' if same else 'DIFFER'} |", flush=True)
    print(f"\nMedian host wall time of one launch (launch, run, synchronize) over {args.rounds} rounds; "
          "ratio = pto-isa executed / ptolab headers (>1: ptolab headers faster). Simulator host time, not NPU time.")
    if differ:
        print(f"cookbook_speed: {differ} output(s) differ between the two builds", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
