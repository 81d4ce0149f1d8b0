#!/usr/bin/env bash
# Runs pto-isa's NPU system tests on ptosim through pto-isa's own runner and
# writes docs/conformance.md; the logic is scripts/conformance.py (under
# /usr/bin/python3, which has NumPy). Usage: docs/conformance-run.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PTOLAB_CONFORMANCE_COMMAND="scripts/conformance.sh $*"
exec /usr/bin/python3 "$here/conformance.py" "$@"
