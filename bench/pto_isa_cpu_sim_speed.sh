#!/usr/bin/env bash
# Simulator speed next to pto-isa's own CPU simulation: builds the same kernel
# sources (bench/cpu_sim/*.cpp) twice with the same compiler at -O2, once
# against pto-isa's headers with -D__CPU_SIM (its CPU simulation, as its
# tests/cpu/st/CMakeLists.txt builds it) and once against ptolab's include/
# for ptosim (A2A3, dav-c220, as the bench/ targets build), loads both into
# one process (bench/cpu_sim/compare.cpp) and runs them side by side on the
# same inputs. Prints, per kernel, the median host wall time of one kernel
# call on each, their ratio (pto-isa CPU sim / ptosim: above 1, ptosim is
# faster) and the largest absolute and relative difference between the two
# outputs; exits 1 when an output differs beyond the kernel's stated
# tolerance. Figures and method: docs/speed.md.
#
#   bench/pto_isa_cpu_sim_speed.sh <pto-isa checkout> [--rounds N] [--kernels a,b,...] [--quick]
#
# Kernels: row_softmax (64x128 float: TROWMAX, TROWEXPANDSUB, TEXP, TROWSUM,
# TROWEXPANDDIV), tadd and texp (64x128 float, TLOAD + op + TSTORE), ttrans
# (64x128 -> 128x64 float), tcvt (float -> half -> float), tcolsum (64x128 ->
# 1x128) and tmuls (TMULS then TMAX), each with TLOAD and TSTORE,
# matmul128 (128^3 half -> float: TLOAD to L1, TMOV to L0A/L0B, TMATMUL,
# TSTORE from L0C) and matmul256_ksplit (256^3, four 128x128 output tiles of
# four k-steps of 64, TMATMUL then TMATMUL_ACC). Each is a whole kernel
# call, sync flags included (set_flag/wait_flag are no-ops in pto-isa's CPU
# simulation). Only the kernel calls are timed: pto-isa's CPU simulation
# calls the kernel function directly; ptosim calls it inside one launch on
# one simulated core (ptosim::run_launch), whose set-up is not timed. Warm-up
# calls first, then N rounds (default 11) of a batch of calls on each side,
# alternating which goes first. A further column times ptosim with a launch
# of its own per call, set-up included (what a host program's launch costs;
# not in the ratio). --quick: one warm-up and one timed call each (the
# test's setting: the outputs are checked, the times mean nothing).
#
# Where the two APIs differ, the kernels use what both accept:
# - pto-isa's headers need <stdint.h> and <stddef.h> included first (its CPU
#   build passes -include for both) and define no GM_ADDR: the kernels take
#   __gm__ uint8_t* arguments.
# - TMATMUL_ACC(acc, a, b) (three operands) does not compile in pto-isa's CPU
#   simulation (its TMatmul.hpp has no TMATMUL_ACC_IMPL for it): the K-split
#   kernel uses TMATMUL_ACC(acc, acc, a, b).
# - half is _Float16 in pto-isa's CPU simulation and ptolab's own binary16
#   type in ptosim; the driver passes raw binary16 bytes.
# - TileLeft is the A5-style layout in pto-isa's CPU simulation and the A2A3
#   one in this ptosim build; the kernels name only the alias.
# pto-isa's CPU simulation runs an instruction on std::threads it starts for
# the call when the work reaches PTO_CPU_PARALLEL_THRESHOLD_ELEMS (16384
# elements; its matmuls and 128x128 loads), up to one per host core; ptosim
# runs the simulated core on one host thread. The times are wall time.
#
# Environment: CXX (default g++) compiles both sides; PTOLAB_BUILD_DIR
# (default ./build) holds libptosim (ninja -C build ptosim). PTO_SIM_TIME,
# PTO_SIM_PROFILE, PTO_SIM_TRACE and PTO_SIM_CHECK are cleared: ptosim runs
# as it does by default.
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
cxx="${CXX:-g++}"
[[ -f $isa/include/pto/pto-inst.hpp && -d $isa/include/pto/cpu ]] ||
    { echo "$isa is not a pto-isa checkout (no include/pto/cpu)" >&2; exit 2; }
[[ -f $libptosim ]] || { echo "no $libptosim: build it first (ninja -C $build ptosim)" >&2; exit 2; }
unset PTO_SIM_TIME PTO_SIM_PROFILE PTO_SIM_TRACE PTO_SIM_CHECK

src="$repo/bench/cpu_sim"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
kernels=(row_softmax tadd texp ttrans tcvt tcolsum tmuls matmul128 matmul256_ksplit)
common=(-std=c++20 -O2 -fPIC -fvisibility=hidden)
isa_flags=(-D__CPU_SIM -include stdint.h -include stddef.h -I"$isa/include")
sim_flags=(-D__CCE_AICORE__=220 -D__NPU_ARCH__=2201 -DMEMORY_BASE -I"$repo/include")

# compile <side> <source> <flags...>: one object; the compiler's output only on failure.
compile() {
    local side="$1" file="$2" obj
    shift 2
    obj="$tmp/$side-$(basename "$file" .cpp).o"
    if ! "$cxx" "${common[@]}" "$@" -c "$file" -o "$obj" >"$obj.log" 2>&1; then
        echo "$side: $(basename "$file") does not build:" >&2
        grep -m 20 -E 'error|Error' "$obj.log" >&2 || tail -20 "$obj.log" >&2
        exit 1
    fi
}
for k in "${kernels[@]}"; do
    compile isa "$src/$k.cpp" "${isa_flags[@]}"
    compile ptosim "$src/$k.cpp" "${sim_flags[@]}"
done
compile isa "$src/entry.cpp"
compile ptosim "$src/entry.cpp" -DPTOBENCH_PTOSIM=1 -I"$repo/include"
"$cxx" -shared -pthread -o "$tmp/libisa.so" "$tmp"/isa-*.o
"$cxx" -shared -o "$tmp/libptosim_side.so" "$tmp"/ptosim-*.o "$libptosim" -Wl,-rpath,"$(dirname "$libptosim")"
"$cxx" -std=c++20 -O2 -o "$tmp/compare" "$src/compare.cpp" -ldl

isa_rev="$(git -C "$isa" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "pto-isa $isa_rev CPU simulation vs ptosim ($(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)); $("$cxx" --version | head -1), -O2;" \
    "$(nproc) host cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$tmp/compare" "$tmp/libisa.so" "$tmp/libptosim_side.so" "$@"
