#!/usr/bin/env bash
# Builds this directory's kernel libraries and ACL host program into build/.
# Compiler: $PTO_CC if set; else bisheng when CANN provides it; else ptolab's
# ptocc (same command line, simulator build). In a checkout with a configured
# ptolab build, that build decides what is out of date (../../common/toolchain.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/../../common/toolchain.sh"
ARCH_VEC=dav-c310-vec ARCH_CUBE=dav-c310-cube ARCH_MIX=dav-c310 MEM=-DREGISTER_BASE
kernel add        "$ARCH_VEC"  "$MEM"
kernel matmul     "$ARCH_CUBE" "$MEM"
kernel matmul_add "$ARCH_MIX"  "$MEM"
host_main main.cpp main add matmul matmul_add
pybind_module pybind_module.cpp pto_static_a5 add matmul matmul_add
