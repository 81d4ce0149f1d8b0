// TCVT: element type conversion with an explicit rounding mode and
// saturation (docs/semantics.md, "TCVT").
#pragma once
#include <pto/inst/elementwise.hpp>

namespace pto {

namespace sim {

template <class D, class S>
constexpr bool tcvt_supported() {
    auto is = [](auto a, auto b) { return std::is_same_v<decltype(a), decltype(b)>; };
    (void)is;
    using f32 = float;
    using f16 = half;
    using b16 = bfloat16_t;
    if constexpr (std::is_same_v<S, f32>)
        return std::is_same_v<D, f16> || std::is_same_v<D, f32> || std::is_same_v<D, b16> || std::is_same_v<D, int16_t> ||
               std::is_same_v<D, int32_t> || std::is_same_v<D, int64_t>;
    else if constexpr (std::is_same_v<S, f16>)
        return std::is_same_v<D, f32> || std::is_same_v<D, int32_t> || std::is_same_v<D, int16_t> ||
               std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>;
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
    else if constexpr (std::is_same_v<S, uint8_t>)
        return std::is_same_v<D, f16> || (PTOSIM_TARGET_A5 && std::is_same_v<D, uint16_t>);
    else if constexpr (std::is_same_v<S, int8_t>)
        return std::is_same_v<D, f16> || (PTOSIM_TARGET_A5 && (std::is_same_v<D, int16_t> || std::is_same_v<D, int32_t>));
    else
        return false;
}

template <class Dst, class Src>
RecordEvent tcvt(CallSite cs, Dst& dst, Src& src, RoundMode mode, SaturationMode sat) {
    using D = typename Dst::DType;
    using S = typename Src::DType;
    static_assert(tcvt_supported<D, S>(), "TCVT: this source -> destination element type conversion is not supported "
                                          "on the compiled target (see the TCVT table in docs/semantics.md)");
    elementwise(cs, "TCVT", dst, [mode, sat](auto x) { return convert<D, S>(static_cast<S>(x), mode, sat); }, src);
    return {};
}

}  // namespace sim

template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(CallSite cs, TileDataD& dst, TileDataS& src, RoundMode mode, WaitEvents&...) {
    return sim::tcvt(cs, dst, src, mode, SaturationMode::ON);
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(CallSite cs, TileDataD& dst, TileDataS& src, RoundMode mode, SaturationMode sat,
                          WaitEvents&...) {
    return sim::tcvt(cs, dst, src, mode, sat);
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, WaitEvents&...) {
    return sim::tcvt(CallSite{}, dst, src, mode, SaturationMode::ON);
}
template <typename TileDataD, typename TileDataS, typename... WaitEvents>
PTO_INST RecordEvent TCVT(TileDataD& dst, TileDataS& src, RoundMode mode, SaturationMode sat, WaitEvents&...) {
    return sim::tcvt(CallSite{}, dst, src, mode, sat);
}

}  // namespace pto
