// MX block-scaled matmul on the A5 cube: TMATMUL_MX and TGEMV_MX (plain,
// accumulating and bias forms) and TGET_SCALE_ADDR, which places a scale
// tile where the cube reads an operand's scales (docs/isa/matrix.md, "MX").
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tmatmul_mx.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/tmatmul.hpp>

namespace pto {

// MX scale tiles (public pto_tile.hpp aliases): 16 x 2 boxes of E8M0, boxes
// row-major for the Left scales (M x K/32), column-major for the Right
// scales (K/32 x N).
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeftScale = Tile<TileType::ScaleLeft, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_, ColValid_,
                           SLayout::RowMajor, TileConfig::fractalMxSize>;
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeftScaleCompact = Tile<TileType::ScaleLeft, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_, ColValid_,
                                  SLayout::RowMajor, TileConfig::fractalMxSize, PadValue::Null, CompactMode::Normal>;
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRightScale = Tile<TileType::ScaleRight, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                            SLayout::ColMajor, TileConfig::fractalMxSize>;
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRightScaleCompact = Tile<TileType::ScaleRight, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_,
                                   ColValid_, SLayout::ColMajor, TileConfig::fractalMxSize, PadValue::Null,
                                   CompactMode::Normal>;

// The scale store shadows L0A/L0B at 1/16 of the address (a5/utils.hpp).
template <typename T>
PTO_INTERNAL uint64_t GetScaleAddr(T* operand) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(operand)) >> 4;
}

namespace ptosim_impl {

template <class C, class A, class SA, class B, class SB>
constexpr void check_matmul_mx() {
    using TA = typename A::DType;
    using TB = typename B::DType;
    static_assert(PTOSIM_TARGET_A5 && sizeof(C) > 0, "TMATMUL_MX/TGEMV_MX: MX block-scaled matmul exists on A5 only; on A2A3 use "
                                    "TMATMUL with half, bfloat16_t or int8 operands");
    static_assert((((std::is_same_v<TA, float8_e4m3_t> || std::is_same_v<TA, float8_e5m2_t>) &&
                    (std::is_same_v<TB, float8_e4m3_t> || std::is_same_v<TB, float8_e5m2_t>)) ||
                   fp4_matmul_pair<TA, TB>) &&
                      std::is_same_v<typename C::DType, float>,
                  "TMATMUL_MX/TGEMV_MX: operands are float8_e4m3_t/float8_e5m2_t (any pair) or "
                  "float4_e2m1x2_t/float4_e1m2x2_t (any pair) into a float Acc");
    static_assert(A::Cols % 64 == 0, "TMATMUL_MX/TGEMV_MX: the Left tile's Cols (k) must be a multiple of 64");
    static_assert(SA::Loc == TileType::ScaleLeft && SB::Loc == TileType::ScaleRight,
                  "TMATMUL_MX/TGEMV_MX: scales are a TileLeftScale and a TileRightScale tile");
    static_assert(std::is_same_v<typename SA::DType, float8_e8m0_t> && std::is_same_v<typename SB::DType, float8_e8m0_t>,
                  "TMATMUL_MX/TGEMV_MX: scale tiles hold float8_e8m0_t");
}

template <class C, class A, class SA, class B, class SB, class Bias, AccPhase Phase = AccPhase::Unspecified>
RecordEvent matmul_mx(CallSite cs, const char* op, C& cOut, const C* cIn, A& a, SA& sa, B& b, SB& sb,
                      const Bias* bias, bool gemv) {
    check_matmul_mx<C, A, SA, B, SB>();
    if constexpr (!std::is_same_v<Bias, void>)
        static_assert(Bias::Loc == TileType::Bias && Bias::Rows == 1 && std::is_same_v<typename Bias::DType, float>,
                      "TMATMUL_MX/TGEMV_MX: the bias must be a one-row float Bias tile");
    matmul<C, A, B, Bias, SA, SB, Phase>(cs, op, cOut, cIn, a, b, bias, gemv, &sa, &sb);
    return {};
}

}  // namespace ptosim_impl

// One overload set per name, as pto_instr.hpp declares it: plain, AccPhase,
// accumulate (cOut, cIn, ...) and bias; the CallSite forms come from the
// call-site macros.
#define PTOSIM_MX_FAMILY(Instr, GEMV)                                                                                 \
    template <typename TileRes, typename TileLeft_, typename TileLeftScale_, typename TileRight_,                   \
              typename TileRightScale_, typename... WaitEvents>                                                      \
    PTO_INST RecordEvent Instr(CallSite cs, TileRes& c, TileLeft_& a, TileLeftScale_& sa, TileRight_& b,              \
                              TileRightScale_& sb, WaitEvents&... events) {                                          \
        ptosim_impl::wait_events(cs, events...);                                                                             \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, void>(               \
            cs, #Instr, c, nullptr, a, sa, b, sb, nullptr, GEMV);                                                     \
    }                                                                                                                \
    template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileLeftScale_,  \
              typename TileRight_, typename TileRightScale_, typename... WaitEvents>                                 \
    PTO_INST_CALLER RecordEvent Instr(TileRes& c, TileLeft_& a, TileLeftScale_& sa, TileRight_& b, TileRightScale_& sb, \
                              WaitEvents&... events) {                                                               \
        ptosim_impl::wait_events(PTOSIM_CALLER, events...);                                                          \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, void, Phase>( \
            PTOSIM_CALLER, #Instr, c, nullptr, a, sa, b, sb, nullptr, GEMV);                                         \
    }                                                                                                                \
    template <typename TileRes, typename TileLeft_, typename TileLeftScale_, typename TileRight_,                   \
              typename TileRightScale_, typename... WaitEvents>                                                      \
    PTO_INST RecordEvent Instr(CallSite cs, TileRes& cOut, TileRes& cIn, TileLeft_& a, TileLeftScale_& sa,            \
                              TileRight_& b, TileRightScale_& sb, WaitEvents&... events) {                           \
        ptosim_impl::wait_events(cs, events...);                                                                             \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, void>(               \
            cs, #Instr, cOut, &cIn, a, sa, b, sb, nullptr, GEMV);                                                     \
    }                                                                                                                \
    template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileLeftScale_,  \
              typename TileRight_, typename TileRightScale_, typename... WaitEvents>                                 \
    PTO_INST_CALLER RecordEvent Instr(TileRes& cOut, TileRes& cIn, TileLeft_& a, TileLeftScale_& sa, TileRight_& b,  \
                              TileRightScale_& sb, WaitEvents&... events) {                                          \
        ptosim_impl::wait_events(PTOSIM_CALLER, events...);                                                          \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, void, Phase>( \
            PTOSIM_CALLER, #Instr, cOut, &cIn, a, sa, b, sb, nullptr, GEMV);                                         \
    }                                                                                                                \
    template <typename TileRes, typename TileLeft_, typename TileLeftScale_, typename TileRight_,                   \
              typename TileRightScale_, typename TileBias_, typename... WaitEvents>                                  \
    PTO_INST RecordEvent Instr(CallSite cs, TileRes& c, TileLeft_& a, TileLeftScale_& sa, TileRight_& b,              \
                              TileRightScale_& sb, TileBias_& bias, WaitEvents&... events) {                         \
        ptosim_impl::wait_events(cs, events...);                                                                             \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, TileBias_>(          \
            cs, #Instr, c, nullptr, a, sa, b, sb, &bias, GEMV);                                                       \
    }                                                                                                                \
    template <AccPhase Phase = AccPhase::Unspecified, typename TileRes, typename TileLeft_, typename TileLeftScale_,  \
              typename TileRight_, typename TileRightScale_, typename TileBias_, typename... WaitEvents>             \
    PTO_INST_CALLER RecordEvent Instr(TileRes& c, TileLeft_& a, TileLeftScale_& sa, TileRight_& b, TileRightScale_& sb, \
                              TileBias_& bias, WaitEvents&... events) {                                              \
        ptosim_impl::wait_events(PTOSIM_CALLER, events...);                                                          \
        return ptosim_impl::matmul_mx<TileRes, TileLeft_, TileLeftScale_, TileRight_, TileRightScale_, TileBias_, Phase>( \
            PTOSIM_CALLER, #Instr, c, nullptr, a, sa, b, sb, &bias, GEMV);                                           \
    }

PTOSIM_MX_FAMILY(TMATMUL_MX, false)
PTOSIM_MX_FAMILY(TGEMV_MX, true)
#undef PTOSIM_MX_FAMILY

namespace ptosim_impl {

template <class Scale, class Operand>
RecordEvent tget_scale_addr(CallSite cs, Scale& dst, Operand& src) {
    static_assert(PTOSIM_TARGET_A5 && sizeof(Scale) > 0, "TGET_SCALE_ADDR: MX scale stores exist on A5 only");
    static_assert((Scale::Loc == TileType::ScaleLeft && Operand::Loc == TileType::Left) ||
                      (Scale::Loc == TileType::ScaleRight && Operand::Loc == TileType::Right),
                  "TGET_SCALE_ADDR(dst, src): dst is the ScaleLeft (ScaleRight) tile of a Left (Right) tile src");
    const SourceLoc loc = loc_of(cs);
    if (!src.assigned())
        ptosim::fault(loc, "TGET_SCALE_ADDR: the source tile has no address; place it with TASSIGN first");
    dst.assign_address(src.address() >> 4);
    OpRecord rec = make_record("TGET_SCALE_ADDR", Pipe::S, cs);
    rec.dtype = dtype_name<typename Scale::DType>();
    ptosim::dispatch(ptosim::core(), rec);
    return {};
}

}  // namespace ptosim_impl

template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TGET_SCALE_ADDR(CallSite cs, TileDataOut& dst, TileDataIn& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tget_scale_addr(cs, dst, src);
}
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGET_SCALE_ADDR(TileDataOut& dst, TileDataIn& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tget_scale_addr(PTOSIM_CALLER, dst, src);
}

}  // namespace pto
