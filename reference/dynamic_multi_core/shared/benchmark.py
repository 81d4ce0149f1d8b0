#!/usr/bin/env python3
"""Timing template for the dynamic kernels: warmup, repeats, median/mean/stdev,
CSV, effective GB/s and TFLOP/s, and a bandwidth roofline from the SoC profile.

Clocks: on an NPU, torch.npu.Event(enable_timing=True) around the launch with
the end event synchronised (device time, `device` in every row). On the
simulator, ptolab.Event the same way: simulated device time from ptosim's cost
model (docs/cost-model.md), labelled `sim-device` -- a model's estimate, never
an NPU measurement. `--clock sim-host` takes the simulator's host wall time
instead (how fast the host simulates; says nothing about a kernel). The stream
handle is fetched once per shape, outside the timing loop (querying it has a
cost on a device). The roofline column is the time the SoC's peaks allow:
max(bytes / GM bandwidth, flops / Cube fp16 peak), from the simulated profile.

  python3 benchmark.py                     # full sweep, CSV to stdout
  python3 benchmark.py --csv out.csv       # also write the CSV
  python3 benchmark.py --plot bench.svg    # time per shape and the roofline (matplotlib; .svg or .png)
  python3 benchmark.py --quick             # one small shape per kernel (the smoke run)
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


def timer(ptolab, host_clock=False):
    """(label, fn(launch) -> seconds) for the current device."""
    if host_clock:
        def sim_host_time(launch):
            t0 = time.perf_counter()
            launch()
            ptolab.synchronize()
            return time.perf_counter() - t0
        return "sim-host", sim_host_time

    def event_time(launch):
        start, end = ptolab.Event(enable_timing=True), ptolab.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3
    return ("device" if not ptolab.is_simulator_mode() else "sim-device"), event_time


def peaks(ptolab):
    """(GM GB/s, Cube fp16 TFLOP/s) of the simulated SoC, or None (an NPU: ptolab does not know its figures)."""
    prof = ptolab.soc_profile()
    return (prof["gm_gbps"], prof["cube_fp16_tflops"]) if prof else None


def plot(rows, path, peak, clock):
    """Median time per shape for each kernel, and achieved TFLOP/s against arithmetic intensity under the roofline."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("benchmark.py: --plot needs matplotlib (Debian: apt-get install python3-matplotlib)")
    fig, (ax_t, ax_r) = plt.subplots(1, 2, figsize=(12, 4.5))
    for kernel in dict.fromkeys(r["kernel"] for r in rows):
        mine = [r for r in rows if r["kernel"] == kernel]
        ax_t.plot([r["shape"] for r in mine], [r["median_us"] for r in mine], marker="o", label=kernel)
        ax_r.scatter([r["intensity"] for r in mine], [r["tflops"] for r in mine], label=kernel)
    ax_t.set(yscale="log", xlabel="shape", ylabel=f"median time (us, {clock} clock)", title="time per shape")
    ax_t.tick_params(axis="x", labelrotation=30)
    if peak:
        gbps, tflops = peak
        lo = min(r["intensity"] for r in rows) / 2
        hi = max(r["intensity"] for r in rows) * 2
        xs = [lo * (hi / lo) ** (i / 63) for i in range(64)]
        ax_r.plot(xs, [min(x * gbps / 1e3, tflops) for x in xs], "k--",
                  label=f"roofline ({gbps:g} GB/s, {tflops:.0f} TFLOP/s)")
    ax_r.set(xscale="log", yscale="log", xlabel="arithmetic intensity (flop/byte)", ylabel="TFLOP/s",
             title="roofline")
    for ax in (ax_t, ax_r):
        ax.legend(fontsize="small")
    if clock != "device":
        fig.suptitle(f"{clock} clock: {'simulated by ptosim' if clock == 'sim-device' else 'simulator host time'}, "
                     "not measured on an NPU", fontsize="small")
    fig.tight_layout()
    fig.savefig(path)


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
    p.add_argument("--plot", metavar="FILE", help="draw time per shape and the roofline into FILE (.svg or .png)")
    p.add_argument("--clock", choices=["event", "sim-host"], default="event",
                   help="event: torch.npu.Event / ptolab.Event (device or simulated time); sim-host: host wall time")
    args = p.parse_args()
    if args.quick:
        args.warmup, args.repeats = 1, 3
    ptolab = utils.use_target(TARGET)
    libdir = utils.build(HERE)
    import cases
    import launchers
    launch = launchers.Ctypes(libdir, ["add", "matmul", "matmul_add"])
    clock, measure = timer(ptolab, host_clock=args.clock == "sim-host")
    peak = peaks(ptolab)
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
                   "gbps": nbytes / med / 1e9, "tflops": flops / med / 1e12, "intensity": flops / nbytes,
                   "roofline_us": max(nbytes / (peak[0] * 1e9), flops / (peak[1] * 1e12)) * 1e6 if peak
                   else float("nan")}
            if clock != "sim-host" and peak and med * 1e6 < row["roofline_us"] * 0.999:
                raise AssertionError(f"{row['median_us']:.2f} us beats the {row['roofline_us']:.2f} us roofline: the "
                                     f"timer missed work or cache reuse is counted as bandwidth")
            rows.append(row)
            return {"median_us": row["median_us"], "clock": clock}
        results.check(f"benchmark/{TARGET} {kernel} {shape} ({clock} clock)", bench)
    fields = ["soc", "clock", "kernel", "shape", "repeats", "median_us", "mean_us", "stdev_us", "gbps", "tflops",
              "intensity", "roofline_us"]
    sinks = [sys.stdout] + ([open(args.csv, "w", newline="")] if args.csv else [])
    for sink in sinks:
        w = csv.DictWriter(sink, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.3f}" if isinstance(v, float) else v) for k, v in r.items()})
    if clock == "sim-device":
        print("# clock=sim-device: simulated device time from ptosim's cost model (docs/cost-model.md); an estimate, "
              "not measured on an NPU")
    if clock == "sim-host":
        print("# clock=sim-host: simulator host wall time; not device time, and GB/s / TFLOP/s are not NPU figures")
    if peak is None:
        print("# roofline_us: n/a (ptolab does not know this NPU's peak figures)")
    if args.plot and rows:
        plot(rows, args.plot, peak, clock)
        print(f"# plot: {args.plot}")
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
