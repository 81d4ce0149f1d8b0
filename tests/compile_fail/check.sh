#!/bin/sh
# Usage: check.sh <compiler> <file> <include dir> <defs> [<precompiled header>]
# Passes when <file> fails to compile and the compiler's diagnostics contain
# the text after "// expect:" in the file.
# <precompiled header>: a header holding #include <pto/pto-inst.hpp>, built
# with <defs> into <header>.gch (tests/compile_fail/CMakeLists.txt); it is
# force-included when the .gch exists and no header under <include dir> is
# newer, which spares each check the parse of the PTO headers.
compiler=$1
file=$2
inc=$3
defs=$4
pch=${5:-}
if [ -n "$pch" ] && { [ ! -f "$pch.gch" ] || [ -n "$(find "$inc" -newer "$pch.gch" -type f -print 2>/dev/null | head -n 1)" ]; }; then
    pch=""
fi
expect=$(sed -n 's|^// expect: *||p' "$file" | head -n 1)
if [ -z "$expect" ]; then
    echo "check.sh: $file has no '// expect: <text>' line" >&2
    exit 2
fi
# shellcheck disable=SC2086 # defs is a list of -D flags
out=$(LC_ALL=C "$compiler" -std=c++20 -fsyntax-only -I"$inc" $defs ${pch:+-include "$pch"} "$file" 2>&1)
status=$?
if [ $status -eq 0 ]; then
    echo "FAIL: $file compiled, but it must be rejected with: $expect"
    exit 1
fi
if printf '%s' "$out" | grep -F -q -- "$expect"; then
    echo "ok: $file rejected with: $expect"
    exit 0
fi
echo "FAIL: $file was rejected, but not with: $expect"
printf '%s\n' "$out" | head -n 40
exit 1
