#!/usr/bin/env bash
# Wall-time overhead of the checkers on the cookbook kernels: runs the
# dynamic_multi_core benchmark sweep of each target once without checkers and
# once per PTO_SIM_CHECK setting (race, mem,init, all), and prints each kernel
# shape's median time and its ratio to the unchecked run (docs/checkers.md,
# "Overhead"). Times are the simulator's host wall time (benchmark.py
# --clock sim-host; its default clock is simulated device time, which the
# checkers do not change). The unchecked run uses the serial schedule
# (PTO_SIM_THREADS=1), as checked launches do, so the ratio is the checkers'
# own cost; on several host threads the unchecked run is faster still.
#
#   bench/checkers_overhead.sh [target...]     # default: a2a3 a5
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
    for mode in off race mem,init all; do
        if [[ $mode == off ]]; then
            (cd "$dir" && env -u PTO_SIM_CHECK PTO_SIM_THREADS=1 "$py" benchmark.py --clock sim-host --csv "$tmp/$t-$mode.csv" >/dev/null)
        else
            (cd "$dir" && PTO_SIM_CHECK=$mode "$py" benchmark.py --clock sim-host --csv "$tmp/$t-$mode.csv" >/dev/null)
        fi
    done
    "$py" - "$tmp/$t-off.csv" "$tmp/$t-race.csv" "$tmp/$t-mem,init.csv" "$tmp/$t-all.csv" "$t" <<'EOF'
import csv, sys
def load(p):
    return {(r["kernel"], r["shape"]): float(r["median_us"]) for r in csv.DictReader(l for l in open(p) if not l.startswith("#"))}
off, race, mem, full = (load(p) for p in sys.argv[1:5])
t = sys.argv[5]
print(f"{'target':6} {'kernel':11} {'shape':16} {'off us':>10} {'race us':>10} {'x':>6} {'mem,init':>10} {'x':>6} {'all us':>10} {'x':>6}")
worst = worst_mem = 0.0
for k in off:
    r, m, a = race[k] / off[k], mem[k] / off[k], full[k] / off[k]
    worst, worst_mem = max(worst, r), max(worst_mem, m)
    print(f"{t:6} {k[0]:11} {k[1]:16} {off[k]:10.1f} {race[k]:10.1f} {r:6.2f} {mem[k]:10.1f} {m:6.2f} {full[k]:10.1f} {a:6.2f}")
print(f"{t}: worst racecheck ratio {worst:.2f}x, worst memcheck+initcheck ratio {worst_mem:.2f}x")
EOF
done
