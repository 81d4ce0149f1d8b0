#!/usr/bin/env bash
# Runs the timed kernel test twice with PTO_SIM_PROFILE and PTO_SIM_TRACE:
# both runs must write byte-identical summaries and traces (the model is
# deterministic), and the files must have the trace-event format's keys.
#   trace_test.sh <test_cost binary> <python> <check_trace.py>
set -euo pipefail
bin="$1" py="$2" check="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for run in a b; do
    PTO_SIM_PROFILE="$tmp/$run" PTO_SIM_TRACE="$tmp/$run.json" \
        "$bin" --gtest_filter=CostModel.KernelLaunchIsTimed >"$tmp/$run.log" 2>&1 || { cat "$tmp/$run.log"; exit 1; }
done
grep -q "ptosim: time: test_kernel 0.497 us simulated (bound: MTE2" "$tmp/a.log" || { cat "$tmp/a.log"; exit 1; }
for f in summary.json summary.txt trace.json; do
    cmp "$tmp/a/$f" "$tmp/b/$f"
done
cmp "$tmp/a.json" "$tmp/b.json"
cmp "$tmp/a.json" "$tmp/a/trace.json"
"$py" "$check" "$tmp/a/trace.json" "$tmp/a/summary.json"
