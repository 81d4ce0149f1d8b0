#!/usr/bin/env bash
# Runs pto-isa's own A2A3 GEMM performance kernel (kernels/manual/a2a3/
# gemm_performance) end to end on ptosim with the cost model on, at the
# square sizes of its published "Measured Performance" table, and prints the
# simulated time next to the published one (docs/cost-model.md, "The
# published kernel run on ptosim"). The kernel is built unmodified except for
# its size constants (m = k = n = S, singleCoreM = S/4, singleCoreN = S/6:
# the README's 4 x 6 split of the output over 24 cores) through the
# CANN-shaped root, in a temporary copy; nothing is kept.
#
#   bench/pto_isa_gemm_timing.sh <pto-isa checkout> [S...]   # default S: 1536 3072
#
# Needs the build's ptocc, cann_root and ptolab targets, and PTO_PYTHON
# (default /usr/bin/python3) with NumPy. 6144 works but takes about 6 minutes (7680 longer)
# (the simulator computes every product).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
isa="$(cd "$1" && pwd)"
shift
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1536 3072)
py="${PTO_PYTHON:-/usr/bin/python3}"
# The published rows of docs/cost-model.md were timed on ptolab's tile-level
# headers (their costs are the calibrated ones); PTOCC_PTO_HEADERS=pto-isa
# times pto-isa's own implementation on the CCE layer instead.
export PTOCC_PTO_HEADERS="${PTOCC_PTO_HEADERS:-ptolab}"
ptolab="$repo/build/src/lab/ptolab"
eval "$("$ptolab" env)"
declare -A published=([1536]=38.8 [3072]=206.7 [6144]=1506.0 [7680]=3168.0)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kernels/manual/a2a3" "$tmp/tests"
ln -s "$isa/include" "$tmp/include"
ln -s "$isa/tests/common" "$tmp/tests/common"
for s in "${sizes[@]}"; do
    d="$tmp/kernels/manual/a2a3/gemm_performance"
    rm -rf "$d"
    cp -r "$isa/kernels/manual/a2a3/gemm_performance" "$d"
    scm=$((s / 4)) scn=$((s / 6))
    for f in main.cpp gemm_performance_kernel.cpp; do
        sed -i -E "s/(constexpr uint32_t [mnk]) = [0-9]+;/\1 = $s;/; s/(singleCoreK) = [0-9]+;/\1 = $s;/;
                   s/(singleCoreM) = [0-9]+;/\1 = $scm;/; s/(singleCoreN) = [0-9]+;/\1 = $scn;/" "$d/$f"
    done
    sed -i -E "s/np.float32, [0-9]+, [0-9]+, [0-9]+, False/np.float32, $s, $s, $s, False/" "$d/scripts/gen_data.py"
    (cd "$d" && "$py" scripts/gen_data.py >/dev/null)
    mkdir "$d/build"
    (cd "$d/build" && cmake -DRUN_MODE=sim -DSOC_VERSION=Ascend910_9391 .. >/dev/null && make -j2 >/dev/null 2>&1) ||
        { echo "gemm_performance m=k=n=$s: the build failed" >&2; continue; }
    # The large sizes simulate for minutes: the stream synchronisation must outwait them.
    out="$(cd "$d/build" && PTO_SYNC_TIMEOUT_S=7200 PTO_SIM_SOC=Ascend910_93 PTO_SIM_PROFILE="$tmp/prof-$s" \
        ./gemm_performance 2>&1 | grep -v 'idx:' || true)"
    result="$(grep -Eo 'test (success|failed)' <<<"$out" || echo 'no result')"
    us="$( (grep -Eo '[0-9.]+ us simulated' <<<"$out" || true) | head -1 | cut -d' ' -f1)"
    bound="$( (grep -Eo 'bound: [A-Z0-9]+ [0-9]+%' <<<"$out" || true) | head -1)"
    [[ -n $us ]] || printf '%s\n' "$out" | grep -i 'error' | head -3 >&2
    printf 'gemm_performance m=k=n=%s: %s us simulated (%s), published %s us, ratio %s; kernel %s\n' "$s" "${us:-?}" \
        "${bound:-?}" "${published[$s]:-?}" "$(awk -v a="${us:-0}" -v b="${published[$s]:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')" "$result"
done
