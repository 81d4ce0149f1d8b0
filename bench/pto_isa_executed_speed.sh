#!/usr/bin/env bash
# The cost of executing pto-isa's own implementation on ptosim, next to
# ptolab's own tile-level headers: builds the kernels of bench/cpu_sim twice
# with ptocc for A2A3 (dav-c220-vec, dav-c220-cube for the matmuls) or, with
# --target a5, for A5 (dav-c310-vec, dav-c310-cube: pto-isa's register-based
# implementation over ptosim's A5 register layer), once
# with --pto-headers=pto-isa -I<checkout>/include (pto-isa's headers compiled
# with clang over ptosim's CCE intrinsics, as a build naming a pto-isa tree
# gets by default) and once with --pto-headers=ptolab, loads both into one
# process (bench/cpu_sim/compare.cpp) and runs them side by side on the same
# inputs and device memory. Prints, per kernel, the median host wall time of
# one kernel call on each, their ratio (executed / ptolab's headers: the
# issue's aim is at most 2) and the largest difference between the two
# outputs; exits 1 when an output differs beyond the kernel's stated
# tolerance. Method and figures: docs/speed.md.
#
#   bench/pto_isa_executed_speed.sh <pto-isa checkout> [--target a2a3|a5] [--rounds N] [--kernels a,b,...] [--quick]
#
# Wall times on a shared host move with its load; the ratio is measured
# within one process, each round alternating which side goes first.
#
# Environment: PTOLAB_BUILD_DIR (default ./build) holds ptocc and libptosim.
# PTO_SIM_TIME, PTO_SIM_PROFILE, PTO_SIM_TRACE and PTO_SIM_CHECK are
# cleared: ptosim runs as it does by default.
set -euo pipefail
if [[ $# -lt 1 || $1 == -* ]]; then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
isa="$(cd "$1" && pwd)"
shift
build="${PTOLAB_BUILD_DIR:-$repo/build}"
libptosim="$build/src/sim/libptosim.so"
ptocc="$build/cann/bin/bisheng"
target=a2a3
if [[ ${1:-} == --target ]]; then
    target="${2:-}"
    shift 2 || true
fi
case $target in
a2a3) vec=dav-c220-vec cube=dav-c220-cube memory=-DMEMORY_BASE ;;
a5) vec=dav-c310-vec cube=dav-c310-cube memory=-DREGISTER_BASE ;;
*) echo "--target must be a2a3 or a5, not '$target'" >&2; exit 2 ;;
esac
[[ -d $isa/include/pto/npu/$target ]] || { echo "$isa is not a pto-isa checkout (no include/pto/npu/$target)" >&2; exit 2; }
[[ -f $libptosim && -x $ptocc ]] || { echo "no $libptosim or $ptocc: build ptolab first (scripts/build.sh)" >&2; exit 2; }
unset PTO_SIM_TIME PTO_SIM_PROFILE PTO_SIM_TRACE PTO_SIM_CHECK PTOCC_PTO_HEADERS

src="$repo/bench/cpu_sim"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
kernels=(row_softmax tadd texp ttrans tcvt tcolsum tmuls matmul128 matmul256_ksplit)

# compile <side> <kernel>: one object with ptocc; its messages only on failure.
compile() {
    local side="$1" k="$2" arch=$vec obj
    [[ $k == matmul* ]] && arch=$cube
    obj="$tmp/$side-$k.o"
    if ! "$ptocc" --pto-headers="$side" -fPIC -c -xcce --cce-aicore-arch="$arch" "$memory" -O2 \
        -I"$isa/include" "$src/$k.cpp" -o "$obj" >"$obj.log" 2>&1; then
        echo "$side: $k does not build:" >&2
        grep -m 20 -E 'error' "$obj.log" >&2 || tail -20 "$obj.log" >&2
        exit 1
    fi
}
for k in "${kernels[@]}"; do
    compile pto-isa "$k"
    compile ptolab "$k"
done
c++ -std=c++20 -O2 -fPIC -DPTOBENCH_PTOSIM=1 -I"$repo/include" -c "$src/entry.cpp" -o "$tmp/entry.o"
for side in pto-isa ptolab; do
    c++ -shared -o "$tmp/lib$side.so" "$tmp/$side"-*.o "$tmp/entry.o" "$libptosim" \
        -Wl,-rpath,"$(dirname "$libptosim")"
done
c++ -std=c++20 -O2 -o "$tmp/compare" "$src/compare.cpp" -ldl

isa_rev="$(git -C "$isa" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "ptosim ($(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)): pto-isa $isa_rev's headers executed" \
    "over the CCE layer vs ptolab's headers, ${target^^}, -O2; $(nproc) host cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$tmp/compare" "$tmp/libpto-isa.so" "$tmp/libptolab.so" --names "pto-isa executed,ptolab headers" "$@"
