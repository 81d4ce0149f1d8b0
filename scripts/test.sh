#!/usr/bin/env bash
# Every test: install what is missing, build, run the whole suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
