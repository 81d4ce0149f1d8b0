#!/bin/sh
# Build time of one kernel with ptocc versus the plain host compiler on the
# same source (target: ptocc <= 1.5x), both with ptocc's caches off. The plain
# build compiles ptocc's rewritten source, so both compile identical C++; the
# difference is ptocc's own work (parsing, rewriting, variants, packaging).
# Then ptocc with its caches (docs/ptocc.md, "Caches"): cold (empty cache
# directory: the precompiled headers are built too), warm precompiled header
# (results cleared before each build) and cached (nothing changed), each as a
# ratio to the build with the caches off.
# The default kernel is the mix matmul+add one (two variants: Cube and Vector).
# usage: bench/ptocc_build_speed.sh [build dir] [kernel.cpp] [arch] [repeats]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
kernel=${2:-$repo/tests/cc/kernels/mix_matmul_add.cpp}
arch=${3:-dav-c220}
reps=${4:-5}
ptocc=$build/src/cc/ptocc
[ -x "$ptocc" ] || { echo "ptocc not found at $ptocc; build it: ninja -C $build -j1 ptocc" >&2; exit 1; }
case $arch in dav-c310*) macro=-DREGISTER_BASE; t="-D__CCE_AICORE__=310 -D__NPU_ARCH__=3510 -D__PTOCC_TARGET__=1"; c220= ;;
  *) macro=-DMEMORY_BASE; t="-D__CCE_AICORE__=220 -D__NPU_ARCH__=2201 -D__PTOCC_TARGET__=0"; c220=_C220 ;; esac
# The plain build compiles the primary variant only (for a mix arch ptocc also
# builds the Vector variant, concurrently).
case $arch in
  *-vec) core="-D__DAV_VEC__ ${c220:+-D__DAV_C220_VEC__} -D__PTOCC_KIND__=0" ;;
  *-cube) core="-D__DAV_CUBE__ ${c220:+-D__DAV_C220_CUBE__} -D__PTOCC_KIND__=1" ;;
  *) core="-D__DAV_CUBE__ ${c220:+-D__DAV_C220_CUBE__} -D__PTOCC_KIND__=2" ;;
esac
opt=${PTOCC_BENCH_OPT:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PTOCC_CACHE=0

# The rewritten source and the exact primary compile command, taken from a kept build.
"$ptocc" --keep-temps -fPIC -shared -xcce --cce-aicore-arch=$arch $macro $opt "$kernel" -o "$work/warm.so" 2>"$work/keep.txt"
tmp=$(sed -n 's/^ptocc: kept temporary files in //p' "$work/keep.txt")
src=$(ls "$tmp"/*.ptocc.cpp 2>/dev/null | head -1)
[ -n "$src" ] || src=$kernel
cp "$src" "$work/plain.cpp"
rm -rf "$tmp"
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
lib=$build/src/sim
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: >"$work/t_ptocc"
: >"$work/t_plain"
i=0
while [ $i -lt "$reps" ]; do
  t0=$(now)
  "$ptocc" -fPIC -shared -xcce --cce-aicore-arch=$arch $macro $opt "$kernel" -o "$work/a.so"
  t1=$(now)
  "$cxx" -std=c++20 -fPIC -shared $opt -I"$repo/include" -iquote "$(dirname "$kernel")" \
    $t $core -D__PTOCC_VARIANT__=0 -DPTOCC_TU_ID=0x1ull $macro \
    "$work/plain.cpp" -o "$work/b.so" -L"$lib" -Wl,-rpath,"$lib" -lptosim
  t2=$(now)
  echo "$t1 - $t0" | bc >>"$work/t_ptocc"
  echo "$t2 - $t1" | bc >>"$work/t_plain"
  i=$((i + 1))
done
p=$(median <"$work/t_ptocc")
g=$(median <"$work/t_plain")
printf 'kernel %s, %s %s, %d runs (median)\n' "$(basename "$kernel")" "$arch" "$opt" "$reps"
printf '  ptocc:        %.3f s\n' "$p"
printf '  plain %s: %.3f s (compile + link of the same source)\n' "$(basename "$cxx")" "$g"
printf '  ratio:        %.2fx (target <= 1.5x)\n' "$(echo "$p / $g" | bc -l)"

# The same ptocc build with the caches, in a private cache directory.
unset PTOCC_CACHE
cache=$work/cache
timed() {  # timed <file> <prepare command>: one build after the preparation
  eval "$2"
  t0=$(now)
  PTOCC_CACHE_DIR=$cache "$ptocc" -fPIC -shared -xcce --cce-aicore-arch=$arch $macro $opt "$kernel" -o "$work/c.so"
  t1=$(now)
  echo "$t1 - $t0" | bc >>"$1"
}
: >"$work/t_cold"
: >"$work/t_pch"
: >"$work/t_hit"
i=0
while [ $i -lt "$reps" ]; do
  timed "$work/t_cold" 'rm -rf "$cache"'
  timed "$work/t_pch" 'rm -rf "$cache/results"'
  timed "$work/t_hit" ':'
  i=$((i + 1))
done
cold=$(median <"$work/t_cold")
pch=$(median <"$work/t_pch")
hit=$(median <"$work/t_hit")
printf 'with caches (PTOCC_CACHE_DIR private; ratios to ptocc with caches off):\n'
printf '  cold (builds the precompiled headers): %.3f s  %.2fx\n' "$cold" "$(echo "$cold / $p" | bc -l)"
printf '  warm precompiled header:               %.3f s  %.2fx (target <= 3 s)\n' "$pch" "$(echo "$pch / $p" | bc -l)"
printf '  unchanged kernel (result cache):       %.3f s  %.2fx (target <= 0.2 s)\n' "$hit" "$(echo "$hit / $p" | bc -l)"
