#!/usr/bin/env bash
# What a second host thread buys, measured side by side in one run: the
# 2048^3 matmul on 24 Cube cores, an empty 48-block launch and a launch per
# call of a 48-block add (build/bench/bench_ptosim's BM_MatmulMulticore2048,
# BM_LaunchEmptyKernel and BM_LaunchVecAdd64x128), each on 1 and 2 host
# threads. Prints each one's median wall time on both and the ratio
# (1 thread / 2 threads: above 1, the second thread helps). The matmul's
# output is compared byte for byte with the serial schedule's in every run;
# the script fails when it differs. Figures: docs/speed.md.
#
#   bench/host_threads.sh [--repetitions N] [--quick]
#
# --quick: one short repetition each (the test's setting: it checks that
# every row is there and the bytes agree; the times mean nothing).
# PTOLAB_BUILD_DIR: the build directory (default: build/ beside bench/).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${PTOLAB_BUILD_DIR:-$repo/build}/bench/bench_ptosim"
reps=5
min_time=0.5
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repetitions) reps="$2"; shift 2 ;;
    --quick) reps=1; min_time=0.01; shift ;;
    *) echo "host_threads.sh: unknown argument '$1' (expected --repetitions N or --quick)" >&2; exit 2 ;;
  esac
done
[[ -x "$bench" ]] || { echo "host_threads.sh: $bench is not built (run scripts/build.sh, or set PTOLAB_BUILD_DIR)" >&2; exit 2; }

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$bench" --benchmark_filter='MatmulMulticore2048|LaunchEmptyKernel/blocks:48/|LaunchVecAdd64x128/blocks:48/' \
  --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" --benchmark_format=json >"$json" 2>/dev/null

# The standard library's json only: this runs under any python3.
python3 - "$json" "$reps" <<'EOF'
import json, statistics, sys

doc = json.load(open(sys.argv[1]))
reps = int(sys.argv[2])
runs, errors = {}, []
for b in doc["benchmarks"]:
    if b.get("run_type") != "iteration":
        continue
    name = b["run_name"]
    if b.get("error_occurred"):
        errors.append(f"{name}: {b.get('error_message')}")
        continue
    per = {"ms": 1e3, "us": 1e6, "ns": 1e9}[b["time_unit"]]
    runs.setdefault(name, []).append(b["real_time"] / per)

rows = [("2048^3 matmul, 24 Cube cores", "BM_MatmulMulticore2048/threads:{}/real_time"),
        ("empty launch, 48 blocks", "BM_LaunchEmptyKernel/blocks:48/threads:{}/real_time"),
        ("a launch per call, 48-block add", "BM_LaunchVecAdd64x128/blocks:48/threads:{}/real_time")]
ctx = doc["context"]
print(f"host threads side by side: {ctx.get('num_cpus')} host CPUs, load average "
      f"{' '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}; median of {reps} repetitions, wall time\n")
print("| What | 1 thread | 2 threads | 1 thread / 2 threads |")
print("|---|--:|--:|--:|")
missing = []
for label, pattern in rows:
    one, two = runs.get(pattern.format(1)), runs.get(pattern.format(2))
    if not one or not two:
        missing.append(label)
        continue
    a, b = statistics.median(one), statistics.median(two)
    unit, scale = ("ms", 1e3) if a > 1e-3 else ("us", 1e6)
    print(f"| {label} | {a * scale:.2f} {unit} | {b * scale:.2f} {unit} | {a / b:.2f}x |")
for e in errors:
    print(f"FAIL {e}")
for m in missing:
    print(f"FAIL {m}: no time for both thread counts")
if errors or missing:
    sys.exit(1)
print("\nThe matmul's output bytes equal the serial schedule's in every run.")
EOF
