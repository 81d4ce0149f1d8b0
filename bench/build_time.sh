#!/usr/bin/env bash
# Build time of ptolab (the targets: a clean build of everything in at most
# 6 minutes on 2 cores, a rebuild after touching one instruction header in at
# most 90 s). Copies the tracked files of this checkout (uncommitted edits
# included) to a scratch directory, as a fresh clone would have them, then:
#   1. clean: ./scripts/build.sh (configure + build of every target)
#   2. incremental: touch one instruction header, build again
# and prints wall and CPU (user + sys) time of each, and the slowest build
# steps from .ninja_log. The compile cache is off (CCACHE_DISABLE=1) so that
# the numbers are the compiler's work. On a shared machine compare CPU time:
# wall time depends on what else runs.
#
#   bench/build_time.sh [--jobs N] [--header PATH] [--keep] [--top N]
#
#   --jobs N       parallel jobs (default: nproc)
#   --header PATH  the header touched for the incremental build
#                  (default include/pto/inst/elementwise.hpp)
#   --keep         keep the scratch copy and print its path
#   --top N        slowest build steps to list (default 12)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
header=include/pto/inst/elementwise.hpp
keep=0
top=12
while [[ $# -gt 0 ]]; do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --header) header=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --top) top=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "build_time.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ -f "$repo/$header" ]] || { echo "build_time.sh: no header $header in $repo" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ptolab-build-time.XXXXXX")
if [[ $keep == 0 ]]; then trap 'rm -rf "$work"' EXIT; fi
src=$work/src
mkdir -p "$src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$src"

export CCACHE_DISABLE=1
export PTOLAB_BUILD_DIR=$src/build
# Times one command; prints "<label>: wall W s, cpu C s (user U s, sys S s)".
timed() {
    local label=$1; shift
    local t=$work/time.$RANDOM
    if ! /usr/bin/time -f "%e %U %S" -o "$t" "$@" >"$work/log.txt" 2>&1; then
        tail -30 "$work/log.txt" >&2
        echo "build_time.sh: $label failed (log above)" >&2
        exit 1
    fi
    read -r wall user sys <"$t"
    awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" \
        'BEGIN { printf "%-34s wall %7.1f s   cpu %7.1f s (user %.1f, sys %.1f)\n", l ":", w, u + s, u, s }'
}
# The slowest steps of the build since ninja's log had $1 lines (start/end in ms).
log_lines() { wc -l <"$PTOLAB_BUILD_DIR/.ninja_log"; }
slowest() {
    awk -F'\t' -v from="$1" 'NR > from && !/^#/ { t[$4] = ($2 - $1) / 1000 } END { for (o in t) printf "%8.1f s  %s\n", t[o], o }' \
        "$PTOLAB_BUILD_DIR/.ninja_log" | sort -rn | head -"$top"
}

echo "ptolab build time: $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD || echo '+edits'), $jobs jobs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
export PTOLAB_JOBS=$jobs
timed "clean build (scripts/build.sh)" "$src/scripts/build.sh"
echo "slowest steps of the clean build:"
slowest 0
from=$(log_lines)
touch "$src/$header"
timed "rebuild after touching $(basename "$header")" cmake --build "$PTOLAB_BUILD_DIR" -j "$jobs"
echo "slowest steps of the rebuild:"
slowest "$from"
if [[ $keep == 1 ]]; then echo "kept: $work"; fi
