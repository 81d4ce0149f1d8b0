# Sourced by the scripts that run one of pto-isa's kernels/manual
# examples on simulated ranks (allgather_gemm.sh, gemm_ar.sh, tget_bandwidth.sh).
# manual_example_copy SCRIPT EXAMPLE [ARCH]: checks what the run needs (the
# checkout's example, the CANN-shaped root, MPICH), then makes the private
# copy the example builds from: its CMakeLists finds pto-isa's include/ and
# tests/ four levels up, so a copy of those and of the example keeps the
# checkout untouched. Sets `ex` to the copied example and `$work/mpich` to an
# MPI_HOME whose mpirun is MPICH's. ARCH: the folder under kernels/manual
# (default a2a3; a5 for the A5 examples). Needs `pto_isa`, `build` and `work`.
manual_example_copy() {
  local script=$1 name=$2 arch=${3:-a2a3}
  local src="$pto_isa/kernels/manual/$arch/$name"
  [ -f "$src/main.cpp" ] || { echo "$script: $src/main.cpp not found: PTO_ISA must be a pto-isa checkout" >&2; exit 2; }
  [ -f "$build/cann/set_env.sh" ] || { echo "$script: $build/cann/set_env.sh not found: build the CANN-shaped root first (scripts/build.sh)" >&2; exit 2; }
  command -v mpirun.mpich >/dev/null || { echo "$script: mpirun.mpich not found (scripts/install-deps.sh)" >&2; exit 77; }
  local mpich_lib
  mpich_lib=$(/sbin/ldconfig -p | awk '/libmpich\.so\.12 / && !f {print $NF; f = 1}')
  [ -n "$mpich_lib" ] || { echo "$script: libmpich.so.12 not found (Debian libmpich12)" >&2; exit 77; }
  rm -rf "$work/pto-isa" "$work/mpich" "$work/profile"
  mkdir -p "$work/pto-isa/kernels/manual/$arch" "$work/mpich/bin" "$work/mpich/lib"
  cp -r "$pto_isa/include" "$pto_isa/tests" "$work/pto-isa/"
  cp -r "$src" "$work/pto-isa/kernels/manual/$arch/"
  ln -s "$(command -v mpirun.mpich)" "$work/mpich/bin/mpirun"
  ln -s "$mpich_lib" "$work/mpich/lib/libmpi.so"
  ex="$work/pto-isa/kernels/manual/$arch/$name"
}
