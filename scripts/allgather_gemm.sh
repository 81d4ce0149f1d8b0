#!/usr/bin/env bash
# Builds and runs pto-isa's AllGather + GEMM example
# (kernels/manual/a2a3/allgather_gemm) on ptosim, unmodified: the same steps
# as its run.sh (input data and golden output by its gen_data.py, its
# CMakeLists with the CANN-shaped root, one process per rank under MPICH's
# mpirun), without run.sh's clean-up of the machine's IPC objects. Each
# rank runs with the cost model on (PTO_SIM_TIME=1: one line per launch with
# its simulated time), so the example's aclrtEventElapsedTime reads
# simulated device time (docs/many-devices.md, "allgather_gemm").
#
#   scripts/allgather_gemm.sh PTO_ISA [--ranks N] [--gm M] [--gk K] [--gn N]
#       [--base-m BM] [--base-n BN] [--compute-blocks C] [--comm-blocks C]
#       [--soc Ascend910B1] [--work DIR] [--profile]
#
# The run's output goes to DIR/run.log (default DIR: build/allgather_gemm),
# each line prefixed with its rank; the script ends with each kernel's
# simulated launch times on rank 0. --profile: run under ptolab profile, each
# rank's files in DIR/profile/rank<r>/ and every rank's launches on one trace
# in DIR/profile/trace.json as well (summary.json, and a trace of every
# instruction: about 200 MB per rank at M=2048 K=2048 N=1024).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
pto_isa=$(cd "$1" && pwd); shift
profile=0 ranks=2 gm=2048 gk=2048 gn=1024 base_m=128 base_n=256 compute_blocks="" comm_blocks="" soc=Ascend910B1
work="$build/allgather_gemm"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --gm) gm=$2; shift 2 ;;
    --gk) gk=$2; shift 2 ;;
    --gn) gn=$2; shift 2 ;;
    --base-m) base_m=$2; shift 2 ;;
    --base-n) base_n=$2; shift 2 ;;
    --compute-blocks) compute_blocks=$2; shift 2 ;;
    --comm-blocks) comm_blocks=$2; shift 2 ;;
    --soc) soc=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --profile) profile=1; shift ;;
    -h|--help) usage ;;
    *) echo "allgather_gemm.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "allgather_gemm.sh: gen_data.py needs numpy for /usr/bin/python3 (apt-get install python3-numpy)" >&2; exit 2; }
# shellcheck source=scripts/manual_example.sh
. "$here/manual_example.sh"
manual_example_copy allgather_gemm.sh allgather_gemm
log="$work/run.log"
: >"$log"
echo "allgather_gemm.sh: ranks=$ranks M=$gm K=$gk N=$gn base_m=$base_m base_n=$base_n soc=$soc; log: $log"

block_opts=()
[ -n "$compute_blocks" ] && block_opts+=(-DCOMPUTE_BLOCKS="$compute_blocks")
[ -n "$comm_blocks" ] && block_opts+=(-DCOMM_BLOCKS="$comm_blocks")
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex"
  /usr/bin/python3 scripts/gen_data.py --n-ranks "$ranks" --m "$gm" --k "$gk" --n "$gn" --output-dir ./out
  rm -rf build && mkdir build && cd build
  cmake -DRUN_MODE=sim -DSOC_VERSION="$soc" -DG_M="$gm" -DG_K="$gk" -DG_N="$gn" \
        -DG_BASE_M="$base_m" -DG_BASE_N="$base_n" "${block_opts[@]}" .. >/dev/null
  make -j"${PTOLAB_JOBS:-2}" >/dev/null
) >>"$log" 2>&1 || { echo "allgather_gemm.sh: the build failed; see $log" >&2; exit 1; }

start=$(date +%s)
set +e
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex/build"
  export N_RANKS="$ranks" ALLGATHER_GEMM_DATA_DIR="$ex/out" MPI_LIB_PATH="$work/mpich/lib/libmpi.so"
  if [ "$profile" = 1 ]; then
    # Under ptolab profile each rank writes its profile into profile/rank<r>/
    # and ptolab merges the ranks' traces into profile/trace.json
    # (docs/cost-model.md, "Across ranks").
    "$build/src/lab/ptolab" profile --timeout 7200 --output "$work/profile" -- \
      mpirun.mpich -prepend-rank -n "$ranks" ./allgather_gemm
  else
    PTO_SIM_TIME=1 mpirun.mpich -prepend-rank -n "$ranks" ./allgather_gemm
  fi
) >>"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
echo "allgather_gemm.sh: exit $rc after $((end - start)) s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E "Verification|SUCCESS|FAILED|compute done|Compute-only|Pipelined|Sequential" "$log" || true
# Rank 0's launches: "[0] ptosim: time: <kernel> <t> us simulated (bound: ...)".
awk '/^\[0\] ptosim: time: / { k = $4; t = $5; n[k]++; s[k] += t; if (!(k in lo) || t < lo[k]) lo[k] = t; if (t > hi[k]) hi[k] = t }
     END { for (k in n) printf "rank 0: %s: %d launches, simulated %.2f us (min) %.2f us (mean) %.2f us (max)\n", k, n[k], lo[k], s[k] / n[k], hi[k] }' "$log"
exit $rc
