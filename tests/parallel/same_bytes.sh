#!/usr/bin/env bash
# Runs every multi-core and mix program of the cookbook (and the multi-core
# ACL host program of tests/lab) on the serial schedule and on several host
# threads, and checks that both runs leave the same bytes in device memory
# after every launch (PTO_SIM_DIGEST) and print the same stdout.
#
#   tests/parallel/same_bytes.sh <build dir> [threads ...]   (default threads: 2 3)
set -uo pipefail
build=$(cd "$1" && pwd); shift
threads=("$@"); [[ ${#threads[@]} -gt 0 ]] || threads=(2 3)
repo=$(cd "$(dirname "$0")/../.." && pwd)
py=${PTO_PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/ptolab-same-bytes.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PTOLAB_BUILD_DIR=$build PTOLAB_DEVICE=sim PTO_SIMULATOR=1

runs=(
    "dynamic_multi_core/a2a3|$py run_ctypes.py"
    "dynamic_multi_core/a2a3|$py run_mix.py"
    "dynamic_multi_core/a2a3|$py run_pybind.py"
    "dynamic_multi_core/a5|$py run_ctypes.py"
    "dynamic_multi_core/a5|$py run_mix.py"
    "dynamic_multi_core/a5|$py run_pybind.py"
    "static_single_core/a2a3|./build/main"
    "static_single_core/a5|./build/main"
    "$build/tests/lab|./acl_main $build/tests/lab/libptolab_add.so 70000 48"
)
failed=0 n=0
for r in "${runs[@]}"; do
    dir=${r%%|*} cmd=${r#*|}
    [[ $dir == /* ]] || dir=$repo/reference/$dir
    name="$(basename "$(dirname "$dir")")/$(basename "$dir"): ${cmd#"$py "}"
    name=${name//$build\//}
    if [[ ! -d $dir ]]; then echo "skip $name: $dir is not built"; continue; fi
    run() {  # threads, tag
        (cd "$dir" && PTO_SIM_THREADS=$1 PTO_SIM_DIGEST=$work/$2.digest $cmd) >"$work/$2.out" 2>"$work/$2.err"
    }
    rm -f "$work"/*.digest
    if ! run 1 serial; then
        echo "FAIL $name: the serial run failed"; sed 's/^/    /' "$work/serial.err" | tail -20; failed=1; continue
    fi
    if [[ ! -s $work/serial.digest ]]; then echo "FAIL $name: no launch was recorded"; failed=1; continue; fi
    for t in "${threads[@]}"; do
        if ! run "$t" t$t; then
            echo "FAIL $name: the run on $t threads failed"; sed 's/^/    /' "$work/t$t.err" | tail -20; failed=1; continue
        fi
        if ! diff "$work/serial.digest" "$work/t$t.digest" >"$work/diff"; then
            echo "FAIL $name: device memory differs between 1 and $t host threads:"; sed 's/^/    /' "$work/diff"; failed=1
        elif ! diff "$work/serial.out" "$work/t$t.out" >"$work/diff"; then
            echo "FAIL $name: stdout differs between 1 and $t host threads:"; sed 's/^/    /' "$work/diff" | head -20; failed=1
        else
            echo "ok   $name: $(wc -l <"$work/serial.digest") launches, same bytes on 1 and $t threads"
        fi
    done
    n=$((n + 1))
done
echo "$n programs compared"
exit $failed
