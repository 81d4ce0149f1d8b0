#!/usr/bin/env bash
# Runs pto-isa's own non-GEMM performance kernels (kernels/manual/a2a3/
# flash_atten (or common/flash_atten), conv2d_forward, topk) end to end on ptosim with the cost model
# on, at the sizes of their published measurement tables, and prints the
# simulated time next to the published one (docs/cost-model.md, "Published
# kernels run on ptosim"). Each kernel is built unmodified except for its
# size constants (or, for flash attention, the case list its run.sh passes)
# through the CANN-shaped root, in a temporary copy; nothing is kept. The
# kernel's own golden check must pass for a row to count.
#
#   bench/pto_isa_kernels_timing.sh <pto-isa checkout> fa     [CORES,S1[,SOC] ...]   # default: the README's 16
#   bench/pto_isa_kernels_timing.sh <pto-isa checkout> conv2d [C1,H,W,N ...]   # default: 16,12,64,3072 24,12,96,4608
#   bench/pto_isa_kernels_timing.sh <pto-isa checkout> topk   [ROWS[,half] ...] # default: 2304
#   bench/pto_isa_kernels_timing.sh <pto-isa checkout> mxfp8  [S ...]          # default: 2048
#
# fa: HEAD = 128, S0 = 128 x CORES (one 128-row block per core, as the
# README's tables), TILE_S1 = 256 and QK preload 4 (generate_cases.py's
# defaults; the README does not say which were measured). SOC is the profile
# (default Ascend910_93, the A3 of the README's per-core tables; its 910B2
# table of S0 = S1 runs takes Ascend910B2).
# conv2d: X = [4, C1, H, W, 16] (NC1HWC0), K = [C1 x 9, N / 16, 16, 16], 3 x 3
# with padding 1, so m = 4 H W, k = 144 C1, n = N, split 4 x 6 over 24 cores
# (singleCoreM = m / 4, singleCoreN = n / 6, the README's split).
# topk: float, validRow = rows = ROWS, validCol = 1024, cols = 1280, topk = 1000;
# ROWS,half: the README's half row (topk = 1008): main.cpp's Topk<float> becomes
# Topk<uint16_t> (the kernel runs half for uint16_t), launchTopk<uint16_t> is
# instantiated and gen_data.py makes float16 data.
# mxfp8 (A5, Ascend950DT profile): m = k = n = S, the README's 4 x 8 split over
# 32 cores (singleCoreM = S / 4, singleCoreN = S / 8); its data generator
# needs ml_dtypes, taken from build/conformance/python (the build's ml_dtypes
# target).
#
# Two times are printed: the launch time (cores plus the profile's fixed launch
# overhead) and the cores' time alone. The flash-attention README times the
# kernel from inside (the earliest get_sys_cnt() at a block's start to the
# latest at a block's end), which has no launch overhead, so its ratio uses
# the cores' time; the conv2d and topk tables are msprof task durations, so
# theirs use the launch time, as bench/pto_isa_gemm_timing.sh does.
#
# Needs the build's ptocc, cann_root and ptolab targets, and PTO_PYTHON
# (default /usr/bin/python3) with NumPy.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
isa="$(cd "$1" && pwd)"
kernel="$2"
shift 2
cases=("$@")
py="${PTO_PYTHON:-/usr/bin/python3}"
ptolab="$repo/build/src/lab/ptolab"
# The published rows of docs/cost-model.md were timed on ptolab's tile-level
# headers (their costs are the calibrated ones); PTOCC_PTO_HEADERS=pto-isa
# times pto-isa's own implementation on the CCE layer instead.
export PTOCC_PTO_HEADERS="${PTOCC_PTO_HEADERS:-ptolab}"
eval "$("$ptolab" env)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kernels/manual/a2a3" "$tmp/tests"
ln -s "$isa/include" "$tmp/include"
ln -s "$isa/tests/common" "$tmp/tests/common"

# Published figures (us), pto-isa commit defdb75f.
# flash_atten/README.md "Total task time (us)", keyed CORES,S1.
declare -A fa_pub=([1,1024]=42.08 [1,2048]=51.44 [1,4096]=43.80 [1,8192]=74.54
    [2,1024]=33.201 [2,2048]=44.101 [2,4096]=43.521 [2,8192]=75.162
    [4,1024]=41.721 [4,2048]=55.441 [4,4096]=46.621 [4,8192]=86.322
    [8,1024]=63.72 [8,2048]=85.882 [8,4096]=64.461 [8,8192]=107.342
    [16,2048]=147.92  # "Sim vs NPU comparison (Seq = 2K)", onboard row (its GOps and TFLOPS put it at 16 cores)
    # "910B2 Multi-Core Comparison" (pto-isa 3186c381): S0 = S1, 128-row blocks.
    [8,1024,Ascend910B2]=20.960 [16,2048,Ascend910B2]=32.461 [32,4096,Ascend910B2]=88.902
    [64,8192,Ascend910B2]=292.626 [128,16384,Ascend910B2]=909.058 [256,32768,Ascend910B2]=3262.645)
# conv2d_forward/README.md "Execution Time (ms)" x 1000, keyed C1,H,W,N.
declare -A conv_pub=([8,8,48,1536]=32.2 [16,12,64,3072]=147.3 [24,12,96,4608]=470.9
    [32,16,96,6144]=1097.9 [40,15,128,7680]=2131.2)
# topk/README.md "task_duration(us)", keyed ROWS (float) or ROWS,half.
# a5/matmul_mxfp8_performance/README.md "Execution time (ms)" x 1000, keyed m = k = n.
declare -A mxfp8_pub=([2048]=38.3 [4096]=187.9 [6144]=602.0 [8192]=1474.9)
declare -A topk_pub=([4800]=324.106 [3456]=238.819 [2304]=161.375 [4800,half]=326.886)

# Prints "<launch us> <cores us> <bound>" of the profile's last launch of a
# kernel whose name starts with $2 (flash attention launches a warm-up kernel
# first).
profile_times() {
    "$py" - "$1/summary.json" "$2" <<'EOF'
import json, sys
try:
    s = [l for l in json.load(open(sys.argv[1])) if l["kernel"].startswith(sys.argv[2])][-1]
except (OSError, ValueError, IndexError, KeyError):
    print("? ? ?"); sys.exit(0)
b = s["bound"]
print(f'{s["time_us"]:.1f} {s["cores_time_us"]:.1f} {b["pipe"]}:{round(100 * b["utilisation"])}%')
EOF
}

# report <label> <published> <which time the ratio uses: launch|cores> <profile dir> <kernel name prefix> <output>
report() {
    local label="$1" pub="$2" use="$3" prof="$4" name="$5" out="$6" launch cores bound result model
    read -r launch cores bound < <(profile_times "$prof" "$name")
    result="$(grep -Eo 'test (success|failed)|All tests passed!|Some tests failed!' <<<"$out" | tail -1 || true)"
    [[ -n $result ]] || { result='no result'; grep -i 'error' <<<"$out" | head -3 >&2 || true; }
    model="$launch"
    [[ $use == cores ]] && model="$cores"
    printf '%s: launch %s us, cores %s us simulated (bound %s); published %s us, ratio %s (%s time); kernel: %s\n' \
        "$label" "$launch" "$cores" "$bound" "${pub:-?}" \
        "$(awk -v a="$model" -v b="${pub:-0}" 'BEGIN { if (b > 0 && a + 0 > 0) printf "%.2f", a / b; else print "?" }')" \
        "$use" "$result"
}

run_fa() {
    [[ ${#cases[@]} -gt 0 ]] || cases=(1,1024 1,2048 1,4096 1,8192 2,1024 2,2048 2,4096 2,8192 4,1024 4,2048 4,4096 4,8192 8,1024 8,2048 8,4096 8,8192)
    local c cores s1 soc key d src out gen=() specs=()
    for c in "${cases[@]}"; do
        IFS=, read -r cores s1 soc <<<"$c"
        specs+=("128,$((128 * cores)),$s1,128,256")
        gen+=(--cases "${specs[-1]}")
    done
    d="$tmp/kernels/manual/a2a3/flash_atten"
    # pto-isa moved the kernel to kernels/manual/common after defdb75f.
    src="$isa/kernels/manual/a2a3/flash_atten"
    [[ -d $src ]] || src="$isa/kernels/manual/common/flash_atten"
    cp -rL "$src" "$d"
    mkdir "$d/build"
    # The steps of its run.sh (one build holds every case), with the simulator's SoC name.
    (cd "$d/build" && "$py" ../scripts/generate_cases.py --qk-preload 4 "${gen[@]}" --causal-mask 0 >/dev/null &&
        cmake -DRUN_MODE=sim -DSOC_VERSION=Ascend910B1 .. >/dev/null && make -j2 >/dev/null 2>&1 &&
        "$py" ../scripts/gen_data.py "${gen[@]}" --causal-mask 0 >/dev/null) ||
        { echo "flash_atten: the build failed" >&2; return; }
    for i in "${!cases[@]}"; do
        IFS=, read -r cores s1 soc <<<"${cases[$i]}"
        key="$cores,$s1${soc:+,$soc}"
        rm -rf "$tmp/prof"
        out="$(cd "$d/build" && PTO_SYNC_TIMEOUT_S=7200 PTO_SIM_SOC="${soc:-Ascend910_93}" PTO_SIM_PROFILE="$tmp/prof" \
            ./fa_performance --cases="${specs[$i]}" 2>&1 || true)"
        report "flash_atten cores=$cores S0=$((128 * cores)) S1=$s1 H=128 soc=${soc:-Ascend910_93}" "${fa_pub[$key]:-}" cores \
            "$tmp/prof" runTFA "$out"
    done
}

run_conv2d() {
    [[ ${#cases[@]} -gt 0 ]] || cases=(16,12,64,3072 24,12,96,4608)
    local c c1 h w n m k d out
    for c in "${cases[@]}"; do
        IFS=, read -r c1 h w n <<<"$c"
        m=$((4 * h * w)) k=$((144 * c1))
        d="$tmp/kernels/manual/a2a3/conv2d_forward"
        rm -rf "$d" "$tmp/prof"
        cp -r "$isa/kernels/manual/a2a3/conv2d_forward" "$d"
        sed -i -E "s/(fmapC1) = [0-9]+;/\1 = $c1;/; s/(fmapH) = [0-9]+;/\1 = $h;/; s/(fmapW) = [0-9]+;/\1 = $w;/;
                   s/(filterDim3) = [0-9]+;/\1 = $((9 * c1));/; s/(filterDim2) = [0-9]+;/\1 = $((n / 16));/" "$d/main.cpp"
        sed -i -E "s/(constexpr uint32_t m) = [0-9]+;/\1 = $m;/; s/(constexpr uint32_t n) = [0-9]+;/\1 = $n;/;
                   s/(constexpr uint32_t k) = [0-9]+;/\1 = $k;/; s/(singleCoreM) = [0-9]+;/\1 = $((m / 4));/;
                   s/(singleCoreN) = [0-9]+;/\1 = $((n / 6));/; s/(singleCoreK) = [0-9]+;/\1 = $k;/;
                   s/(cin) = [0-9]+;/\1 = $c1;/; s/(hin) = [0-9]+;/\1 = $h;/; s/(win) = [0-9]+;/\1 = $w;/" \
            "$d/conv2d_forward_kernel.cpp"
        sed -i -E "s/input_shape_nc1hwc0=\(4, [0-9]+, [0-9]+, [0-9]+, 16\)/input_shape_nc1hwc0=(4, $c1, $h, $w, 16)/;
                   s/weight_shape=\([0-9]+, 3, 3, [0-9]+, 16\)/weight_shape=($c1, 3, 3, $n, 16)/" "$d/scripts/gen_data.py"
        (cd "$d" && "$py" scripts/gen_data.py >/dev/null)
        mkdir "$d/build"
        (cd "$d/build" && cmake -DRUN_MODE=sim -DSOC_VERSION=Ascend910_9391 .. >/dev/null && make -j2 >/dev/null 2>&1) ||
            { echo "conv2d_forward $c: the build failed" >&2; continue; }
        out="$(cd "$d/build" && PTO_SYNC_TIMEOUT_S=7200 PTO_SIM_SOC=Ascend910_93 PTO_SIM_PROFILE="$tmp/prof" \
            ./conv2d_forward 2>&1 | grep -v 'idx:' || true)"
        report "conv2d_forward X=[4,$c1,$h,$w,16] K=[$((9 * c1)),$((n / 16)),16,16] (m=$m k=$k n=$n)" \
            "${conv_pub[$c]:-}" launch "$tmp/prof" Conv2dForward "$out"
    done
}

run_topk() {
    [[ ${#cases[@]} -gt 0 ]] || cases=(2304)
    local c rows type topk d out
    for c in "${cases[@]}"; do
        rows=${c%%,*} type=float topk=1000
        [[ $c == *,half ]] && type=half topk=1008
        d="$tmp/kernels/manual/a2a3/topk"
        rm -rf "$d" "$tmp/prof"
        cp -r "$isa/kernels/manual/a2a3/topk" "$d"
        # Both files carry the row count: main.cpp sizes the buffers, launchTopk
        # (topk_kernel.cpp) splits the rows over the blocks.
        sed -i -E "s/(gShape3) = [0-9]+;/\1 = $rows;/; s/(gWholeShape3) = [0-9]+;/\1 = $rows;/;
                   s/(constexpr int topk) = [0-9]+;/\1 = $topk;/" "$d/main.cpp" "$d/topk_kernel.cpp"
        sed -i -E "s/np.int32, 1, 1, 1, [0-9]+, 1024, 1, 1, 1, [0-9]+, 1280, [0-9]+/np.int32, 1, 1, 1, $rows, 1024, 1, 1, 1, $rows, 1280, $topk/" \
            "$d/scripts/gen_data.py"
        if [[ $type == half ]]; then
            sed -i -E "s/Topk<float,/Topk<uint16_t,/" "$d/main.cpp"
            printf '%s\n' '#ifndef __COSTMODEL' \
                'template void launchTopk<uint16_t>(uint8_t* out, uint8_t* index, uint8_t* src, uint8_t* inIdx, void* stream);' \
                '#endif' >>"$d/topk_kernel.cpp"
            sed -i -E "s/TopkParams\(np.float32,/TopkParams(np.float16,/" "$d/scripts/gen_data.py"
        fi
        (cd "$d" && "$py" scripts/gen_data.py >/dev/null)
        mkdir "$d/build"
        (cd "$d/build" && cmake -DRUN_MODE=sim -DSOC_VERSION=Ascend910_9391 .. >/dev/null && make -j2 >/dev/null 2>&1) ||
            { echo "topk $type rows=$rows: the build failed" >&2; continue; }
        out="$(cd "$d/build" && PTO_SYNC_TIMEOUT_S=7200 PTO_SIM_SOC=Ascend910_93 PTO_SIM_PROFILE="$tmp/prof" \
            ./topk 2>&1 | grep -v 'idx:' || true)"
        grep -m1 'faulted' <<<"$out" >&2 || true
        report "topk $type rows=$rows validCol=1024 cols=1280 topk=$topk" "${topk_pub[$c]:-}" launch "$tmp/prof" Topk "$out"
    done
}

run_mxfp8() {
    [[ ${#cases[@]} -gt 0 ]] || cases=(2048)
    local sz d out
    mkdir -p "$tmp/kernels/manual/a5"
    for sz in "${cases[@]}"; do
        d="$tmp/kernels/manual/a5/matmul_mxfp8_performance"
        rm -rf "$d" "$tmp/prof"
        cp -r "$isa/kernels/manual/a5/matmul_mxfp8_performance" "$d"
        for f in main.cpp mxmatmul_performance_kernel.cpp; do
            sed -i -E "s/(constexpr uint32_t [mnk]) = [0-9]+;/\1 = $sz;/; s/(singleCoreK) = [0-9]+;/\1 = $sz;/;
                       s/(singleCoreM) = [0-9]+;/\1 = $((sz / 4));/; s/(singleCoreN) = [0-9]+;/\1 = $((sz / 8));/" "$d/$f"
        done
        sed -i -E "s/bfloat16, [0-9]+, [0-9]+, [0-9]+, False/bfloat16, $sz, $sz, $sz, False/" "$d/scripts/gen_data.py"
        (cd "$d" && PYTHONPATH="$repo/build/conformance/python/ml_dtypes:$repo/build/conformance/python/en_dtypes${PYTHONPATH:+:$PYTHONPATH}" "$py" scripts/gen_data.py >/dev/null)
        mkdir "$d/build"
        (cd "$d/build" && cmake -DRUN_MODE=sim -DSOC_VERSION=Ascend910_9599 .. >/dev/null && make -j2 >/dev/null 2>&1) ||
            { echo "matmul_mxfp8_performance $sz: the build failed" >&2; continue; }
        out="$(cd "$d/build" && PTO_SYNC_TIMEOUT_S=7200 PTO_SIM_SOC=Ascend950DT PTO_SIM_PROFILE="$tmp/prof" \
            ./mxmatmul_performance 2>&1 | grep -v 'idx:' || true)"
        grep -m1 'faulted' <<<"$out" >&2 || true
        report "matmul_mxfp8_performance m=k=n=$sz" "${mxfp8_pub[$sz]:-}" launch "$tmp/prof" "" "$out"
    done
}

case "$kernel" in
fa) run_fa ;;
conv2d) run_conv2d ;;
topk) run_topk ;;
mxfp8) run_mxfp8 ;;
*) echo "unknown kernel '$kernel' (fa, conv2d, topk or mxfp8)" >&2; exit 2 ;;
esac
