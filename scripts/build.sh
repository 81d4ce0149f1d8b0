#!/usr/bin/env bash
# Configures and builds ptolab in ./build (override with PTOLAB_BUILD_DIR),
# with PTOLAB_JOBS parallel jobs (default: one per core).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PTOLAB_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${PTOLAB_JOBS:-$(nproc)}"
