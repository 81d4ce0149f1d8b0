// Element-wise family: every instruction, every element type of the compiled
// target, against scalar references written here from the ISA definitions
// (long double / __int128 arithmetic, _Float16 for half rounding). Each suite
// is named <INSTRUCTION>_Types so coverage maps tests to instructions.
#include "test_isa_ref.hpp"
#include <array>
#include <functional>

using namespace pto;
using namespace ref;
using testutil::run_vec;

namespace {

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
    testutil::Rng rng;
    rng.s ^= salt * 0x9e3779b97f4a7c15ull;
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
// Integer x / 0 is all ones (our choice, RISC-V style); floats follow IEEE.
template <class T>
T r_div(T a, T b) {
    if constexpr (is_fp<T>) return rnd<T>(val(a) / val(b));
    else return b == 0 ? wrap<T>(-1) : wrap<T>(I128(a) / I128(b));
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
template <class T>
uint64_t amount(T b) {
    return static_cast<std::make_unsigned_t<T>>(b);
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

// ---------------------------------------------------------------- tile-tile

EW_TEST(TSUB, SubT, inputs<T>(Gen::Arith), TSUB(d, a, b), return r_sub(a, b))
EW_TEST(TMUL, MulT, inputs<T>(Gen::Arith), TMUL(d, a, b), return r_mul(a, b))
EW_TEST(TDIV, DivT, inputs<T>(Gen::Arith, Gen::Divisor), TDIV(d, a, b), return r_div(a, b))
EW_TEST(TMAX, SubT, inputs<T>(Gen::Arith), TMAX(d, a, b), return r_max(a, b))
EW_TEST(TMIN, MinT, inputs<T>(Gen::Arith), TMIN(d, a, b), return r_min(a, b))
EW_TEST(TAND, BitTT, inputs<T>(Gen::Arith), TAND(d, a, b), return wrap<T>(I128(a) & I128(b)))
EW_TEST(TOR, BitTT, inputs<T>(Gen::Arith), TOR(d, a, b), return wrap<T>(I128(a) | I128(b)))
EW_TEST(TXOR, BitTT, inputs<T>(Gen::Arith), TXOR(d, a, b, c), return wrap<T>(I128(a) ^ I128(b)))
EW_TEST(TSHL, ShiftT, inputs<T>(Gen::Arith, Gen::Shift), TSHL(d, a, b), return r_shl(a, b))
EW_TEST(TSHR, ShiftT, inputs<T>(Gen::Arith, Gen::Shift), TSHR(d, a, b), return r_shr(a, b))
EW_TEST(TREM, RemT, inputs<T>(Gen::Arith, Gen::Divisor), TREM(d, a, b, c), return r_rem(a, b))
EW_TEST(TFMOD, RemT, inputs<T>(Gen::Arith, Gen::Divisor), TFMOD(d, a, b), return r_fmod(a, b))
EW_TEST(TPRELU, FpT, inputs<T>(Gen::Arith), TPRELU(d, a, b, c), return r_relu_slope(a, b))
EW_TEST(TADDC, ArithT, inputs<T>(Gen::Arith), TADDC(d, a, b, c), return r_add(r_add(a, b), c))
EW_TEST(TSUBC, ArithT, inputs<T>(Gen::Arith), TSUBC(d, a, b, c), return r_add(r_sub(a, b), c))

// ---------------------------------------------------------------- tile-scalar

EW_SCALAR_TEST(TSUBS, SubT, inputs<T>(Gen::Arith), TSUBS(d, a, s), return r_sub(a, s))
EW_SCALAR_TEST(TDIVS, DivsT, inputs<T>(Gen::Divisor), TDIVS(d, a, s), return r_div(a, s))
EW_SCALAR_TEST(TDIVS_ScalarFirst, DivsT, inputs<T>(Gen::Divisor), TDIVS(d, s, a), return r_div(s, a))
EW_SCALAR_TEST(TMAXS, SubT, inputs<T>(Gen::Arith), TMAXS(d, a, s), return r_max(a, s))
EW_SCALAR_TEST(TMINS, MinT, inputs<T>(Gen::Arith), TMINS(d, a, s), return r_min(a, s))
EW_SCALAR_TEST(TANDS, BitT, inputs<T>(Gen::Arith), TANDS(d, a, s), return wrap<T>(I128(a) & I128(s)))
EW_SCALAR_TEST(TORS, BitT, inputs<T>(Gen::Arith), TORS(d, a, s), return wrap<T>(I128(a) | I128(s)))
EW_SCALAR_TEST(TXORS, BitT, inputs<T>(Gen::Arith), TXORS(d, a, s), return wrap<T>(I128(a) ^ I128(s)))
EW_SCALAR_TEST(TSHLS, ShiftST, inputs<T>(Gen::Arith), TSHLS(d, a, s), return r_shl(a, s))
EW_SCALAR_TEST(TSHRS, ShiftST, inputs<T>(Gen::Arith), TSHRS(d, a, s), return r_shr(a, s))
EW_SCALAR_TEST(TREMS, RemT, inputs<T>(Gen::Arith), TREMS(d, a, s), return r_rem(a, s))
EW_SCALAR_TEST(TFMODS, RemT, inputs<T>(Gen::Arith), TFMODS(d, a, s), return r_fmod(a, s))
EW_SCALAR_TEST(TLRELU, FpT, inputs<T>(Gen::Arith), TLRELU(d, a, s), return r_relu_slope(a, s))
EW_SCALAR_TEST(TADDSC, AddscT, inputs<T>(Gen::Arith), TADDSC(d, a, s, b), return r_add(r_add(a, s), b))
EW_SCALAR_TEST(TSUBSC, AddscT, inputs<T>(Gen::Arith), TSUBSC(d, a, s, b), return r_add(r_sub(a, s), b))
EW_SCALAR_TEST(TEXPANDS, ExpandsT, inputs<T>(Gen::Arith), TEXPANDS(d, s), return s)
EW_SCALAR_TEST(TAXPY, FpT, inputs<T>(Gen::Arith), TAXPY(d, a, s), return r_add(r_mul(s, a), d0))

// TAXPY's mixed form: a half source accumulating into a float destination.
TEST(TAXPY_Types, HalfSourceIntoFloat) {
    for (half s : scalars<half>()) {
        SCOPED_TRACE("scalar " + show(s));
        check<float, half>(inputs<half>(Gen::Arith), [&](auto& d, auto& a, auto&, auto&) { TAXPY(d, a, s); },
                           [&](half a, half, half, float d0) { return rnd<float>(val(r_mul<float>(val(s), val(a))) + val(d0)); });
    }
}

// TAND on floating-point tiles combines the storage bits (pto-isa's TAnd
// checks only the element size; its A2A3 and A5 system tests AND half tiles),
// NaN payloads included (b runs through NaN encodings).
TEST(TAND_Types, FloatingPointTilesAndTheirBits) {
    std::vector<half> a(kR * kC), b(kR * kC), out(kR * kC);
    for (int i = 0; i < kR * kC; ++i) {
        a[i] = half::from_bits(static_cast<uint16_t>(0x3c00 + 37 * i));
        b[i] = half::from_bits(static_cast<uint16_t>(0xfff0 - 11 * i));
    }
    auto st = run_vec([&] {
        Tile<TileType::Vec, half, kR, kC> ta, tb, td;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(td, 0x2000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        auto gd = gm_nd(out.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TAND(td, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gd, td);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < kR * kC; ++i) {
        ASSERT_EQ(out[i].bits, a[i].bits & b[i].bits) << i;
    }
}

// pto-isa's own kernels name the tile types explicitly (TFMOD<Dst, Src0,
// Src1>(...), TSEL<Tile, Mask>(...)); those calls reach the same instruction
// as the deduced ones.
TEST(ExplicitTemplateArguments, TfmodTremAndTdivMatchTheDeducedCall) {
    using T = Tile<TileType::Vec, float, kR, kC>;
    std::vector<float> a(kR * kC), b(kR * kC), f(kR * kC), q(kR * kC), r(kR * kC);
    for (int i = 0; i < kR * kC; ++i) {
        a[i] = static_cast<float>(i % 17) - 8.5f;
        b[i] = static_cast<float>(i % 5) + 1.0f;
    }
    auto st = run_vec([&] {
        T ta, tb, tf, tq;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(tf, 0x2000);
        TASSIGN(tq, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        auto gf = gm_nd(f.data(), kR, kC, kC);
        auto gq = gm_nd(q.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TFMOD<T, T, T>(tf, ta, tb);
        TDIV<DivAlgorithm::HIGH_PRECISION>(tq, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gf, tf);
        TSTORE(gq, tq);
        ISA_SYNC(PIPE_MTE3, PIPE_V);
        TREM<T, T, T>(tf, ta, tb);  // the older three-operand form, without the scratch tile
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto gr = gm_nd(r.data(), kR, kC, kC);
        TSTORE(gr, tf);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < kR * kC; ++i) {
        EXPECT_EQ(f[i], std::fmod(a[i], b[i])) << i;
        EXPECT_EQ(q[i], a[i] / b[i]) << i;
        EXPECT_EQ(r[i], a[i] - std::floor(a[i] / b[i]) * b[i]) << i;  // TREM rounds the quotient down
    }
}

// ---------------------------------------------------------------- unary

EW_TEST(TABS, AbsT, inputs<T>(Gen::Arith), TABS(d, a),
        if constexpr (is_fp<T>) return rnd<T>(std::fabs(val(a))); else return wrap<T>(a < 0 ? -I128(a) : I128(a)))
EW_TEST(TNEG, NegT, inputs<T>(Gen::Arith), TNEG(d, a),
        if constexpr (is_fp<T>) return rnd<T>(-val(a)); else return wrap<T>(-I128(a)))
EW_TEST(TNOT, NotT, inputs<T>(Gen::Arith), TNOT(d, a), return wrap<T>(~I128(a)))
EW_TEST(TRELU, ReluT, inputs<T>(Gen::Arith), TRELU(d, a), return is_nan(a) || !(val(a) < 0) ? a : T(0))
EW_TEST(TEXP, FpT, inputs<T>(Gen::ExpRange), TEXP(d, a), return r_math<T>(a, [](LD x) { return std::exp(x); }))
EW_TEST(TLOG, FpT, inputs<T>(Gen::Positive), TLOG(d, a), return r_math<T>(a, [](LD x) { return std::log(x); }))
EW_TEST(TSQRT, FpT, inputs<T>(Gen::Positive), TSQRT(d, a), return r_math<T>(a, [](LD x) { return std::sqrt(x); }))
EW_TEST(TRSQRT, FpT, inputs<T>(Gen::Positive), TRSQRT(d, a),
        return r_math<T>(a, [](LD x) { return 1 / std::sqrt(x); }))
EW_TEST(TRECIP, FpT, inputs<T>(Gen::Divisor), TRECIP(d, a), return r_math<T>(a, [](LD x) { return 1 / x; }))

TEST(TRSQRT_Types, ScratchTileFormMatches) {
    check<float, float>(inputs<float>(Gen::Positive), [&](auto& d, auto& a, auto& b, auto&) { TRSQRT(d, a, b); },
                        [](float a, float, float, float) { return r_math<float>(a, [](LD x) { return 1 / std::sqrt(x); }); });
}

// Documented edge values, checked without the reference helpers.
TEST(TEXP_Types, SpecialValues) {
    const float in[] = {0.0f, -0.0f, 1.0f, -INFINITY, INFINITY, 89.0f, -104.0f, NAN};
    std::vector<float> a(kR * kC, 0.0f), lg(kR * kC), ex(kR * kC), rs(kR * kC);
    std::copy(std::begin(in), std::end(in), a.begin());
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> ta, te, tl, tr;
        TASSIGN(ta, 0);
        TASSIGN(te, 0x1000);
        TASSIGN(tl, 0x2000);
        TASSIGN(tr, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        TLOAD(ta, ga);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TEXP(te, ta);
        TLOG(tl, ta);
        TRSQRT(tr, ta);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto ge = gm_nd(ex.data(), kR, kC, kC);
        auto gl = gm_nd(lg.data(), kR, kC, kC);
        auto gr = gm_nd(rs.data(), kR, kC, kC);
        TSTORE(ge, te);
        TSTORE(gl, tl);
        TSTORE(gr, tr);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(ex[0], 1.0f);
    EXPECT_EQ(ex[3], 0.0f);
    EXPECT_EQ(ex[4], INFINITY);
    EXPECT_EQ(ex[5], INFINITY);  // exp(89) overflows float
    EXPECT_EQ(ex[6], 0.0f);      // exp(-104) underflows past the smallest subnormal
    EXPECT_TRUE(std::isnan(ex[7]));
    EXPECT_EQ(lg[0], -INFINITY);
    EXPECT_EQ(lg[1], -INFINITY);
    EXPECT_EQ(lg[2], 0.0f);
    EXPECT_TRUE(std::isnan(lg[3]));
    EXPECT_EQ(rs[0], INFINITY);
    EXPECT_EQ(rs[1], -INFINITY);
    EXPECT_TRUE(std::isnan(rs[3]));
}

TEST(TDIV_Types, IntegerEdgeCases) {
#if PTOSIM_TARGET_A5
    std::vector<int32_t> a(kR * kC, 7), b(kR * kC, 0), q(kR * kC), r(kR * kC);
    a[1] = INT32_MIN;
    b[1] = -1;
    a[2] = -7;
    b[2] = 2;
    auto st = run_vec([&] {
        Tile<TileType::Vec, int32_t, kR, kC> ta, tb, tq, tr, tmp;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(tq, 0x2000);
        TASSIGN(tr, 0x3000);
        TASSIGN(tmp, 0x4000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TDIV(tq, ta, tb);
        TREM(tr, ta, tb, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto gq = gm_nd(q.data(), kR, kC, kC);
        auto gr = gm_nd(r.data(), kR, kC, kC);
        TSTORE(gq, tq);
        TSTORE(gr, tr);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(q[0], -1);  // 7 / 0: all ones
    EXPECT_EQ(r[0], 7);   // 7 rem 0: the dividend
    EXPECT_EQ(q[1], INT32_MIN);
    EXPECT_EQ(r[1], 0);
    EXPECT_EQ(q[2], -3);
    EXPECT_EQ(r[2], 1);  // the divisor's sign
#else
    GTEST_SKIP() << "A2A3 TDIV has no integer types";
#endif
}

}  // namespace
