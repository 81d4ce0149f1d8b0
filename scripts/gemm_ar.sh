#!/usr/bin/env bash
# Builds and runs pto-isa's GEMM + AllReduce example
# (kernels/manual/a2a3/gemm_ar or kernels/manual/a5/gemm_ar) on ptosim,
# unmodified: the same steps as its run.sh (its CMakeLists with the
# CANN-shaped root, CONFIG_G_M/K/N and the block counts as run.sh passes
# them, HCCL_BUFFSIZE raised as run.sh raises it, one process per rank under
# MPICH's mpirun), without run.sh's clean-up of the machine's IPC objects.
# The host program makes its own inputs and golden output (a CPU GEMM per
# rank) and checks rank 0's reduced output. Each rank runs with the cost
# model on (PTO_SIM_TIME=1: one line per launch with its simulated time)
# (docs/many-devices.md, "gemm_ar").
#
#   scripts/gemm_ar.sh PTO_ISA [--target a2a3|a5] [--ranks N] [--gm M] [--gk K]
#       [--gn N] [--compute-blocks C] [--comm-blocks C] [--soc SOC] [--work DIR]
#       [--patch]
#
# pto-isa 3186c381's example does not build unmodified (docs/many-devices.md,
# "gemm_ar"). --patch changes the private copy in two places and says so:
# comm_kernel.cpp's HcclRemotePtr becomes CommRemotePtr (the name its
# common.hpp declares since pto-isa renamed it), and a kernel_operator.h
# declaring only AscendC::GlobalTensor is put beside common.hpp, which
# includes AscendC's header for that one using-declaration (ptolab has no
# AscendC).
#
# Defaults: a2a3, 8 ranks, M=5416 K=6144 N=1408 (the README's measured
# shape), 24 and 24 blocks (gemm_ar_config.h), SOC Ascend910B1 (a2a3) or
# Ascend950PR_9599 (a5). The output goes to DIR/run.log (default DIR:
# build/gemm_ar_<target>), each line prefixed with its rank; the script ends
# with rank 0's simulated launch times by phase of main.cpp: 5 + 5 warm-up
# iterations, 5 GEMM alone ("Compute-only"), 10 GEMM then AllReduce
# ("Sequential"), 10 both at once ("Pipelined"), 1 checked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
pto_isa=$(cd "$1" && pwd); shift
target=a2a3 ranks=8 gm=5416 gk=6144 gn=1408 compute_blocks="" comm_blocks="" soc="" work="" patch=0
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --gm) gm=$2; shift 2 ;;
    --gk) gk=$2; shift 2 ;;
    --gn) gn=$2; shift 2 ;;
    --compute-blocks) compute_blocks=$2; shift 2 ;;
    --comm-blocks) comm_blocks=$2; shift 2 ;;
    --soc) soc=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --patch) patch=1; shift ;;
    -h|--help) usage ;;
    *) echo "gemm_ar.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$target" in
  a2a3) soc=${soc:-Ascend910B1} ;;
  a5) soc=${soc:-Ascend950PR_9599} ;;
  *) echo "gemm_ar.sh: --target must be a2a3 or a5, not '$target'" >&2; exit 2 ;;
esac
work=${work:-$build/gemm_ar_$target}
# shellcheck source=scripts/manual_example.sh
. "$here/manual_example.sh"
manual_example_copy gemm_ar.sh gemm_ar "$target"
log="$work/run.log"
: >"$log"
if [ "$patch" = 1 ]; then
  sed -i 's/\bHcclRemotePtr\b/CommRemotePtr/g' "$ex/comm_kernel.cpp"
  printf '%s\n' '#pragma once' '// gemm_ar.sh --patch: common.hpp needs only this name from AscendC.' \
    'namespace AscendC { template <typename T> class GlobalTensor; }' >"$ex/kernel_operator.h"
  echo "gemm_ar.sh: --patch: HcclRemotePtr -> CommRemotePtr in comm_kernel.cpp, a kernel_operator.h declaring AscendC::GlobalTensor"
fi
# run.sh's HCCL window: the padded output (base blocks 128 x 256) plus 64 MB.
pad_m=$(( (gm + 127) / 128 * 128 )) pad_n=$(( (gn + 255) / 256 * 256 ))
needed_mb=$(( pad_m * pad_n * 2 / 1024 / 1024 + 64 ))
buffsize=${HCCL_BUFFSIZE:-200}
[ "$buffsize" -lt "$needed_mb" ] && buffsize=$needed_mb
echo "gemm_ar.sh: $target ranks=$ranks M=$gm K=$gk N=$gn soc=$soc HCCL_BUFFSIZE=$buffsize; log: $log"

block_opts=()
[ -n "$compute_blocks" ] && block_opts+=(-DCOMPUTE_BLOCKS="$compute_blocks")
[ -n "$comm_blocks" ] && block_opts+=(-DCOMM_BLOCKS="$comm_blocks")
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex"
  rm -rf build && mkdir build && cd build
  cmake -DRUN_MODE=sim -DSOC_VERSION="$soc" -DCONFIG_G_M="$gm" -DCONFIG_G_K="$gk" -DCONFIG_G_N="$gn" \
        "${block_opts[@]}" .. >/dev/null
  make -j"${PTOLAB_JOBS:-2}" >/dev/null
) >>"$log" 2>&1 || { echo "gemm_ar.sh: the build failed; see $log" >&2; exit 1; }

start=$(date +%s)
set +e
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex/build"
  export GEMM_AR_DIR="$ex" HCCL_BUFFSIZE="$buffsize" MPI_LIB_PATH="$work/mpich/lib/libmpi.so"
  PTO_SIM_TIME=1 mpirun.mpich -prepend-rank -n "$ranks" ./gemm_allreduce --first-device 0
) >>"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
echo "gemm_ar.sh: exit $rc after $((end - start)) s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E "SUCCESS|FAILED|VERIFY|compute done|demo completed" "$log" | grep '^\[0\]' || true
# Rank 0's launches in the order main.cpp makes them: GemmComputeKernel 36
# (warm-up 5 + 5, alone 5, sequential 10, pipelined 10, checked 1),
# GemmCommAllKernel 31 (warm-up 5 + 5, sequential 10, pipelined 10, checked 1).
awk '/^\[0\] ptosim: time: GemmComputeKernel/ { c[nc++] = $5 }
     /^\[0\] ptosim: time: GemmCommAllKernel/ { m[nm++] = $5 }
     function mean(a, lo, hi,   s, i) { s = 0; for (i = lo; i < hi; i++) s += a[i]; return s / (hi - lo) }
     END {
       if (nc != 36 || nm != 31) { printf "rank 0: %d GEMM and %d AllReduce launches, not 36 and 31: no phases\n", nc, nm; exit }
       seq_c = mean(c, 15, 25); seq_m = mean(m, 10, 20)
       p = 0; for (i = 0; i < 10; i++) p += (c[25 + i] > m[20 + i] ? c[25 + i] : m[20 + i]); p /= 10
       printf "rank 0 (simulated, mean): compute-only GEMM %.1f us\n", mean(c, 10, 15)
       printf "rank 0 (simulated, mean): sequential %.1f us = GEMM %.1f us + AllReduce %.1f us\n", seq_c + seq_m, seq_c, seq_m
       printf "rank 0 (simulated, mean): pipelined %.1f us (the later of GEMM %.1f us and AllReduce %.1f us, started together)\n", p, mean(c, 25, 35), mean(m, 20, 30)
     }' "$log"
exit $rc
