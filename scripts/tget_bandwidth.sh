#!/usr/bin/env bash
# Builds and runs pto-isa's TGET / TGET_ASYNC bandwidth example
# (kernels/manual/a2a3/tget_bandwidth) on ptosim, unmodified, on 2 ranks:
# its CMakeLists with the CANN-shaped root, one process per rank under
# MPICH's mpirun, the cost model on in every rank (PTO_SIM_TIME=1), so that
# the kernel's SYS_CNT reads simulated time (50 MHz on A2A3,
# docs/cost-model.md, "Across ranks") and its "device_avg_cycles" are
# simulated cycles of that counter.
#
#   scripts/tget_bandwidth.sh PTO_ISA [--soc Ascend910_93] [--work DIR] [--profile]
#
# The run's output goes to DIR/run.log (default DIR: build/tget_bandwidth),
# each line prefixed with its rank; the script ends with the example's
# "[BW]" lines of rank 0 (the root). --profile: each rank's PTO_SIM_PROFILE
# in DIR/profile/rank<r>/ (through ptolab profile's layout) as well.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
pto_isa=$(cd "$1" && pwd); shift
soc=Ascend910_93 profile=0
work="$build/tget_bandwidth"
while [ $# -gt 0 ]; do
  case "$1" in
    --soc) soc=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --profile) profile=1; shift ;;
    -h|--help) usage ;;
    *) echo "tget_bandwidth.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
# shellcheck source=scripts/manual_example.sh
. "$here/manual_example.sh"
manual_example_copy tget_bandwidth.sh tget_bandwidth
log="$work/run.log"
: >"$log"
echo "tget_bandwidth.sh: 2 ranks, soc=$soc; log: $log"
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex"
  rm -rf build && mkdir build && cd build
  cmake -DRUN_MODE=sim -DSOC_VERSION="$soc" .. >/dev/null
  make -j"${PTOLAB_JOBS:-2}" >/dev/null
) >>"$log" 2>&1 || { echo "tget_bandwidth.sh: the build failed; see $log" >&2; exit 1; }

start=$(date +%s)
set +e
(
  # shellcheck disable=SC1091
  source "$build/cann/set_env.sh"
  cd "$ex/build"
  export MPI_LIB_PATH="$work/mpich/lib/libmpi.so" PTO_SIM_SOC="$soc"
  bin=./tget_bandwidth
  if [ "$profile" = 1 ]; then
    PTO_SIM_PROFILE="$work/profile" mpirun.mpich -prepend-rank -n 2 "$bin"
  else
    PTO_SIM_TIME=1 mpirun.mpich -prepend-rank -n 2 "$bin"
  fi
) >>"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
echo "tget_bandwidth.sh: exit $rc after $((end - start)) s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E "^\[0\] \[BW\]|test success|FAILED|ERROR" "$log" || true
exit $rc
