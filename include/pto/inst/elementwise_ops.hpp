// The element-wise instruction family on top of the shapes in
// elementwise.hpp: per-target element types (pto-isa docs/isa/<NAME>.md), the
// edge-case arithmetic they share, and one line per instruction.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/elementwise_ops.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/elementwise.hpp>
#include <bit>
#include <limits>

namespace pto {

namespace ptosim_impl {

// ------------------------------------------------------------ element types
// Sets listed on the instruction's ISA page; where a page lists none, the
// choice is explained in docs/isa/elementwise.md.

#define PTOSIM_TYPES(NAME, A2A3, A5) \
    template <class E>               \
    constexpr bool NAME = PTOSIM_TARGET_A5 ? one_of<E, PTOSIM_UNPAREN A5> : one_of<E, PTOSIM_UNPAREN A2A3>;

PTOSIM_TYPES(sub_types, (half, float, int16_t, int32_t),
             (half, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(mul_types, (half, float, int16_t, int32_t), (half, float, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(div_types, (half, float), (half, float, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t))
PTOSIM_TYPES(min_types, (half, float, int16_t, int32_t),
             (half, float, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(bit_types, (int16_t, uint16_t, int32_t, uint32_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(bitt_types, (int8_t, uint8_t, int16_t, uint16_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(and_types, (int8_t, uint8_t, int16_t, uint16_t, half),
             (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, float))
PTOSIM_TYPES(shift_types, (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t),
             (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t))
PTOSIM_TYPES(shifts_types, (int16_t, uint16_t, int32_t, uint32_t),
             (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t))
PTOSIM_TYPES(rem_types, (half, float, int16_t, int32_t), (half, float, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(fp_types, (half, float), (half, float))
PTOSIM_TYPES(addsc_types, (half, float, int16_t, int32_t), (half, float, int16_t, int32_t))
PTOSIM_TYPES(divs_types, (half, float, int16_t, int32_t), (half, float, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t))
PTOSIM_TYPES(expands_types, (half, float, int16_t, int32_t),
             (half, float, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(abs_types, (half, float), (half, float, int8_t, int16_t, int32_t, int64_t))
PTOSIM_TYPES(neg_types, (half, float, int16_t, int32_t), (half, float, bfloat16_t, int8_t, int16_t, int32_t))
PTOSIM_TYPES(not_types, (int8_t, uint8_t, int16_t, uint16_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t))
PTOSIM_TYPES(relu_types, (half, float, int32_t), (half, float, int32_t))

#undef PTOSIM_TYPES

// ------------------------------------------------------------ shared arithmetic


// A value as it would be stored in D and read back: steps of a fused
// instruction (TADDC, TAXPY) each round like a separate instruction.
template <class D, class A>
inline A round_as(A v) {
    return static_cast<A>(widen(narrow<D>(v)));
}

template <class A>
inline A wrap_neg(A a) {
    return wrap_sub(A(0), a);
}

// Integer division by zero gives all ones and INT_MIN / -1 wraps to INT_MIN
// (the RISC-V convention; the ISA pages leave both target-defined), except
// A5's 64-bit integers, where it gives 0: pto-isa's A5 TDIV golden for
// int64/uint64 (upstream tdiv gen_data.py) says so, and its implementation,
// executed, passes it.
template <class D, class A>
inline A div(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        if (b == 0) return PTOSIM_TARGET_A5 && sizeof(A) == 8 ? A(0) : static_cast<A>(~A(0));
        if constexpr (std::is_signed_v<A>)
            if (b == A(-1)) return wrap_neg(a);
        return static_cast<A>(a / b);
    } else {
        return from_double<D>(static_cast<double>(a) / static_cast<double>(b));
    }
}

// Truncated remainder (sign of the dividend, C fmod); x % 0 is x.
template <class A>
inline A rem_trunc(A a, A b) {
    if constexpr (std::is_integral_v<A>) {
        if (b == 0) return a;
        if constexpr (std::is_signed_v<A>)
            if (b == A(-1)) return A(0);
        return static_cast<A>(a % b);
    } else {
        return std::fmod(a, b);
    }
}

// Floored remainder (sign of the divisor).
template <class A>
inline A rem_floor(A a, A b) {
    const A r = rem_trunc(a, b);
    return r != A(0) && b != A(0) && ((r < A(0)) != (b < A(0))) ? wrap_add(r, b) : r;
}

// Shift amounts are read as unsigned; amounts >= the element width shift
// every bit out (0, or the sign for an arithmetic right shift). Except A5's
// 64-bit integers, whose amount is taken modulo 64: pto-isa's A5 TSHL/TSHR
// goldens for int64/uint64 shift by `n & 63` (upstream tshl and tshr
// gen_data.py, counts 64 and 65 included), and its implementation, executed,
// passes them.
template <class A, class B>
constexpr auto shift_amount(B n) {
    auto k = static_cast<std::make_unsigned_t<B>>(n);
    if constexpr (PTOSIM_TARGET_A5 && sizeof(A) == 8) k &= 63u;
    return k;
}
template <class A, class B>
inline A shl(A a, B n) {
    constexpr unsigned W = sizeof(A) * 8;
    const auto k = shift_amount<A>(n);
    return k >= W ? A(0) : static_cast<A>(static_cast<std::make_unsigned_t<A>>(a) << k);
}
template <class A, class B>
inline A shr(A a, B n) {
    constexpr unsigned W = sizeof(A) * 8;
    const auto k = shift_amount<A>(n);
    if (k < W) return static_cast<A>(a >> k);
    if constexpr (std::is_signed_v<A>) return a < A(0) ? A(-1) : A(0);
    else return A(0);
}

// r, or when a or b is NaN that NaN (a's if both), quieted: what x86's a + b
// returns then. Selected with bits instead of computing a + b on a branch:
// GCC does not vectorise a loop with conditional float arithmetic (it could
// trap), and a tile loop that does not vectorise is several times slower.
template <class A>
inline A nan_or(A a, A b, A r) {
    using U = std::conditional_t<sizeof(A) == 4, uint32_t, uint64_t>;
    constexpr U quiet = U(1) << (std::numeric_limits<A>::digits - 2);
    const bool an = a != a, bn = b != b;
    const U nan = (an ? std::bit_cast<U>(a) : std::bit_cast<U>(b)) | quiet;
    return std::bit_cast<A>(an | bn ? nan : std::bit_cast<U>(r));
}

// NaN in either operand gives NaN; equal operands (+0 and -0) give the first.
template <class A>
inline A vmax(A a, A b) {
    if constexpr (std::is_floating_point_v<A>) return nan_or(a, b, a < b ? b : a);
    else return a < b ? b : a;
}
template <class A>
inline A vmin(A a, A b) {
    if constexpr (std::is_floating_point_v<A>) return nan_or(a, b, b < a ? b : a);
    else return b < a ? b : a;
}

template <class A>
inline A vabs(A a) {
    if constexpr (std::is_floating_point_v<A>) return std::fabs(a);
    else return a < A(0) ? wrap_neg(a) : a;
}

template <class A>
inline A vneg(A a) {
    if constexpr (std::is_floating_point_v<A>) return -a;
    else return wrap_neg(a);
}

// Transcendentals are evaluated in double and rounded once into D.
template <class D, class Fn>
inline float fmath(float a, Fn fn) {
    return from_double<D>(fn(static_cast<double>(a)));
}

// 1/sqrt(a) into D. A2A3: rounded once. A5: pto-isa's A5 TRSQRT (npu/a5/
// TRsqrt.hpp) is vsqrt then vdiv of 1 by it, DEFAULT and HIGH_PRECISION
// alike (the latter through its IEEE square root and division sequences),
// so the square root rounds to D before the division; its A5 trsqrt golden
// (NumPy's 1.0 / np.sqrt in the element type) rounds twice too and fails the
// single rounding in its four HIGH_PRECISION cases (docs/differential.md).
template <class D>
inline float rsqrt(float a) {
#if PTOSIM_TARGET_A5
    const float root = round_as<D>(from_double<D>(std::sqrt(static_cast<double>(a))));  // vsqrt's result in D
    return from_double<D>(1.0 / static_cast<double>(root));
#else
    return from_double<D>(1.0 / std::sqrt(static_cast<double>(a)));
#endif
}

// a * b + c rounded once into D (IEEE fusedMultiplyAdd). A float fma is
// exact as it is; for 16-bit D the double fma goes through from_double's
// round-to-odd so that the store's rounding is the only one that counts.
template <class D>
inline float fused_mul_add(float a, float b, float c) {
    if constexpr (std::is_same_v<D, float>) return std::fma(a, b, c);
    else return from_double<D>(std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c)));
}

// a * b + c into D as the target's multiply-add does it. A2A3's vector
// unit rounds the product to D, then the sum: pto-isa's A2A3 goldens
// compute one operation at a time in the element type, and its
// tfusedmuladd fails a single rounding (docs/isa/elementwise.md, "Fused
// multiply-add"). A5's registers round once.
template <class D>
inline float mul_add(float a, float b, float c) {
#if PTOSIM_TARGET_A5
    return fused_mul_add<D>(a, b, c);
#else
    return from_double<D>(static_cast<double>(round_as<D>(a * b)) + static_cast<double>(c));
#endif
}

}  // namespace ptosim_impl

// ------------------------------------------------------------ tile-tile

PTOSIM_BINARY_OP(TSUB, sub_types, ptosim_impl::wrap_sub(a, b))
PTOSIM_BINARY_OP(TMUL, mul_types, ptosim_impl::wrap_mul(a, b))
PTOSIM_WITH_ALGO(PTOSIM_BINARY_SHAPE, TDIV, DivAlgorithm, div_types, ptosim_impl::div<D>(a, b))
PTOSIM_BINARY_OP(TMAX, sub_types, ptosim_impl::vmax(a, b))
PTOSIM_BINARY_OP(TMIN, min_types, ptosim_impl::vmin(a, b))
// TAND combines the elements' storage bits whatever their type (pto-isa's
// TAnd checks only the element size; its system tests AND half tiles), so a
// float or half tile is ANDed as raw bits, NaN payloads included.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
PTO_INST RecordEvent TAND(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename TileDataDst::DType;
    PTOSIM_CHECK_TYPES(TAND, and_types, D, typename TileDataSrc0::DType, typename TileDataSrc1::DType);
    ptosim_impl::elementwise<ptosim_impl::Operands::Bits>(cs, "TAND", dst, [](auto a, auto b) { return a & b; }, src0, src1);
    return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TAND(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) {
    return TAND(PTOSIM_CALLER, dst, src0, src1, e...);
}
PTOSIM_BINARY_OP(TOR, bitt_types, a | b)
PTOSIM_BINARY_TMP_OP(TXOR, bitt_types, a ^ b)
PTOSIM_BINARY_OP(TSHL, shift_types, ptosim_impl::shl(a, b))
PTOSIM_BINARY_OP(TSHR, shift_types, ptosim_impl::shr(a, b))
PTOSIM_WITH_ALGO(PTOSIM_BINARY_TMP_SHAPE, TREM, RemAlgorithm, rem_types, ptosim_impl::rem_floor(a, b))
PTOSIM_WITH_ALGO(PTOSIM_BINARY_SHAPE, TFMOD, FmodAlgorithm, rem_types, ptosim_impl::rem_trunc(a, b))
PTOSIM_BINARY_TMP_OP(TPRELU, fp_types, a > 0 ? a : a * b)
PTOSIM_TERNARY_OP(TADDC, vec_arith_type, ptosim_impl::wrap_add(ptosim_impl::round_as<D>(ptosim_impl::wrap_add(a, b)), c))
PTOSIM_TERNARY_OP(TSUBC, vec_arith_type, ptosim_impl::wrap_add(ptosim_impl::round_as<D>(ptosim_impl::wrap_sub(a, b)), c))

// ------------------------------------------------------------ tile-scalar

PTOSIM_SCALAR_OP(TSUBS, sub_types, ptosim_impl::wrap_sub(a, s))
PTOSIM_WITH_ALGO(PTOSIM_SCALAR_SHAPE, TDIVS, DivAlgorithm, divs_types, ptosim_impl::div<D>(a, s))
PTOSIM_WITH_ALGO(PTOSIM_SCALAR_FIRST_SHAPE, TDIVS, DivAlgorithm, divs_types, ptosim_impl::div<D>(s, a))
PTOSIM_SCALAR_OP(TMAXS, sub_types, ptosim_impl::vmax(a, s))
PTOSIM_SCALAR_OP(TMINS, min_types, ptosim_impl::vmin(a, s))
PTOSIM_SCALAR_OP(TANDS, bit_types, a & s)
PTOSIM_SCALAR_OP(TORS, bit_types, a | s)
PTOSIM_SCALAR_OP(TXORS, bit_types, a ^ s)
PTOSIM_SCALAR_OP(TSHLS, shifts_types, ptosim_impl::shl(a, s))
PTOSIM_SCALAR_OP(TSHRS, shifts_types, ptosim_impl::shr(a, s))
PTOSIM_WITH_ALGO(PTOSIM_SCALAR_SHAPE, TREMS, RemSAlgorithm, rem_types, ptosim_impl::rem_floor(a, s))
PTOSIM_WITH_ALGO(PTOSIM_SCALAR_SHAPE, TFMODS, FmodSAlgorithm, rem_types, ptosim_impl::rem_trunc(a, s))
// pto-isa's current TREMS also takes the scratch tile its A2A3 code needs; the
// simulated result does not depend on it.
template <auto PrecisionType = RemSAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc,
          typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST RecordEvent TREMS(CallSite cs, TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar,
                           TileDataTmp&, WaitEvents&... events) {
    return TREMS<PrecisionType>(cs, dst, src, scalar, events...);
}
template <auto PrecisionType = RemSAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc,
          typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST_CALLER RecordEvent TREMS(TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar, TileDataTmp& tmp,
                           WaitEvents&... events) {
    return TREMS<PrecisionType>(PTOSIM_CALLER, dst, src, scalar, tmp, events...);
}
// pto-isa's TXORS takes the scratch tile of its A2A3 code; the simulated
// result does not depend on it, and the form without it stays.
template <typename TileDataDst, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST RecordEvent TXORS(CallSite cs, TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar,
                           TileDataTmp&, WaitEvents&... events) {
    return TXORS(cs, dst, src, scalar, events...);
}
template <typename TileDataDst, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST_CALLER RecordEvent TXORS(TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar, TileDataTmp& tmp,
                           WaitEvents&... events) {
    return TXORS(PTOSIM_CALLER, dst, src, scalar, tmp, events...);
}
PTOSIM_SCALAR_OP(TLRELU, fp_types, a > 0 ? a : a * s)
PTOSIM_TILE_SCALAR_TILE_OP(TADDSC, addsc_types, ptosim_impl::wrap_add(ptosim_impl::round_as<D>(ptosim_impl::wrap_add(a, s)), b))
PTOSIM_TILE_SCALAR_TILE_OP(TSUBSC, addsc_types, ptosim_impl::wrap_add(ptosim_impl::round_as<D>(ptosim_impl::wrap_sub(a, s)), b))

template <typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TEXPANDS(CallSite cs, TileData& dst, typename TileData::DType scalar, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    PTOSIM_CHECK_TYPES(TEXPANDS, expands_types, typename TileData::DType, typename TileData::DType);
    ptosim_impl::elementwise(cs, "TEXPANDS", dst, [s = ptosim_impl::widen(scalar)] { return s; });
    return {};
}
template <typename TileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TEXPANDS(TileData& dst, typename TileData::DType scalar, WaitEvents&... e) {
    return TEXPANDS(PTOSIM_CALLER, dst, scalar, e...);
}

// dst = scalar * src0 + dst. On A2A3 the product is rounded to dst's type
// before the sum, as pto-isa's CPU model does; on A5 the sum rounds once, as
// A5's vaxpy does (pto-isa's A5 TAXPY golden, computed in float64 and rounded
// once, fails the A2A3 rounding: docs/isa/elementwise.md). A half src0 may
// accumulate into float.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TAXPY(CallSite cs, TileDataDst& dst, TileDataSrc& src0, typename TileDataSrc::DType scalar,
                           WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using D = typename TileDataDst::DType;
    using S = typename TileDataSrc::DType;
    static_assert(ptosim_impl::fp_types<D>, "TAXPY: unsupported element type (dst must be half or float)");
    static_assert(std::is_same_v<D, S> || (std::is_same_v<D, float> && std::is_same_v<S, half>),
                  "TAXPY: src0 must have dst's element type, or be half with a float dst");
    const float s = ptosim_impl::widen(scalar);
#if PTOSIM_TARGET_A5
    ptosim_impl::elementwise(cs, "TAXPY", dst, [s](float x, float y) { return ptosim_impl::fused_mul_add<D>(s, x, y); },
                             src0, dst);
#else
    ptosim_impl::elementwise(cs, "TAXPY", dst, [s](float x, float y) { return ptosim_impl::round_as<D>(s * x) + y; }, src0, dst);
#endif
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TAXPY(TileDataDst& dst, TileDataSrc& src0, typename TileDataSrc::DType scalar, WaitEvents&... e) {
    return TAXPY(PTOSIM_CALLER, dst, src0, scalar, e...);
}

// ------------------------------------------------------------ unary

PTOSIM_UNARY_OP(TABS, abs_types, ptosim_impl::vabs(a))
PTOSIM_UNARY_OP(TNEG, neg_types, ptosim_impl::vneg(a))
PTOSIM_UNARY_OP(TNOT, not_types, ~a)
PTOSIM_UNARY_OP(TRELU, relu_types, ptosim_impl::vmax(a, decltype(a)(0)))
PTOSIM_WITH_ALGO(PTOSIM_UNARY_EXP_SHAPE, TEXP, ExpAlgorithm, fp_types, ptosim_impl::fmath<D>(a, [](double x) { return std::exp(x); }))
PTOSIM_WITH_ALGO(PTOSIM_UNARY_LOG_SHAPE, TLOG, LogAlgorithm, fp_types, ptosim_impl::fmath<D>(a, [](double x) { return std::log(x); }))
PTOSIM_WITH_ALGO(PTOSIM_UNARY_SQRT_SHAPE, TSQRT, SqrtAlgorithm, fp_types, ptosim_impl::fmath<D>(a, [](double x) { return std::sqrt(x); }))
PTOSIM_WITH_ALGO(PTOSIM_UNARY_SHAPE, TRSQRT, RsqrtAlgorithm, fp_types, ptosim_impl::rsqrt<D>(a))
PTOSIM_WITH_ALGO(PTOSIM_UNARY_SHAPE, TRECIP, RecipAlgorithm, fp_types, ptosim_impl::fmath<D>(a, [](double x) { return 1.0 / x; }))

// The high-precision TRSQRT form takes a scratch tile; results are the same.
template <auto PrecisionType = RsqrtAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc,
          typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST RecordEvent TRSQRT(CallSite cs, TileDataDst& dst, TileDataSrc& src, TileDataTmp&, WaitEvents&... e) {
    return TRSQRT<PrecisionType>(cs, dst, src, e...);
}
template <auto PrecisionType = RsqrtAlgorithm::DEFAULT, typename TileDataDst, typename TileDataSrc,
          typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST_CALLER RecordEvent TRSQRT(TileDataDst& dst, TileDataSrc& src, TileDataTmp& tmp, WaitEvents&... e) {
    return TRSQRT<PrecisionType>(PTOSIM_CALLER, dst, src, tmp, e...);
}

}  // namespace pto
