#!/usr/bin/env bash
# Two streams and an event under PTO_SIM_PROFILE, issued by one host thread
# in program order at once and with 30 ms of sleep before every launch: the
# summaries and traces are byte-identical (docs/semantics.md, "Simulated
# time of streams"), and the launch that waits for the other stream's
# event starts at the record's time.
#   stream_clock_profile_test.sh <test_stream_clock binary> <python> <check_trace.py>
set -euo pipefail
bin="$1" py="$2" check="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for order in program sleep; do
    STREAM_CLOCK_ORDER=$order PTO_SIM_PROFILE="$tmp/$order" "$bin" --gtest_also_run_disabled_tests \
        --gtest_filter=StreamClock.DISABLED_OneOrderForTheProfile >"$tmp/$order.log" 2>&1 ||
        { cat "$tmp/$order.log"; exit 1; }
done
for f in summary.json summary.txt trace.json; do
    cmp "$tmp/program/$f" "$tmp/sleep/$f" || { echo "$f differs between the two host timings"; exit 1; }
done
# A, B on s1 (1.365 us each); C on s2 beside A; D after the record that follows B.
for row in '"kernel":"A".*"starts_at_us":0.0000,"ends_at_us":1.3650' \
           '"kernel":"B".*"starts_at_us":1.3650,"ends_at_us":2.7300' \
           '"kernel":"C".*"starts_at_us":0.0000,"ends_at_us":1.4290' \
           '"kernel":"D".*"starts_at_us":2.7300,"ends_at_us":4.0950'; do
    grep -q "$row" "$tmp/program/summary.json" || { echo "no row matching $row"; cat "$tmp/program/summary.json"; exit 1; }
done
"$py" "$check" "$tmp/program/trace.json" "$tmp/program/summary.json"
