#!/usr/bin/env bash
# Wall-time overhead of the cost model on the cookbook kernels: runs the
# dynamic_multi_core benchmark sweep of each target without timing, with
# PTO_SIM_TIME=1 (the model and its stderr line) and with PTO_SIM_PROFILE
# (the model, the summary files and the per-instruction trace), and prints
# each kernel shape's median host time and its ratio to the untimed run
# (docs/cost-model.md; the target is at most 1.5x). It also prints each
# mode's CPU time for the whole sweep, the figure to trust on a busy machine.
#
#   bench/timing_overhead.sh [target...]     # default: a2a3 a5
#
# Needs the cookbook built (reference/dynamic_multi_core/<target>/compile.sh)
# and PTO_PYTHON (default /usr/bin/python3) with NumPy.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PTO_PYTHON:-/usr/bin/python3}"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(a2a3 a5)
export PTOLAB_DEVICE=sim PTO_SIMULATOR=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for t in "${targets[@]}"; do
    dir="$repo/reference/dynamic_multi_core/$t"
    # Interleaved rounds, so a neighbour's load on a shared machine hits every
    # mode alike; each run's CPU time (user + sys) is kept as well, the robust
    # figure when the machine is busy. Times are host wall time
    # (benchmark.py --clock sim-host: its default clock is the simulated time
    # itself), every mode on the serial schedule (PTO_SIM_THREADS=1), which
    # timed launches use, so the ratio is the cost model's own.
    for round in 1 2 3; do
        for mode in off time profile; do
            case $mode in
                off) envs=() ;;
                time) envs=(PTO_SIM_TIME=1) ;;
                profile) envs=(PTO_SIM_PROFILE="$tmp/prof-$t") ;;
            esac
            (cd "$dir" && env -u PTO_SIM_TIME -u PTO_SIM_PROFILE -u PTO_SIM_TRACE PTO_SIM_THREADS=1 "${envs[@]}" "$py" -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' "$py" benchmark.py --clock sim-host --csv "$tmp/$t-$mode-$round.csv" >"$tmp/$t-$mode-$round.cpu")
        done
    done
    "$py" - "$tmp" "$t" <<'PYEOF'
import csv, statistics, sys
tmp, t = sys.argv[1], sys.argv[2]
def load(mode):
    runs = {}
    for rnd in (1, 2, 3):
        for r in csv.DictReader(l for l in open(f"{tmp}/{t}-{mode}-{rnd}.csv") if not l.startswith("#")):
            runs.setdefault((r["kernel"], r["shape"]), []).append(float(r["median_us"]))
    return {k: min(v) for k, v in runs.items()}  # the less disturbed round
off, tm, prof = load("off"), load("time"), load("profile")
print(f"{'target':6} {'kernel':11} {'shape':16} {'off us':>10} {'time us':>10} {'x':>6} {'profile us':>11} {'x':>6}")
worst_t = worst_p = 0.0
for k in off:
    a, b = tm[k] / off[k], prof[k] / off[k]
    worst_t, worst_p = max(worst_t, a), max(worst_p, b)
    print(f"{t:6} {k[0]:11} {k[1]:16} {off[k]:10.1f} {tm[k]:10.1f} {a:6.2f} {prof[k]:11.1f} {b:6.2f}")
print(f"{t}: worst wall ratio {worst_t:.2f}x with PTO_SIM_TIME=1, {worst_p:.2f}x with PTO_SIM_PROFILE (trace and summary)")
cpu = {m: min(float(open(f"{tmp}/{t}-{m}-{r}.cpu").read()) for r in (1, 2, 3)) for m in ("off", "time", "profile")}
print(f"{t}: whole sweep CPU time {cpu['off']:.2f} s off, {cpu['time']:.2f} s with PTO_SIM_TIME=1 "
      f"({cpu['time'] / cpu['off']:.2f}x), {cpu['profile']:.2f} s with PTO_SIM_PROFILE ({cpu['profile'] / cpu['off']:.2f}x)")
PYEOF
done
