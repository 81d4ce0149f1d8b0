#!/usr/bin/env bash
# Builds the simulator, ptocc, the runtime/ACL tests, three kernel test binaries
# and the fuzz corpus runner with AddressSanitizer and UndefinedBehaviorSanitizer
# in build-asan/, then runs them. Any sanitizer report fails the run.
#
#   scripts/sanitize.sh [-j N]
#
# Environment: PTOLAB_ASAN_BUILD_DIR (default <repo>/build-asan),
# PTOLAB_ASAN_KERNEL_TESTS (default "test_kernels_a2a3 test_isa_sync_a2a3
# test_checkers_a2a3": multi-core and mix kernels, flags, barriers and
# deadlocks, the checkers' faults). About 10 minutes on 2 cores from scratch,
# most of it compiling kernel tests.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_ASAN_BUILD_DIR:-$root/build-asan}
jobs=2
if [ "${1:-}" = "-j" ] && [ -n "${2:-}" ]; then jobs=$2; fi
kernel_tests=${PTOLAB_ASAN_KERNEL_TESTS:-test_kernels_a2a3 test_isa_sync_a2a3 test_checkers_a2a3}

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$san" -DCMAKE_C_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null || exit 1
# shellcheck disable=SC2086 # kernel_tests is a list of targets
nice -n 5 cmake --build "$build" -j "$jobs" --target ptosim ptocc test_runtime test_acl test_ptocc_unit \
    corpus_runner $kernel_tests || exit 1

# Leaks are reported; each binary stops at its first report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
logs=$build/sanitize-logs
mkdir -p "$logs"
failed=()
run() {  # name command...
    local name=$1
    shift
    local start=$SECONDS
    if "$@" >"$logs/$name.log" 2>&1 && ! grep -q -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$logs/$name.log"; then
        echo "ok   $name ($((SECONDS - start)) s)"
    else
        echo "FAIL $name ($((SECONDS - start)) s): $logs/$name.log"
        grep -m 3 -E "ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY|FAILED" "$logs/$name.log" | sed 's/^/       /'
        failed+=("$name")
    fi
}

run test_runtime "$build/tests/test_runtime"
run test_acl "$build/tests/test_acl"
for t in $kernel_tests; do run "$t" "$(find "$build/tests" -maxdepth 2 -type f -name "$t" | head -n 1)"; done
run test_ptocc_unit "$build/tests/cc/test_ptocc_unit"
run ptocc_compile "$build/src/cc/ptocc" -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE \
    "$root/tests/cc/kernels/vec_add.cpp" -o "$logs/vec_add.o"
for t in golden options rewrite diagnostics; do
    run "fuzz_corpus.$t" "$build/tests/fuzz/corpus_runner" "$t" "$root/tests/fuzz/corpus/$t" --mutations 3000
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitize.sh: ${#failed[@]} failed: ${failed[*]}"
    exit 1
fi
echo "sanitize.sh: all clean"
