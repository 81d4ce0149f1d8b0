// Fused and composite element-wise instructions: TPOW/TPOWS, the fused
// multiply-adds, TSUBRELU, TPAIRREDUCESUM and TRANDOM. Semantics, element
// types per target and their sources: docs/isa/elementwise.md.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/elementwise_fused.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/elementwise_ops.hpp>

namespace pto {

// TRANDOM's key and counter words (pto-isa include/pto/common/type.hpp).
constexpr int PTO_RANDOM_KEY_SIZE = 2;
constexpr int PTO_RANDOM_COUNTER_SIZE = 4;
using TRandomKey = uint32_t[PTO_RANDOM_KEY_SIZE];
using TRandomCounter = uint32_t[PTO_RANDOM_COUNTER_SIZE];

namespace ptosim_impl {

// TMULADDDST, TFUSEDMULADD(RELU), TSUBRELU, TPAIRREDUCESUM: half and float on
// both targets (pto-isa docs/isa/<NAME>.md, "Constraints").
template <class E>
constexpr bool f16f32_fused_type = one_of<E, half, float>;

// TPOW/TPOWS (npu/a2a3/TPow.hpp PowCheckType; npu/a5/TPow.hpp PowCheckType).
// A2A3 ignores the algorithm; A5's HIGH_PRECISION path is float-only inside.
template <class E, PowAlgorithm Algo>
constexpr bool pow_type =
    !PTOSIM_TARGET_A5 ? one_of<E, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>
    : Algo == PowAlgorithm::HIGH_PRECISION
        ? one_of<E, half, float, bfloat16_t>
        : one_of<E, half, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>;

// Integer power by squaring, wrapping in the element type. x^0 = 1 (0^0
// too), 1^y = 1, (-1)^y alternates, any other negative exponent gives 0.
template <class A>
inline A int_pow(A base, A exp) {
    if (exp == 0 || base == 1) return A(1);
    if constexpr (std::is_signed_v<A>) {
        if (base == A(-1)) return (exp & 1) ? A(-1) : A(1);
        if (exp < 0) return A(0);
    }
    A r = 1;
    for (; exp != 0; exp = static_cast<A>(exp >> 1)) {
        if (exp & 1) r = wrap_mul(r, base);
        base = wrap_mul(base, base);
    }
    return r;
}

// A5 resolves every special operand as C's pow does. A2A3 computes
// exp(y * ln|x|) and repairs only y = 0, x = 0 (unsigned zero or inf), (-1)^inf
// and the sign for integral y, so ln's NaN shows through elsewhere.
template <class D>
inline float float_pow(float x, float y) {
    if constexpr (!PTOSIM_TARGET_A5) {
        if (y == 0) return 1.0f;
        if (x == 0) return y > 0 ? 0.0f : INFINITY;
        if (x == -1 && std::isinf(y)) return 1.0f;
        const bool integral = std::isfinite(y) && std::trunc(y) == y;
        if (std::isnan(y) || (std::fabs(x) == 1 && std::isinf(y)) || (x < 0 && !integral)) return NAN;
        const double mag = std::pow(std::fabs(static_cast<double>(x)), static_cast<double>(y));
        return from_double<D>(x < 0 && std::fmod(y, 2.0f) != 0 ? -mag : mag);
    }
    return from_double<D>(std::pow(static_cast<double>(x), static_cast<double>(y)));
}

template <class D, class A>
inline A elem_pow(A x, A y) {
    if constexpr (std::is_integral_v<A>) return int_pow(x, y);
    else return float_pow<D>(x, y);
}

template <auto Algo, class D, class... S>
constexpr void check_pow() {
    static_assert(std::is_same_v<decltype(Algo), PowAlgorithm>, "TPOW/TPOWS: PrecisionType must be a PowAlgorithm");
    static_assert(pow_type<D, Algo>,
                  "TPOW/TPOWS: unsupported element type for this target and PowAlgorithm (A2A3: float and 8/16/32-bit "
                  "integers; A5 DEFAULT: half, float and 8/16/32-bit integers; A5 HIGH_PRECISION: half, float, "
                  "bfloat16_t; see docs/isa/elementwise.md)");
    static_assert(same_elem<D, S...>, "TPOW/TPOWS: base and exponent must have the destination's element type");
}

// The 128-bit counter of TRANDOM plus a 64-bit-or-less increment.
inline void add_to_counter(uint32_t (&ctr)[4], uint64_t inc) {
    for (uint32_t& word : ctr) {
        inc += word;
        word = static_cast<uint32_t>(inc);
        inc >>= 32;
    }
}

// Philox-4x32 with the round count as TRANDOM's Rounds (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11; constants as in
// pto-isa npu/a5/TRandom.hpp). The key is bumped after every round.
template <uint16_t Rounds>
inline void philox4x32(uint32_t (&ctr)[4], uint32_t k0, uint32_t k1) {
    for (uint16_t i = 0; i < Rounds; ++i) {
        const uint64_t p0 = uint64_t{0xD2511F53u} * ctr[0], p1 = uint64_t{0xCD9E8D57u} * ctr[2];
        const uint32_t c1 = ctr[1], c3 = ctr[3];
        ctr[0] = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
        ctr[1] = static_cast<uint32_t>(p1);
        ctr[2] = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
        ctr[3] = static_cast<uint32_t>(p0);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

// Opens an instruction that writes dst's valid region from one source tile
// (or none) outside elementwise(): checks, base pointers, one OpRecord.
template <class Dst, class... Src>
uint8_t* begin_vec_op(CallSite cs, const char* op, Dst& dst, std::array<const uint8_t*, sizeof...(Src)>& s,
                      Src&... src) {
    check_vec_operand<Dst>();
    (check_vec_operand<Src>(), ...);
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    s = {tile_base(c, src, op, "source", loc)...};
    OpRecord rec = make_record(op, Pipe::V, cs);
    (record_tile(rec, false, src), ...);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(dst.GetValidRow()) * dst.GetValidCol();
    rec.flops = rec.elements;
    rec.bytes = rec.elements * sizeof(typename Dst::DType) * (1 + sizeof...(Src));
    ptosim::dispatch(c, rec);
    return d;
}

}  // namespace ptosim_impl

// ------------------------------------------------------------ power

template <auto PrecisionType = PowAlgorithm::DEFAULT, typename DstTile, typename BaseTile, typename ExpTile,
          typename TmpTile, typename... WaitEvents>
PTO_INST RecordEvent TPOW(CallSite cs, DstTile& dst, BaseTile& base, ExpTile& exp, TmpTile&, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename DstTile::DType;
    ptosim_impl::check_pow<PrecisionType, D, typename BaseTile::DType, typename ExpTile::DType>();
    static_assert(is_tile_data_v<TmpTile>, "TPOW: the fourth operand is the scratch tile (tmp)");
    ptosim_impl::elementwise(cs, "TPOW", dst, [](auto x, auto y) { return ptosim_impl::elem_pow<D>(x, y); }, base, exp);
    return {};
}
template <auto PrecisionType = PowAlgorithm::DEFAULT, typename DstTile, typename BaseTile, typename ExpTile,
          typename TmpTile, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPOW(DstTile& dst, BaseTile& base, ExpTile& exp, TmpTile& tmp, WaitEvents&... e) {
    return TPOW<PrecisionType>(PTOSIM_CALLER, dst, base, exp, tmp, e...);
}

template <auto PrecisionType = PowAlgorithm::DEFAULT, typename DstTile, typename BaseTile, typename TmpTile,
          typename... WaitEvents>
PTO_INST RecordEvent TPOWS(CallSite cs, DstTile& dst, BaseTile& base, typename DstTile::DType exp, TmpTile&,
                           WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename DstTile::DType;
    ptosim_impl::check_pow<PrecisionType, D, typename BaseTile::DType>();
    static_assert(is_tile_data_v<TmpTile>, "TPOWS: the fourth operand is the scratch tile (tmp)");
    ptosim_impl::elementwise(cs, "TPOWS", dst, [y = ptosim_impl::widen(exp)](auto x) { return ptosim_impl::elem_pow<D>(x, y); }, base);
    return {};
}
template <auto PrecisionType = PowAlgorithm::DEFAULT, typename DstTile, typename BaseTile, typename TmpTile,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPOWS(DstTile& dst, BaseTile& base, typename DstTile::DType exp, TmpTile& tmp,
                           WaitEvents&... e) {
    return TPOWS<PrecisionType>(PTOSIM_CALLER, dst, base, exp, tmp, e...);
}

// ------------------------------------------------------------ fused multiply-add

// dst = EXPR(a, b, d): a and b from src0 and src1, d the destination's own value.
#define PTOSIM_DST_ACCUMULATE_OP(NAME, TYPES, EXPR)                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>        \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,             \
                              WaitEvents&... events) {                                                            \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileDataDst::DType;                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc0::DType, typename TileDataSrc1::DType);           \
        ptosim_impl::elementwise(cs, #NAME, dst, [](auto a, auto b, auto d) { return EXPR; }, src0, src1, dst);          \
        return {};                                                                                                \
    }                                                                                                             \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>        \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) { \
        return NAME(PTOSIM_CALLER, dst, src0, src1, e...);                                                        \
    }

PTOSIM_DST_ACCUMULATE_OP(TMULADDDST, f16f32_fused_type, ptosim_impl::mul_add<D>(a, b, d))
PTOSIM_DST_ACCUMULATE_OP(TFUSEDMULADD, f16f32_fused_type, ptosim_impl::mul_add<D>(a, d, b))
// The ReLU sees the sum as rounded into D, as the hardware's vmadd + vrelu pair does.
PTOSIM_DST_ACCUMULATE_OP(TFUSEDMULADDRELU, f16f32_fused_type,
                         ptosim_impl::vmax(ptosim_impl::round_as<D>(ptosim_impl::mul_add<D>(a, d, b)), 0.0f))
PTOSIM_BINARY_OP(TSUBRELU, f16f32_fused_type, ptosim_impl::vmax(a - b, 0.0f))

// ------------------------------------------------------------ pair reduction

// dst(r, k) = src0(r, 2k) + src0(r, 2k + 1) for k < floor(vc / 2) (an odd
// last element has no pair and is dropped, as pto-isa's implementations on
// both targets and its A2A3 golden do); dst(r, k) = 0 for the rest of the
// valid row.
template <typename TileDataDst, typename TileDataSrc0, typename... WaitEvents>
PTO_INST RecordEvent TPAIRREDUCESUM(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename TileDataDst::DType;
    using S = typename TileDataSrc0::DType;
    PTOSIM_CHECK_TYPES(TPAIRREDUCESUM, f16f32_fused_type, D, S);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    ptosim_impl::vop::region_contract(cs, "TPAIRREDUCESUM", src0, "src0", vr, vc, "dst's valid shape", "read",
                                      "give src0 dst's valid shape " + ptosim_impl::vop::shape_str(vr, vc));
    std::array<const uint8_t*, 1> s;
    uint8_t* d = ptosim_impl::begin_vec_op(cs, "TPAIRREDUCESUM", dst, s, src0);
    auto src = [&](int r, int c) {
        return ptosim_impl::widen(ptosim_impl::load_elem<S>(ptosim_impl::at<TileDataSrc0>(const_cast<uint8_t*>(s[0]), r, c)));
    };
    for (int r = 0; r < vr; ++r)
        for (int k = 0; k < vc; ++k) {
            const float v = 2 * k + 1 < vc ? src(r, 2 * k) + src(r, 2 * k + 1) : 0.0f;
            ptosim_impl::store_elem(ptosim_impl::at<TileDataDst>(d, r, k), ptosim_impl::narrow<D>(v));
        }
    return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPAIRREDUCESUM(TileDataDst& dst, TileDataSrc0& src0, WaitEvents&... e) {
    return TPAIRREDUCESUM(PTOSIM_CALLER, dst, src0, e...);
}

// ------------------------------------------------------------ random numbers

// Lane l (0..63) of pass t = row * ceil(vc / 256) + j runs Philox on counter
// + l + t * (RowStride / 4) and writes its four words to columns 256j + 64w + l
// (pto-isa npu/a5/TRandom.hpp; docs/isa/elementwise.md "TRANDOM").
template <uint16_t Rounds = 10, typename DstTile, typename... WaitEvents>
PTO_INST RecordEvent TRANDOM(CallSite cs, DstTile& dst, TRandomKey& key, TRandomCounter& counter, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename DstTile::DType;
    static_assert(PTOSIM_TARGET_A5 && sizeof(D) > 0,
                  "TRANDOM: not available on A2A3 (pto-isa implements it for A5 only); generate the numbers on A5 "
                  "or load them from global memory");
    static_assert(ptosim_impl::one_of<D, int32_t, uint32_t>, "TRANDOM: dst must be int32_t or uint32_t");
    static_assert(Rounds == 7 || Rounds == 10, "TRANDOM: Rounds must be 7 or 10");
    constexpr int kLanes = 64, kWords = 4;
    std::array<const uint8_t*, 0> none;
    uint8_t* d = ptosim_impl::begin_vec_op(cs, "TRANDOM", dst, none);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    const int passes = (vc + kLanes * kWords - 1) / (kLanes * kWords);
    for (int r = 0; r < vr; ++r)
        for (int j = 0; j < passes; ++j)
            for (int lane = 0; lane < kLanes; ++lane) {
                uint32_t ctr[4] = {counter[0], counter[1], counter[2], counter[3]};
                ptosim_impl::add_to_counter(ctr, lane + static_cast<uint64_t>(r * passes + j) * (DstTile::RowStride / 4));
                ptosim_impl::philox4x32<Rounds>(ctr, key[0], key[1]);
                for (int w = 0; w < kWords; ++w)
                    if (const int c = (j * kWords + w) * kLanes + lane; c < vc)
                        ptosim_impl::store_elem(ptosim_impl::at<DstTile>(d, r, c), static_cast<D>(ctr[w]));
            }
    return {};
}
template <uint16_t Rounds = 10, typename DstTile, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TRANDOM(DstTile& dst, TRandomKey& key, TRandomCounter& counter, WaitEvents&... e) {
    return TRANDOM<Rounds>(PTOSIM_CALLER, dst, key, counter, e...);
}

}  // namespace pto
