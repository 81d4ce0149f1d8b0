#!/usr/bin/env bash
# Build time of ptolab (the targets: a clean build of everything in at most
# 6 minutes on 2 cores, a rebuild after touching one instruction header in at
# most 90 s). Copies the tracked files of this checkout (uncommitted edits
# included) to a scratch directory, as a fresh clone would have them, then:
#   1. clean: ./scripts/build.sh (configure + build of every target)
#   2. incremental: touch one instruction header, build again
# and prints wall and CPU (user + sys) time and build steps of each, and the
# slowest build steps from .ninja_log. The compile cache is off
# (CCACHE_DISABLE=1) so that the numbers are the compiler's work. On a shared
# machine compare CPU time: wall time depends on what else runs.
#
#   bench/build_time.sh [--jobs N] [--header PATH]... [--build-dir DIR] [--keep] [--top N]
#
#   --jobs N         parallel jobs (default: nproc)
#   --header PATH    a header touched for an incremental build (default
#                    include/pto/inst/elementwise.hpp); repeat it to time the
#                    rebuild after each of several headers, one after another
#   --build-dir DIR  skip the copy and the clean build: bring DIR, an existing
#                    build directory of this checkout, up to date (not timed),
#                    then touch each header in this checkout and time the rebuild
#   --keep           keep the scratch copy and print its path
#   --top N          slowest build steps to list (default 12)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
headers=()
build_dir=
keep=0
top=12
while [[ $# -gt 0 ]]; do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --header) headers+=("$2"); shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --top) top=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "build_time.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ ${#headers[@]} -gt 0 ]] || headers=(include/pto/inst/elementwise.hpp)
for h in "${headers[@]}"; do
    [[ -f "$repo/$h" ]] || { echo "build_time.sh: no header $h in $repo" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ptolab-build-time.XXXXXX")
if [[ -n $build_dir ]]; then
    trap 'rm -rf "$work"' EXIT
    build_dir=$(cd "$build_dir" && pwd)
    configured=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
    if [[ "$configured" != "$repo" ]]; then
        echo "build_time.sh: $build_dir is not a build directory of $repo" >&2
        exit 2
    fi
    src=$repo
else
    if [[ $keep == 0 ]]; then trap 'rm -rf "$work"' EXIT; fi
    src=$work/src
    mkdir -p "$src"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$src"
    build_dir=$src/build
fi

export CCACHE_DISABLE=1
export PTOLAB_BUILD_DIR=$build_dir
# Times one command; prints "<label>: wall W s, cpu C s (user U s, sys S s), N steps".
timed() {
    local label=$1; shift
    local t=$work/time.$RANDOM
    if ! /usr/bin/time -f "%e %U %S" -o "$t" "$@" >"$work/log.txt" 2>&1; then
        tail -30 "$work/log.txt" >&2
        echo "build_time.sh: $label failed (log above)" >&2
        exit 1
    fi
    read -r wall user sys <"$t"
    # ninja's last "[done/total]" progress line: the steps it ran.
    local steps
    steps=$(grep -o '^\[[0-9]*/[0-9]*\]' "$work/log.txt" | tail -1 | sed 's|.*/||; s|\]||')
    awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v n="${steps:-0}" \
        'BEGIN { printf "%-44s wall %7.1f s   cpu %7.1f s (user %.1f, sys %.1f)   %d steps\n", l ":", w, u + s, u, s, n }'
}
# The slowest steps of the build since ninja's log had $1 lines (start/end in ms).
log_lines() { wc -l <"$PTOLAB_BUILD_DIR/.ninja_log"; }
slowest() {
    awk -F'\t' -v from="$1" 'NR > from && !/^#/ { t[$4] = ($2 - $1) / 1000 } END { for (o in t) printf "%8.1f s  %s\n", t[o], o }' \
        "$PTOLAB_BUILD_DIR/.ninja_log" | sort -rn | head -"$top"
}

echo "ptolab build time: $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD || echo '+edits'), $jobs jobs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
export PTOLAB_JOBS=$jobs
if [[ $src != "$repo" ]]; then
    timed "clean build (scripts/build.sh)" "$src/scripts/build.sh"
    echo "slowest steps of the clean build:"
    slowest 0
else
    echo "existing build $build_dir: bringing it up to date (not timed)"
    cmake --build "$build_dir" -j "$jobs" >"$work/log.txt" 2>&1 || { tail -30 "$work/log.txt" >&2; exit 1; }
fi
for h in "${headers[@]}"; do
    from=$(log_lines)
    touch "$src/$h"
    timed "rebuild after touching $(basename "$h")" cmake --build "$PTOLAB_BUILD_DIR" -j "$jobs"
    echo "slowest steps of the rebuild:"
    slowest "$from"
done
if [[ $keep == 1 && $src != "$repo" ]]; then echo "kept: $work"; fi
