#!/usr/bin/env bash
# ptolab profile over a 2-rank MPI run (docs/cost-model.md, "Across ranks"):
# each rank's files in DIR/rank<r>/, one merged trace.json with both ranks'
# launches (their process ids apart) that passes the trace checks, and the
# same bytes in two runs whose ranks the host starts in either order, with
# two streams on each rank (a kernel on one waits for the peer's kernel on
# the other) issued with different host delays.
#   profile_ranks_test.sh <ptolab> <mpirun> <test_comm_time> <python> <check_trace.py>
set -euo pipefail
ptolab="$1" mpirun="$2" bin="$3" py="$4" check="$5"
command -v "$mpirun" >/dev/null || { echo "$mpirun not found: skipped"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Run a delays rank 0 first in the two-stream test, run b rank 1.
late=0
for run in a b; do
    COMM_TIME_LATE=$late HCCL_BUFFSIZE=2 "$ptolab" profile --output "$tmp/$run" -- "$mpirun" -np 2 "$bin" \
        --gtest_filter='CommTime.AWait*:CommTime.TheTimes*:CommTime.TwoStreams*' >"$tmp/$run.log" 2>&1 ||
        { cat "$tmp/$run.log"; exit 1; }
    late=1
done
for r in 0 1; do
    [ -s "$tmp/a/rank$r/trace.json" ] || { echo "no rank$r/trace.json"; ls -R "$tmp/a"; exit 1; }
done
grep -q '"name":"rank 0 launch 1: ' "$tmp/a/trace.json" || { echo "rank 0's launch 1 not in the merged trace"; exit 1; }
grep -q '"name":"rank 1 launch 1: ' "$tmp/a/trace.json" || { echo "rank 1's launch 1 not in the merged trace"; exit 1; }
grep -q '"pid":200001,' "$tmp/a/trace.json" || { echo "rank 1's process ids do not start at 200001"; exit 1; }
grep -q "a write into rank 1's window" "$tmp/a/rank1/summary.json" || { echo "rank 1's wait is not reported"; exit 1; }
grep -q '^rank 1 (' "$tmp/a/summary.txt" || { echo "the merged summary.txt has no rank 1"; exit 1; }
grep -q '"name":"rank 1 launch [0-9]*: wait_then_load"' "$tmp/a/trace.json" || { echo "the two-stream launches are not in the merged trace"; exit 1; }
"$py" "$check" "$tmp/a/trace.json"
cmp "$tmp/a/trace.json" "$tmp/b/trace.json"
