#!/usr/bin/env bash
# The flag-table check itself: a copy of docs/ptocc.md with one row of the
# simulator table removed must fail naming that table and the command that
# regenerates it; --write must restore the copy to the document.
#   flag_docs_stale.sh <ptocc> <docs/ptocc.md> <scripts/ptocc_flag_docs.py>
set -uo pipefail
ptocc=$1 doc=$2 script=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/ptocc-flag-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$doc" "$work/ptocc.md"
# the first table row after the sim block's marker
awk 'f && /^\| `/ && !done {done=1; next} /print-flag-table-markdown=sim -->/ {f=1} {print}' "$doc" >"$work/ptocc.md"
cmp -s "$doc" "$work/ptocc.md" && { echo "FAIL: no row was removed from the sim table"; exit 1; }
/usr/bin/python3 "$script" "$ptocc" "$work/ptocc.md" 2>"$work/err"
rc=$?
want="$work/ptocc.md: the flag table(s) sim differ from ptocc's flag table (src/cc/options.cpp, flag_table()); regenerate them with:
  python3 scripts/ptocc_flag_docs.py $ptocc $work/ptocc.md --write"
[[ $rc -eq 1 ]] || { echo "FAIL: a stale table exits $rc, not 1"; exit 1; }
[[ "$(cat "$work/err")" == "$want" ]] || { echo "FAIL: message was:"; cat "$work/err"; echo "wanted:"; echo "$want"; exit 1; }
/usr/bin/python3 "$script" "$ptocc" "$work/ptocc.md" --write || { echo "FAIL: --write failed"; exit 1; }
cmp "$doc" "$work/ptocc.md" || { echo "FAIL: --write did not restore the document"; exit 1; }
echo "PASS: a stale sim table is named with the regenerate command, and --write restores it"
