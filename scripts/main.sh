#!/usr/bin/env bash
# The main job: install what is missing, build, then run the reference smoke:
# every simulator launch path of the cookbook on both targets (ptolab smoke).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
export PTOLAB_BUILD_DIR="$build"
exec "$build/src/lab/ptolab" smoke
