#!/usr/bin/env bash
# The main job: install what is missing, build, then run the simulator smoke:
# the multi-core and mix kernels of both targets on ptosim.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest -L smoke --output-on-failure
