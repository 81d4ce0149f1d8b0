// Matrix instructions beyond plain TMATMUL: TGEMV(_ACC/_BIAS), the A5
// low-precision element types and what moves and multiplies them. Every
// expectation comes from a scalar reference written here from the format and
// ISA texts. TCVT to and from fp8 is in test_isa_matrix_tcvt.cpp.
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/layout.hpp>
#include <pto/inst/quant.hpp>
#include <pto/inst/tmatmul_mx.hpp>
#include "test_isa_matrix_util.hpp"
#include <array>

using namespace pto;
using namespace ref;
using testutil::run_cube;

namespace {

template <class P>
class Gemv : public ::testing::Test {};
using GemvTypes = ::testing::Types<MM<half, float>, MM<bfloat16_t, float>, MM<float, float>, MM<int8_t, int32_t>>;
TYPED_TEST_SUITE(Gemv, GemvTypes);

// y(j) = sum_p x(p) * b(p, j), b row-major with row stride ldb.
template <class T>
std::vector<double> ref_gemv(const std::vector<T>& x, const std::vector<T>& b, int ldb, int k, int n) {
    std::vector<double> y(n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int p = 0; p < k; ++p) y[j] += to_double(x[p]) * to_double(b[static_cast<size_t>(p) * ldb + j]);
    return y;
}

constexpr int kK = 32, kN = 32;

template <class T, int R, int C>
using MatNz = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                   TileConfig::fractalABSize, PadValue::Zero>;

enum class Form { Plain, Acc, Bias };

// x (1 x k) and b (k x n) through L1 into L0A/L0B, then TGEMV / TGEMV_ACC
// (onto init) / TGEMV_BIAS (with bias), result row stored to y.
// AccRows: pto-isa's own kernels declare the accumulator with 16 rows (M
// rounded up to a fractal) while the Left tile has one.
template <class Acc, class T, int AccRows = 1>
ptosim::Status gemv(Form form, const std::vector<T>& x, const std::vector<T>& b, const std::vector<Acc>& extra,
                    std::vector<Acc>& y, int k, int n) {
    return run_cube([&] {
        MatNz<T, 1, kK> mx(1, k);
        MatNz<T, kK, kN> mb(k, n);
        Tile<TileType::Mat, Acc, 1, kN, BLayout::RowMajor, 1, DYNAMIC> mextra(n);
        TileLeft<T, 1, kK, 1, DYNAMIC> l(k);
        TileRight<T, kK, kN, DYNAMIC, DYNAMIC> r(k, n);
        TileBias<Acc, kN, DYNAMIC> tb(n);
        TileAcc<Acc, AccRows, kN, 1, DYNAMIC> c0(n), c1(n);
        TASSIGN(mx, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(mextra, 0x3000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(tb, 0);
        TASSIGN(c0, 0);
        TASSIGN(c1, 0x1000);
        auto gx = gm_nd(const_cast<T*>(x.data()), 1, k, k);
        auto gb = gm_nd(const_cast<T*>(b.data()), k, n, n);
        auto ge = gm_nd(const_cast<Acc*>(extra.data()), 1, n, n);
        auto gy = gm_nd(y.data(), 1, n, n);
        TLOAD(mx, gx);
        TLOAD(mb, gb);
        TLOAD(mextra, ge);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, mx);
        TMOV(r, mb);
        TMOV(tb, mextra);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        if (form == Form::Plain) {
            TGEMV(c1, l, r);
        } else if (form == Form::Bias) {
            TGEMV_BIAS(c1, l, r, tb);
        } else {
            // The accumulator input is the bias row put into c0 by TGEMV_BIAS
            // with a zero vector: c0 = extra, then c1 = c0 + x*b.
            TileLeft<T, 1, kK, 1, DYNAMIC> zl(k);
            TASSIGN(zl, 0x800);
            MatNz<T, 1, kK> mz(1, k);
            TASSIGN(mz, 0x6000);
            std::vector<T> zeros(kK, T(0));
            auto gz = gm_nd(zeros.data(), 1, k, k);
            TLOAD(mz, gz);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TMOV(zl, mz);
            ISA_SYNC(PIPE_MTE1, PIPE_M);
            TGEMV_BIAS(c0, zl, r, tb);
            TGEMV_ACC(c1, c0, l, r);
        }
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gy, c1);
    });
}

struct KN {
    int k, n;
};
const KN kShapes[] = {{19, 23}, {1, 1}, {32, 32}, {32, 1}, {1, 32}, {3, 17}};

TYPED_TEST(Gemv, PlainOverValidShapes) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 1), b = operand<T>(d.k, d.n, 2);
        std::vector<Acc> y(d.n), none(d.n);
        auto st = gemv<Acc>(Form::Plain, x, b, none, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j]) << j;
    }
}

TYPED_TEST(Gemv, SixteenRowAccumulatorTakesTheSameRow) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    const int k = 19, n = 23;
    auto x = operand<T>(1, k, 7), b = operand<T>(k, n, 8);
    std::vector<Acc> y(n), none(n);
    auto st = gemv<Acc, T, 16>(Form::Plain, x, b, none, y, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    auto want = ref_gemv(x, b, n, k, n);
    for (int j = 0; j < n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j]) << j;
}

TYPED_TEST(Gemv, AccumulateOntoInputTile) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 3), b = operand<T>(d.k, d.n, 4);
        std::vector<Acc> init(d.n), y(d.n);
        for (int j = 0; j < d.n; ++j) init[j] = static_cast<Acc>(5 * j - 61);
        auto st = gemv<Acc>(Form::Acc, x, b, init, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j] + (5 * j - 61)) << j;
    }
}

TYPED_TEST(Gemv, BiasRowAddedOnce) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 5), b = operand<T>(d.k, d.n, 6);
        std::vector<Acc> bias(d.n), y(d.n);
        for (int j = 0; j < d.n; ++j) bias[j] = static_cast<Acc>(3 * j - 40);
        auto st = gemv<Acc>(Form::Bias, x, b, bias, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j] + (3 * j - 40)) << j;
    }
}

// Only row 0 of the Left tile takes part, whatever its valid rows say.
TEST(GemvRows, UsesRowZeroOfA16RowLeftTile) {
    constexpr int k = 24, n = 20;
    auto a = operand<half>(16, k, 7), b = operand<half>(k, n, 8);
    std::vector<float> y(n);
    auto st = run_cube([&] {
        MatNz<half, 16, kK> ma(16, k);
        MatNz<half, kK, kN> mb(k, n);
        TileLeft<half, 16, kK, DYNAMIC, DYNAMIC> l(16, k);
        TileRight<half, kK, kN, DYNAMIC, DYNAMIC> r(k, n);
        TileAcc<float, 16, kN, 1, DYNAMIC> c(n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x2000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(c, 0);
        auto ga = gm_nd(a.data(), 16, k, k);
        auto gb = gm_nd(b.data(), k, n, n);
        auto gy = gm_nd(y.data(), 1, n, n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TGEMV(c, l, r);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gy, c);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<half> row0(a.begin(), a.begin() + k);
    auto want = ref_gemv(row0, b, n, k, n);
    for (int j = 0; j < n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j]) << j;
}

// float operands: each product is rounded to float, then added to the float
// running sum in ascending k, as TMATMUL does (docs/isa/matrix.md).
TEST(GemvRounding, FloatProductsRoundedAndSummedInAscendingK) {
    constexpr int k = 32, n = 8;
    std::vector<float> x(k), b(k * n), y(n);
    testutil::Rng rng;
    for (auto& v : x) v = static_cast<float>(rng.uniform(-1, 1));
    for (auto& v : b) v = static_cast<float>(rng.uniform(-1, 1)) * (rng.next() % 2 ? 1e6f : 1e-3f);
    std::vector<float> want(n);
    for (int j = 0; j < n; ++j) {
        volatile float s = 0.0f;
        for (int p = 0; p < k; ++p) {
            volatile float prod = x[p] * b[p * n + j];
            s = s + prod;
        }
        want[j] = s;
    }
    std::vector<float> none(n);
    auto st = gemv<float>(Form::Plain, x, b, none, y, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int j = 0; j < n; ++j) ASSERT_EQ(raw_bits(y[j]), raw_bits(want[j])) << j;
}

// Inf, NaN and denormal operands follow float arithmetic: Inf * 0 is NaN,
// NaN propagates, denormal products are kept (no flush to zero).
TEST(GemvRounding, InfNanAndDenormalOperands) {
    constexpr int k = 4, n = 5;
    const float den = std::ldexp(1.0f, -140);
    std::vector<float> x = {INFINITY, 1.0f, den, 2.0f};
    std::vector<float> b = {0.0f, 1.0f, 1.0f, 1.0f, -1.0f,  //
                            0.0f, 0.0f, NAN,  0.0f, 0.0f,   //
                            0.0f, 0.0f, 0.0f, 4.0f, 0.0f,   //
                            3.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    std::vector<float> y(n), none(n);
    auto st = gemv<float>(Form::Plain, x, b, none, y, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_TRUE(std::isnan(y[0]));  // inf * 0
    EXPECT_EQ(y[1], INFINITY);
    EXPECT_TRUE(std::isnan(y[2]));  // NaN operand
    EXPECT_EQ(y[3], INFINITY);
    EXPECT_EQ(y[4], -INFINITY);
    std::vector<float> x2 = {den, den, 0.0f, 0.0f}, b2(k * n, 0.0f), y2(n);
    b2[0] = 3.0f;
    b2[n] = 1.0f;
    st = gemv<float>(Form::Plain, x2, b2, none, y2, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(y2[0], 4 * den);  // 3 den + den, both denormal
}

TEST(GemvFaults, EmptyRightTileIsRejectedAtTheCallSite) {
    auto st = run_cube([] {
        TileLeft<half, 1, kK> l;
        TileRight<half, kK, kN, DYNAMIC, DYNAMIC> r(0, 4);
        TileAcc<float, 1, kN> c;
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(c, 0);
        TGEMV(c, l, r);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TGEMV: k (Right valid rows) = 0 must lie in 1..4095"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_matrix.cpp"), std::string::npos) << st.message;
}


// ------------------------------------------------------------ low-precision types

TEST(LowPrecision, EveryCodeDecodesAsTheFormatDefines) {
    for (unsigned c = 0; c < 256; ++c) {
        SCOPED_TRACE(c);
        ASSERT_TRUE(same_value(static_cast<float>(float8_e4m3_t::from_bits(c)), ref_ieee8(c, 4, 3, true)));
        ASSERT_TRUE(same_value(static_cast<float>(float8_e5m2_t::from_bits(c)), ref_ieee8(c, 5, 2, false)));
        ASSERT_TRUE(same_value(static_cast<float>(hifloat8_t::from_bits(c)), ref_hif8(c)));
        const double e8 = c == 255 ? NAN : std::pow(2.0, static_cast<int>(c) - 127);
        ASSERT_TRUE(same_value(static_cast<double>(float8_e8m0_t::from_bits(c)), e8));
        const auto p21 = float4_e2m1x2_t::from_bits(c);
        ASSERT_TRUE(same_value(p21.lo(), ref_fp4(c & 15, 2)));
        ASSERT_TRUE(same_value(p21.hi(), ref_fp4(c >> 4, 2)));
        const auto p12 = float4_e1m2x2_t::from_bits(c);
        ASSERT_TRUE(same_value(p12.lo(), ref_fp4(c & 15, 1)));
        ASSERT_TRUE(same_value(p12.hi(), ref_fp4(c >> 4, 1)));
    }
    // Landmarks quoted by the format definitions.
    EXPECT_EQ(static_cast<float>(float8_e4m3_t::from_bits(0x7e)), 448.0f);
    EXPECT_EQ(static_cast<float>(float8_e5m2_t::from_bits(0x7b)), 57344.0f);
    EXPECT_EQ(static_cast<float>(hifloat8_t::from_bits(0x6e)), 32768.0f);
    EXPECT_EQ(static_cast<float>(hifloat8_t::from_bits(0x01)), std::ldexp(1.0f, -22));
    EXPECT_EQ(float4_e2m1x2_t::from_bits(0x07).lo(), 6.0);
    EXPECT_EQ(float4_e1m2x2_t::from_bits(0x07).lo(), 1.75);
}

// IEEE-style rounding of |x| to a grid with `mbits` fraction bits, minimum
// normal exponent emin, by round-to-nearest-even through std::nearbyint.
double ref_round_ieee(double x, int mbits, int emin) {
    const double a = std::fabs(x);
    int e = std::ilogb(a);
    if (a == 0) e = emin;
    e = std::max(e, emin);
    const double q = std::ldexp(1.0, e - mbits);
    return std::copysign(std::nearbyint(a / q) * q, x);
}

// Values across the whole range, every exact code value and every midpoint
// between neighbours (the ties), plus random points.
std::vector<double> probe_values(double maxv) {
    std::vector<double> v;
    testutil::Rng rng;
    for (int i = 0; i < 4000; ++i) {
        const double mag = std::ldexp(rng.uniform(1.0, 2.0), static_cast<int>(rng.next() % 50) - 30);
        v.push_back(rng.next() % 2 ? mag : -mag);
    }
    for (double x = 1.0 / 1024; x < maxv; x *= 1.0009765625) v.push_back(x);
    return v;
}

TEST(LowPrecision, E4M3AndE5M2RoundToNearestEvenAndOverflowAsOcpSays) {
    for (unsigned c = 0; c < 256; ++c) {
        const double v4 = ref_ieee8(c, 4, 3, true), v5 = ref_ieee8(c, 5, 2, false);
        if (!std::isnan(v4)) ASSERT_EQ(bits8(float8_e4m3_t(v4)), c) << c;
        if (!std::isnan(v5)) ASSERT_EQ(bits8(float8_e5m2_t(v5)), c) << c;
    }
    for (double x : probe_values(60000)) {
        SCOPED_TRACE(x);
        double r4 = ref_round_ieee(x, 3, -6);
        if (std::fabs(r4) > 448) r4 = NAN;  // E4M3 has no Inf: overflow is NaN without saturation
        ASSERT_TRUE(same_value(static_cast<float>(float8_e4m3_t(x)), r4));
        double r5 = ref_round_ieee(x, 2, -14);
        if (std::fabs(r5) > 57344) r5 = std::copysign(INFINITY, x);
        ASSERT_TRUE(same_value(static_cast<float>(float8_e5m2_t(x)), r5));
    }
    // Ties between neighbours go to the even code: 1 + 1/16 lies between 1 and 1.125.
    EXPECT_EQ(static_cast<float>(float8_e4m3_t(1.0625)), 1.0f);
    EXPECT_EQ(static_cast<float>(float8_e4m3_t(1.1875)), 1.25f);
    EXPECT_EQ(static_cast<float>(float8_e4m3_t(464.0)), 448.0f);  // the tie with the virtual 480 keeps 448
    EXPECT_TRUE(std::isnan(static_cast<float>(float8_e4m3_t(465.0))));
    EXPECT_EQ(static_cast<float>(float8_e5m2_t(61439.0)), 57344.0f);
    EXPECT_TRUE(std::isinf(static_cast<float>(float8_e5m2_t(61440.0))));
    EXPECT_TRUE(std::isnan(static_cast<float>(float8_e4m3_t(NAN))));
    EXPECT_TRUE(std::isnan(static_cast<float>(float8_e4m3_t(INFINITY))));
    EXPECT_EQ(static_cast<float>(float8_e5m2_t(-INFINITY)), -INFINITY);
    EXPECT_EQ(bits8(float8_e4m3_t(-0.0)), 0x80);
    // Denormals: the smallest E4M3 step is 2^-9, half of it ties to zero.
    EXPECT_EQ(static_cast<float>(float8_e4m3_t(std::ldexp(1.0, -10))), 0.0f);
    EXPECT_EQ(static_cast<float>(float8_e4m3_t(std::ldexp(3.0, -11))), std::ldexp(1.0f, -9));
}

TEST(LowPrecision, HiFloat8RoundsTiesAwayFromZero) {
    for (unsigned c = 0; c < 256; ++c) {
        const double v = ref_hif8(c);
        if (!std::isnan(v) && !(v == 0 && c == 0x80)) ASSERT_EQ(bits8(hifloat8_t(v)), c) << c;
    }
    for (double x : probe_values(40000)) {
        SCOPED_TRACE(x);
        double r = ref_round_hif8(x);
        if (std::fabs(r) > 32768) r = std::copysign(INFINITY, x);
        ASSERT_TRUE(same_value(static_cast<float>(hifloat8_t(x)), r));
    }
    EXPECT_EQ(static_cast<float>(hifloat8_t(1.0625)), 1.125f);  // tie between 1 and 1.125 goes away from zero
    EXPECT_EQ(static_cast<float>(hifloat8_t(-1.0625)), -1.125f);
    EXPECT_EQ(bits8(hifloat8_t(NAN)), 0x80);
    EXPECT_EQ(bits8(hifloat8_t(-0.0)), 0x00);  // HiFloat8 has a single zero; 0x80 is NaN
    EXPECT_TRUE(std::isinf(static_cast<float>(hifloat8_t(40960.0))));
}

TEST(LowPrecision, E8M0AndFp4PairsEncode) {
    EXPECT_EQ(bits8(float8_e8m0_t(1.0)), 127);
    EXPECT_EQ(bits8(float8_e8m0_t(std::ldexp(1.0, -127))), 0);
    EXPECT_EQ(bits8(float8_e8m0_t(-2.0)), 0xff);  // no sign bit: negative is NaN
    EXPECT_EQ(bits8(float8_e8m0_t(NAN)), 0xff);
    // Fp4 pairs: element 0 in the low nibble; no Inf or NaN, so both saturate.
    const auto p = float4_e2m1x2_t::pack(-1.5, 100.0);
    EXPECT_EQ(p.bits, 0x7b);
    EXPECT_EQ(float4_e1m2x2_t::pack(0.375, 1.125).bits, 0x42);  // 0.375 ties to even 0.5; 1.125 ties to 1.0
}

template <class T>
class LowPrecisionData : public ::testing::Test {};
using LowPrecisionTypes =
    ::testing::Types<float8_e4m3_t, float8_e5m2_t, hifloat8_t, float8_e8m0_t, float4_e2m1x2_t, float4_e1m2x2_t>;
TYPED_TEST_SUITE(LowPrecisionData, LowPrecisionTypes);

// Loads and stores move the bytes unchanged, NaN codes included; a Vec->Vec
// TMOV and a TEXTRACT of a part do too. Packed fp4 tiles count 4-bit
// elements (two per byte, element 2i in the low nibble), as pto-isa's.
TYPED_TEST(LowPrecisionData, LoadStoreMoveAndExtractKeepEveryCode) {
    using T = TypeParam;
    constexpr bool fp4 = ptosim::is_minifloat4x2<T>::value;
    constexpr int per = fp4 ? 2 : 1;  // elements per byte
    constexpr int R = 8, C = 64 * per, PC = 32 * per, X = PC / 2 + per - 1;  // X: odd for fp4, mid-byte
    auto code = [](const std::vector<uint8_t>& v, int e) {
        return fp4 ? (e % 2 ? v[e / 2] >> 4 : v[e / 2] & 0xf) : v[e];
    };
    std::vector<uint8_t> in(R * C / per), out(R * C / per, 0x55), part(4 * PC / per, 0x55);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + 3);
    auto st = testutil::run_vec([&] {
        using V = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
        using P = Tile<TileType::Vec, T, 4, PC>;
        V a(R, C), b(R, C);
        P p;
        TASSIGN(a, 0);
        TASSIGN(b, 0x1000);
        TASSIGN(p, 0x2000);
        auto gin = gm_nd(reinterpret_cast<T*>(in.data()), R, C, C);
        auto gout = gm_nd(reinterpret_cast<T*>(out.data()), R, C, C);
        auto gpart = gm_nd(reinterpret_cast<T*>(part.data()), 4, PC, PC);
        TLOAD(a, gin);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TMOV(b, a);
        TEXTRACT(p, a, 3, X);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gout, b);
        TSTORE(gpart, p);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i]) << i;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < PC; ++c)
            ASSERT_EQ(code(part, r * PC + c), code(in, (3 + r) * C + X + c)) << r << "," << c;
}

// ------------------------------------------------------------ TQUANT, TDEQUANT

struct Region {
    int vr, vc;
};
constexpr int kQR = 16, kQC = 64;
using QPara = Tile<TileType::Vec, float, kQR, 1, BLayout::ColMajor, DYNAMIC, 1>;  // one value per row

template <class T>
using QTile = Tile<TileType::Vec, T, kQR, kQC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

template <class Q>
class Dequant : public ::testing::Test {};
using DequantTypes = ::testing::Types<int8_t, int16_t>;
TYPED_TEST_SUITE(Dequant, DequantTypes);

// dst(i, j) = (src(i, j) - offset(i)) * scale(i), subtraction and product
// each rounded to float (pto-isa docs/isa/TDEQUANT.md).
TYPED_TEST(Dequant, PerRowAffineOverValidShapes) {
    using T = TypeParam;
    for (Region rg : {Region{16, 64}, Region{1, 1}, Region{7, 33}, Region{16, 1}, Region{1, 64}}) {
        SCOPED_TRACE(std::to_string(rg.vr) + "x" + std::to_string(rg.vc));
        std::vector<T> q(kQR * kQC);
        std::vector<float> scale(kQR), offset(kQR), out(kQR * kQC, -7.0f);
        testutil::Rng rng;
        for (auto& x : q) x = static_cast<T>(rng.next());
        for (int i = 0; i < kQR; ++i) {
            scale[i] = static_cast<float>(rng.uniform(-0.1, 0.1));
            offset[i] = static_cast<float>(rng.uniform(-200, 200));
        }
        scale[2] = INFINITY;  // (q - o) * inf, and NaN where q == o never happens with a fractional o
        offset[3] = NAN;
        auto st = testutil::run_vec([&] {
            QTile<T> s(rg.vr, rg.vc);
            QTile<float> d(rg.vr, rg.vc);
            QPara ps(rg.vr), po(rg.vr);
            TASSIGN(s, 0);
            TASSIGN(d, 0x1000);
            TASSIGN(ps, 0x6000);
            TASSIGN(po, 0x6100);
            auto gq = gm_nd(q.data(), rg.vr, rg.vc, kQC);
            auto gout = gm_nd(out.data(), rg.vr, rg.vc, kQC);
            auto gs = gm_dn(scale.data(), rg.vr, 1, kQR);
            auto go = gm_dn(offset.data(), rg.vr, 1, kQR);
            TLOAD(s, gq);
            TLOAD(ps, gs);
            TLOAD(po, go);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TDEQUANT(d, s, ps, po);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(gout, d);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int i = 0; i < kQR; ++i)
            for (int j = 0; j < kQC; ++j) {
                float want = -7.0f;
                if (i < rg.vr && j < rg.vc) {
                    volatile float shifted = static_cast<float>(q[i * kQC + j]) - offset[i];
                    want = shifted * scale[i];
                }
                ASSERT_TRUE(same_value(out[i * kQC + j], want)) << i << "," << j;
            }
    }
}

// A src of another valid shape than dst's is a report
// (tests/checkers/test_device_tolerates.cpp): the release build reads it over
// dst's valid shape, which past its storage stays a fault.
TEST(DequantFaults, SrcReadPastItsStorage) {
    auto st = testutil::run_vec([] {
        Tile<TileType::Vec, int8_t, 4, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC> s(4, 8);
        QTile<float> d(4, 33);
        QPara p(4);
        TASSIGN(s, 0);
        TASSIGN(d, 0x1000);
        TASSIGN(p, 0x6000);
        TDEQUANT(d, s, p, p);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TDEQUANT: src's valid shape 4x8 differs from 4x33 (dst's valid shape); pto-isa's "
                              "release build reads src over 4x33, past its 4x32 storage, which ptosim does not model: "
                              "give src dst's valid shape 4x33"),
              std::string::npos)
        << st.message;
}

// q = clamp(rint(x * scale(i) [+ offset(i)])), NaN -> 0 (npu/*/TQuant.hpp).
template <QuantType Q, class D>
void check_tquant(int vr, int vc) {
    SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
    std::vector<float> x(kQR * kQC), scale(kQR), offset(kQR), src_after(kQR * kQC);
    std::vector<D> out(kQR * kQC, D(77));
    testutil::Rng rng;
    for (auto& v : x) v = static_cast<float>(rng.uniform(-300, 300));
    const float specials[] = {NAN, INFINITY, -INFINITY, 0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 127.5f, 128.0f, -128.5f, 255.5f, 1e9f, -1e9f};
    for (size_t k = 0; k < std::size(specials); ++k) x[k] = specials[k];
    for (int i = 0; i < kQR; ++i) {
        scale[i] = i == 0 ? 1.0f : static_cast<float>(rng.uniform(0.1, 2.0));
        offset[i] = i == 0 ? 0.0f : std::round(static_cast<float>(rng.uniform(0, 128)));
    }
    auto st = testutil::run_vec([&] {
        QTile<float> s(vr, vc);
        QTile<D> d(vr, vc);
        QPara ps(vr), po(vr);
        TASSIGN(s, 0);
        TASSIGN(d, 0x1000);
        TASSIGN(ps, 0x6000);
        TASSIGN(po, 0x6100);
        auto gx = gm_nd(x.data(), vr, vc, kQC);
        auto gafter = gm_nd(src_after.data(), vr, vc, kQC);
        auto gout = gm_nd(out.data(), vr, vc, kQC);
        auto gs = gm_dn(scale.data(), vr, 1, kQR);
        auto go = gm_dn(offset.data(), vr, 1, kQR);
        TLOAD(s, gx);
        TLOAD(ps, gs);
        TLOAD(po, go);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if constexpr (Q == QuantType::INT8_ASYM) TQUANT<Q>(d, s, ps, &po);
        else TQUANT<Q>(d, s, ps);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gout, d);
        TSTORE(gafter, s);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    constexpr double lo = std::is_same_v<D, int8_t> ? -128 : 0, hi = std::is_same_v<D, int8_t> ? 127 : 255;
    for (int i = 0; i < kQR; ++i)
        for (int j = 0; j < kQC; ++j) {
            const int k = i * kQC + j;
            if (i >= vr || j >= vc) {
                ASSERT_EQ(out[k], D(77)) << k;
                continue;
            }
            volatile float v = x[k] * scale[i];
            if (Q == QuantType::INT8_ASYM) v = v + offset[i];
            const double r = std::isnan(v) ? 0.0 : std::clamp(static_cast<double>(std::nearbyint(v)), lo, hi);
            ASSERT_EQ(static_cast<double>(out[k]), r) << i << "," << j << ": " << x[k];
            // A2A3 quantises in place in the source buffer; A5 leaves it.
            if (PTOSIM_TARGET_A5) ASSERT_TRUE(same_value(src_after[k], x[k])) << k;
            else ASSERT_TRUE(std::isnan(src_after[k])) << k;
        }
}

TEST(Quant, Int8SymmetricRoundsHalfToEvenAndSaturates) {
    for (Region rg : {Region{16, 64}, Region{1, 1}, Region{5, 37}, Region{16, 1}})
        check_tquant<QuantType::INT8_SYM, int8_t>(rg.vr, rg.vc);
}

TEST(Quant, Int8AsymmetricAddsTheOffsetIntoUint8) {
    for (Region rg : {Region{16, 64}, Region{1, 1}, Region{9, 50}, Region{1, 64}})
        check_tquant<QuantType::INT8_ASYM, uint8_t>(rg.vr, rg.vc);
}

// pto-isa's tquant kernels place dst on src (both at UB 0): the results
// must survive A2A3's in-place garbage in the source buffer.
TEST(Quant, Int8SymmetricInPlaceOverTheSource) {
    constexpr int vr = 4, vc = 64;
    std::vector<float> x(kQR * kQC, 0.0f), scale(kQR, 0.5f);
    std::vector<int8_t> out(kQR * kQC, 77);
    for (int i = 0; i < vr * kQC; ++i) x[i] = static_cast<float>(i % 97) * (i % 2 ? -1.0f : 1.0f);
    auto st = testutil::run_vec([&] {
        QTile<float> s(vr, vc);
        QTile<int8_t> d(vr, vc);
        QPara ps(vr);
        TASSIGN(s, 0);
        TASSIGN(d, 0);
        TASSIGN(ps, 0x6000);
        auto gx = gm_nd(x.data(), vr, vc, kQC);
        auto gout = gm_nd(out.data(), vr, vc, kQC);
        auto gs = gm_dn(scale.data(), vr, 1, kQR);
        TLOAD(s, gx);
        TLOAD(ps, gs);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TQUANT<QuantType::INT8_SYM>(d, s, ps);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gout, d);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < vr; ++i)
        for (int j = 0; j < vc; ++j)
            ASSERT_EQ(out[i * kQC + j], static_cast<int8_t>(std::nearbyint(x[i * kQC + j] * 0.5f))) << i << "," << j;
}

TEST(QuantFaults, AsymmetricWithoutOffsetFaults) {
    auto st = testutil::run_vec([] {
        QTile<float> s(2, 8);
        QTile<uint8_t> d(2, 8);
        QPara p(2);
        TASSIGN(s, 0);
        TASSIGN(d, 0x1000);
        TASSIGN(p, 0x6000);
        TQUANT<QuantType::INT8_ASYM>(d, s, p);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TQUANT<INT8_ASYM>: the offset tile is missing"), std::string::npos) << st.message;
}

#if PTOSIM_TARGET_A5
// The e4m3 code nearest v (ties to the even code), clipped to +-448; NaN
// keeps its sign in 0x7f / 0xff. Brute force over the decoded codes.
uint8_t ref_e4m3_code(double v) {
    if (std::isnan(v)) return std::signbit(v) ? 0xff : 0x7f;
    v = std::clamp(v, -448.0, 448.0);
    int best = -1;
    double best_d = 0;
    for (int c = 0; c < 256; ++c) {
        const double x = ref_ieee8(static_cast<uint8_t>(c), 4, 3, true);
        if (std::isnan(x) || (x == 0 && std::signbit(x) != std::signbit(v))) continue;
        const double d = std::fabs(x - v);
        if (best < 0 || d < best_d || (d == best_d && (c & 1) == 0)) best = c, best_d = d;
    }
    return static_cast<uint8_t>(best);
}

// TQUANT<MXFP8>: 3 valid rows of a 4 x 64 float tile = 6 groups of 32, each
// with its own largest magnitude; NZ mode regroups the exponent pairs of the
// 8 groups of the whole 4 x 64 storage through the index tile.
void check_tquant_mx(bool nz) {
    constexpr int R = 4, C = 64, VR = 3, G = R * C / 32;
    std::vector<float> x(R * C, 0.0f);
    testutil::Rng rng;
    const double group_max[G] = {3.0, 1000.0, 0.015625, 448.0, 7.5e-3, 65504.0, 1.0, 1.0};
    for (int g = 0; g < VR * C / 32; ++g)
        for (int i = 0; i < 32; ++i)
            x[32 * g + i] = static_cast<float>(i == 5 ? -group_max[g] : rng.uniform(-group_max[g], group_max[g]));
    std::vector<uint8_t> out(R * C, 0xAA), exp(32, 0xAA), exp_zz(32, 0xAA);
    std::vector<uint16_t> idx = {1, 0, 3, 2};
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, float, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> src(VR, C), scaling(VR, C);
        Tile<TileType::Vec, int8_t, R, C> dst;
        Tile<TileType::Vec, uint8_t, 1, 32> e, ezz;
        Tile<TileType::Vec, float, 1, 8> mx;
        Tile<TileType::Vec, uint16_t, 1, 16> ix;
        TASSIGN(src, 0);
        TASSIGN(scaling, 0x1000);
        TASSIGN(dst, 0x2000);
        TASSIGN(e, 0x3000);
        TASSIGN(ezz, 0x3100);
        TASSIGN(mx, 0x3200);
        TASSIGN(ix, 0x3300);
        auto gx = gm_nd(x.data(), VR, C, C);
        auto gi = gm_nd(idx.data(), 1, 4, 4);
        auto gd = gm_nd(reinterpret_cast<int8_t*>(out.data()), R, C, C);
        TLOAD(dst, gd);  // 0xAA everywhere: TQUANT must leave the row past the valid ones
        TLOAD(src, gx);
        Tile<TileType::Vec, uint16_t, 1, 16, BLayout::RowMajor, 1, 4> ix4;
        TASSIGN(ix4, 0x3300);
        TLOAD(ix4, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (nz) TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(dst, src, &e, &mx, &scaling, &ezz, &ix);
        else TQUANT<QuantType::MXFP8, decltype(dst), decltype(src), decltype(e), decltype(mx)>(dst, src, &e, &mx, &scaling);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto ge = gm_nd(exp.data(), 1, 32, 32);
        auto gz = gm_nd(exp_zz.data(), 1, 32, 32);
        TSTORE(gd, dst);
        TSTORE(ge, e);
        if (nz) TSTORE(gz, ezz);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int g = 0; g < VR * C / 32; ++g) {
        const int e2 = std::ilogb(group_max[g]);  // every group's largest magnitude is a normal float
        ASSERT_EQ(exp[g], 127 + e2 - 8) << "group " << g;
        for (int i = 0; i < 32; ++i) {
            const int k = 32 * g + i;
            const double scaled = static_cast<double>(x[k] * std::ldexp(1.0f, 8 - e2));
            ASSERT_EQ(out[k], ref_e4m3_code(scaled)) << "group " << g << " element " << i << " " << x[k];
        }
    }
    for (int k = VR * C; k < R * C; ++k) ASSERT_EQ(out[k], 0xAA) << "wrote past the valid rows at " << k;
    if (nz)
        for (int j = 0; j < 4; ++j) {
            ASSERT_EQ(exp_zz[2 * j], exp[2 * idx[j]]) << j;
            ASSERT_EQ(exp_zz[2 * j + 1], exp[2 * idx[j] + 1]) << j;
        }
}

TEST(QuantA5, Mxfp8SharesOnePowerOfTwoPerGroupOf32) { check_tquant_mx(false); }
TEST(QuantA5, Mxfp8NzGathersTheExponentPairs) { check_tquant_mx(true); }

TEST(QuantA5, Mxfp8NzGatherIndexOutsideTheExpTileFaults) {
    std::vector<uint16_t> idx(16, 0);
    idx[2] = 100;
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, float, 4, 64> src, scaling;
        Tile<TileType::Vec, int8_t, 4, 64> dst;
        Tile<TileType::Vec, uint8_t, 1, 32> e, ezz;
        Tile<TileType::Vec, float, 1, 8> mx;
        Tile<TileType::Vec, uint16_t, 1, 16> ix;
        TASSIGN(src, 0);
        TASSIGN(scaling, 0x1000);
        TASSIGN(dst, 0x2000);
        TASSIGN(e, 0x3000);
        TASSIGN(ezz, 0x3100);
        TASSIGN(mx, 0x3200);
        TASSIGN(ix, 0x3300);
        auto gi = gm_nd(idx.data(), 1, 16, 16);
        TLOAD(ix, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(dst, src, &e, &mx, &scaling, &ezz, &ix);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TQUANT<MXFP8, NZ>: gather index 100 at position 2 is outside the exp tile's 16 exponent "
                              "pairs"),
              std::string::npos)
        << st.message;
}

TEST(QuantA5, Mxfp8WithoutATileFaults) {
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, float, 4, 64> src, scaling;
        Tile<TileType::Vec, int8_t, 4, 64> dst;
        Tile<TileType::Vec, uint8_t, 1, 32> e;
        Tile<TileType::Vec, float, 1, 8>* no_max = nullptr;
        TASSIGN(src, 0);
        TASSIGN(scaling, 0x1000);
        TASSIGN(dst, 0x2000);
        TASSIGN(e, 0x3000);
        TQUANT<QuantType::MXFP8, decltype(dst), decltype(src), decltype(e), Tile<TileType::Vec, float, 1, 8>>(
            dst, src, &e, no_max, &scaling);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TQUANT<MXFP8>: the max tile pointer is null; pass &tile"), std::string::npos)
        << st.message;
}

// fp8 operands through L1 (NZ) into L0A/L0B, multiplied into a float
// accumulator: the documented A5 pairs (a5/TMatmul.hpp CheckMadValid).
template <class A, class B>
struct Fp8Pair {
    using TA = A;
    using TB = B;
};
struct D3MX {
    int m, k, n;
};
template <class P>
class Fp8Matmul : public ::testing::Test {};
using Fp8Pairs = ::testing::Types<Fp8Pair<float8_e4m3_t, float8_e4m3_t>, Fp8Pair<float8_e4m3_t, float8_e5m2_t>,
                                  Fp8Pair<float8_e5m2_t, float8_e4m3_t>, Fp8Pair<float8_e5m2_t, float8_e5m2_t>,
                                  Fp8Pair<hifloat8_t, hifloat8_t>>;
TYPED_TEST_SUITE(Fp8Matmul, Fp8Pairs);

// Codes of small exact values (multiples of 1/8 up to 2), so every product
// and every partial sum is exact in float.
template <class T>
std::vector<T> fp8_operand(int rows, int cols, uint64_t salt) {
    std::vector<T> v(static_cast<size_t>(rows) * cols);
    testutil::Rng rng;
    rng.s ^= salt;
    for (auto& x : v) x = T(static_cast<double>(static_cast<int>(rng.next() % 33) - 16) / 8.0);
    return v;
}

TYPED_TEST(Fp8Matmul, MatmulAndGemvOverValidShapes) {
    using TA = typename TypeParam::TA;
    using TB = typename TypeParam::TB;
    constexpr int M = 32, K = 64, N = 32;
    struct D3 {
        int m, k, n;
    };
    for (D3 d : {D3{17, 45, 23}, D3{1, 1, 1}, D3{32, 64, 32}, D3{5, 64, 1}}) {
        SCOPED_TRACE(std::to_string(d.m) + "x" + std::to_string(d.k) + "x" + std::to_string(d.n));
        auto a = fp8_operand<TA>(d.m, d.k, 11), b = fp8_operand<TB>(d.k, d.n, 12);
        std::vector<float> c(d.m * d.n), y(d.n);
        auto st = run_cube([&] {
            MatNz<TA, M, K> ma(d.m, d.k);
            MatNz<TB, K, N> mb(d.k, d.n);
            TileLeft<TA, M, K, DYNAMIC, DYNAMIC> l(d.m, d.k);
            TileRight<TB, K, N, DYNAMIC, DYNAMIC> r(d.k, d.n);
            TileAcc<float, M, N, DYNAMIC, DYNAMIC> acc(d.m, d.n);
            TileAcc<float, M, N, 1, DYNAMIC> row(d.n);
            TASSIGN(ma, 0);
            TASSIGN(mb, 0x2000);
            TASSIGN(l, 0);
            TASSIGN(r, 0);
            TASSIGN(acc, 0);
            TASSIGN(row, 0x4000);
            auto ga = gm_nd(a.data(), d.m, d.k, d.k);
            auto gb = gm_nd(b.data(), d.k, d.n, d.n);
            auto gc = gm_nd(c.data(), d.m, d.n, d.n);
            auto gy = gm_nd(y.data(), 1, d.n, d.n);
            TLOAD(ma, ga);
            TLOAD(mb, gb);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TMOV(l, ma);
            TMOV(r, mb);
            ISA_SYNC(PIPE_MTE1, PIPE_M);
            TMATMUL(acc, l, r);
            TGEMV(row, l, r);
            ISA_SYNC(PIPE_M, PIPE_FIX);
            TSTORE(gc, acc);
            TSTORE(gy, row);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int i = 0; i < d.m; ++i)
            for (int j = 0; j < d.n; ++j) {
                double want = 0;
                for (int p = 0; p < d.k; ++p) want += to_double_fp8(a[i * d.k + p]) * to_double_fp8(b[p * d.n + j]);
                ASSERT_EQ(c[i * d.n + j], want) << i << "," << j;
                if (i == 0) ASSERT_EQ(y[j], want) << j;
            }
    }
}

// ------------------------------------------------------------ MX matmul

// Scale codes 125..129 (2^-2 .. 2^2): with fp8 operands in multiples of 1/8
// every scaled product and partial sum stays exact in float.
std::vector<float8_e8m0_t> mx_scales(int rows, int cols, uint64_t salt) {
    std::vector<float8_e8m0_t> v(static_cast<size_t>(rows) * cols);
    testutil::Rng rng;
    rng.s ^= salt;
    for (auto& x : v) x = float8_e8m0_t::from_bits(static_cast<uint8_t>(125 + rng.next() % 5));
    return v;
}
double e8m0_value(float8_e8m0_t s) { return s.bits == 255 ? NAN : std::ldexp(1.0, s.bits - 127); }

enum class MxForm { Plain, Acc, Bias, Gemv, PhaseForms, StorePhase };

template <class TA, class TB>
struct MxCase {
    int m, k, n;
    std::vector<TA> a;
    std::vector<TB> b;
    std::vector<float8_e8m0_t> sa, sb;  // sa: m x ceil(k/32) row-major; sb: ceil(k/32) x n row-major
    std::vector<float> extra;           // accumulator input row block or bias row
    std::vector<float> c;
};

constexpr int kMxM = 32, kMxK = 128, kMxN = 32, kMxKS = kMxK / 32;

template <class TA, class TB>
ptosim::Status run_mx(MxForm form, MxCase<TA, TB>& t, bool misplace_scale = false) {
    return run_cube([&] {
        const int ks = (t.k + 31) / 32;
        MatNz<TA, kMxM, kMxK> ma(t.m, t.k);
        MatNz<TB, kMxK, kMxN> mb(t.k, t.n);
        Tile<TileType::Mat, float8_e8m0_t, kMxM, kMxKS, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 32> msa(t.m, ks);
        Tile<TileType::Mat, float8_e8m0_t, kMxKS, kMxN, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::ColMajor, 32> msb(ks, t.n);
        Tile<TileType::Mat, float, kMxM, kMxN, BLayout::RowMajor, DYNAMIC, DYNAMIC> mextra(t.m, t.n);
        TileLeft<TA, kMxM, kMxK, DYNAMIC, DYNAMIC> l(t.m, t.k);
        TileRight<TB, kMxK, kMxN, DYNAMIC, DYNAMIC> r(t.k, t.n);
        TileLeftScale<float8_e8m0_t, kMxM, kMxKS> ls;
        TileRightScale<float8_e8m0_t, kMxKS, kMxN> rs;
        TileBias<float, kMxN, DYNAMIC> tb(t.n);
        TileAcc<float, kMxM, kMxN, DYNAMIC, DYNAMIC> c0(t.m, t.n), c1(t.m, t.n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x2000);
        TASSIGN(msa, 0x6000);
        TASSIGN(msb, 0x6400);
        TASSIGN(mextra, 0x7000);
        TASSIGN(l, 0x1000);
        TASSIGN(r, 0x2000);
        TGET_SCALE_ADDR(ls, l);
        TGET_SCALE_ADDR(rs, r);
        if (misplace_scale) TASSIGN(rs, 0x400);
        TASSIGN(tb, 0);
        TASSIGN(c0, 0);
        TASSIGN(c1, 0x8000);
        auto ga = gm_nd(t.a.data(), t.m, t.k, t.k);
        auto gb = gm_nd(t.b.data(), t.k, t.n, t.n);
        auto gsa = gm_nd(t.sa.data(), t.m, ks, ks);
        auto gsb = gm_nd(t.sb.data(), ks, t.n, t.n);
        auto ge = gm_nd(t.extra.data(), t.m, t.n, t.n);
        auto gc = gm_nd(t.c.data(), t.m, t.n, t.n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        TLOAD(msa, gsa);
        TLOAD(msb, gsb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        TMOV(ls, msa);
        TMOV(rs, msb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        switch (form) {
            case MxForm::Plain:
            case MxForm::StorePhase: TMATMUL_MX(c1, l, ls, r, rs); break;
            case MxForm::Gemv: TGEMV_MX(c1, l, ls, r, rs); break;
            case MxForm::PhaseForms:
                // The AccPhase overloads (explicit template argument, no call site) resolve as in
                // pto_instr.hpp: a partial product into c0, the final accumulation into c1.
                TMATMUL_MX<AccPhase::Partial>(c0, l, ls, r, rs);
                TMATMUL_MX<AccPhase::Final>(c1, c0, l, ls, r, rs);
                break;
            case MxForm::Bias: {
                Tile<TileType::Mat, float, 1, kMxN, BLayout::RowMajor, 1, DYNAMIC> mbias(t.n);
                TASSIGN(mbias, 0x7000);
                auto gbias = gm_nd(t.extra.data(), 1, t.n, t.n);
                TLOAD(mbias, gbias);
                ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
                TMOV(tb, mbias);
                ISA_SYNC(PIPE_MTE1, PIPE_M);
                TMATMUL_MX(c1, l, ls, r, rs, tb);
                break;
            }
            case MxForm::Acc: {
                // c0 = extra through the fixpipe-free path: TMATMUL_MX with zero scales' operands is
                // not needed; an Acc input is made by TMATMUL_MX into c0 of the same data, then
                // c1 = c0 + a*b checks that the input is added, and c0 stays.
                TMATMUL_MX(c0, l, ls, r, rs);
                TMATMUL_MX(c1, c0, l, ls, r, rs);
                break;
            }
        }
        ISA_SYNC(PIPE_M, PIPE_FIX);
        // TSTORE<STPhase> (the unit-flag form) stores the same data.
        if (form == MxForm::StorePhase) TSTORE<STPhase::Final>(gc, c1);
        else TSTORE(gc, c1);
    });
}

template <class TA, class TB>
MxCase<TA, TB> make_mx_case(int m, int k, int n, uint64_t salt) {
    MxCase<TA, TB> t{m, k, n, fp8_operand<TA>(m, k, salt), fp8_operand<TB>(k, n, salt + 1),
                     mx_scales(m, (k + 31) / 32, salt + 2), mx_scales((k + 31) / 32, n, salt + 3), {}, {}};
    t.extra.resize(static_cast<size_t>(m) * n);
    for (int i = 0; i < m * n; ++i) t.extra[i] = static_cast<float>(i % 13) - 6.0f;
    t.c.assign(static_cast<size_t>(m) * n, -1.0f);
    return t;
}

// c(i, j) = sum_p a(i, p) 2^sa(i, p/32) * b(p, j) 2^sb(p/32, j).
template <class TA, class TB>
double ref_mx(const MxCase<TA, TB>& t, int i, int j) {
    const int ks = (t.k + 31) / 32;
    double s = 0;
    for (int p = 0; p < t.k; ++p)
        s += to_double_fp8(t.a[i * t.k + p]) * e8m0_value(t.sa[i * ks + p / 32]) * to_double_fp8(t.b[p * t.n + j]) *
             e8m0_value(t.sb[(p / 32) * t.n + j]);
    return s;
}

template <class P>
class MxMatmul : public ::testing::Test {};
using MxPairs = ::testing::Types<Fp8Pair<float8_e4m3_t, float8_e4m3_t>, Fp8Pair<float8_e4m3_t, float8_e5m2_t>,
                                 Fp8Pair<float8_e5m2_t, float8_e4m3_t>, Fp8Pair<float8_e5m2_t, float8_e5m2_t>>;
TYPED_TEST_SUITE(MxMatmul, MxPairs);

const D3MX kMxShapes[] = {{17, 45, 23}, {1, 1, 1}, {32, 128, 32}, {32, 64, 1}, {1, 128, 32}, {5, 33, 7}};

TYPED_TEST(MxMatmul, EveryFormOverValidShapes) {
    using TA = typename TypeParam::TA;
    using TB = typename TypeParam::TB;
    for (MxForm form : {MxForm::Plain, MxForm::Acc, MxForm::Bias, MxForm::Gemv, MxForm::PhaseForms, MxForm::StorePhase})
        for (D3MX d : kMxShapes) {
            SCOPED_TRACE(std::to_string(static_cast<int>(form)) + ": " + std::to_string(d.m) + "x" +
                         std::to_string(d.k) + "x" + std::to_string(d.n));
            auto t = make_mx_case<TA, TB>(d.m, d.k, d.n, 21);
            auto st = run_mx(form, t);
            ASSERT_TRUE(st.ok()) << st.message;
            const int rows = form == MxForm::Gemv ? 1 : d.m;
            for (int i = 0; i < rows; ++i)
                for (int j = 0; j < d.n; ++j) {
                    double want = ref_mx(t, i, j);
                    if (form == MxForm::Acc || form == MxForm::PhaseForms) want *= 2;
                    if (form == MxForm::Bias) want += t.extra[j];
                    ASSERT_EQ(t.c[i * d.n + j], want) << i << "," << j;
                }
        }
}

// A NaN scale (E8M0 0xFF) makes its whole block NaN: only the outputs whose
// sums include that block are NaN.
TEST(MxMatmulScales, NanScalePoisonsItsBlockOnly) {
    auto t = make_mx_case<float8_e4m3_t, float8_e4m3_t>(4, 64, 8, 31);
    t.sa[1 * 2 + 1] = float8_e8m0_t::from_bits(0xff);  // row 1, k 32..63
    auto st = run_mx(MxForm::Plain, t);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) {
            if (i == 1) ASSERT_TRUE(std::isnan(t.c[i * 8 + j])) << j;
            else ASSERT_EQ(t.c[i * 8 + j], ref_mx(t, i, j)) << i << "," << j;
        }
}

TEST(MxMatmulScales, ScaleTileAwayFromGetScaleAddrFaults) {
    auto t = make_mx_case<float8_e4m3_t, float8_e4m3_t>(4, 64, 8, 41);
    auto st = run_mx(MxForm::Plain, t, true);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TMATMUL_MX: the right scale tile is at 0x400 but the cube reads it at "
                              "GetScaleAddr(operand) = 0x200"),
              std::string::npos)
        << st.message;
}

// The scale tiles must hold one scale per 32 k of the valid shape; a tile
// sized for k = 64 under a k = 128 product would make the cube read past it.
TEST(MxMatmulScales, ScaleTilesTooSmallForTheValidKFault) {
    auto st = run_cube([] {
        TileLeft<float8_e4m3_t, 16, 128> l;
        TileRight<float8_e4m3_t, 128, 32> r;
        TileLeftScale<float8_e8m0_t, 16, 2> ls;
        TileRightScale<float8_e8m0_t, 2, 32> rs;
        TileAcc<float, 16, 32> c;
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(c, 0);
        TGET_SCALE_ADDR(ls, l);
        TGET_SCALE_ADDR(rs, r);
        TMATMUL_MX(c, l, ls, r, rs);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TMATMUL_MX: m x k x n = 16x128x32 needs 16x4 left and 4x32 right scales (one per 32 k), "
                              "but the scale tiles are 16x2 and 2x32"),
              std::string::npos)
        << st.message;
}

TEST(MxMatmulScales, GetScaleAddrIsTheOperandAddressOverSixteen) {
    TileLeft<float8_e4m3_t, 16, 64> l;
    TASSIGN(l, 0x3400);
    EXPECT_EQ(GetScaleAddr(l.data()), 0x340u);
}

// ------------------------------------------------------------ fp4 MX matmul

// pto-isa's tmatmul_mx flow with packed fp4 operands: A (m x k) and B (k x n)
// row-major in GM, two elements per byte along the row; scales in the
// MX_A_ZZ / MX_B_NN layouts. Through Nz L1 tiles (zero padded with TFILLPAD
// up to k = 128), TMOV to L0 and TMATMUL_MX; or, with `raw`, through the raw
// intrinsics load_cbuf_to_ca_mx / load_cbuf_to_cb_mx / mad_mx. fp4 values are
// multiples of 1/4 up to 6 and scales 2^-2..2^2, so every sum is exact.
constexpr int kF4M = 32, kF4K = 128, kF4N = 64, kF4KS = kF4K / 32;

struct Fp4Case {
    int m, k, n;
    std::vector<uint8_t> a, b;      // packed codes: a m x k, b k x n
    std::vector<uint8_t> sa, sb;    // GM images in MX_A_ZZ (kF4M x kF4KS) and MX_B_NN (kF4KS x kF4N)
    std::vector<uint8_t> sa_code, sb_code;  // sa_code[i * kF4KS + s], sb_code[s * kF4N + j]
    std::vector<float> c;
};

uint8_t nibble(const std::vector<uint8_t>& v, int e) { return e % 2 ? v[e / 2] >> 4 : v[e / 2] & 0xf; }

Fp4Case make_fp4_case(int m, int k, int n, uint64_t salt) {
    Fp4Case t{m, k, n, {}, {}, {}, {}, {}, {}, {}};
    testutil::Rng rng;
    rng.s ^= salt;
    t.a.assign(static_cast<size_t>(m) * k / 2, 0);
    t.b.assign(static_cast<size_t>(k) * n / 2, 0);
    for (auto& x : t.a) x = static_cast<uint8_t>(rng.next());
    for (auto& x : t.b) x = static_cast<uint8_t>(rng.next());
    t.sa_code.assign(kF4M * kF4KS, 127);
    t.sb_code.assign(kF4KS * kF4N, 127);
    for (auto& x : t.sa_code) x = static_cast<uint8_t>(125 + rng.next() % 5);
    for (auto& x : t.sb_code) x = static_cast<uint8_t>(125 + rng.next() % 5);
    // MX_A_ZZ: (row band, k pair, row in band, k in pair); MX_B_NN: (column band, k pair, column in band, k in pair).
    t.sa.assign(kF4M * kF4KS, 0);
    t.sb.assign(kF4KS * kF4N, 0);
    for (int i = 0; i < kF4M; ++i)
        for (int s = 0; s < kF4KS; ++s) t.sa[(i / 16) * 16 * kF4KS + (s / 2) * 32 + (i % 16) * 2 + s % 2] = t.sa_code[i * kF4KS + s];
    for (int s = 0; s < kF4KS; ++s)
        for (int j = 0; j < kF4N; ++j) t.sb[(j / 16) * 16 * kF4KS + (s / 2) * 32 + (j % 16) * 2 + s % 2] = t.sb_code[s * kF4N + j];
    t.c.assign(static_cast<size_t>(m) * n, -1.0f);
    return t;
}

template <class TA, class TB>
double ref_fp4_mx(const Fp4Case& t, int i, int j) {
    constexpr int ea = std::is_same_v<TA, float4_e2m1x2_t> ? 2 : 1, eb = std::is_same_v<TB, float4_e2m1x2_t> ? 2 : 1;
    double s = 0;
    for (int p = 0; p < t.k; ++p)
        s += ref_fp4(nibble(t.a, i * t.k + p), ea) * std::ldexp(1.0, t.sa_code[i * kF4KS + p / 32] - 127) *
             ref_fp4(nibble(t.b, p * t.n + j), eb) * std::ldexp(1.0, t.sb_code[(p / 32) * kF4N + j] - 127);
    return s;
}

template <class TA, class TB>
ptosim::Status run_fp4_mx(Fp4Case& t, bool raw) {
    return run_cube([&] {
        using E = float8_e8m0_t;
        Tile<TileType::Mat, TA, kF4M, kF4K, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512> ma(t.m, t.k);
        Tile<TileType::Mat, TB, kF4K, kF4N, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512> mb(t.k, t.n);
        Tile<TileType::Mat, E, kF4M, kF4KS, BLayout::RowMajor, kF4M, kF4KS, SLayout::RowMajor, 32> msa;
        Tile<TileType::Mat, E, kF4KS, kF4N, BLayout::ColMajor, kF4KS, kF4N, SLayout::ColMajor, 32> msb;
        TileLeft<TA, kF4M, kF4K, DYNAMIC, kF4K> l(t.m);
        TileRight<TB, kF4K, kF4N, kF4K, DYNAMIC> r(t.n);
        TileLeftScale<E, kF4M, kF4KS> ls;
        TileRightScale<E, kF4KS, kF4N> rs;
        TileAcc<float, kF4M, kF4N, DYNAMIC, DYNAMIC> c(t.m, t.n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(msa, 0x3000);
        TASSIGN(msb, 0x3400);
        TASSIGN(l, 0x800);
        TASSIGN(r, 0x1000);
        TGET_SCALE_ADDR(ls, l);
        TGET_SCALE_ADDR(rs, r);
        TASSIGN(c, 0);
        auto ga = gm_nd(reinterpret_cast<TA*>(t.a.data()), t.m, t.k, t.k);
        auto gb = gm_nd(reinterpret_cast<TB*>(t.b.data()), t.k, t.n, t.n);
        GlobalTensor<E, TileShape2D<E, kF4M, kF4KS, Layout::MX_A_ZZ>, BaseShape2D<E, kF4M, kF4KS, Layout::MX_A_ZZ>,
                     Layout::MX_A_ZZ>
            gsa(reinterpret_cast<E*>(t.sa.data()));
        GlobalTensor<E, TileShape2D<E, kF4KS, kF4N, Layout::MX_B_NN>, BaseShape2D<E, kF4KS, kF4N, Layout::MX_B_NN>,
                     Layout::MX_B_NN>
            gsb(reinterpret_cast<E*>(t.sb.data()));
        auto gc = gm_nd(t.c.data(), t.m, t.n, t.n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        TFILLPAD(ma, ma);
        TFILLPAD(mb, mb);
        TLOAD(msa, gsa);
        TLOAD(msb, gsb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        if (raw) {
            // Whole 16 x 2 (A) / 2 x 16 (B) boxes: bands x pairs, as pto-isa's TExtractToAmx/Bmx program them.
            load_cbuf_to_ca_mx(GetScaleAddr(l.data()), msa.data(), 0, 0, kF4M / 16, kF4KS / 2, kF4KS / 2, kF4KS / 2);
            load_cbuf_to_cb_mx(GetScaleAddr(r.data()), msb.data(), 0, 0, kF4N / 16, kF4KS / 2, kF4KS / 2, kF4KS / 2);
        } else {
            TMOV(ls, msa);
            TMOV(rs, msb);
        }
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        if (raw)
            mad_mx(c.data(), l.data(), r.data(), t.m, kF4K, t.n, 0, false, false, true);
        else
            TMATMUL_MX(c, l, ls, r, rs);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gc, c);
    });
}

template <class P>
class Fp4MxMatmul : public ::testing::Test {};
using Fp4Pairs = ::testing::Types<Fp8Pair<float4_e2m1x2_t, float4_e2m1x2_t>, Fp8Pair<float4_e2m1x2_t, float4_e1m2x2_t>,
                                  Fp8Pair<float4_e1m2x2_t, float4_e2m1x2_t>, Fp8Pair<float4_e1m2x2_t, float4_e1m2x2_t>>;
TYPED_TEST_SUITE(Fp4MxMatmul, Fp4Pairs);

TYPED_TEST(Fp4MxMatmul, TileAndRawPathsMatchTheScaledProducts) {
    using TA = typename TypeParam::TA;
    using TB = typename TypeParam::TB;
    // Full tiles, and valid 20 x 100 x 40 (k padded with zeros to 128).
    for (auto [m, k, n] : {std::array<int, 3>{32, 128, 64}, std::array<int, 3>{20, 100, 40}})
        for (bool raw : {false, true}) {
            // mad_mx lays L0B out for n rounded up to 16 (48 here); the Right tile has 64 columns.
            if (raw && n != kF4N) continue;
            SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + (raw ? " raw" : ""));
            auto t = make_fp4_case(m, k, n, 77);
            auto st = run_fp4_mx<TA, TB>(t, raw);
            ASSERT_TRUE(st.ok()) << st.message;
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) ASSERT_EQ(t.c[i * n + j], (ref_fp4_mx<TA, TB>(t, i, j))) << i << "," << j;
        }
}

// load_cbuf_to_ca_mx/_cb_mx copy whole 32-byte boxes: destination box (i, j)
// from source box (rowStart + i, colStart + j), bands srcStride / dstStride
// boxes apart. Source bytes carry their own box number, so each place is checked.
TEST(RawMxIntrinsics, ScaleBoxCopiesHonourStartsStepsAndStrides) {
    constexpr int SRC_BANDS = 4, SRC_STRIDE = 3, ROW0 = 1, COL0 = 1, ROWS = 2, COLS = 2, DST_STRIDE = 5;
    for (bool left : {true, false}) {
        SCOPED_TRACE(left ? "ca" : "cb");
        std::vector<uint8_t> got(DST_STRIDE * ROWS * 32);
        auto st = run_cube([&] {
            ptosim::Core& c = ptosim::core();
            uint8_t* l1 = c.mem[static_cast<int>(ptosim::Space::L1)] + 0x400;
            for (int b = 0; b < SRC_BANDS * SRC_STRIDE; ++b)
                for (int i = 0; i < 32; ++i) l1[b * 32 + i] = static_cast<uint8_t>(b * 8 + i % 8);
            testutil::announce_seeded(ptosim::Pipe::MTE1, ptosim::Space::L1, 0x400, SRC_BANDS * SRC_STRIDE * 32);
            const ptosim::Space sp = left ? ptosim::Space::L0AMX : ptosim::Space::L0BMX;
            uint8_t* dst = c.mem[static_cast<int>(sp)] + 0x40;
            std::memset(dst, 0xEE, got.size());
            auto* src = reinterpret_cast<__cbuf__ float8_e8m0_t*>(static_cast<uintptr_t>(0x400));
            if (left) load_cbuf_to_ca_mx(0x40, src, ROW0, COL0, ROWS, COLS, SRC_STRIDE, DST_STRIDE);
            else load_cbuf_to_cb_mx(0x40, src, ROW0, COL0, ROWS, COLS, SRC_STRIDE, DST_STRIDE);
            ISA_SYNC(PIPE_MTE1, PIPE_S);
            std::memcpy(got.data(), dst, got.size());
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int i = 0; i < ROWS; ++i)
            for (int j = 0; j < DST_STRIDE; ++j)
                for (int k = 0; k < 32; ++k) {
                    const int from = (ROW0 + i) * SRC_STRIDE + COL0 + j;
                    const uint8_t want = j < COLS ? static_cast<uint8_t>(from * 8 + k % 8) : 0xEE;
                    ASSERT_EQ(got[(i * DST_STRIDE + j) * 32 + k], want) << i << "," << j << "," << k;
                }
    }
}

// ------------------------------------------------------------ TLOAD of MX scales

// A scale matrix (rows x cols: A is M x K/32, B is K/32 x N), written into GM
// by each layout's element formula, loaded into a 64 x 64 ZZ (A) or NN (B)
// L1 tile whose bytes are then compared with the L1 box order, spelled out
// here: ZZ (r/16, c/2, r%16, c%2) and NN (c/16, r/2, c%16, r%2), each box
// 32 bytes, as pto-isa's tload_mx testcases' goldens reshape them.
struct MxLoadCase {
    Layout layout;
    int rows, cols;       // the scale matrix in GM
    int vr, vc;           // the tile's valid shape (ND/DN layouts move it)
    int64_t sh[5], st[5];  // the GlobalTensor
    std::vector<uint8_t> gm;
};

uint8_t mx_code(int r, int c) { return static_cast<uint8_t>(r * 7 + c * 3 + 1); }

// Builds the GM image; ld is the padded leading extent (>= the dense one).
MxLoadCase mx_load_case(Layout l, int rows, int cols, int ld, int batch = 1) {
    MxLoadCase t{l, rows, cols, rows, cols, {}, {}, {}};
    auto put = [&](int64_t at, int r, int c) {
        if (static_cast<size_t>(at) >= t.gm.size()) t.gm.resize(static_cast<size_t>(at) + 1, 0xEE);
        t.gm[static_cast<size_t>(at)] = mx_code(r, c);
    };
    auto set = [&](std::array<int64_t, 5> sh, std::array<int64_t, 5> st) {
        for (int d = 0; d < 5; ++d) t.sh[d] = sh[d], t.st[d] = st[d];
    };
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            switch (l) {
                case Layout::MX_A_ND: put(r * ld + c, r, c); break;
                case Layout::MX_A_DN: put((c / 2) * (2 * ld) + r * 2 + c % 2, r, c); break;
                case Layout::MX_B_ND: put((r / 2) * (2 * ld) + c * 2 + r % 2, r, c); break;
                case Layout::MX_B_DN: put(c * ld + r, r, c); break;
                // Boxes of one batch: per 16 rows (A) or columns (B) one run of ld/2 pairs x 16 x 2;
                // batches follow each other at a stride of 1024 bytes.
                case Layout::MX_A_ZZ: {
                    const int per = rows / batch, b = r / per, rr = r % per;
                    put(b * 1024 + (rr / 16) * (16 * ld) + (c / 2) * 32 + (rr % 16) * 2 + c % 2, r, c);
                    break;
                }
                default: {  // MX_B_NN
                    const int per = cols / batch, b = c / per, cc = c % per;
                    put(b * 1024 + (cc / 16) * (16 * ld) + (r / 2) * 32 + (cc % 16) * 2 + r % 2, r, c);
                    break;
                }
            }
        }
    switch (l) {
        case Layout::MX_A_ND: set({1, 1, rows, cols / 2, 2}, {rows * ld, rows * ld, ld, 2, 1}); break;
        case Layout::MX_A_DN: set({1, 1, cols / 2, rows, 2}, {cols * ld, cols * ld, 2 * ld, 2, 1}); break;
        case Layout::MX_B_ND: set({1, 1, rows / 2, cols, 2}, {rows * ld, rows * ld, 2 * ld, 2, 1}); break;
        case Layout::MX_B_DN: set({1, 1, cols, rows / 2, 2}, {cols * ld, cols * ld, ld, 2, 1}); break;
        case Layout::MX_A_ZZ: set({batch, rows / batch / 16, cols / 2, 16, 2}, {1024, 16 * ld, 32, 2, 1}); break;
        default: set({batch, cols / batch / 16, rows / 2, 16, 2}, {1024, 16 * ld, 32, 2, 1}); break;
    }
    return t;
}

constexpr int kMxT = 64;  // scale tiles are kMxT x kMxT
constexpr uint8_t kL1Fill = 0x5A;

template <Layout L>
ptosim::Status run_mx_load(MxLoadCase& t, std::vector<uint8_t>& l1) {
    constexpr bool a = L == Layout::MX_A_ZZ || L == Layout::MX_A_ND || L == Layout::MX_A_DN;
    using T = std::conditional_t<a, Tile<TileType::Mat, float8_e8m0_t, kMxT, kMxT, BLayout::RowMajor, DYNAMIC, DYNAMIC,
                                         SLayout::RowMajor, TileConfig::fractalMxSize>,
                                 Tile<TileType::Mat, float8_e8m0_t, kMxT, kMxT, BLayout::ColMajor, DYNAMIC, DYNAMIC,
                                      SLayout::ColMajor, TileConfig::fractalMxSize>>;
    using Sh = Shape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
    using St = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
    return run_cube([&] {
        uint8_t* mem = ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + 0x400;
        std::memset(mem, kL1Fill, kMxT * kMxT);
        T tile(t.vr, t.vc);
        TASSIGN(tile, 0x400);
        GlobalTensor<float8_e8m0_t, Sh, St, L> g(reinterpret_cast<float8_e8m0_t*>(t.gm.data()),
                                                 Sh(t.sh[0], t.sh[1], t.sh[2], t.sh[3], t.sh[4]),
                                                 St(t.st[0], t.st[1], t.st[2], t.st[3], t.st[4]));
        TLOAD(tile, g);
        l1.assign(mem, mem + kMxT * kMxT);
    });
}

void expect_mx_tile(const MxLoadCase& t, const std::vector<uint8_t>& l1, int rows, int cols) {
    const bool a = t.layout == Layout::MX_A_ZZ || t.layout == Layout::MX_A_ND || t.layout == Layout::MX_A_DN;
    std::vector<int> want(kMxT * kMxT, kL1Fill);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const int at = a ? (r / 16) * 16 * kMxT + (c / 2) * 32 + (r % 16) * 2 + c % 2
                             : (c / 16) * 16 * kMxT + (r / 2) * 32 + (c % 16) * 2 + r % 2;
            want[at] = mx_code(r, c);
        }
    for (int i = 0; i < kMxT * kMxT; ++i) ASSERT_EQ(l1[i], want[i]) << "L1 byte " << i;
}

template <Layout L>
void check_mx_load(MxLoadCase t, int rows, int cols) {
    std::vector<uint8_t> l1;
    auto st = run_mx_load<L>(t, l1);
    ASSERT_TRUE(st.ok()) << st.message;
    expect_mx_tile(t, l1, rows, cols);
}

TEST(MxScaleLoad, NdAndDnMoveTheValidRegionIntoBoxes) {
    // A: 40 x 10 scales with padded leading extents, a 37 x 6 valid region.
    for (Layout l : {Layout::MX_A_ND, Layout::MX_A_DN}) {
        SCOPED_TRACE(static_cast<int>(l));
        auto t = mx_load_case(l, 40, 10, l == Layout::MX_A_ND ? 14 : 45);
        t.vr = 37;
        t.vc = 6;
        if (l == Layout::MX_A_ND) check_mx_load<Layout::MX_A_ND>(t, 37, 6);
        else check_mx_load<Layout::MX_A_DN>(t, 37, 6);
    }
    // B: 8 x 50 scales, a 6 x 45 valid region.
    for (Layout l : {Layout::MX_B_ND, Layout::MX_B_DN}) {
        SCOPED_TRACE(static_cast<int>(l));
        auto t = mx_load_case(l, 8, 50, l == Layout::MX_B_ND ? 52 : 11);
        t.vr = 6;
        t.vc = 45;
        if (l == Layout::MX_B_ND) check_mx_load<Layout::MX_B_ND>(t, 6, 45);
        else check_mx_load<Layout::MX_B_DN>(t, 6, 45);
    }
}

TEST(MxScaleLoad, ZzAndNnMoveTheWholeTensorAndStackDimensionZero) {
    // Two batches of 2 x 16 rows (A) / columns (B); a valid shape of 1 x 2
    // shows that the boxed layouts ignore it.
    auto a = mx_load_case(Layout::MX_A_ZZ, 64, 6, 8, 2);
    a.vr = 1;
    a.vc = 2;
    check_mx_load<Layout::MX_A_ZZ>(a, 64, 6);
    auto b = mx_load_case(Layout::MX_B_NN, 4, 64, 6, 2);
    b.vr = 2;
    b.vc = 1;
    check_mx_load<Layout::MX_B_NN>(b, 4, 64);
}

TEST(MxScaleLoad, ShapeHelpersDescribeTheDenseLayouts) {
    using E = float8_e8m0_t;
    using ZS = TileShape2D<E, 32, 6, Layout::MX_A_ZZ>;
    using ZT = BaseShape2D<E, 32, 6, Layout::MX_A_ZZ>;
    EXPECT_EQ((std::array<int64_t, 5>{ZS::staticShape[0], ZS::staticShape[1], ZS::staticShape[2], ZS::staticShape[3],
                                      ZS::staticShape[4]}),
              (std::array<int64_t, 5>{1, 2, 3, 16, 2}));
    EXPECT_EQ((std::array<int64_t, 5>{ZT::staticStride[1], ZT::staticStride[2], ZT::staticStride[3], ZT::staticStride[4], 0}),
              (std::array<int64_t, 5>{96, 32, 2, 1, 0}));
    using NS = TileShape2D<E, 4, 48, Layout::MX_B_NN>;
    using NT = BaseShape2D<E, 4, 48, Layout::MX_B_NN>;
    EXPECT_EQ((std::array<int64_t, 3>{NS::staticShape[1], NS::staticShape[2], NS::staticShape[3]}),
              (std::array<int64_t, 3>{3, 2, 16}));
    EXPECT_EQ(NT::staticStride[1], 64);
    using DS = TileShape2D<E, 20, 4, Layout::MX_A_DN>;
    using DT = BaseShape2D<E, 20, 4, Layout::MX_A_DN>;
    EXPECT_EQ((std::array<int64_t, 2>{DS::staticShape[2], DS::staticShape[3]}), (std::array<int64_t, 2>{2, 20}));
    EXPECT_EQ(DT::staticStride[2], 40);
    using BD = TileShape2D<E, 6, 40, Layout::MX_B_DN>;
    using BDT = BaseShape2D<E, 6, 40, Layout::MX_B_DN>;
    EXPECT_EQ((std::array<int64_t, 2>{BD::staticShape[2], BD::staticShape[3]}), (std::array<int64_t, 2>{40, 3}));
    EXPECT_EQ(BDT::staticStride[2], 6);
    using BN = BaseShape2D<E, 6, 40, Layout::MX_B_ND>;
    EXPECT_EQ(BN::staticStride[2], 80);
    // The runtime-shape constructors give the same numbers.
    TileShape2D<E, DYNAMIC, DYNAMIC, Layout::MX_A_ZZ> zs(32, 6);
    BaseShape2D<E, DYNAMIC, DYNAMIC, Layout::MX_A_ZZ> zt(32, 6);
    EXPECT_EQ(zs.shape[1], 2);
    EXPECT_EQ(zs.shape[2], 3);
    EXPECT_EQ(zt.stride[1], 96);
}

TEST(MxScaleLoad, AnOddPairCountFaults) {
    auto t = mx_load_case(Layout::MX_A_ND, 16, 4, 4);
    t.vc = 3;
    std::vector<uint8_t> l1;
    auto st = run_mx_load<Layout::MX_A_ND>(t, l1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TLOAD from MX_A_ND: the tile's valid column count 3 is odd; scales move in pairs "
                              "along k, so it must be even"),
              std::string::npos)
        << st.message;
}

TEST(MxScaleLoad, ABoxedTensorLargerThanTheTileFaults) {
    auto t = mx_load_case(Layout::MX_B_NN, 4, 80, 4);
    t.vr = 4;
    t.vc = 64;
    std::vector<uint8_t> l1;
    auto st = run_mx_load<Layout::MX_B_NN>(t, l1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TLOAD from MX_B_NN: the GlobalTensor's 4x80 scales do not fit the 64x64 tile"),
              std::string::npos)
        << st.message;
}
#endif
}  // namespace
