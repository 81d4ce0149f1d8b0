#!/usr/bin/env bash
# Builds this directory's kernel libraries into build/ (see ../../common/toolchain.sh
# for the compiler choice: $PTO_CC, else bisheng if CANN is installed, else ptocc).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../common/toolchain.sh"
kernel add        dav-c310-vec  -DREGISTER_BASE
kernel matmul     dav-c310-cube -DREGISTER_BASE
kernel matmul_add dav-c310      -DREGISTER_BASE
kernel add_matmul dav-c310      -DREGISTER_BASE
host_main graph_main.cpp graph_main add matmul matmul_add
pybind_module pybind_module.cpp pto_dynamic_a5 add matmul matmul_add add_matmul
