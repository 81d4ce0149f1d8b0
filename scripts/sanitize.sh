#!/usr/bin/env bash
# Builds ptolab with sanitizers and runs the tests they are meant for. Any
# sanitizer report fails the run.
#
#   scripts/sanitize.sh [-j N] [asan] [tsan]     (default: both)
#
# asan: AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/: the
#   simulator, ptocc, the runtime/ACL tests, the kernel tests of both targets
#   (multi-core and mix kernels, flags, barriers and deadlocks, the checkers'
#   faults) and the fuzz corpus runner, with leak detection.
# tsan: ThreadSanitizer in build-tsan/: the runtime/ACL tests and the
#   multi-core and mix kernel tests of both targets on three host threads
#   (the stream workers and the parallel scheduler, docs/semantics.md,
#   "Host threads"). Suppressions: scripts/tsan.supp.
#
# Environment: PTOLAB_ASAN_BUILD_DIR (default <repo>/build-asan),
# PTOLAB_TSAN_BUILD_DIR (default <repo>/build-tsan), PTOLAB_ASAN_KERNEL_TESTS
# (default "test_kernels_a2a3 test_isa_sync_a2a3 test_checkers_a2a3
# test_kernels_a5 test_isa_sync_a5 test_checkers_a5"), PTOLAB_TSAN_KERNEL_TESTS
# (default "test_kernels_a2a3 test_kernels_a5"). From scratch on 2 cores:
# about 20 minutes for asan and 10 for tsan, most of it compiling kernel tests.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=2
modes=()
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=${2:?-j needs a number}; shift 2 ;;
    asan | tsan) modes+=("$1"); shift ;;
    *) echo "usage: scripts/sanitize.sh [-j N] [asan] [tsan]" >&2; exit 2 ;;
    esac
done
[ ${#modes[@]} -gt 0 ] || modes=(asan tsan)

failed=()
logs=
run() {  # name command...
    local name=$1
    shift
    local start=$SECONDS
    if "$@" >"$logs/$name.log" 2>&1 &&
        ! grep -q -E "ERROR: (Address|Leak)Sanitizer|runtime error:|WARNING: ThreadSanitizer" "$logs/$name.log"; then
        echo "ok   $name ($((SECONDS - start)) s)"
    else
        echo "FAIL $name ($((SECONDS - start)) s): $logs/$name.log"
        grep -m 3 -E "ERROR: (Address|Leak)Sanitizer|runtime error:|WARNING: ThreadSanitizer|SUMMARY|FAILED" \
            "$logs/$name.log" | sed 's/^/       /'
        failed+=("$name")
    fi
}
configure() {  # build-dir flags
    cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS="$2" -DCMAKE_C_FLAGS="$2" \
        -DCMAKE_EXE_LINKER_FLAGS="$3" -DCMAKE_SHARED_LINKER_FLAGS="$3" >/dev/null
}
binary() { find "$1/tests" -maxdepth 2 -type f -name "$2" | head -n 1; }

asan() {
    local build=${PTOLAB_ASAN_BUILD_DIR:-$root/build-asan}
    local kernel_tests=${PTOLAB_ASAN_KERNEL_TESTS:-test_kernels_a2a3 test_isa_sync_a2a3 test_checkers_a2a3 \
test_kernels_a5 test_isa_sync_a5 test_checkers_a5}
    configure "$build" "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
        "-fsanitize=address,undefined" || return 1
    # shellcheck disable=SC2086 # kernel_tests is a list of targets
    nice -n 5 cmake --build "$build" -j "$jobs" --target ptosim ptocc test_runtime test_acl test_ptocc_unit \
        corpus_runner $kernel_tests || return 1

    # Leaks are reported; each binary stops at its first report.
    # handle_sigfpe=0 (here and for tsan): the runtime tests make kernels
    # divide by zero on purpose and check that ptosim's own report names the
    # kernel and the process dies of SIGFPE; the sanitizer's handler would
    # turn that death into its own exit code.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0:handle_sigfpe=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    logs=$build/sanitize-logs
    mkdir -p "$logs"
    run test_runtime "$build/tests/test_runtime"
    run test_acl "$build/tests/test_acl"
    for t in $kernel_tests; do run "$t" "$(binary "$build" "$t")"; done
    run test_ptocc_unit "$build/tests/cc/test_ptocc_unit"
    run ptocc_compile "$build/src/cc/ptocc" -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE \
        "$root/tests/cc/kernels/vec_add.cpp" -o "$logs/vec_add.o"
    for t in golden options rewrite diagnostics; do
        run "fuzz_corpus.$t" "$build/tests/fuzz/corpus_runner" "$t" "$root/tests/fuzz/corpus/$t" --mutations 3000
    done
}

tsan() {
    local build=${PTOLAB_TSAN_BUILD_DIR:-$root/build-tsan}
    local kernel_tests=${PTOLAB_TSAN_KERNEL_TESTS:-test_kernels_a2a3 test_kernels_a5}
    configure "$build" "-fsanitize=thread -fno-omit-frame-pointer" "-fsanitize=thread" || return 1
    # shellcheck disable=SC2086 # kernel_tests is a list of targets
    nice -n 5 cmake --build "$build" -j "$jobs" --target ptosim test_runtime test_acl $kernel_tests || return 1

    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:handle_sigfpe=0:suppressions=$root/scripts/tsan.supp}
    logs=$build/sanitize-logs
    mkdir -p "$logs"
    run tsan.test_runtime "$build/tests/test_runtime"
    run tsan.test_acl "$build/tests/test_acl"
    # More host threads than this machine may have cores: the parallel
    # scheduler's hand-overs must happen whatever the host.
    for t in $kernel_tests; do run "tsan.$t" env PTO_SIM_THREADS=3 "$(binary "$build" "$t")"; done
}

for m in "${modes[@]}"; do
    start=$SECONDS
    "$m" || failed+=("$m build")
    echo "$m: $((SECONDS - start)) s"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitize.sh: ${#failed[@]} failed: ${failed[*]}"
    exit 1
fi
echo "sanitize.sh: all clean"
