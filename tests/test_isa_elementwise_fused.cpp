// Fused element-wise instructions (TPOW, TPOWS, TMULADDDST, TFUSEDMULADD,
// TFUSEDMULADDRELU, TSUBRELU, TPAIRREDUCESUM, TRANDOM) and the precision
// template argument of the math instructions, against references written here
// from the ISA definitions: exact __int128 arithmetic for the half fused
// multiply-add, long double for powers, a separate Philox for TRANDOM checked
// against the published Random123 answers. Suites are <INSTRUCTION>_...
#include <pto/inst/elementwise_fused.hpp>
#include "test_isa_elementwise_util.hpp"
#include "test_isa_ref.hpp"
#include <array>

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace {

constexpr int kR = 16, kC = 64;
using LD = long double;
using I128 = __int128;

template <class T>
LD val(T v) {
    return static_cast<LD>(to_double(v));
}

// x rounded once to nearest even into T (bfloat16 by hand on an integer
// significand, so that no float step rounds first).
template <class T>
T rnd(LD x) {
    if constexpr (is_half<T>) {
        return half_from_bits(f16_bits(static_cast<_Float16>(x)));
    } else if constexpr (is_bf16<T>) {
        if (std::isnan(x) || std::isinf(x) || x == 0) return bf16_from_bits(bf16_rne(static_cast<float>(x)));
        const int e = std::max(std::ilogb(x), -126);
        const LD q = std::nearbyint(std::ldexp(x, 7 - e));  // default mode: ties to even
        const LD y = std::ldexp(q, e - 7);
        if (std::fabs(y) > 3.3895313892515355e38L) return bf16_from_bits(std::signbit(x) ? 0xff80 : 0x7f80);
        return bf16_from_bits(bf16_rne(static_cast<float>(y)));  // y has 8 significant bits: exact
    } else {
        return static_cast<T>(x);
    }
}

template <class T>
T wrap(I128 x) {
    return static_cast<T>(static_cast<uint64_t>(x));
}

// Inputs with IEEE specials and subnormals mixed in; kind picks the range.
enum class Gen { Arith, Base, Exponent, IntBase, IntExponent };

template <class T>
std::vector<T> make_input(Gen g, uint64_t salt) {
    std::vector<T> v(kR * kC);
    testutil::Rng rng;
    rng.s += salt * 0xd1b54a32d192ed03ull;  // never 0: xorshift would stay there
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 6.0e-8f, -3.0e-5f, 1.0e-40f, 1.0f, -1.0f};
            if (h % 6 == 0) {
                x = from_float<T>(specials[(h >> 8) % 10]);
                continue;
            }
            double r = rng.uniform(-1000, 1000);
            if (g == Gen::Base) r = h % 3 == 0 ? -rng.uniform(0.25, 4) : rng.uniform(0, 8);
            if (g == Gen::Exponent) r = h % 2 ? static_cast<double>(static_cast<int>((h >> 20) % 13) - 6) : rng.uniform(-5, 5);
            x = from_float<T>(static_cast<float>(r));
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            const T ends[] = {lo, hi, T(0), T(1), static_cast<T>(-1), T(2)};
            if (h % 5 == 0) x = ends[(h >> 8) % 6];
            else if (g == Gen::IntBase) x = static_cast<T>(static_cast<int>((h >> 12) % 11) - 5);
            else if (g == Gen::IntExponent) x = static_cast<T>(static_cast<int>((h >> 12) % 40) - 4);
            else x = static_cast<T>(h >> 11);
        }
    }
    return v;
}

// ---------------------------------------------------------------- harness

// Runs op(dst, a, b, tmp) for each valid shape (dynamic valid shapes, 1 row,
// 1 column, shapes off the 32-byte block); dst starts as `init` and must be
// unchanged outside its valid region. ref(a, b, dst_before) gives the element.
template <class D, class Op, class Ref>
void check(const std::vector<D>& in0, const std::vector<D>& in1, Op op, Ref ref) {
    const auto init = make_input<D>(Gen::Arith, 99);
    for (auto [vr, vc] : {std::pair{1, 1}, std::pair{7, 13}, std::pair{kR, kC}, std::pair{3, kC}, std::pair{kR, 1}}) {
        SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
        auto a = in0, b = in1, d = init;
        std::vector<D> out(kR * kC);
        auto st = run_vec([&] {
            using Dyn = Tile<TileType::Vec, D, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
            Dyn ta(vr, vc), tb(vr, vc), td(vr, vc), tmp(vr, vc);
            Tile<TileType::Vec, D, kR, kC> full;
            TASSIGN(ta, 0);
            TASSIGN(tb, 0x2000);
            TASSIGN(tmp, 0x4000);
            TASSIGN(td, 0x8000);
            TASSIGN(full, 0x8000);
            auto ga = gm_nd(a.data(), vr, vc, kC);
            auto gb = gm_nd(b.data(), vr, vc, kC);
            auto gd = gm_nd(d.data(), kR, kC, kC);
            auto go = gm_nd(out.data(), kR, kC, kC);
            TLOAD(ta, ga);
            TLOAD(tb, gb);
            TLOAD(full, gd);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            op(td, ta, tb, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(go, full);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) {
                const int i = r * kC + c;
                const D want = r < vr && c < vc ? ref(in0[i], in1[i], init[i]) : init[i];
                ASSERT_TRUE(same(out[i], want)) << "(" << r << "," << c << ") a=" << show(in0[i]) << " b="
                                                << show(in1[i]) << " d=" << show(init[i]) << " got " << show(out[i])
                                                << " want " << show(want);
            }
    }
}

// ---------------------------------------------------------------- power references

// base^exp modulo 2^width by the binary method, with the documented cases
// first: x^0 = 1, 1^y = 1, (-1)^y alternates, other negative exponents 0.
template <class T>
T r_int_pow(T base, T exp) {
    if (exp == 0 || base == 1) return T(1);
    if constexpr (std::is_signed_v<T>) {
        if (base == T(-1)) return I128(exp) % 2 != 0 ? T(-1) : T(1);
        if (exp < 0) return T(0);
    }
    uint64_t r = 1, b = static_cast<uint64_t>(static_cast<int64_t>(base)), e = static_cast<uint64_t>(exp);
    for (; e != 0; e >>= 1, b *= b)
        if (e & 1) r *= b;
    return wrap<T>(static_cast<I128>(r));
}

// A5: C's pow (npu/a5/TPow.hpp special cases). A2A3: exp(y ln|x|) with the
// fix-ups of npu/a2a3/TPow.hpp only.
template <class T>
T r_float_pow(T xt, T yt) {
    const LD x = val(xt), y = val(yt);
#if !PTOSIM_TARGET_A5
    if (y == 0) return rnd<T>(1);
    if (x == 0) return rnd<T>(y > 0 ? 0.0L : INFINITY);
    if (x == -1 && std::isinf(y)) return rnd<T>(1);
    if (std::isnan(y)) return rnd<T>(NAN);
    if (std::fabs(x) == 1 && std::isinf(y)) return rnd<T>(NAN);  // ln 1 * inf
    const bool integral = std::isfinite(y) && std::floor(y) == y;
    if (x < 0 && !integral) return rnd<T>(NAN);
    const LD mag = std::pow(std::fabs(x), y);
    const bool odd = integral && std::fmod(std::fabs(y), 2.0L) == 1;
    return rnd<T>(x < 0 && odd ? -mag : mag);
#else
    return rnd<T>(std::pow(x, y));
#endif
}

template <class T>
T r_pow(T x, T y) {
    if constexpr (is_fp<T>) return r_float_pow(x, y);
    else return r_int_pow(x, y);
}

template <class T>
std::vector<T> pow_base() {
    return make_input<T>(is_fp<T> ? Gen::Base : Gen::IntBase, 1);
}
template <class T>
std::vector<T> pow_exp() {
    return make_input<T>(is_fp<T> ? Gen::Exponent : Gen::IntExponent, 2);
}
template <class T>
std::vector<T> pow_scalars() {
    if constexpr (is_fp<T>)
        return {from_float<T>(2.0f), from_float<T>(-3.0f), from_float<T>(0.5f), from_float<T>(0.0f),
                from_float<T>(NAN), from_float<T>(-INFINITY)};
    else if constexpr (std::is_signed_v<T>)
        return {T(0), T(1), T(3), T(7), static_cast<T>(-1), std::numeric_limits<T>::max()};
    else
        return {T(0), T(1), T(3), T(7), std::numeric_limits<T>::max()};
}

using PowT = TL((float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t),
                (half, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t));
using PowHighT = TL((float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t), (half, float, bfloat16_t));

template <class T>
class TPOW_Types : public ::testing::Test {};
TYPED_TEST_SUITE(TPOW_Types, PowT);
TYPED_TEST(TPOW_Types, MatchesReference) {
    using T = TypeParam;
    check<T>(pow_base<T>(), pow_exp<T>(), [](auto& d, auto& a, auto& b, auto& t) { TPOW(d, a, b, t); },
             [](T a, T b, T) { return r_pow(a, b); });
}

template <class T>
class TPOW_HighPrecision : public ::testing::Test {};
TYPED_TEST_SUITE(TPOW_HighPrecision, PowHighT);
TYPED_TEST(TPOW_HighPrecision, MatchesReference) {
    using T = TypeParam;
    check<T>(pow_base<T>(), pow_exp<T>(),
             [](auto& d, auto& a, auto& b, auto& t) { TPOW<PowAlgorithm::HIGH_PRECISION>(d, a, b, t); },
             [](T a, T b, T) { return r_pow(a, b); });
}

template <class T>
class TPOWS_Types : public ::testing::Test {};
TYPED_TEST_SUITE(TPOWS_Types, PowT);
TYPED_TEST(TPOWS_Types, MatchesReferenceForEachScalar) {
    using T = TypeParam;
    for (T s : pow_scalars<T>()) {
        SCOPED_TRACE("exponent " + show(s));
        check<T>(pow_base<T>(), pow_exp<T>(), [s](auto& d, auto& a, auto&, auto& t) { TPOWS(d, a, s, t); },
                 [s](T a, T, T) { return r_pow(a, s); });
        check<T>(pow_base<T>(), pow_exp<T>(),
                 [s](auto& d, auto& a, auto&, auto& t) { TPOWS<PowAlgorithm::DEFAULT>(d, a, s, t); },
                 [s](T a, T, T) { return r_pow(a, s); });
    }
}

// Special operands spelled out (float), so a wrong reference cannot hide them.
TEST(TPOW_Types, SpecialOperands) {
    struct Case { float x, y, a2a3, a5; };
    const float inf = INFINITY, nan = NAN;
    const Case cases[] = {
        {2.0f, 10.0f, 1024.0f, 1024.0f},   {-2.0f, 3.0f, -8.0f, -8.0f}, {-2.0f, 0.5f, nan, nan},
        {nan, 0.0f, 1.0f, 1.0f},           {1.0f, nan, nan, 1.0f},     {1.0f, inf, nan, 1.0f},
        {-1.0f, -inf, 1.0f, 1.0f},         {-0.0f, 3.0f, 0.0f, -0.0f}, {-0.0f, -1.0f, inf, -inf},
        {0.0f, -2.0f, inf, inf},           {-inf, 0.5f, nan, inf},     {-inf, 3.0f, -inf, -inf},
        {0.5f, inf, 0.0f, 0.0f},           {4.0f, -0.5f, 0.5f, 0.5f},  {0.0f, nan, inf, nan},
    };
    const int n = sizeof cases / sizeof cases[0];
    std::vector<float> x(kR * kC, 1.0f), y(kR * kC, 1.0f), out(kR * kC);
    for (int i = 0; i < n; ++i) {
        x[i] = cases[i].x;
        y[i] = cases[i].y;
    }
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> tx, ty, to, tmp;
        TASSIGN(tx, 0);
        TASSIGN(ty, 0x1000);
        TASSIGN(to, 0x2000);
        TASSIGN(tmp, 0x3000);
        auto gx = gm_nd(x.data(), kR, kC, kC);
        auto gy = gm_nd(y.data(), kR, kC, kC);
        auto go = gm_nd(out.data(), kR, kC, kC);
        TLOAD(tx, gx);
        TLOAD(ty, gy);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TPOW(to, tx, ty, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, to);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < n; ++i) {
        const float want = PTOSIM_TARGET_A5 ? cases[i].a5 : cases[i].a2a3;
        SCOPED_TRACE("pow(" + std::to_string(cases[i].x) + ", " + std::to_string(cases[i].y) + ")");
        if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(out[i])) << out[i];
        } else {
            EXPECT_EQ(out[i], want);
            EXPECT_EQ(std::signbit(out[i]), std::signbit(want));
        }
    }
}

// ---------------------------------------------------------------- fused multiply-add references

// a * b + c of three halves, exactly: shared with TAXPY's reference.
using ew_test::exact_fma_half;

// The target's multiply-add: one rounding on A5, the product rounded first
// on A2A3 (docs/isa/elementwise.md, "Fused multiply-add").
template <class T>
T r_fma(T a, T b, T c) {
#if PTOSIM_TARGET_A5
    if constexpr (is_half<T>) return exact_fma_half(a, b, c);
    else return std::fma(a, b, c);  // IEEE fusedMultiplyAdd in float, one rounding
#else
    return rnd<T>(val(rnd<T>(val(a) * val(b))) + val(c));
#endif
}

template <class T>
T r_relu(T v) {
    return is_nan(v) || !(val(v) < 0) ? v : T(0);
}

template <class T>
class TMULADDDST_Types : public ::testing::Test {};
template <class T>
class TFUSEDMULADD_Types : public ::testing::Test {};
template <class T>
class TFUSEDMULADDRELU_Types : public ::testing::Test {};
template <class T>
class TSUBRELU_Types : public ::testing::Test {};
using FusedT = ::testing::Types<half, float>;
TYPED_TEST_SUITE(TMULADDDST_Types, FusedT);
TYPED_TEST_SUITE(TFUSEDMULADD_Types, FusedT);
TYPED_TEST_SUITE(TFUSEDMULADDRELU_Types, FusedT);
TYPED_TEST_SUITE(TSUBRELU_Types, FusedT);

TYPED_TEST(TMULADDDST_Types, MatchesReference) {
    using T = TypeParam;
    check<T>(make_input<T>(Gen::Arith, 1), make_input<T>(Gen::Arith, 2),
             [](auto& d, auto& a, auto& b, auto&) { TMULADDDST(d, a, b); },
             [](T a, T b, T d) { return r_fma(a, b, d); });
}
TYPED_TEST(TFUSEDMULADD_Types, MatchesReference) {
    using T = TypeParam;
    check<T>(make_input<T>(Gen::Arith, 3), make_input<T>(Gen::Arith, 4),
             [](auto& d, auto& a, auto& b, auto&) { TFUSEDMULADD(d, a, b); },
             [](T a, T b, T d) { return r_fma(a, d, b); });
}
TYPED_TEST(TFUSEDMULADDRELU_Types, MatchesReference) {
    using T = TypeParam;
    check<T>(make_input<T>(Gen::Arith, 5), make_input<T>(Gen::Arith, 6),
             [](auto& d, auto& a, auto& b, auto&) { TFUSEDMULADDRELU(d, a, b); },
             [](T a, T b, T d) { return r_relu(r_fma(a, d, b)); });
}
TYPED_TEST(TSUBRELU_Types, MatchesReference) {
    using T = TypeParam;
    check<T>(make_input<T>(Gen::Arith, 7), make_input<T>(Gen::Arith, 8),
             [](auto& d, auto& a, auto& b, auto&) { TSUBRELU(d, a, b); },
             [](T a, T b, T) { return r_relu(rnd<T>(val(a) - val(b))); });
}

// (1 + 2^-12)^2 - 1 keeps the 2^-24 term and (1 + 2^-23)^2 - (1 + 2^-22)
// the 2^-46 term when the multiply-add rounds once (A5); A2A3 rounds the
// product first and loses both.
TEST(TMULADDDST_Types, RoundsOnceOnA5AndTheProductFirstOnA2A3) {
    std::vector<float> a(kR * kC, 0.0f), b(kR * kC, 0.0f), d(kR * kC, 0.0f), out(kR * kC);
    a[0] = b[0] = 1.0f + 0x1p-12f;
    d[0] = -1.0f;
    a[1] = b[1] = 1.0f + 0x1p-23f;
    d[1] = -(1.0f + 0x1p-22f);
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> ta, tb, td;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(td, 0x2000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        auto gd = gm_nd(d.data(), kR, kC, kC);
        auto go = gm_nd(out.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        TLOAD(td, gd);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TMULADDDST(td, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, td);
    });
    ASSERT_TRUE(st.ok()) << st.message;
#if PTOSIM_TARGET_A5
    EXPECT_EQ(out[0], 0x1p-11f + 0x1p-24f);
    EXPECT_EQ(out[1], 0x1p-46f);
#else
    EXPECT_EQ(out[0], 0x1p-11f);  // 1 + 2^-11 + 2^-24 rounds to even: 1 + 2^-11
    EXPECT_EQ(out[1], 0.0f);      // 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22
#endif
}

// ---------------------------------------------------------------- pair reduction

template <class T>
class TPAIRREDUCESUM_Types : public ::testing::Test {};
TYPED_TEST_SUITE(TPAIRREDUCESUM_Types, FusedT);
TYPED_TEST(TPAIRREDUCESUM_Types, MatchesReference) {
    using T = TypeParam;
    const auto src = make_input<T>(Gen::Arith, 9);
    const auto init = make_input<T>(Gen::Arith, 10);
    for (auto [vr, vc] : {std::pair{1, 1}, std::pair{1, 2}, std::pair{7, 13}, std::pair{kR, kC}, std::pair{3, 63},
                          std::pair{kR, 1}}) {
        SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
        auto s = src, d = init;
        std::vector<T> out(kR * kC);
        auto st = run_vec([&] {
            using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
            Dyn ts(vr, vc), td(vr, vc);
            Tile<TileType::Vec, T, kR, kC> full;
            TASSIGN(ts, 0);
            TASSIGN(td, 0x4000);
            TASSIGN(full, 0x4000);
            auto gs = gm_nd(s.data(), vr, vc, kC);
            auto gd = gm_nd(d.data(), kR, kC, kC);
            auto go = gm_nd(out.data(), kR, kC, kC);
            TLOAD(ts, gs);
            TLOAD(full, gd);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TPAIRREDUCESUM(td, ts);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(go, full);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        const int pairs = vc / 2;  // an odd last element has no pair
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) {
                const int i = r * kC + c;
                T want = init[i];
                if (r < vr && c < pairs) {
                    want = rnd<T>(val(src[r * kC + 2 * c]) + val(src[r * kC + 2 * c + 1]));
                } else if (r < vr && c < vc) {
                    want = T(0);
                }
                ASSERT_TRUE(same(out[i], want)) << "(" << r << "," << c << ") got " << show(out[i]) << " want "
                                                << show(want);
            }
    }
}

// A src0 of another valid shape is pto-isa's debug-only rule (tests/checkers/
// test_device_tolerates.cpp); past src0's storage the read would leave the tile.
TEST(TPAIRREDUCESUM_Types, DstShapePastSrc0sStorageFaults) {
    const std::string msg = fault_of([] {
        Tile<TileType::Vec, float, kR, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC> ts(4, 8);
        Tile<TileType::Vec, float, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC> td(4, 12);
        TASSIGN(ts, 0);
        TASSIGN(td, 0x1000);
        TPAIRREDUCESUM(td, ts);
    });
    EXPECT_NE(msg.find("TPAIRREDUCESUM: src0's valid shape 4x8 differs from 4x12 (dst's valid shape); pto-isa's "
                       "release build reads src0 over 4x12, past its " + std::to_string(kR) + "x8 storage"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("test_isa_elementwise_fused.cpp"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- random numbers

#if PTOSIM_TARGET_A5
// Philox-4x32-R of Salmon et al. (SC'11), written out from the paper.
std::array<uint32_t, 4> philox(std::array<uint32_t, 4> x, uint32_t k0, uint32_t k1, int rounds) {
    for (int i = 0; i < rounds; ++i) {
        const uint64_t m0 = 0xD2511F53ull * x[0], m1 = 0xCD9E8D57ull * x[2];
        x = {uint32_t(m1 >> 32) ^ x[1] ^ k0, uint32_t(m1), uint32_t(m0 >> 32) ^ x[3] ^ k1, uint32_t(m0)};
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return x;
}

std::array<uint32_t, 4> add128(std::array<uint32_t, 4> x, unsigned __int128 n) {
    unsigned __int128 v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 32) | x[i];
    v += n;
    for (int i = 0; i < 4; ++i, v >>= 32) x[i] = static_cast<uint32_t>(v);
    return x;
}

// Runs TRANDOM<Rounds> on an R x C tile with valid shape vr x vc; returns the
// whole tile (prefilled with 0xA5A5A5A5 so untouched elements show).
template <int Rounds, class T, int R, int C>
std::vector<T> run_random(int vr, int vc, std::array<uint32_t, 2> key, std::array<uint32_t, 4> ctr) {
    std::vector<T> out(R * C, static_cast<T>(0xA5A5A5A5u));
    auto st = run_vec([&] {
        Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> t(vr, vc);
        Tile<TileType::Vec, T, R, C> full;
        TASSIGN(t, 0);
        TASSIGN(full, 0);
        auto g = gm_nd(out.data(), R, C, C);
        TLOAD(full, g);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TRandomKey k = {key[0], key[1]};
        TRandomCounter c = {ctr[0], ctr[1], ctr[2], ctr[3]};
        if constexpr (Rounds == 10) TRANDOM(t, k, c);
        else TRANDOM<Rounds>(t, k, c);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(g, full);
    });
    EXPECT_TRUE(st.ok()) << st.message;
    return out;
}

// Random123's known-answer vectors for Philox4x32-10 (kat_vectors), as lanes
// 0 of the first pass: words land in columns 0, 64, 128 and 192.
TEST(TRANDOM_Types, MatchesPublishedPhiloxAnswers) {
    struct Kat { std::array<uint32_t, 4> ctr; std::array<uint32_t, 2> key; std::array<uint32_t, 4> out; };
    const Kat kats[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (const Kat& k : kats) {
        const auto out = run_random<10, uint32_t, 1, 256>(1, 256, k.key, k.ctr);
        for (int w = 0; w < 4; ++w) EXPECT_EQ(out[64 * w], k.out[w]) << "word " << w;
        EXPECT_EQ(philox(k.ctr, k.key[0], k.key[1], 10), k.out);
    }
}

// Every element against the layout of npu/a5/TRandom.hpp: lane l of pass t
// (t = row * passes + j) uses counter + l + t * RowStride / 4.
template <int Rounds, class T, int R, int C>
void check_random(int vr, int vc) {
    SCOPED_TRACE(std::to_string(Rounds) + " rounds, " + std::to_string(R) + "x" + std::to_string(C) + " tile, valid " +
                 std::to_string(vr) + "x" + std::to_string(vc));
    const std::array<uint32_t, 2> key = {0x01234567u, 0x89abcdefu};
    const std::array<uint32_t, 4> ctr = {0xfffffff0u, 0xffffffffu, 7u, 0u};  // carries across words
    const auto out = run_random<Rounds, T, R, C>(vr, vc, key, ctr);
    const int passes = (vc + 255) / 256;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            T want = static_cast<T>(0xA5A5A5A5u);
            if (r < vr && c < vc) {
                const int j = c / 256, w = c % 256 / 64, lane = c % 64;
                const unsigned __int128 step = static_cast<unsigned __int128>(r * passes + j) * (C / 4) + lane;
                want = static_cast<T>(philox(add128(ctr, step), key[0], key[1], Rounds)[w]);
            }
            ASSERT_EQ(out[r * C + c], want) << "(" << r << "," << c << ")";
        }
}

TEST(TRANDOM_Types, MatchesReferenceUint32) {
    check_random<10, uint32_t, 4, 256>(4, 256);
    check_random<10, uint32_t, 4, 256>(1, 1);
    check_random<10, uint32_t, 4, 256>(3, 100);
    check_random<10, uint32_t, 2, 512>(2, 300);
    check_random<7, uint32_t, 8, 64>(8, 64);
    check_random<7, uint32_t, 8, 64>(5, 17);
}
TEST(TRANDOM_Types, MatchesReferenceInt32) {
    check_random<10, int32_t, 8, 64>(8, 64);
    check_random<7, int32_t, 4, 256>(4, 200);
    check_random<10, int32_t, 4, 256>(4, 1);
}
#endif

// ---------------------------------------------------------------- precision template arguments

// Every PrecisionType of every math instruction compiles and yields the
// correctly rounded value (and so the same bits as the default call); A5's
// TRSQRT the reciprocal of the rounded square root.
template <class T>
class PrecisionModes_Types : public ::testing::Test {};
using PrecT = ::testing::Types<half, float>;
TYPED_TEST_SUITE(PrecisionModes_Types, PrecT);

template <class T, class Op, class Ref>
void check_modes(Op op, Ref ref, Gen g0 = Gen::Arith, Gen g1 = Gen::Arith) {
    const auto a = make_input<T>(g0, 11), b = make_input<T>(g1, 12);
    check<T>(a, b, [&](auto& d, auto& x, auto& y, auto& t) { op(d, x, y, t, std::false_type{}); }, ref);
    check<T>(a, b, [&](auto& d, auto& x, auto& y, auto& t) { op(d, x, y, t, std::true_type{}); }, ref);
}

// HP selects HIGH_PRECISION (true) or DEFAULT (false) for each call below.
#define PICK(ENUM, hp) (decltype(hp)::value ? ENUM::HIGH_PRECISION : ENUM::DEFAULT)

TYPED_TEST(PrecisionModes_Types, DivisionAndReciprocal) {
    using T = TypeParam;
    const T s = from_float<T>(3.0f);
    check_modes<T>([](auto& d, auto& a, auto& b, auto&, auto hp) { TDIV<PICK(DivAlgorithm, hp)>(d, a, b); },
                   [](T a, T b, T) { return rnd<T>(val(a) / val(b)); });
    check_modes<T>([s](auto& d, auto& a, auto&, auto&, auto hp) { TDIVS<PICK(DivAlgorithm, hp)>(d, a, s); },
                   [s](T a, T, T) { return rnd<T>(val(a) / val(s)); });
    check_modes<T>([s](auto& d, auto& a, auto&, auto&, auto hp) { TDIVS<PICK(DivAlgorithm, hp)>(d, s, a); },
                   [s](T a, T, T) { return rnd<T>(val(s) / val(a)); });
    check_modes<T>([](auto& d, auto& a, auto&, auto&, auto hp) { TRECIP<PICK(RecipAlgorithm, hp)>(d, a); },
                   [](T a, T, T) { return rnd<T>(1 / val(a)); });
}

TYPED_TEST(PrecisionModes_Types, ExpLogRoots) {
    using T = TypeParam;
    check_modes<T>([](auto& d, auto& a, auto&, auto&, auto hp) { TEXP<PICK(ExpAlgorithm, hp)>(d, a); },
                   [](T a, T, T) { return rnd<T>(std::exp(val(a))); }, Gen::Exponent);
    check_modes<T>([](auto& d, auto& a, auto&, auto&, auto hp) { TLOG<PICK(LogAlgorithm, hp)>(d, a); },
                   [](T a, T, T) { return rnd<T>(std::log(val(a))); }, Gen::Base);
    check_modes<T>([](auto& d, auto& a, auto&, auto&, auto hp) { TSQRT<PICK(SqrtAlgorithm, hp)>(d, a); },
                   [](T a, T, T) { return rnd<T>(std::sqrt(val(a))); }, Gen::Base);
    // A5's TRSQRT rounds the square root first, as pto-isa's vsqrt-then-vdiv
    // (docs/isa/elementwise.md, "Accuracy of math functions").
    const auto rsqrt = [](T a, T, T) {
#if PTOSIM_TARGET_A5
        return rnd<T>(1 / val(rnd<T>(std::sqrt(val(a)))));
#else
        return rnd<T>(1 / std::sqrt(val(a)));
#endif
    };
    check_modes<T>([](auto& d, auto& a, auto&, auto&, auto hp) { TRSQRT<PICK(RsqrtAlgorithm, hp)>(d, a); }, rsqrt,
                   Gen::Base);
    check_modes<T>([](auto& d, auto& a, auto&, auto& t, auto hp) { TRSQRT<PICK(RsqrtAlgorithm, hp)>(d, a, t); }, rsqrt,
                   Gen::Base);
}

// TREM/TFMOD and their scalar forms: A2A3 has no half remainder.
TEST(PrecisionModes_Types, Remainders) {
    using T = float;
    const T s = -2.5f;
    auto fmod_ref = [](LD a, LD b) { return rnd<T>(std::fmod(a, b)); };
    auto rem_ref = [](LD a, LD b) {
        const LD r = std::fmod(a, b);
        return rnd<T>(r != 0 && b != 0 && !std::isnan(r) && std::signbit(r) != std::signbit(b) ? r + b : r);
    };
    check_modes<T>([](auto& d, auto& a, auto& b, auto& t, auto hp) { TREM<PICK(RemAlgorithm, hp)>(d, a, b, t); },
                   [&](T a, T b, T) { return rem_ref(a, b); });
    check_modes<T>([](auto& d, auto& a, auto& b, auto&, auto hp) { TFMOD<PICK(FmodAlgorithm, hp)>(d, a, b); },
                   [&](T a, T b, T) { return fmod_ref(a, b); });
    check_modes<T>([s](auto& d, auto& a, auto&, auto& t, auto hp) { TREMS<PICK(RemSAlgorithm, hp)>(d, a, s, t); },
                   [&](T a, T, T) { return rem_ref(a, s); });
    check_modes<T>([s](auto& d, auto& a, auto&, auto&, auto hp) { TFMODS<PICK(FmodSAlgorithm, hp)>(d, a, s); },
                   [&](T a, T, T) { return fmod_ref(a, s); });
}

}  // namespace
