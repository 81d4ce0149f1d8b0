// Element-wise vector instructions. Each body is one line of math over the
// valid-region loop below (docs/semantics.md, "Element-wise instructions").
#pragma once
#include <pto/common/sim_support.hpp>
#include <utility>

namespace pto {

namespace sim {

template <class T>
constexpr void check_vec_operand() {
    static_assert(T::Loc == TileType::Vec, "vector instructions take Vec (UB) tiles");
    static_assert(T::isRowMajor && !T::isBoxedLayout, "vector instructions take row-major ND tiles");
}

template <class E>
constexpr bool vec_arith_type = std::is_same_v<E, half> || std::is_same_v<E, float> || std::is_same_v<E, int16_t> ||
                                std::is_same_v<E, int32_t> ||
                                (PTOSIM_TARGET_A5 && (std::is_same_v<E, bfloat16_t> || std::is_same_v<E, uint32_t> ||
                                                      std::is_same_v<E, uint16_t> || std::is_same_v<E, int8_t> ||
                                                      std::is_same_v<E, uint8_t>));

// dst(r, c) = f(src_i(r, c)...) over dst's valid region, computed in
// compute_t and rounded back into dst's element type.
template <class Dst, class F, class... Src>
PTOSIM_VECTORIZE void elementwise(CallSite cs, const char* op, Dst& dst, F f, Src&... src) {
    check_vec_operand<Dst>();
    (check_vec_operand<Src>(), ...);
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    const uint8_t* s[] = {tile_base(c, src, op, "source", loc)...};
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    OpRecord rec = make_record(op, Pipe::V, cs);
    (record_tile(rec, false, src), ...);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.flops = rec.elements;
    rec.bytes = rec.elements * sizeof(typename Dst::DType) * (1 + sizeof...(Src));
    ptosim::dispatch(c, rec);
    using D = typename Dst::DType;
    [&]<size_t... I>(std::index_sequence<I...>) {
        for (int r = 0; r < vr; ++r) {
            uint8_t* drow = at<Dst>(d, r, 0);
            const uint8_t* srow[] = {at<Src>(const_cast<uint8_t*>(s[I]), r, 0)...};
            for (int col = 0; col < vc; ++col)
                store_elem(drow + col * sizeof(D),
                           narrow<D>(f(widen(load_elem<typename Src::DType>(srow[I] + col * sizeof(typename Src::DType)))...)));
        }
    }(std::index_sequence_for<Src...>{});
}

}  // namespace sim

#define PTOSIM_BINARY_OP(NAME, EXPR)                                                                               \
    template <typename TileData, typename... WaitEvents>                                                           \
    PTO_INST RecordEvent NAME(CallSite cs, TileData& dst, TileData& src0, TileData& src1, WaitEvents&...) {        \
        static_assert(sim::vec_arith_type<typename TileData::DType>, #NAME ": unsupported element type on this target"); \
        sim::elementwise(cs, #NAME, dst, [](auto a, auto b) { return EXPR; }, src0, src1);                        \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileData, typename... WaitEvents>                                                           \
    PTO_INST RecordEvent NAME(TileData& dst, TileData& src0, TileData& src1, WaitEvents&... e) {                   \
        return NAME(CallSite{}, dst, src0, src1, e...);                                                            \
    }

#define PTOSIM_SCALAR_OP(NAME, EXPR)                                                                               \
    template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>                                  \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar, \
                              WaitEvents&...) {                                                                    \
        static_assert(sim::vec_arith_type<typename TileDataDst::DType>, #NAME ": unsupported element type on this target"); \
        static_assert(std::is_same_v<typename TileDataDst::DType, typename TileDataSrc::DType>,                   \
                      #NAME ": source and destination element types must match");                                  \
        const auto s = sim::widen(scalar);                                                                         \
        sim::elementwise(cs, #NAME, dst, [s](auto a) { return EXPR; }, src);                                       \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>                                  \
    PTO_INST RecordEvent NAME(TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar, WaitEvents&... e) { \
        return NAME(CallSite{}, dst, src, scalar, e...);                                                           \
    }

namespace sim {
// Signed overflow and uint16 * uint16 (promoted to int) would be undefined
// behaviour in C++; integer arithmetic runs unsigned to get the wrap-around.
template <class A>
inline A wrap_add(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<decltype(a + b)>;
        return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
    } else {
        return a + b;
    }
}
template <class A>
inline A wrap_mul(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<decltype(a * b)>;
        return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
    } else {
        return a * b;
    }
}
}  // namespace sim

// Integer results wrap (two's complement); float results round to nearest even.
PTOSIM_BINARY_OP(TADD, sim::wrap_add(a, b))
PTOSIM_SCALAR_OP(TADDS, sim::wrap_add(a, s))
PTOSIM_SCALAR_OP(TMULS, sim::wrap_mul(a, s))

}  // namespace pto
