#!/bin/bash
# The seed's reference compile.sh scripts, unmodified, against the CANN-shaped
# root (docs/drop-in.md). Runs a copy (the scripts write build/ next to
# themselves). Exit 77 (skipped) when the seed is absent.
# usage: run_seed.sh ROOT SEED_REFERENCE_DIR WORK_DIR
set -u
root=$1 seed=$2 work=$3
[ -d "$seed/static_single_core" ] || { echo "SKIP: $seed is absent"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cp -r "$seed/." "$work/"
# Every test builds its own copy of the seed: they share ptocc's cache entries.
export PTOCC_CACHE_BASEDIR="$work"
export PATH="$root/bin:$PATH"
. "$root/bin/setenv.bash"
fail=0
run() {  # dir kernel...
  local d=$1; shift
  for k in "$@"; do
    if (cd "$work/$d" && ./compile.sh "$k" > "$work/compile-${d//\//_}-$k.log" 2>&1); then
      echo "PASS build $d $k"
    else
      echo "FAIL build $d $k (log: $work/compile-${d//\//_}-$k.log)"; fail=1
    fi
  done
}
run static_single_core/a2a3 add matmul matmul_add acl_add
run static_single_core/a5 add matmul matmul_add acl_add
run dynamic_multi_core/a2a3 add matmul matmul_add add_matmul
run dynamic_multi_core/a5 add matmul mix
for t in "static_single_core/a2a3 libstatic_add_a2a3.so" "static_single_core/a5 libstatic_add_a5.so"; do
  set -- $t
  out=$(cd "$work/$1" && ./build/static_add_acl "build/$2" 2>&1)
  echo "$out" | tail -1
  echo "$out" | grep -q '^PASS' || fail=1
done
exit $fail
