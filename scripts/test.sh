#!/usr/bin/env bash
# Every test: install what is missing, build, run the whole suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}
# One ptocc cache and one torch extension directory for the build and every
# test of this run, under the build tree (not the user's home): the cookbook's
# kernels built by the build are hits for the tests that build them again, and
# the seed's kernels compile once for all the tests that build them
# (docs/testing.md). Set either variable to use another directory.
export PTOCC_CACHE_DIR=${PTOCC_CACHE_DIR:-$build/ptocc-cache}
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-$build/torch-extensions}
"$root/scripts/build.sh"
cd "$build"
# One job more than cores: about a tenth of the suite's test time waits
# (subprocesses, leases on shared ptocc entries, MPI start-up) and the spare
# job keeps both cores busy meanwhile (docs/testing.md, "Jobs").
ctest --output-on-failure -j "$(( $(nproc) + 1 ))"
