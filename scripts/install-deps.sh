#!/usr/bin/env bash
# Installs the Debian packages ptolab builds and tests with, if any is missing.
# Needs root (or sudo) only when something must be installed.
# MPI: both MPICH (mpirun.mpich, libmpich.so) and Open MPI (mpirun.openmpi,
# libmpi.so), the two a multi-rank program may be started with (docs/many-devices.md).
set -euo pipefail

packages=(
  cmake ninja-build g++ make
  libgtest-dev libgmock-dev libbenchmark-dev libsleef-dev libboost-context-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev pybind11-dev
  python3 python3-dev python3-numpy python3-pytest python3-torch libtorch-dev python3-matplotlib
  python3-distributed python3-dask
  clang libclang-rt-14-dev
  mpich libmpich-dev openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ptolab: installing missing Debian packages: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "ptolab: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
