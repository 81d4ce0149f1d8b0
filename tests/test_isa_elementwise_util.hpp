// Shared by the element-wise tests (test_isa_elementwise_*.cpp, one binary
// per target, split so the translation units build in parallel): inputs, the
// EW_TEST harness, scalar references written from the ISA definitions (long
// double / __int128 arithmetic, _Float16 for half rounding) and the element
// types per instruction. Each suite is named <INSTRUCTION>_Types so coverage
// maps tests to instructions.
#pragma once
#include <pto/inst/elementwise_ops.hpp>
#include "test_isa_ref.hpp"
#include <array>
#include <functional>

using namespace pto;
using namespace ref;
using testutil::run_vec;

namespace ew_test {

constexpr int kR = 16, kC = 64;
using LD = long double;
using I128 = __int128;

// ---------------------------------------------------------------- inputs

enum class Gen { Arith, Positive, ExpRange, Shift, Divisor };

template <class T>
LD val(T v) {
    return static_cast<LD>(to_double(v));
}

// The real value x rounded once into T.
template <class T>
T rnd(LD x) {
    if constexpr (is_half<T>) return half_from_bits(f16_bits(static_cast<_Float16>(x)));
    else if constexpr (is_bf16<T>) return bf16_from_bits(bf16_rne(static_cast<float>(x)));  // exact-in-float uses only
    else return static_cast<T>(x);
}
// Two's complement wrap of an exact integer result into T.
template <class T>
T wrap(I128 x) {
    return static_cast<T>(static_cast<uint64_t>(x));
}

template <class T>
std::vector<T> make_input(Gen g, uint64_t salt) {
    std::vector<T> v(kR * kC);
    testutil::Rng rng = testutil::Rng::salted(salt);
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 6.0e-8f, -3.0e-5f, 1.0e-40f, 65504.0f, 1.0f};
            if (h % 6 == 0) {
                x = from_float<T>(specials[(h >> 8) % 10]);
                continue;
            }
            double r = rng.uniform(-1000, 1000);
            if (g == Gen::Positive) r = std::ldexp(rng.uniform(0.5, 1), static_cast<int>((h >> 20) % 40) - 20);
            if (g == Gen::ExpRange) r = rng.uniform(-18, 12);
            if (g == Gen::Divisor && h % 5 == 1) r = rng.uniform(-4, 4);
            x = from_float<T>(static_cast<float>(r));
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            constexpr int W = sizeof(T) * 8;
            if (g == Gen::Shift) {
                const T amounts[] = {T(0), T(1), T(W - 1), T(W), T(W + 3), static_cast<T>(-1), hi};
                x = h % 3 == 0 ? amounts[(h >> 8) % 7] : static_cast<T>((h >> 12) % W);
                continue;
            }
            const T ends[] = {lo, static_cast<T>(lo + 1), hi, static_cast<T>(hi - 1), T(0), T(1), static_cast<T>(-1)};
            if (h % 4 == 0) x = ends[(h >> 8) % 7];
            else if (g == Gen::Divisor && h % 4 == 1) x = static_cast<T>((h >> 12) % 9);
            else x = static_cast<T>(h >> 11);
        }
    }
    return v;
}

template <class T>
std::vector<T> scalars() {
    if constexpr (is_fp<T>)
        return {from_float<T>(1.5f), from_float<T>(-0.3f), from_float<T>(0.0f), from_float<T>(NAN),
                from_float<T>(-INFINITY)};
    else
        return {T(3), std::numeric_limits<T>::max(), std::numeric_limits<T>::min(), static_cast<T>(-1), T(0)};
}

// ---------------------------------------------------------------- harness

// Runs op(dst, a, b, c) with dst's valid region vr x vc over three source
// tiles; dst starts as `init`, and every element outside the valid region
// must come back unchanged. ref(a, b, c, dst_before) gives the element.
template <class D, class S, class Op, class Ref>
void check(const std::array<std::vector<S>, 3>& in, Op op, Ref ref) {
    const auto init = make_input<D>(Gen::Arith, 99);
    for (auto [vr, vc] : {std::pair{1, 1}, std::pair{7, 13}, std::pair{kR, kC}, std::pair{3, kC}, std::pair{kR, 1}}) {
        SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
        auto src = in;
        auto dst = init;
        std::vector<D> out(kR * kC);
        auto st = run_vec([&] {
            using DynS = Tile<TileType::Vec, S, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
            using DynD = Tile<TileType::Vec, D, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
            DynS a(vr, vc), b(vr, vc), c(vr, vc);
            DynD td(vr, vc);
            Tile<TileType::Vec, D, kR, kC> full;
            TASSIGN(a, 0);
            TASSIGN(b, 0x2000);
            TASSIGN(c, 0x4000);
            TASSIGN(td, 0x8000);
            TASSIGN(full, 0x8000);
            auto ga = gm_nd(src[0].data(), vr, vc, kC);
            auto gb = gm_nd(src[1].data(), vr, vc, kC);
            auto gc = gm_nd(src[2].data(), vr, vc, kC);
            auto gd = gm_nd(dst.data(), kR, kC, kC);
            auto go = gm_nd(out.data(), kR, kC, kC);
            TLOAD(a, ga);
            TLOAD(b, gb);
            TLOAD(c, gc);
            TLOAD(full, gd);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            op(td, a, b, c);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(go, full);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) {
                const int i = r * kC + c;
                const D want = r < vr && c < vc ? ref(in[0][i], in[1][i], in[2][i], init[i]) : init[i];
                ASSERT_TRUE(same(out[i], want)) << "(" << r << "," << c << ") a=" << show(in[0][i])
                                                << " b=" << show(in[1][i]) << " c=" << show(in[2][i]) << " got "
                                                << show(out[i]) << " want " << show(want);
            }
    }
}

template <class T>
std::array<std::vector<T>, 3> inputs(Gen g0, Gen g1 = Gen::Arith, Gen g2 = Gen::Arith) {
    return {make_input<T>(g0, 1), make_input<T>(g1, 2), make_input<T>(g2, 3)};
}

// One typed suite per instruction: NAME_Types/<type>.MatchesReference.
#define EW_TEST(NAME, LIST, GEN, CALL, REF)                                                      \
    template <class T>                                                                           \
    class NAME##_Types : public ::testing::Test {};                                              \
    using NAME##_List = LIST;                                                                    \
    TYPED_TEST_SUITE(NAME##_Types, NAME##_List);                                                 \
    TYPED_TEST(NAME##_Types, MatchesReference) {                                                 \
        using T = TypeParam;                                                                     \
        check<T, T>(GEN, [&](auto& d, auto& a, auto& b, auto& c) { CALL; },                      \
                    [&](T a, T b, T c, T d0) -> T { REF; });                                     \
    }

// The same over every scalar of scalars<T>(), visible to CALL/REF as s.
#define EW_SCALAR_TEST(NAME, LIST, GEN, CALL, REF)                                               \
    template <class T>                                                                           \
    class NAME##_Types : public ::testing::Test {};                                              \
    using NAME##_List = LIST;                                                                    \
    TYPED_TEST_SUITE(NAME##_Types, NAME##_List);                                                 \
    TYPED_TEST(NAME##_Types, MatchesReferenceForEachScalar) {                                    \
        using T = TypeParam;                                                                     \
        for (T s : scalars<T>()) {                                                               \
            SCOPED_TRACE("scalar " + show(s));                                                   \
            check<T, T>(GEN, [&](auto& d, auto& a, auto& b, auto& c) { CALL; },                  \
                        [&](T a, T b, T c, T d0) -> T { REF; });                                 \
        }                                                                                        \
    }

// ---------------------------------------------------------------- references

template <class T>
T r_add(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(val(a) + val(b));
    else return wrap<T>(I128(a) + I128(b));
}
template <class T>
T r_sub(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(val(a) - val(b));
    else return wrap<T>(I128(a) - I128(b));
}
template <class T>
T r_mul(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(val(a) * val(b));
    else return wrap<T>(I128(a) * I128(b));
}
// a * b + c of three halves, exactly: every half is an integer times 2^-24,
// so the sum is an integer N times 2^-48 with |N| < 2^82, rounded here to
// nearest even at half's precision (11 bits, subnormal step 2^-24).
inline half exact_fma_half(half a, half b, half c) {
    const LD x = val(a), y = val(b), z = val(c);
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z))
        return rnd<half>(static_cast<LD>(std::fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z))));
    const I128 n = I128(static_cast<int64_t>(std::ldexp(x, 24))) * I128(static_cast<int64_t>(std::ldexp(y, 24))) +
                   I128(static_cast<int64_t>(std::ldexp(z, 24))) * (I128(1) << 24);
    if (n == 0) {
        const bool product_negative = (std::signbit(x) != std::signbit(y));
        return rnd<half>(product_negative && std::signbit(z) ? -0.0L : 0.0L);
    }
    I128 m = n < 0 ? -n : n;
    int bits = 0;
    for (I128 t = m; t != 0; t >>= 1) ++bits;
    const int exponent = std::max(bits - 1 - 48, -14);  // of the leading bit, as a half exponent
    const int step = exponent - 10 + 48;                // quantum 2^(exponent-10) in units of 2^-48
    const I128 q = I128(1) << step;
    I128 k = m / q;
    const I128 rem = m % q;
    if (2 * rem > q || (2 * rem == q && (k & 1))) ++k;
    const LD mag = std::ldexp(static_cast<LD>(static_cast<int64_t>(k)), step - 48);
    return rnd<half>(n < 0 ? -mag : mag);  // mag has <= 11 significant bits, or overflows to inf
}

// TRSQRT: 1/sqrt(a) rounded once on A2A3; on A5 the square root rounds to T
// first, as pto-isa's A5 vsqrt-then-vdiv (docs/isa/elementwise.md).
template <class T>
T r_rsqrt(T a) {
#if PTOSIM_TARGET_A5
    return rnd<T>(1 / val(rnd<T>(std::sqrt(val(a)))));
#else
    return rnd<T>(1 / std::sqrt(val(a)));
#endif
}
// TAXPY's s * a + d: on A2A3 the product rounds to T first, on A5 the sum
// rounds once, as A5's vaxpy (docs/isa/elementwise.md, "Rounding").
template <class T>
T r_axpy(T s, T a, T d) {
#if PTOSIM_TARGET_A5
    if constexpr (is_half<T>) return exact_fma_half(s, a, d);
    else return std::fma(s, a, d);
#else
    return r_add(r_mul(s, a), d);
#endif
}
// Integer x / 0 is all ones (our choice, RISC-V style), but 0 for A5's
// 64-bit integers (pto-isa's A5 tdiv golden); floats follow IEEE.
template <class T>
T r_div(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(val(a) / val(b));
    else if (b == 0) return PTOSIM_TARGET_A5 && sizeof(T) == 8 ? T(0) : wrap<T>(-1);
    else return wrap<T>(I128(a) / I128(b));
}
// Truncated remainder; integer x % 0 is x (our choice).
template <class T>
T r_fmod(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(std::fmod(val(a), val(b)));
    else return b == 0 ? a : wrap<T>(I128(a) % I128(b));
}
// Remainder with the divisor's sign.
template <class T>
T r_rem(T a, T b) {
    if constexpr (is_fp<T>) {
        const LD r = std::fmod(val(a), val(b));
        return rnd<T>(r != 0 && val(b) != 0 && std::signbit(r) != std::signbit(val(b)) && !std::isnan(r) ? r + val(b) : r);
    } else {
        if (b == 0) return a;
        const I128 r = I128(a) % I128(b);
        return wrap<T>(r != 0 && ((r < 0) != (b < 0)) ? r + I128(b) : r);
    }
}
template <class T>
T r_max(T a, T b) {
    if (is_nan(a) || is_nan(b)) return from_float<T>(NAN);
    return val(a) < val(b) ? b : a;
}
template <class T>
T r_min(T a, T b) {
    if (is_nan(a) || is_nan(b)) return from_float<T>(NAN);
    return val(b) < val(a) ? b : a;
}
// The shift count, unsigned; modulo 64 for A5's 64-bit integers (pto-isa's
// A5 tshl/tshr goldens), so that only the other types shift everything out.
template <class T>
uint64_t amount(T b) {
    const uint64_t k = static_cast<std::make_unsigned_t<T>>(b);
    return PTOSIM_TARGET_A5 && sizeof(T) == 8 ? k & 63 : k;
}
template <class T>
T r_shl(T a, T b) {
    return amount(b) >= sizeof(T) * 8 ? T(0) : wrap<T>(I128(a) << amount(b));
}
template <class T>
T r_shr(T a, T b) {
    if (amount(b) >= sizeof(T) * 8) return I128(a) < 0 ? T(-1) : T(0);
    return wrap<T>(I128(a) >> amount(b));
}
template <class T>
T r_relu_slope(T a, T slope) {
    return val(a) > 0 ? a : rnd<T>(val(a) * val(slope));
}
template <class T>
T r_math(T a, LD (*fn)(LD)) {
    return rnd<T>(fn(val(a)));
}

// ---------------------------------------------------------------- type lists

using SubT = TL((half, float, int16_t, int32_t), (half, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using MulT = TL((half, float, int16_t, int32_t), (half, float, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t));
using DivT = TL((half, float), (half, float, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t));
using MinT = TL((half, float, int16_t, int32_t),
                (half, float, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using BitT = TL((int16_t, uint16_t, int32_t, uint32_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
// Tile-tile bitwise ops: A2A3 has 8- and 16-bit forms only (pto-isa's npu/a2a3/TAnd.hpp, TOr.hpp, TXor.hpp).
using BitTT = TL((int8_t, uint8_t, int16_t, uint16_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using ShiftT = TL((int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t),
                  (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t));
using ShiftST = TL((int16_t, uint16_t, int32_t, uint32_t),
                   (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t));
using RemT = TL((half, float, int16_t, int32_t), (half, float, int16_t, uint16_t, int32_t, uint32_t));
using FpT = ::testing::Types<half, float>;
using ArithT = TL((half, float, int16_t, int32_t),
                  (half, float, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using AddscT = ::testing::Types<half, float, int16_t, int32_t>;
using DivsT = TL((half, float, int16_t, int32_t), (half, float, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t));
using ExpandsT = TL((half, float, int16_t, int32_t), (half, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using AbsT = TL((half, float), (half, float, int8_t, int16_t, int32_t, int64_t));
using NegT = TL((half, float, int16_t, int32_t), (half, float, bfloat16_t, int8_t, int16_t, int32_t));
using NotT = TL((int8_t, uint8_t, int16_t, uint16_t), (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using ReluT = ::testing::Types<half, float, int32_t>;

}  // namespace ew_test

using namespace ew_test;
