#!/usr/bin/env python3
"""Timing template for the dynamic kernels: warmup, repeats, median/mean/stdev,
CSV, effective GB/s and TFLOP/s, and a bandwidth roofline from the SoC profile.

Clocks: on an NPU, torch.npu.Event(enable_timing=True) around the launch with
the end event synchronised (device time). In the simulator there is no device
clock: the figure is the simulator's host wall time for launch + synchronize,
labelled `sim-host` in every row, and the GB/s and TFLOP/s derived from it say
nothing about an NPU. The stream handle is fetched once per shape, outside the
timing loop (querying it has a cost on a device).

  python3 benchmark.py                 # full sweep, CSV to stdout
  python3 benchmark.py --csv out.csv   # also write the CSV
  python3 benchmark.py --quick         # one small shape per kernel (the smoke run)
"""
import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).absolute().parent  # not resolved: the script is linked into each target directory
sys.path.insert(0, str(HERE.parents[1] / "common"))
import pto_demo_utils as utils  # noqa: E402

TARGET = HERE.name


def timer(ptolab):
    """(label, fn(launch) -> seconds) for the current device."""
    if not ptolab.is_simulator_mode():
        import torch

        def device_time(launch):
            start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
            start.record()
            launch()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1e3
        return "device", device_time

    def sim_host_time(launch):
        t0 = time.perf_counter()
        launch()
        ptolab.synchronize()
        return time.perf_counter() - t0
    return "sim-host", sim_host_time


def roofline_gbps(ptolab):
    """GM bandwidth of the SoC profile, if the package exposes it."""
    prof = getattr(ptolab, "soc_profile", None)
    if prof is None:
        return None
    p = prof()
    return p.get("gm_gbps") if isinstance(p, dict) else getattr(p, "gm_gbps", None)


def workloads(ptolab, cases, quick):
    """(kernel, shape label, bytes moved, flops, make_launch(stream) -> fn)."""
    rng = np.random.default_rng(7)
    out = []
    vec, cube, groups = ptolab.vector_core_count(), ptolab.cube_core_count(), cases.mix_groups(ptolab)
    for rows in ([64] if quick else [256, 4096, 16384]):
        x = ptolab.from_numpy(rng.standard_normal((rows, cases.H)).astype(np.float16))
        y = ptolab.from_numpy(rng.standard_normal((rows, cases.H)).astype(np.float16))
        z = ptolab.zeros((rows, cases.H), "float16")
        bd = cases.block_dim_for(cases.ceil_div(rows, cases.ADD_ROWS), vec)
        out.append(("add", f"{rows}x{cases.H}", 3 * rows * cases.H * 2, rows * cases.H,
                    lambda L, s, x=x, y=y, z=z, rows=rows, bd=bd: (lambda: L.add(bd, s, x, y, z, rows))))
    for m, n, k in ([(64, 64, 64)] if quick else [(256, 256, 256), (512, 512, 512)]):
        a = ptolab.from_numpy(rng.standard_normal((m, k)).astype(np.float16))
        b = ptolab.from_numpy(rng.standard_normal((k, n)).astype(np.float16))
        c = ptolab.zeros((m, n), "float32")
        tiles = cases.ceil_div(m, cases.TILE) * cases.ceil_div(n, cases.TILE)
        bd = cases.block_dim_for(tiles, cube)
        out.append(("matmul", f"{m}x{n}x{k}", (m * k + k * n) * 2 + m * n * 4, 2 * m * n * k,
                    lambda L, s, a=a, b=b, c=c, m=m, n=n, k=k, bd=bd: (lambda: L.matmul(bd, s, a, b, c, m, n, k))))
        d = ptolab.zeros((m, n), "float32")
        bdm = cases.block_dim_for(tiles, groups)
        ws, o = ptolab.zeros((bdm, 64, 64), "float32"), ptolab.zeros((m, n), "float32")
        out.append(("matmul_add", f"{m}x{n}x{k}", (m * k + k * n) * 2 + 2 * m * n * 4, 2 * m * n * k + m * n,
                    lambda L, s, a=a, b=b, d=d, ws=ws, o=o, m=m, n=n, k=k, bd=bdm:
                    (lambda: L.matmul_add(bd, s, a, b, d, ws, o, m, n, k))))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--csv", metavar="FILE")
    p.add_argument("--json", metavar="FILE", help="write a PASS/FAIL result (every kernel timed) as JSON")
    p.add_argument("--quick", action="store_true", help="one small shape per kernel, 1 warmup, 3 repeats")
    args = p.parse_args()
    if args.quick:
        args.warmup, args.repeats = 1, 3
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    import launchers
    launch = launchers.Ctypes(libdir, ["add", "matmul", "matmul_add"])
    clock, measure = timer(ptolab)
    peak = roofline_gbps(ptolab)
    results = utils.Results(f"dynamic_multi_core/{TARGET}/benchmark.py", "ctypes")
    rows = []
    for kernel, shape, nbytes, flops, make in workloads(ptolab, cases, args.quick):
        def bench(kernel=kernel, shape=shape, nbytes=nbytes, flops=flops, make=make):
            stream = ptolab.stream_ptr()  # cached: not re-queried inside the timing loop
            fn = make(launch, stream)
            for _ in range(args.warmup):
                fn()
            ptolab.synchronize()
            samples = [measure(fn) for _ in range(args.repeats)]
            med = statistics.median(samples)
            row = {"soc": ptolab.soc_name(), "clock": clock, "kernel": kernel, "shape": shape,
                   "repeats": args.repeats, "median_us": med * 1e6, "mean_us": statistics.mean(samples) * 1e6,
                   "stdev_us": (statistics.stdev(samples) if len(samples) > 1 else 0.0) * 1e6,
                   "gbps": nbytes / med / 1e9, "tflops": flops / med / 1e12,
                   "roofline_us": (nbytes / (peak * 1e9) * 1e6) if peak else float("nan")}
            if clock == "device" and peak and row["gbps"] > peak:
                raise AssertionError(f"{row['gbps']:.0f} GB/s exceeds the {peak} GB/s roofline: the timer missed "
                                     f"async work or cache reuse is counted as bandwidth")
            rows.append(row)
            return {"median_us": row["median_us"], "clock": clock}
        results.check(f"benchmark/{TARGET} {kernel} {shape} ({clock} clock)", bench)
    fields = ["soc", "clock", "kernel", "shape", "repeats", "median_us", "mean_us", "stdev_us", "gbps", "tflops",
              "roofline_us"]
    sinks = [sys.stdout] + ([open(args.csv, "w", newline="")] if args.csv else [])
    for sink in sinks:
        w = csv.DictWriter(sink, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.3f}" if isinstance(v, float) else v) for k, v in r.items()})
    if clock == "sim-host":
        print("# clock=sim-host: simulator host wall time; not device time, and GB/s / TFLOP/s are not NPU figures")
    if peak is None:
        print("# roofline_us: n/a (the SoC profile's GM bandwidth is not exposed by this ptolab version)")
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
