// TCVT: element type conversion with an explicit rounding mode and
// saturation (docs/semantics.md, "TCVT").
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tcvt.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/elementwise.hpp>

namespace pto {

namespace ptosim_impl {

template <class D, class S>
constexpr bool tcvt_supported() {
    auto is = [](auto a, auto b) { return std::is_same_v<decltype(a), decltype(b)>; };
    (void)is;
    using f32 = float;
    using f16 = half;
    using b16 = bfloat16_t;
    constexpr bool a5_fp8_dst = PTOSIM_TARGET_A5 && (std::is_same_v<D, float8_e4m3_t> ||
                                                     std::is_same_v<D, float8_e5m2_t> || std::is_same_v<D, hifloat8_t>);
    if constexpr (std::is_same_v<S, f32>)
        return std::is_same_v<D, f16> || std::is_same_v<D, f32> || std::is_same_v<D, b16> || std::is_same_v<D, int16_t> ||
               std::is_same_v<D, int32_t> || std::is_same_v<D, int64_t> || a5_fp8_dst;
    else if constexpr (std::is_same_v<S, f16>)
        return std::is_same_v<D, f32> || std::is_same_v<D, int32_t> || std::is_same_v<D, int16_t> ||
               std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t> || (PTOSIM_TARGET_A5 && std::is_same_v<D, hifloat8_t>);
    else if constexpr (std::is_same_v<S, float8_e4m3_t> || std::is_same_v<S, float8_e5m2_t> || std::is_same_v<S, hifloat8_t>)
        return PTOSIM_TARGET_A5 && std::is_same_v<D, f32>;
    else if constexpr (std::is_same_v<S, b16>)
        return std::is_same_v<D, f32> || std::is_same_v<D, int32_t> || (PTOSIM_TARGET_A5 && std::is_same_v<D, f16>);
    else if constexpr (std::is_same_v<S, int16_t>)
        return std::is_same_v<D, f16> || std::is_same_v<D, f32> ||
               (PTOSIM_TARGET_A5 && (std::is_same_v<D, uint8_t> || std::is_same_v<D, uint32_t> || std::is_same_v<D, int32_t>));
    else if constexpr (std::is_same_v<S, int32_t>)
        return std::is_same_v<D, f32> || std::is_same_v<D, int16_t> || std::is_same_v<D, int64_t> ||
               (!PTOSIM_TARGET_A5 && std::is_same_v<D, f16>) ||
               (PTOSIM_TARGET_A5 && (std::is_same_v<D, uint16_t> || std::is_same_v<D, uint8_t>));
    else if constexpr (std::is_same_v<S, int64_t>)
        return std::is_same_v<D, f32> || std::is_same_v<D, int32_t>;
    else if constexpr (std::is_same_v<S, uint32_t>)
        return PTOSIM_TARGET_A5 && (std::is_same_v<D, uint8_t> || std::is_same_v<D, uint16_t> || std::is_same_v<D, int16_t>);
    else if constexpr (std::is_same_v<S, uint8_t>)
        return std::is_same_v<D, f16> || (PTOSIM_TARGET_A5 && std::is_same_v<D, uint16_t>);
    else if constexpr (std::is_same_v<S, int8_t>)
        return std::is_same_v<D, f16> || (PTOSIM_TARGET_A5 && (std::is_same_v<D, int16_t> || std::is_same_v<D, int32_t>));
    else
        return false;
}

// The saturation TCVT applies when the call names none: both targets' headers
// wrap (SaturationMode::OFF) for fp16 -> int8/uint8, fp32/fp16 -> int16,
// int64 -> int32 and int32 -> int16, and saturate everything else (pto-isa
// include/pto/npu/{a2a3,a5}/TCvt.hpp, the TCVT_IMPL overload without one).
template <class D, class S>
constexpr SaturationMode default_saturation() {
    constexpr bool wraps = (std::is_same_v<S, half> && (std::is_same_v<D, uint8_t> || std::is_same_v<D, int8_t> ||
                                                        std::is_same_v<D, int16_t>)) ||
                           (std::is_same_v<S, float> && std::is_same_v<D, int16_t>) ||
                           (std::is_same_v<S, int64_t> && std::is_same_v<D, int32_t>) ||
                           (std::is_same_v<S, int32_t> && std::is_same_v<D, int16_t>);
    return wraps ? SaturationMode::OFF : SaturationMode::ON;
}

inline ptosim::MiniRound mini_round(RoundMode m) {
    switch (m) {
        case RoundMode::CAST_ROUND: return ptosim::MiniRound::NearestAway;
        case RoundMode::CAST_FLOOR: return ptosim::MiniRound::Floor;
        case RoundMode::CAST_CEIL: return ptosim::MiniRound::Ceil;
        case RoundMode::CAST_TRUNC: return ptosim::MiniRound::Trunc;
        case RoundMode::CAST_ODD: return ptosim::MiniRound::Odd;
        default: return ptosim::MiniRound::NearestEven;
    }
}

// The per-element conversion f, plus whole rows between float and binary16
// through the runtime (ptosim/numerics.hpp), which gives convert()'s result
// for every element: binary16 -> float is exact in any mode (signalling NaNs
// kept), float -> binary16 is IEEE rounding to nearest even, which convert()
// applies for RINT and NONE (overflow to infinity, subnormals, NaN payloads).
template <class D, class S, class F>
struct RowConvert : F {
    bool rows_apply;
    static void convert_row(const uint8_t* src, uint8_t* dst, int n) {
        if constexpr (std::is_same_v<S, half>) ptosim::half_row_to_float(src, reinterpret_cast<float*>(dst), n);
        else ptosim::float_to_half_row(reinterpret_cast<const float*>(src), dst, n);
    }
};

template <class Dst, class Src>
RecordEvent tcvt(CallSite cs, Dst& dst, Src& src, RoundMode mode, SaturationMode sat) {
    using D = typename Dst::DType;
    using S = typename Src::DType;
    static_assert(tcvt_supported<D, S>(), "TCVT: this source -> destination element type conversion is not supported "
                                          "on the compiled target (see the TCVT table in docs/semantics.md)");
    if constexpr (ptosim::is_minifloat8<D>::value) {
        // A5 rounds to fp8 by the mode (round-to-odd included); to HiFloat8
        // always ties away (a5/TCvt.hpp castData to hifloat8_t uses ROUND_A).
        const ptosim::MiniRound r = D::format == ptosim::MiniFormat::HiF8 ? ptosim::MiniRound::NearestAway : mini_round(mode);
        const bool saturate = sat == SaturationMode::ON;
        elementwise(cs, "TCVT", dst, [r, saturate](auto x) {
            D d;
            d.bits = static_cast<uint8_t>(ptosim::mini_encode(D::format, static_cast<double>(static_cast<float>(x)), r, saturate));
            return d;
        }, src);
    } else if constexpr (ptosim::is_minifloat8<S>::value) {
        elementwise(cs, "TCVT", dst, [](auto x) { return static_cast<float>(x); }, src);  // exact
    } else {
        auto f = [mode, sat](auto x) { return convert<D, S>(static_cast<S>(x), mode, sat); };
        if constexpr ((std::is_same_v<D, half> && std::is_same_v<S, float>) ||
                      (std::is_same_v<D, float> && std::is_same_v<S, half>)) {
            const bool rows = std::is_same_v<S, half> || mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_NONE;
            elementwise(cs, "TCVT", dst, RowConvert<D, S, decltype(f)>{f, rows}, src);
        } else {
            elementwise(cs, "TCVT", dst, f, src);
        }
    }
    return {};
}

}  // namespace ptosim_impl

template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(CallSite cs, TileDataD& dst, TileDataS& src, RoundMode mode, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tcvt(
        cs, dst, src, mode,
        ptosim_impl::default_saturation<typename TileDataD::DType, typename TileDataS::DType>());
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(CallSite cs, TileDataD& dst, TileDataS& src, RoundMode mode, SaturationMode sat,
                          WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tcvt(cs, dst, src, mode, sat);
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, WaitEvents&... events) {
    return TCVT(PTOSIM_CALLER, dst, src, mode, events...);
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, SaturationMode sat, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tcvt(PTOSIM_CALLER, dst, src, mode, sat);
}

// TPACK (A5): each destination element is the low bytes of the source
// element, b32 -> b16, b32 -> b8 or b16 -> b8, whatever the element types
// (pto-isa include/pto/npu/a5/TPack.hpp: a store that keeps the low part of
// every lane; its tpack testcase checks the bytes).
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TPACK(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    static_assert(PTOSIM_TARGET_A5 || sizeof(TileDataDst) == 0, "TPACK: an A5 instruction (A2A3 has no narrowing store; use TCVT)");
    constexpr size_t to = sizeof(typename TileDataDst::DType), from = sizeof(typename TileDataSrc::DType);
    static_assert((from == 4 && (to == 2 || to == 1)) || (from == 2 && to == 1),
                  "TPACK: packs 4-byte elements into 2- or 1-byte ones, or 2-byte into 1-byte");
    ptosim_impl::wait_events(cs, events...);
    if (src.GetValidRow() != dst.GetValidRow() || src.GetValidCol() != dst.GetValidCol())
        ptosim::fault(ptosim_impl::loc_of(cs),
                      "TPACK: source valid shape " + std::to_string(src.GetValidRow()) + "x" +
                          std::to_string(src.GetValidCol()) + " differs from the destination's " +
                          std::to_string(dst.GetValidRow()) + "x" + std::to_string(dst.GetValidCol()) +
                          "; give both tiles the same valid shape");
    ptosim_impl::elementwise<ptosim_impl::Operands::Bits>(cs, "TPACK", dst, [](auto a) { return a; }, src);
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPACK(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    return TPACK(PTOSIM_CALLER, dst, src, events...);
}

}  // namespace pto
