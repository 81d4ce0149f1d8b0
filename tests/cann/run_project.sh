#!/bin/bash
# The dropin ctest (docs/drop-in.md): configure, build and run tests/cann/project
# against the CANN-shaped root, with the root's bisheng as the C++ compiler.
# usage: run_project.sh ROOT PROJECT_DIR BUILD_DIR SOC_VERSION EXPECTED_SOC "KERNEL_ARCH_FLAGS"
set -eu
root=$1 src=$2 build=$3 soc=$4 expect=$5 arch=$6
. "$root/bin/setenv.bash"
rm -rf "$build"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$root/bin/bisheng" -DSOC_VERSION="$soc" \
      -DKERNEL_ARCH_FLAGS="$arch"
cmake --build "$build"
out=$("$build/dropin_main")
echo "$out"
case "$out" in
  "PASS dropin add 4096 elements on $expect") ;;
  *) echo "expected: PASS dropin add 4096 elements on $expect" >&2; exit 1 ;;
esac
# The dependencies ninja recorded from the depfile name the user's source,
# never ptocc's temporary copy.
deps=$(cd "$build" && ninja -t deps CMakeFiles/dropin_kernel.dir/add_kernel.cpp.o)
echo "$deps" | grep -q "$src/add_kernel.cpp" || { echo "the kernel's depfile does not name add_kernel.cpp" >&2; exit 1; }
if echo "$deps" | grep -q 'ptocc-'; then echo "the kernel's depfile names a ptocc temporary file" >&2; exit 1; fi
echo "PASS depfile names $src/add_kernel.cpp"
