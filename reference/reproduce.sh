#!/usr/bin/env bash
# The reference smoke: builds and runs every launch path of reference/ that
# this host supports, one after another, each under the whole-process timeout.
# Prints the runners' PASS/FAIL line per case, one status line per path and a
# summary; exits non-zero at the first unexpected failure. Real-device paths
# the host cannot run are listed with the reason.
#
#   reference/reproduce.sh            # run the smoke
#   reference/reproduce.sh --log      # the same, recorded in verification-log.md by `ptolab log`
#   reference/reproduce.sh --list     # print the paths it would run, run nothing
#
# Environment: PTOLAB_BUILD_DIR (default <repo>/build), PTO_PYTHON (an
# interpreter with NumPy; default /usr/bin/python3 when it has NumPy),
# PTO_PROCESS_TIMEOUT_S / PTO_PROCESS_KILL_AFTER_S (per path; ptolab run's
# defaults apply when unset: 1800 s in the simulator, 10 s grace), NPU_DEVICE.
set -uo pipefail
ref="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$ref/common/tools.sh"
build="$(pto_build_dir)"
cli="$build/src/lab/ptolab"

if [[ "${1:-}" == "--log" ]]; then
    [[ -x "$cli" ]] || { echo "reproduce.sh: --log needs the ptolab CLI ($cli): ninja -C $build ptolab" >&2; exit 2; }
    exec "$cli" log --python "${PTO_PYTHON:-/usr/bin/python3}" --log "$ref/verification-log.md" --title "reference smoke (simulator, ptosim)" -- "$ref/reproduce.sh"
fi
list_only=0
[[ "${1:-}" == "--list" ]] && list_only=1

py="${PTO_PYTHON:-}"
if [[ -z "$py" ]]; then
    for cand in python3 /usr/bin/python3; do
        if command -v "$cand" >/dev/null && "$cand" -c "import numpy" 2>/dev/null; then py="$(command -v "$cand")"; break; fi
    done
fi
[[ -n "$py" ]] || { echo "FAIL setup: no python3 with NumPy; set PTO_PYTHON" ; exit 2; }

# --- what this host can do -------------------------------------------------
bisheng="$(find_bisheng)"
npu=""
if command -v npu-smi >/dev/null && npu-smi info >/dev/null 2>&1; then npu="$(npu-smi info 2>/dev/null | grep -o 'Ascend9[0-9A-Za-z_]*' | head -1)"; fi
no_npu="no NPU on this host (npu-smi not found or reports no device)"
no_bisheng="no bisheng on this host (CANN not installed; set ASCEND_HOME_PATH)"

# Simulator paths run whenever ptocc and the ptolab Python package are built.
export PTOLAB_DEVICE="${PTOLAB_DEVICE:-sim}"
if [[ -z "$npu" ]]; then export PTO_SIMULATOR=1; fi

# name | directory | command (relative to the directory)
paths=(
    "static_single_core/a2a3 build|static_single_core/a2a3|./compile.sh"
    "static_single_core/a2a3 acl|static_single_core/a2a3|./build/main"
    "static_single_core/a2a3 ctypes|static_single_core/a2a3|$py run_ctypes.py"
    "static_single_core/a2a3 pybind|static_single_core/a2a3|$py run_pybind.py"
    "static_single_core/a5 build|static_single_core/a5|./compile.sh"
    "static_single_core/a5 acl|static_single_core/a5|./build/main"
    "static_single_core/a5 ctypes|static_single_core/a5|$py run_ctypes.py"
    "static_single_core/a5 pybind|static_single_core/a5|$py run_pybind.py"
    "static_single_core/a5 pybind_package|static_single_core/a5|$py pybind_package/run_package.py"
    "dynamic_multi_core/a2a3 build|dynamic_multi_core/a2a3|./compile.sh"
    "dynamic_multi_core/a2a3 ctypes|dynamic_multi_core/a2a3|$py run_ctypes.py"
    "dynamic_multi_core/a2a3 mix|dynamic_multi_core/a2a3|$py run_mix.py"
    "dynamic_multi_core/a2a3 pybind|dynamic_multi_core/a2a3|$py run_pybind.py"
    "dynamic_multi_core/a2a3 benchmark|dynamic_multi_core/a2a3|$py benchmark.py --quick --plot build/benchmark.svg"
    "dynamic_multi_core/a2a3 acl graph|dynamic_multi_core/a2a3|./build/graph_main"
    "dynamic_multi_core/a2a3 torch graph|dynamic_multi_core/a2a3|--sim $py run_graph.py"
    "dynamic_multi_core/a5 build|dynamic_multi_core/a5|./compile.sh"
    "dynamic_multi_core/a5 ctypes|dynamic_multi_core/a5|$py run_ctypes.py"
    "dynamic_multi_core/a5 mix|dynamic_multi_core/a5|$py run_mix.py"
    "dynamic_multi_core/a5 pybind|dynamic_multi_core/a5|$py run_pybind.py"
    "dynamic_multi_core/a5 benchmark|dynamic_multi_core/a5|$py benchmark.py --quick --plot build/benchmark.svg"
    "dynamic_multi_core/a5 acl graph|dynamic_multi_core/a5|./build/graph_main"
    "dynamic_multi_core/a5 torch graph|dynamic_multi_core/a5|--sim $py run_graph.py"
)

skipped=()
if [[ -z "$npu" ]]; then
    skipped+=("a2a3 real device: ctypes/pybind/ACL on Ascend910B (NPU_DEVICE=npu:0 reference/reproduce.sh): $no_npu")
    skipped+=("a5 real device: ctypes/pybind/ACL on Ascend950 (NPU_DEVICE=npu:0 reference/reproduce.sh): $no_npu")
fi
if [[ -z "$bisheng" ]]; then
    skipped+=("bisheng builds of every directory (PTO_TOOLCHAIN=bisheng ./compile.sh): $no_bisheng")
    skipped+=("CANN CA model (msprof op simulator, cannsim, -lruntime_camodel): $no_bisheng")
fi

# A command starting with --sim is a torch runner: it runs under `ptolab run
# --sim`, with the simulated torch_npu (docs/torch_npu.md).
runner() {
    if [[ "$1" == --sim ]]; then
        shift
        [[ -x "$cli" ]] || { echo "FAIL setup: torch runners need the ptolab CLI ($cli)"; return 2; }
        "$cli" run --sim -- "$@"
    elif [[ -x "$cli" ]]; then
        "$cli" run -- "$@"
    else
        timeout -k "${PTO_PROCESS_KILL_AFTER_S:-10}" "${PTO_PROCESS_TIMEOUT_S:-1800}" "$@"
    fi
}

if (( list_only )); then
    for p in "${paths[@]}"; do
        IFS='|' read -r name dir cmd <<<"$p"
        [[ "$cmd" == --sim\ * ]] && cmd="../../../build/src/lab/ptolab run --sim -- ${cmd#--sim }"
        echo "RUN  $name: (cd reference/$dir && $cmd)"
    done
    for s in "${skipped[@]}"; do echo "SKIP $s"; done
    exit 0
fi

echo "reference smoke: simulator (ptosim) on $(uname -n), python $py, build $build"
[[ -x "$build/src/cc/ptocc" ]] || { echo "FAIL setup: $build/src/cc/ptocc missing: build first (ninja -C $build)"; exit 2; }
[[ -d "$build/python/ptolab" ]] || { echo "FAIL setup: $build/python/ptolab missing: build the ptolab_python target"; exit 2; }

results="$(mktemp -d "${TMPDIR:-/tmp}/pto-smoke.XXXXXX")"
trap 'rm -rf "$results"' EXIT
started=$SECONDS
n_paths=0 n_cases=0
for p in "${paths[@]}"; do
    IFS='|' read -r name dir cmd <<<"$p"
    json="$results/$n_paths.json"
    args=()
    [[ "$cmd" == *.py* ]] && args=(--json "$json")
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086  # $cmd is a word list by construction
    out="$(cd "$ref/$dir" && runner $cmd "${args[@]}" 2>&1)"
    status=$?
    dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')
    printf '%s\n' "$out" | grep -E '^(PASS|FAIL) ' || true
    verdict=PASS
    if [[ $status -ne 0 ]]; then verdict=FAIL; fi
    if [[ -f "$json" ]]; then
        # The JSON result, not the wrapper's exit status, is the gate for runners.
        "$py" -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["passed"] else 1)' "$json" || verdict=FAIL
        n_cases=$((n_cases + $("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$json")))
    elif [[ "$cmd" == *.py* && $status -eq 0 ]]; then
        verdict=FAIL
    fi
    n_paths=$((n_paths + 1))
    echo "== $verdict path $name ($dt s)"
    if [[ $verdict != PASS ]]; then
        printf '%s\n' "$out" | tail -40
        [[ $status -eq 124 ]] && echo "   (whole-process timeout: raise PTO_PROCESS_TIMEOUT_S or look for a hang)"
        echo "FAIL smoke: $name (exit status $status): stopping at the first failure"
        for s in "${skipped[@]}"; do echo "SKIP $s"; done
        exit 1
    fi
done
for s in "${skipped[@]}"; do echo "SKIP $s"; done
echo "SUMMARY PASS: $n_paths paths, $n_cases runner cases, 0 failures, ${#skipped[@]} real-device/CANN paths skipped, $((SECONDS - started)) s (simulated runs, not device results)"
