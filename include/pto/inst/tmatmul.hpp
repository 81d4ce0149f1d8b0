// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and the one-row TGEMV forms on the Cube
// unit: C (L0C) from A (L0A) and B (L0B). Products accumulate in float (int32
// for int8) in ascending k (docs/semantics.md, "TMATMUL"; docs/isa/matrix.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tmatmul.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/sim_support.hpp>
#include <ptosim/gemm.hpp>
#include <vector>

namespace pto {

namespace ptosim_impl {

// fp8 operand pairs the A5 cube multiplies (a5/TMatmul.hpp CheckMadValid):
// E4M3 and E5M2 in any combination, HiFloat8 only with itself.
template <class TA, class TB>
constexpr bool fp8_matmul_pair =
    ((std::is_same_v<TA, float8_e4m3_t> || std::is_same_v<TA, float8_e5m2_t>) &&
     (std::is_same_v<TB, float8_e4m3_t> || std::is_same_v<TB, float8_e5m2_t>)) ||
    (std::is_same_v<TA, hifloat8_t> && std::is_same_v<TB, hifloat8_t>);

// fp4 pairs the A5 cube multiplies in MX mode only (a5/TMatmul.hpp
// isSupportedFp4Combo): E2M1 and E1M2 in any combination.
template <class TA, class TB>
constexpr bool fp4_matmul_pair = (std::is_same_v<TA, float4_e2m1x2_t> || std::is_same_v<TA, float4_e1m2x2_t>) &&
                                 (std::is_same_v<TB, float4_e2m1x2_t> || std::is_same_v<TB, float4_e1m2x2_t>);

template <class C, class A, class B, bool mx = false>
constexpr void check_matmul_types() {
    using TC = typename C::DType;
    using TA = typename A::DType;
    using TB = typename B::DType;
    // fp4 operands come through TMATMUL_MX/TGEMV_MX only, which check their types.
    constexpr bool mx_fp4 = mx && fp4_matmul_pair<TA, TB>;
    static_assert(C::Loc == TileType::Acc && A::Loc == TileType::Left && B::Loc == TileType::Right,
                  "TMATMUL(c, a, b): c must be an Acc tile, a a Left tile and b a Right tile");
    static_assert(PTOSIM_TARGET_A5 || !fp8_matmul_pair<TA, TB>,
                  "TMATMUL/TGEMV: fp8 and hifloat8 operands need the A5 cube; A2A3 multiplies int8, half, "
                  "bfloat16_t and float only");
    static_assert(mx_fp4 || std::is_same_v<TA, TB> || fp8_matmul_pair<TA, TB>,
                  "TMATMUL: Left and Right element types must be the same (A5 also mixes float8_e4m3_t and "
                  "float8_e5m2_t)");
    static_assert(mx_fp4 || (std::is_same_v<TC, int32_t> && std::is_same_v<TA, int8_t>) ||
                      (std::is_same_v<TC, float> &&
                       (std::is_same_v<TA, half> || std::is_same_v<TA, bfloat16_t> || std::is_same_v<TA, float> ||
                        fp8_matmul_pair<TA, TB>)),
                  "TMATMUL: supported (C, A, B) types are (int32, int8, int8), (float, half, half), "
                  "(float, bfloat16_t, bfloat16_t), (float, float, float); on A5 also float with fp8 "
                  "(e4m3/e5m2 pairs, hifloat8_t with hifloat8_t)");
    static_assert(PTOSIM_TARGET_A5 ? is_Nz_layout<A> : is_Zz_layout<A>,
                  "TMATMUL: the Left tile must use the target's L0A layout; declare it with TileLeft<...>");
    static_assert(is_Zn_layout<B>, "TMATMUL: the Right tile must be Zn; declare it with TileRight<...>");
    static_assert(is_Nz_layout<C>, "TMATMUL: the Acc tile must be Nz; declare it with TileAcc<...>");
}

inline std::string hex_address(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
}

template <class T, class Tile>
void gather_rowmajor(std::vector<T>& out, const uint8_t* base, int rows, int cols) {
    using E = typename Tile::DType;
    out.resize(static_cast<size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            if constexpr (is_fp4<E>)
                out[static_cast<size_t>(r) * cols + c] = static_cast<T>(fp4_value<E>(base, tile_element_offset<Tile>(r, c)));
            else
                out[static_cast<size_t>(r) * cols + c] =
                    static_cast<T>(widen(load_elem<E>(at<Tile>(const_cast<uint8_t*>(base), r, c))));
        }
}

// The cube reads an operand's MX scales from the scale store at the
// operand's L0 address >> 4 (A5 GetScaleAddr), whatever tile is passed; a
// scale tile placed elsewhere would be silently ignored on hardware, so it
// faults here.
template <class S, class Operand>
const uint8_t* mx_scale_base(Core& core, const S& scale, const Operand& operand, const char* op, const char* role,
                             const SourceLoc& loc) {
    const uint8_t* base = tile_base(core, scale, op, role, loc);
    if (scale.address() != operand.address() >> 4)
        ptosim::fault(loc, std::string(op) + ": the " + role + " tile is at 0x" + hex_address(scale.address()) +
                               " but the cube reads it at GetScaleAddr(operand) = 0x" + hex_address(operand.address() >> 4) +
                               "; place it with TGET_SCALE_ADDR(scale, operand) or TASSIGN(scale, GetScaleAddr(operand.data()))");
    return base;
}

struct MatmulDims {
    int m, k, n;
};

// TMATMUL takes m and k from the Left tile's valid shape, n from the Right's.
template <class A, class B>
MatmulDims matmul_dims(const char* op, const A& a, const B& b, const SourceLoc& loc) {
    const MatmulDims d{a.GetValidRow(), a.GetValidCol(), b.GetValidCol()};
    if (b.GetValidRow() != d.k)
        ptosim::fault(loc, std::string(op) + ": Left valid cols (k = " + std::to_string(d.k) +
                               ") differ from Right valid rows (" + std::to_string(b.GetValidRow()) + ")");
    return d;
}

// TGEMV computes one output row: m is 1 and k, n come from the Right tile
// alone (pto-isa docs/isa/TGEMV.md, "Math Interpretation"); the Left tile's
// valid shape is not consulted, as in the A2A3/A5 implementations.
template <class B>
MatmulDims gemv_dims(const B& b) {
    return MatmulDims{1, b.GetValidRow(), b.GetValidCol()};
}

// TF32 as the cube reads float operands in MAD TF32 mode: A2A3 keeps 11
// mantissa bits (e8m11), A5 10 (e8m10); subnormals become zero; Inf and NaN
// pass (pto-isa's pto_tile.hpp SetMadTF32Mode and its tmatmul goldens).
inline float round_tf32(float x, bool ties_away) {
    const int drop = PTOSIM_TARGET_A5 ? 13 : 12;
    uint32_t u;
    std::memcpy(&u, &x, 4);
    const uint32_t exp = u & 0x7f800000u;
    if (exp == 0x7f800000u) return x;
    if (exp == 0) u &= 0x80000000u;
    const uint32_t mask = (1u << drop) - 1, half = 1u << (drop - 1), lost = u & mask;
    u &= ~mask;
    if (lost > half || (lost == half && (ties_away || ((u >> drop) & 1u)))) u += 1u << drop;
    std::memcpy(&x, &u, 4);
    return x;
}

template <class T>
constexpr ptosim::GemmLayout gemm_layout() {
    return {T::InnerRows, T::InnerCols, T::Rows / T::InnerRows > 0 ? T::Rows / T::InnerRows : 1, T::Cols / T::InnerCols,
            T::isRowMajor, T::isInnerRowMajor};
}
template <class E>
constexpr ptosim::GemmType gemm_type() {
    if constexpr (std::is_same_v<E, half>) return ptosim::GemmType::F16;
    else if constexpr (std::is_same_v<E, bfloat16_t>) return ptosim::GemmType::BF16;
    else return ptosim::GemmType::F32;
}

// The fractal path (src/sim/gemm.cpp) takes half, bfloat16 and float
// operands into a float Nz accumulator of 16-column fractals, and a bias row
// of contiguous floats; every other form (int8, fp8, MX scales) gathers.
template <class C, class A, class B, class Bias, class SA>
constexpr bool fractal_gemm_ok() {
    using E = typename A::DType;
    constexpr bool types = std::is_same_v<SA, void> && std::is_same_v<typename C::DType, float> &&
                           std::is_same_v<E, typename B::DType> &&
                           (std::is_same_v<E, half> || std::is_same_v<E, bfloat16_t> || std::is_same_v<E, float>);
    constexpr bool acc = C::isBoxedLayout && !C::isRowMajor && C::isInnerRowMajor && C::InnerCols == 16 &&
                         C::Rows % C::InnerRows == 0;
    if constexpr (std::is_same_v<Bias, void>) return types && acc && A::isBoxedLayout && B::isBoxedLayout;
    else return types && acc && A::isBoxedLayout && B::isBoxedLayout && !Bias::isBoxedLayout && Bias::ColStride == 1;
}

// Cin: optional accumulator input (same tile type as C); bias: optional row;
// sa, sb: optional MX scale tiles (TMATMUL_MX, TGEMV_MX), one E8M0 factor
// per 32 consecutive k of each row of A and each column of B.
template <class C, class A, class B, class Bias, class SA = void, class SB = void,
          AccPhase Phase = AccPhase::Unspecified>
void matmul(CallSite cs, const char* op, C& cOut, const C* cIn, A& a, B& b, const Bias* bias, bool gemv,
            const SA* sa = nullptr, const SB* sb = nullptr) {
    check_matmul_types<C, A, B, !std::is_same_v<SA, void>>();
    using Acc = typename C::DType;
    Core& core = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* cbase = tile_base(core, cOut, op, "accumulator", loc);
    const uint8_t* abase = tile_base(core, a, op, "left", loc);
    const uint8_t* bbase = tile_base(core, b, op, "right", loc);
    const uint8_t* inbase = cIn ? tile_base(core, *cIn, op, "accumulator input", loc) : nullptr;
    const uint8_t* biasbase = nullptr;
    const auto [m, k, n] = gemv ? gemv_dims(b) : matmul_dims(op, a, b, loc);
    for (auto [v, name] : {std::pair{m, "m (Left valid rows)"}, {k, gemv ? "k (Right valid rows)" : "k (Left valid cols)"},
                           {n, "n (Right valid cols)"}})
        if (v < 1 || v > 4095) ptosim::fault(loc, std::string(op) + ": " + name + " = " + std::to_string(v) + " must lie in 1..4095");
    // The tiles' static shapes need not chain (pto-isa's TGEMV pairs a 1-row
    // Left tile with a 16-row Acc); the valid m x k x n must fit each of them.
    if (m > A::Rows || k > A::Cols || k > B::Rows || n > B::Cols || m > C::Rows || n > C::Cols)
        ptosim::fault(loc, std::string(op) + ": m x k x n = " + std::to_string(m) + "x" + std::to_string(k) + "x" +
                               std::to_string(n) + " does not fit the tiles (Left " + std::to_string(A::Rows) + "x" +
                               std::to_string(A::Cols) + ", Right " + std::to_string(B::Rows) + "x" +
                               std::to_string(B::Cols) + ", Acc " + std::to_string(C::Rows) + "x" +
                               std::to_string(C::Cols) + ")");
    OpRecord rec = make_record(op, Pipe::M, cs);
    record_tile(rec, false, a);
    record_tile(rec, false, b);
    if constexpr (!std::is_same_v<Bias, void>) {
        biasbase = tile_base(core, *bias, op, "bias", loc);
        record_tile(rec, false, *bias);
    }
    const uint8_t* sabase = nullptr;
    const uint8_t* sbbase = nullptr;
    if constexpr (!std::is_same_v<SA, void>) {
        // One scale per 32 k; pto-isa's TGEMV_MX kernels pair a Left tile
        // padded to 512 k with a scale tile sized for the valid k.
        const int ks = (k + 31) / 32;
        if (m > SA::Rows || ks > SA::Cols || ks > SB::Rows || n > SB::Cols)
            ptosim::fault(loc, std::string(op) + ": m x k x n = " + std::to_string(m) + "x" + std::to_string(k) + "x" +
                                   std::to_string(n) + " needs " + std::to_string(m) + "x" + std::to_string(ks) +
                                   " left and " + std::to_string(ks) + "x" + std::to_string(n) +
                                   " right scales (one per 32 k), but the scale tiles are " + std::to_string(SA::Rows) +
                                   "x" + std::to_string(SA::Cols) + " and " + std::to_string(SB::Rows) + "x" +
                                   std::to_string(SB::Cols));
        sabase = mx_scale_base(core, *sa, a, op, "left scale", loc);
        sbbase = mx_scale_base(core, *sb, b, op, "right scale", loc);
        record_tile(rec, false, *sa);
        record_tile(rec, false, *sb);
    }
    record_tile(rec, true, cOut);
    rec.unit_flag = static_cast<uint8_t>(Phase);
    rec.elements = static_cast<uint64_t>(m) * n;
    rec.flops = 2ull * m * n * k;
    rec.bytes = elem_bytes<typename A::DType>(static_cast<uint64_t>(m) * k) + elem_bytes<typename B::DType>(static_cast<uint64_t>(k) * n);
    ptosim::dispatch(core, rec);

    if constexpr (fractal_gemm_ok<C, A, B, Bias, SA>()) {
        if (!(std::is_same_v<typename A::DType, float> && core.mad_tf32) &&
            ptosim::gemm_fractal(gemm_type<typename A::DType>(), m, n, k, {abase, gemm_layout<A>()}, {bbase, gemm_layout<B>()},
                                 reinterpret_cast<float*>(cbase), reinterpret_cast<const float*>(inbase),
                                 static_cast<size_t>(tile_element_offset<C>(0, 16)),
                                 reinterpret_cast<const float*>(biasbase)))
            return;
    }
    thread_local std::vector<Acc> av, bv, cv;
    gather_rowmajor<Acc, A>(av, abase, m, k);
    gather_rowmajor<Acc, B>(bv, bbase, k, n);
    if constexpr (std::is_same_v<typename A::DType, float>) {
        if (core.mad_tf32) {
            const bool away = core.mad_tf32 == 1;
            for (auto& x : av) x = round_tf32(x, away);
            for (auto& x : bv) x = round_tf32(x, away);
        }
    }
    if constexpr (!std::is_same_v<SA, void>) {
        // Scaling is exact in float unless the scaled value leaves float's range.
        for (int i = 0; i < m; ++i)
            for (int p = 0; p < k; ++p)
                av[static_cast<size_t>(i) * k + p] *= static_cast<float>(load_elem<typename SA::DType>(at<SA>(const_cast<uint8_t*>(sabase), i, p / 32)));
        for (int p = 0; p < k; ++p)
            for (int j = 0; j < n; ++j)
                bv[static_cast<size_t>(p) * n + j] *= static_cast<float>(load_elem<typename SB::DType>(at<SB>(const_cast<uint8_t*>(sbbase), p / 32, j)));
    }
    cv.assign(static_cast<size_t>(m) * n, Acc(0));
    if (inbase) {
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) cv[static_cast<size_t>(i) * n + j] = load_elem<Acc>(at<C>(const_cast<uint8_t*>(inbase), i, j));
    }
    if constexpr (!std::is_same_v<Bias, void>) {
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) cv[static_cast<size_t>(i) * n + j] += load_elem<Acc>(at<Bias>(const_cast<uint8_t*>(biasbase), 0, j));
    }
    ptosim::gemm_accumulate(m, n, k, av.data(), bv.data(), cv.data());
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) store_elem(at<C>(cbase, i, j), cv[static_cast<size_t>(i) * n + j]);
}

}  // namespace ptosim_impl

template <typename TileRes, typename TileLeft_, typename TileRight_, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL(CallSite cs, TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void>(cs, "TMATMUL", c, nullptr, a, b, nullptr, false);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMATMUL(TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void, void, void, Phase>(PTOSIM_CALLER, "TMATMUL", c, nullptr, a, b, nullptr, false);
    return {};
}

// TMATMUL_ACC(cOut, cIn, a, b): cOut = cIn + a*b; TMATMUL_ACC(c, a, b): c += a*b.
template <typename TileRes, typename TileLeft_, typename TileRight_, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_ACC(CallSite cs, TileRes& cOut, TileRes& cIn, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void>(cs, "TMATMUL_ACC", cOut, &cIn, a, b, nullptr, false);
    return {};
}
template <typename TileRes, typename TileLeft_, typename TileRight_, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_ACC(CallSite cs, TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void>(cs, "TMATMUL_ACC", c, &c, a, b, nullptr, false);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMATMUL_ACC(TileRes& cOut, TileRes& cIn, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void, void, void, Phase>(PTOSIM_CALLER, "TMATMUL_ACC", cOut, &cIn, a, b, nullptr, false);
    return {};
}
// The phase (pto-isa's unit-flag selection) only changes how the Cube hands
// results to the FIX pipe: the values are those of the unphased form, and the
// record carries the phase for racecheck's unit-flag order.
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMATMUL_ACC(TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void, void, void, Phase>(PTOSIM_CALLER, "TMATMUL_ACC", c, &c, a, b, nullptr, false);
    return {};
}

template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename TileBias_, typename... WaitEvents>
PTO_INST RecordEvent TMATMUL_BIAS(CallSite cs, TileRes& c, TileLeft_& a, TileRight_& b, TileBias_& bias, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(TileBias_::Loc == TileType::Bias && TileBias_::Rows == 1 &&
                      std::is_same_v<typename TileBias_::DType, typename TileRes::DType>,
                  "TMATMUL_BIAS: the bias must be a one-row Bias tile of the accumulator's element type");
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, TileBias_, void, void, Phase>(cs, "TMATMUL_BIAS", c, nullptr, a, b, &bias, false);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename TileBias_, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMATMUL_BIAS(TileRes& c, TileLeft_& a, TileRight_& b, TileBias_& bias, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return TMATMUL_BIAS<Phase>(PTOSIM_CALLER, c, a, b, bias);
}

// TGEMV family: TMATMUL restricted to row 0 of the Left tile.
template <typename TileRes, typename TileLeft_, typename TileRight_, typename... WaitEvents>
PTO_INST RecordEvent TGEMV(CallSite cs, TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void>(cs, "TGEMV", c, nullptr, a, b, nullptr, true);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGEMV(TileRes& c, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void, void, void, Phase>(PTOSIM_CALLER, "TGEMV", c, nullptr, a, b, nullptr, true);
    return {};
}
template <typename TileRes, typename TileLeft_, typename TileRight_, typename... WaitEvents>
PTO_INST RecordEvent TGEMV_ACC(CallSite cs, TileRes& cOut, TileRes& cIn, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void>(cs, "TGEMV_ACC", cOut, &cIn, a, b, nullptr, true);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGEMV_ACC(TileRes& cOut, TileRes& cIn, TileLeft_& a, TileRight_& b, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, void, void, void, Phase>(PTOSIM_CALLER, "TGEMV_ACC", cOut, &cIn, a, b, nullptr, true);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename TileBias_, typename... WaitEvents>
PTO_INST RecordEvent TGEMV_BIAS(CallSite cs, TileRes& c, TileLeft_& a, TileRight_& b, TileBias_& bias, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(TileBias_::Loc == TileType::Bias && TileBias_::Rows == 1 &&
                      std::is_same_v<typename TileBias_::DType, typename TileRes::DType>,
                  "TGEMV_BIAS: the bias must be a one-row Bias tile of the accumulator's element type");
    ptosim_impl::matmul<TileRes, TileLeft_, TileRight_, TileBias_, void, void, Phase>(cs, "TGEMV_BIAS", c, nullptr, a, b, &bias, true);
    return {};
}
template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileRight_,
          typename TileBias_, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGEMV_BIAS(TileRes& c, TileLeft_& a, TileRight_& b, TileBias_& bias, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return TGEMV_BIAS<Phase>(PTOSIM_CALLER, c, a, b, bias);
}

}  // namespace pto
