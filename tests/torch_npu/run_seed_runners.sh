#!/usr/bin/env bash
# Runs every torch/torch_npu runner of the seed's reference tree, unmodified,
# under `ptolab run --sim` (ptolab's simulated torch_npu on ptosim; the
# seed's compile.sh scripts build through ptocc). Exit 77 (skipped) without
# the seed or without torch.
# usage: run_seed_runners.sh <ptolab> <seed reference dir> <work dir> <python> <group>
# <group>: static_a2a3, static_a5, dynamic_a2a3 or dynamic_a5, so that ctest
# runs the four side by side.
set -uo pipefail

ptolab=$1
seed=${PTOLAB_SEED_REFERENCE:-$2}
work=$3
py=$4
group=$5

if [[ ! -f "$seed/pto_demo_utils.py" ]]; then
  echo "SKIP: no seed reference tree at $seed (set PTOLAB_SEED_REFERENCE)"
  exit 77
fi
if ! "$py" -c "import torch" 2>/dev/null; then
  echo "SKIP: $py cannot import torch (install python3-torch and libtorch-dev)"
  exit 77
fi

# The seed's scripts write build/ next to themselves: run a copy.
rm -rf "$work"
mkdir -p "$work"
cp -r "$seed/." "$work/"
find "$work" -name build -type d -prune -exec rm -rf {} +
find "$work" -name outputs -type d -prune -exec rm -rf {} +
# Every test builds its own copy of the seed: they share ptocc's cache entries.
export PTOCC_CACHE_BASEDIR="$work"

failed=0
# run <dir> <expected PASS lines> <runner and arguments...>
run() {
  local dir=$1 want=$2
  shift 2
  local log="$work/$(echo "$dir $*" | tr ' /' '__').log"
  (cd "$work/$dir" && "$ptolab" run --sim -- "$py" "$@") >"$log" 2>&1
  local rc=$?
  local got
  got=$(grep -c '^PASS' "$log")
  if [[ $rc -eq 0 && $got -ge $want ]]; then
    echo "PASS $dir $* ($got PASS lines)"
    grep '^PASS' "$log" | sed 's/^/    /'
  else
    echo "FAIL $dir $* (exit $rc, $got of $want PASS lines); log: $log"
    tail -20 "$log" | sed 's/^/    /'
    failed=1
  fi
}

benchmark() {
  # benchmark.py prints a table, not PASS lines: a row per kernel and size.
  blog="$work/benchmark.log"
  (cd "$work/dynamic_multi_core/a2a3" && "$ptolab" run --sim -- "$py" benchmark.py --warmup 1 --repeats 2 \
     --add-sizes 4096 65536 --matmul-m 128 256 --csv "$work/benchmark.csv") >"$blog" 2>&1
  rc=$?
  rows=$(grep -cE '^(add|simple_matmul) ' "$blog")
  if [[ $rc -eq 0 && $rows -eq 4 && -s "$work/benchmark.csv" ]] && grep -q 'simulated NPU time from ptosim' "$blog"; then
    echo "PASS dynamic_multi_core/a2a3 benchmark.py (4 rows, simulated-time label)"
    grep -E '^(kernel|add|simple_matmul) ' "$blog" | sed 's/^/    /'
  else
    echo "FAIL dynamic_multi_core/a2a3 benchmark.py (exit $rc, $rows of 4 rows); log: $blog"
    tail -20 "$blog" | sed 's/^/    /'
    failed=1
  fi
}

case $group in
static_a2a3)
  run static_single_core/a2a3 3 run_kernel_ctypes.py
  run static_single_core/a2a3 1 run_kernel_pybind.py
  ;;
static_a5)
  run static_single_core/a5 3 run_kernel_ctypes.py
  # The JIT fallback links the kernel libraries by their soname and no run path
  # (the seed verified this runner with pybind_package installed); the loader
  # finds them through LD_LIBRARY_PATH, as it would on a device.
  LD_LIBRARY_PATH="$work/static_single_core/a5/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    run static_single_core/a5 2 run_kernel_pybind.py
  ;;
dynamic_a2a3)
  run dynamic_multi_core/a2a3 2 run_kernel_ctypes.py
  run dynamic_multi_core/a2a3 2 run_mix_ctypes.py
  run dynamic_multi_core/a2a3 2 run_kernel_pybind.py
  benchmark
  ;;
dynamic_a5)
  run dynamic_multi_core/a5 0 run_kernel_ctypes.py --kernel all --output-json "$work/a5_dynamic_ctypes.json"
  if ! grep -q '"result": "PASS"' "$work/a5_dynamic_ctypes.json" 2>/dev/null; then
    echo "FAIL dynamic_multi_core/a5 run_kernel_ctypes.py: no PASS result in its JSON"
    failed=1
  fi
  run dynamic_multi_core/a5 2 run_mix_ctypes.py --kernel all --rounds 2
  run dynamic_multi_core/a5 2 run_kernel_pybind.py --kernel all
  ;;
*)
  echo "usage: run_seed_runners.sh <ptolab> <seed> <work> <python> static_a2a3|static_a5|dynamic_a2a3|dynamic_a5" >&2
  exit 2
  ;;
esac
exit $failed
