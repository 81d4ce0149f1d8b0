// half and bfloat16_t conversions against independent references: the
// compiler's _Float16 for half, exact rational rounding for bfloat16.
#include <ptosim/float16.hpp>
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>

namespace {
uint16_t bits(half h) { return h.bits; }
uint16_t f16_ref_bits(float f) {
    _Float16 h = static_cast<_Float16>(f);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}
float f16_ref_value(uint16_t b) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return static_cast<float>(h);
}
// Round-to-nearest-even to 8 significant bits, by exact arithmetic on double.
uint16_t bf16_ref_bits(float f) {
    if (std::isnan(f)) return 0x7fc0;
    double x = f;
    int e;
    double m = std::frexp(std::fabs(x), &e);  // [0.5, 1)
    double scaled = std::ldexp(m, 8);          // 8 significant bits
    double fl = std::floor(scaled), frac = scaled - fl;
    double r = frac > 0.5 ? fl + 1 : frac < 0.5 ? fl : (std::fmod(fl, 2.0) == 0 ? fl : fl + 1);
    float v = static_cast<float>(std::ldexp(r, e - 8));
    if (x < 0) v = -v;
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return static_cast<uint16_t>(u >> 16);
}
}  // namespace

TEST(Float16, EveryHalfValueConvertsToFloatAndBackExactly) {
    for (uint32_t b = 0; b < 0x10000; ++b) {
        const float ref = f16_ref_value(static_cast<uint16_t>(b));
        const float f = half::from_bits(static_cast<uint16_t>(b));
        if (std::isnan(ref)) {
            ASSERT_TRUE(std::isnan(f)) << std::hex << b;
            ASSERT_TRUE(std::isnan(static_cast<float>(half(f)))) << std::hex << b;
            continue;
        }
        ASSERT_EQ(f, ref) << std::hex << b;
        ASSERT_EQ(bits(half(f)), b) << std::hex << b;
    }
}

TEST(Float16, FloatToHalfRoundsToNearestEvenLikeTheCompiler) {
    // every half midpoint and its float neighbours, plus overflow and underflow edges
    for (uint32_t b = 0; b < 0x7c00; ++b) {
        const double lo = f16_ref_value(static_cast<uint16_t>(b)), hi = f16_ref_value(static_cast<uint16_t>(b + 1));
        const float mid = static_cast<float>((lo + hi) / 2);
        for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f), -mid}) {
            ASSERT_EQ(bits(half(f)), f16_ref_bits(f)) << f;
        }
    }
    for (float f : {65504.0f, 65519.0f, 65520.0f, 1e30f, -1e30f, INFINITY, -INFINITY, 2.9802322e-8f, 2.9802326e-8f,
                    1e-10f, -0.0f})
        EXPECT_EQ(bits(half(f)), f16_ref_bits(f)) << f;
}

TEST(Float16, HalfKeepsNaNQuiet) {
    EXPECT_EQ(bits(half(NAN)) & 0x7e00, 0x7e00);
    EXPECT_TRUE(std::isnan(static_cast<float>(half::from_bits(0x7c01))));
}

TEST(Bfloat16, RoundsToNearestEven) {
    uint64_t s = 12345;
    for (int i = 0; i < 200000; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t u = static_cast<uint32_t>(s >> 32);
        float f;
        std::memcpy(&f, &u, 4);
        if (std::isnan(f) || std::isinf(f) || std::fabs(f) > 3.38e38f || (std::fabs(f) < 1.2e-38f && f != 0)) continue;
        ASSERT_EQ(bfloat16_t(f).bits, bf16_ref_bits(f)) << f;
    }
    EXPECT_EQ(bfloat16_t(1.00390625f).bits, 0x3f80);  // tie between 1 and 1+2^-7 goes to even
    EXPECT_EQ(bfloat16_t(1.01171875f).bits, 0x3f82);  // tie rounds up to even
    EXPECT_EQ(bfloat16_t(INFINITY).bits, 0x7f80);
    EXPECT_EQ(bfloat16_t(3.4e38f).bits, 0x7f80);  // above the largest bf16, rounds to infinity
    EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(NAN))));
    EXPECT_EQ(static_cast<float>(bfloat16_t::from_bits(0x4049)), 3.140625f);
}

#include <ptosim/numerics.hpp>
#include <vector>

// The row conversions (F16C/AVX2 where the host has them) against the
// element-wise ones, for every binary16 pattern at every alignment of a
// 16-wide group and every tail length; signalling NaNs stay signalling.
TEST(Float16Rows, RowConversionsMatchTheElementConversionsForEveryPattern) {
    std::vector<uint8_t> src(2 * 65536 + 64);
    for (uint32_t b = 0; b < 65536; ++b) std::memcpy(&src[2 * b], &b, 2);
    std::vector<float> row(65536 + 32);
    for (int start : {0, 1, 7, 15}) {
        const int n = 65536 - start;
        ptosim::half_row_to_float(&src[2 * start], row.data(), n);
        for (int k = 0; k < n; ++k) {
            const float want = ptosim::half_bits_to_float(static_cast<uint16_t>(start + k));
            ASSERT_EQ(std::memcmp(&row[k], &want, 4), 0) << "pattern 0x" << std::hex << start + k;
        }
    }
    // a NaN-free run of 16 with one signalling NaN at each position
    for (int pos = 0; pos < 16; ++pos) {
        uint16_t h[19];
        for (int k = 0; k < 19; ++k) h[k] = static_cast<uint16_t>(0x3c00 + k);
        h[pos] = 0x7c01;
        float out[19];
        ptosim::half_row_to_float(reinterpret_cast<const uint8_t*>(h), out, 19);
        uint32_t got;
        std::memcpy(&got, &out[pos], 4);
        EXPECT_EQ(got & 0x7fc00000u, 0x7f800000u) << "signalling NaN at " << pos << " became quiet";
        EXPECT_EQ(out[pos == 0 ? 1 : 0], ptosim::half_bits_to_float(h[pos == 0 ? 1 : 0]));
    }
    std::vector<float> f;
    for (uint32_t b = 0; b < 0xffffffffu - 9973; b += 9973) {
        float x;
        std::memcpy(&x, &b, 4);
        f.push_back(x);
    }
    std::vector<uint8_t> out(2 * f.size());
    ptosim::float_to_half_row(f.data(), out.data(), static_cast<int>(f.size()));
    for (size_t k = 0; k < f.size(); ++k) {
        uint16_t got;
        std::memcpy(&got, &out[2 * k], 2);
        ASSERT_EQ(got, ptosim::float_to_half_bits(f[k])) << f[k];
    }
}

// The binary16 row arithmetic (TADD/TSUB/TMUL's fast path) against the
// element-wise formula (widen both, combine in float, round once; a NaN
// operand comes out quieted with its payload), on pairs
// that include zeros, subnormals, infinities and NaNs (quiet and signalling),
// at every tail length.
TEST(Float16Rows, BinaryRowsMatchTheElementFormula) {
    constexpr int n = 65536 + 5;
    std::vector<uint16_t> a(n), b(n);
    uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (int k = 0; k < n; ++k) {
        a[k] = static_cast<uint16_t>(k);  // every pattern once
        b[k] = static_cast<uint16_t>(next() >> 16);
    }
    for (auto op : {ptosim::RowBinary::Add, ptosim::RowBinary::Sub, ptosim::RowBinary::Mul}) {
        std::vector<uint16_t> out(n);
        ptosim::half_binary_row(op, reinterpret_cast<const uint8_t*>(a.data()), reinterpret_cast<const uint8_t*>(b.data()),
                                reinterpret_cast<uint8_t*>(out.data()), n);
        for (int k = 0; k < n; ++k) {
            const float x = ptosim::half_bits_to_float(a[k]), y = ptosim::half_bits_to_float(b[k]);
            const float r = op == ptosim::RowBinary::Add ? x + y : op == ptosim::RowBinary::Sub ? x - y : x * y;
            // Of two NaN operands, which one x86 returns depends on the operand
            // order the compiler picked for a commutative operation: any NaN.
            if (std::isnan(x) && std::isnan(y)) {
                ASSERT_TRUE((out[k] & 0x7c00) == 0x7c00 && (out[k] & 0x3ff) != 0) << std::hex << out[k];
                continue;
            }
            ASSERT_EQ(out[k], ptosim::float_to_half_bits(r))
                << "op " << static_cast<int>(op) << " a 0x" << std::hex << a[k] << " b 0x" << b[k];
        }
    }
}
