#!/usr/bin/env bash
# The checkers' false-positive guard (docs/checkers.md): runs a command under
# PTO_SIM_CHECK=all and fails when it fails or when any checker reported
# anything (a warning too). Exits 77 (skipped) when the command is missing.
#
#   run_clean.sh <dir> <command> [args...]   # runs the command in <dir>
set -uo pipefail
dir="$1"
shift
if [[ ! -e "$dir/$1" && ! -x "$(command -v "$1" 2>/dev/null)" ]]; then
    echo "SKIP: $dir/$1 is not built"
    exit 77
fi
out="$(cd "$dir" && PTO_SIM_CHECK=all "$@" 2>&1)"
rc=$?
reports="$(grep -E '^ptosim: (synccheck|racecheck|memcheck|initcheck): ' <<<"$out")"
if [[ -n "$reports" ]]; then
    echo "$reports"
    echo "FAIL: the checkers reported $(wc -l <<<"$reports") finding(s) in: $*"
    exit 1
fi
if [[ $rc -ne 0 ]]; then
    tail -n 40 <<<"$out"
    echo "FAIL: exit status $rc: $*"
    exit 1
fi
echo "clean under PTO_SIM_CHECK=all: $*"
