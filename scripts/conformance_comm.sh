#!/usr/bin/env bash
# Runs pto-isa's communication system tests (tests/npu/<target>/comm/st) on
# ptosim through pto-isa's own script, tests/run_comm_test.sh, unmodified:
# every testcase at 2, 4 and 8 ranks (up to --ranks), each rank a process
# with one simulated device, started by MPICH's mpirun (or Open MPI's).
# Prints a Markdown summary (docs/many-devices.md, "pto-isa's comm suite").
#
#   scripts/conformance_comm.sh PTO_ISA [--target a2a3|a5] [--ranks 2|4|8]
#       [--cases tput,tget] [--headers ptolab|pto-isa] [--out FILE] [--log FILE]
#       [--work DIR] [--async] [--mpi mpich|openmpi] [--record docs/conformance-comm.json]
#
# --record: merge the results into a recorded file and re-render its page
# (docs/conformance-comm.md; scripts/conformance_comm.py). The window
# transport recorded is PTOLAB_HCCL_TRANSPORT's (mpi, else shared memory).
# --async: also the asynchronous testcases (*_async: TPUT_ASYNC, TGET_ASYNC
# over SDMA), which run_comm_test.sh leaves out unless given -a.
# --headers: the PTO headers the kernels compile against (PTOCC_PTO_HEADERS,
# docs/ptocc.md): ptolab's own pto::comm (the default), or the checkout's
# pto-isa headers executed over ptosim's CCE intrinsics.
# pto-isa's script builds inside the checkout, so a private copy of its
# include/ and tests/ is made in --work (default: a temporary directory).
# pto-isa's tests load MPICH themselves (comm_mpi.h: libmpich.so, or
# $MPI_HOME/lib/libmpi.so through run_st.py's MPI_LIB_PATH): the run gives
# run_st.py an MPI_HOME whose bin/mpirun is mpirun.mpich and whose
# lib/libmpi.so is Debian's libmpich. --mpi openmpi: bin/mpirun starts
# mpirun.openmpi (oversubscribing the cores, as root if need be) and
# lib/libmpi.so is libptolab_mpich_abi, which takes the tests' MPICH handle
# values to Open MPI (src/hccl/mpich_abi.cpp).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
pto_isa=$(cd "$1" && pwd); shift
target=a2a3 ranks=8 cases="" out="" log="" work="" headers=ptolab async=0 record="" mpi=mpich
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --headers) headers=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --record) record=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --async) async=1; shift ;;
    --mpi) mpi=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "conformance_comm.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$target" in a2a3) soc=a3 ;; a5) soc=a5 ;; *) echo "--target must be a2a3 or a5" >&2; exit 2 ;; esac
case "$ranks" in 2|4|8) ;; *) echo "--ranks must be 2, 4 or 8" >&2; exit 2 ;; esac
case "$headers" in ptolab|pto-isa) ;; *) echo "--headers must be ptolab or pto-isa" >&2; exit 2 ;; esac
case "$mpi" in
  mpich)
    command -v mpirun.mpich >/dev/null || { echo "conformance_comm.sh: mpirun.mpich not found (scripts/install-deps.sh)" >&2; exit 77; }
    mpi_lib=$(/sbin/ldconfig -p | awk '/libmpich\.so\.12 / && !f {print $NF; f = 1}')
    [ -n "$mpi_lib" ] || { echo "conformance_comm.sh: libmpich.so.12 not found (Debian libmpich12)" >&2; exit 77; } ;;
  openmpi)
    command -v mpirun.openmpi >/dev/null || { echo "conformance_comm.sh: mpirun.openmpi not found (scripts/install-deps.sh)" >&2; exit 77; }
    mpi_lib="$build/src/hccl/libptolab_mpich_abi.so"
    [ -f "$mpi_lib" ] || { echo "conformance_comm.sh: $mpi_lib not built (scripts/build.sh)" >&2; exit 2; } ;;
  *) echo "--mpi must be mpich or openmpi" >&2; exit 2 ;;
esac
[ -f "$build/cann/bin/setenv.bash" ] || { echo "conformance_comm.sh: build the CANN-shaped root first (scripts/build.sh)" >&2; exit 2; }
[ -f "$pto_isa/tests/run_comm_test.sh" ] || { echo "conformance_comm.sh: $pto_isa has no tests/run_comm_test.sh" >&2; exit 2; }

if [ -z "$work" ]; then work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work"
rm -rf "$work/pto-isa" "$work/mpich"
mkdir -p "$work/pto-isa" "$work/mpich/bin" "$work/mpich/lib"
cp -r "$pto_isa/include" "$pto_isa/tests" "$work/pto-isa/"
rm -rf "$work/pto-isa/tests/npu/$target/comm/st/build"
if [ "$mpi" = mpich ]; then
  ln -s "$(command -v mpirun.mpich)" "$work/mpich/bin/mpirun"
  ln -s "$(command -v hydra_pmi_proxy)" "$work/mpich/bin/hydra_pmi_proxy"
else
  # run_st.py adds --allow-run-as-root itself when `mpirun --version` says
  # Open MPI; 8 ranks on fewer cores need --oversubscribe.
  printf '#!/bin/sh\n[ "$1" = --version ] && exec %s --version\nexec %s --oversubscribe "$@"\n' \
    "$(command -v mpirun.openmpi)" "$(command -v mpirun.openmpi)" >"$work/mpich/bin/mpirun"
  chmod +x "$work/mpich/bin/mpirun"
fi
ln -s "$mpi_lib" "$work/mpich/lib/libmpi.so"
# The A5 CCU testcases' CMakeLists (pto_comm_ccu_st) stop at configure
# unless CCU_GTEST_ROOT names a GoogleTest install prefix (lib/, include/).
# pto-isa asks for one built with the old C++ ABI because CANN's libhcomm is
# old-ABI; ptolab's libhccl/libhcomm are new-ABI and ptocc drops
# -D_GLIBCXX_USE_CXX11_ABI=0 (docs/ptocc.md), so Debian's new-ABI GoogleTest
# is the consistent one: a prefix in --work that points at it.
gtest_lib=$(ls /usr/lib/*-linux-gnu/libgtest.a /usr/lib/libgtest.a 2>/dev/null | head -1 || true)
if [ -n "$gtest_lib" ] && [ -d /usr/include/gtest ]; then
  rm -rf "$work/gtest" && mkdir -p "$work/gtest/lib" "$work/gtest/include"
  ln -s "$gtest_lib" "$work/gtest/lib/libgtest.a"
  ln -s /usr/include/gtest "$work/gtest/include/gtest"
  export CCU_GTEST_ROOT="$work/gtest"
fi
commit=$(git -C "$pto_isa" rev-parse HEAD 2>/dev/null || echo unknown)
[ -n "$log" ] || log="$build/conformance/comm-$target-$headers.log"
mkdir -p "$(dirname "$log")"

args=(-n "$ranks" -v "$soc")
[ "$async" = 1 ] && args+=(-a)
if [ -n "$cases" ]; then IFS=, read -ra cs <<<"$cases"; for c in "${cs[@]}"; do args+=(-t "$c"); done; fi
start=$(date +%s)
set +e
(
  # shellcheck disable=SC1091
  source "$build/cann/bin/setenv.bash"
  export MPI_HOME="$work/mpich" PTOCC_PTO_HEADERS="$headers"
  cd "$work/pto-isa/tests"
  bash ./run_comm_test.sh "${args[@]}"
) >"$log" 2>&1
rc=$?
set -e
secs=$(( $(date +%s) - start ))

case "${PTOLAB_HCCL_TRANSPORT:-}" in mpi) transport=mpi ;; *) transport=shm ;; esac
cmd="scripts/conformance_comm.sh PTO_ISA --target $target --headers $headers --ranks $ranks"
[ "$mpi" = openmpi ] && cmd+=" --mpi openmpi"
[ "$async" = 1 ] && cmd+=" --async"
[ -n "$cases" ] && cmd+=" --cases $cases"
[ "$transport" = mpi ] && cmd="PTOLAB_HCCL_TRANSPORT=mpi $cmd"
for v in MPIR_CVAR_ASYNC_PROGRESS PTO_SYNC_TIMEOUT_S; do [ -n "${!v:-}" ] && cmd="$v=${!v} $cmd"; done
summarize=(/usr/bin/python3 "$here/conformance_comm.py" summarize "$log" --target "$target" --headers "$headers"
  --commit "$commit" --commit-date "$(git -C "$pto_isa" log -1 --format=%cI 2>/dev/null || echo unknown)"
  --transport "$transport" --ranks "$ranks" --exit "$rc" --seconds "$secs" --command "$cmd"
  --ptolab "$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  --launcher "$mpi")
if [ "$mpi" = mpich ]; then
  summarize+=(--mpi "MPICH $(mpichversion 2>/dev/null | awk '/MPICH Version/ {print $3}')")
else
  summarize+=(--mpi "Open MPI $(mpirun.openmpi --version 2>/dev/null | awk 'NR == 1 {print $NF}')")
fi
[ -n "$out" ] && summarize+=(--out "$out")
[ -n "$record" ] && summarize+=(--record "$record")
"${summarize[@]}"
exit "$rc"
