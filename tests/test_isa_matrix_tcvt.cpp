// TCVT to and from fp8 (pto-isa docs/isa/TCVT.md: A5 converts FP32 to
// FP8_E4M3/FP8_E5M2/H8, FP16 to H8, and FP8_E4M3/FP8_E5M2/H8 to FP32) against
// the decoders of test_isa_matrix_util.hpp. Apart from test_isa_matrix.cpp
// because TCVT is an element-wise instruction (pto/inst/tcvt.hpp).
#include <pto/inst/tcvt.hpp>
#include "test_isa_matrix_util.hpp"

namespace {

#if PTOSIM_TARGET_A5

// r = round(x / q) * q on the quantum q of |x|'s binade, by `mode`.
double ref_round_ieee_mode(double x, int mbits, int emin, RoundMode mode) {
    const double a = std::fabs(x);
    int e = a == 0 ? emin : std::max(std::ilogb(a), emin);
    const double q = std::ldexp(1.0, e - mbits);
    return round_int(x / q, mode) * q;
}

template <class D>
std::vector<D> tcvt_from_float(const std::vector<float>& in, RoundMode mode, SaturationMode sat, int vr, int vc) {
    constexpr int R = 16, C = 256;
    std::vector<D> out(R * C);
    for (auto& x : out) x = D::from_bits(0x3c);
    std::vector<float> src(in);
    src.resize(R * C, 0.0f);
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, float, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> s(vr, vc);
        Tile<TileType::Vec, D, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> d(vr, vc);
        TASSIGN(s, 0);
        TASSIGN(d, R * C * 4);
        auto gs = gm_nd(src.data(), R, C, C);
        auto gd = gm_nd(out.data(), R, C, C);
        Tile<TileType::Vec, D, R, C> whole;
        TASSIGN(whole, R * C * 4);
        TLOAD(whole, gd);  // sentinel bytes everywhere, to see what TCVT writes
        TLOAD(s, gs);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCVT(d, s, mode, sat);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gd, whole);
    });
    EXPECT_TRUE(st.ok()) << st.message;
    return out;
}

std::vector<float> fp8_probe_floats() {
    std::vector<float> v = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, 448.0f, 464.0f, 465.0f, 480.0f, -1e30f,
                            57344.0f, 61439.0f, 61440.0f, 32768.0f, 40959.0f, 40960.0f, 1.0625f, -1.0625f,
                            1.1875f, std::ldexp(1.0f, -10), std::ldexp(3.0f, -11), std::ldexp(1.0f, -17),
                            std::ldexp(1.0f, -23), std::ldexp(1.5f, -23), std::ldexp(1.0f, -149), 1e-30f};
    testutil::Rng rng;
    while (v.size() < 16 * 256) {
        const float mag = static_cast<float>(std::ldexp(rng.uniform(1.0, 2.0), static_cast<int>(rng.next() % 44) - 26));
        v.push_back(rng.next() % 2 ? mag : -mag);
    }
    return v;
}

TEST(TcvtFp8, FloatToE4M3AndE5M2EveryModeWithAndWithoutSaturation) {
    const auto in = fp8_probe_floats();
    constexpr int R = 16, C = 256;
    for (RoundMode mode : {RoundMode::CAST_RINT, RoundMode::CAST_ROUND, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                           RoundMode::CAST_TRUNC, RoundMode::CAST_ODD, RoundMode::CAST_NONE})
        for (SaturationMode sat : {SaturationMode::ON, SaturationMode::OFF}) {
            SCOPED_TRACE(std::to_string(static_cast<int>(mode)) + (sat == SaturationMode::ON ? " sat" : " nosat"));
            const bool on = sat == SaturationMode::ON;
            auto o4 = tcvt_from_float<float8_e4m3_t>(in, mode, sat, R, C);
            auto o5 = tcvt_from_float<float8_e5m2_t>(in, mode, sat, R, C);
            for (int i = 0; i < R * C; ++i) {
                const double x = in[i];
                double w4, w5;
                if (std::isnan(x)) {
                    w4 = w5 = NAN;
                } else if (std::isinf(x)) {
                    w4 = on ? std::copysign(448.0, x) : NAN;
                    w5 = x;
                } else {
                    w4 = ref_round_ieee_mode(x, 3, -6, mode);
                    w5 = ref_round_ieee_mode(x, 2, -14, mode);
                    // Rounding toward zero never overflows (IEEE 754 §7.4): it stops at the largest finite value.
                    // Round-to-odd keeps the largest finite value when its significand is odd (E5M2's
                    // 1.11b; E4M3's 1.110b is even, so there the odd neighbour is the overflow).
                    const bool toward_zero = mode == RoundMode::CAST_TRUNC || (mode == RoundMode::CAST_FLOOR && x > 0) ||
                                             (mode == RoundMode::CAST_CEIL && x < 0);
                    const bool odd = mode == RoundMode::CAST_ODD;
                    if (std::fabs(w4) > 448) w4 = on || toward_zero ? std::copysign(448.0, x) : NAN;
                    if (std::fabs(w5) > 57344)
                        w5 = on || toward_zero || odd ? std::copysign(57344.0, x) : std::copysign(INFINITY, x);
                    if (w4 == 0) w4 = std::copysign(0.0, x);
                    if (w5 == 0) w5 = std::copysign(0.0, x);
                }
                ASSERT_TRUE(same_value(ref_ieee8(o4[i].bits, 4, 3, true), w4)) << i << ": " << x;
                ASSERT_TRUE(same_value(ref_ieee8(o5[i].bits, 5, 2, false), w5)) << i << ": " << x;
            }
        }
}

TEST(TcvtFp8, FloatToHiFloat8AlwaysRoundsTiesAwayAndLeavesTheRestAlone) {
    const auto in = fp8_probe_floats();
    for (RoundMode mode : {RoundMode::CAST_RINT, RoundMode::CAST_TRUNC})
        for (SaturationMode sat : {SaturationMode::ON, SaturationMode::OFF}) {
            const bool on = sat == SaturationMode::ON;
            // 13 x 250 valid: elements outside keep the sentinel byte.
            auto out = tcvt_from_float<hifloat8_t>(in, mode, sat, 13, 250);
            for (int r = 0; r < 16; ++r)
                for (int c = 0; c < 256; ++c) {
                    const int i = r * 256 + c;
                    if (r >= 13 || c >= 250) {
                        ASSERT_EQ(out[i].bits, 0x3c) << i;
                        continue;
                    }
                    const double x = in[i];
                    double w = std::isnan(x) ? NAN : std::isinf(x) ? x : ref_round_hif8(x);
                    if (std::isfinite(x) && std::fabs(w) > 32768) w = on ? std::copysign(32768.0, x) : std::copysign(INFINITY, x);
                    ASSERT_TRUE(same_value(ref_hif8(out[i].bits), w)) << i << ": " << x;
                }
        }
}

TEST(TcvtFp8, EveryHalfToHiFloat8) {
    std::vector<half> in(65536);
    std::vector<hifloat8_t> out(65536);
    for (int i = 0; i < 65536; ++i) in[i] = half_from_bits(static_cast<uint16_t>(i));
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, half, 256, 256> s;
        Tile<TileType::Vec, hifloat8_t, 256, 256> d;
        TASSIGN(s, 0);
        TASSIGN(d, 256 * 256 * 2);
        auto gs = gm_nd(in.data(), 256, 256, 256);
        auto gd = gm_nd(out.data(), 256, 256, 256);
        TLOAD(s, gs);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCVT(d, s, RoundMode::CAST_RINT);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gd, d);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < 65536; ++i) {
        const double x = to_double(in[i]);
        double w = std::isnan(x) ? NAN : std::isinf(x) ? x : ref_round_hif8(x);
        if (std::isfinite(x) && std::fabs(w) > 32768) w = std::copysign(32768.0, x);  // TCVT saturates by default
        ASSERT_TRUE(same_value(ref_hif8(out[i].bits), w)) << std::hex << i;
    }
}

template <class T>
class TcvtFromFp8 : public ::testing::Test {};
using Fp8Types = ::testing::Types<float8_e4m3_t, float8_e5m2_t, hifloat8_t>;
TYPED_TEST_SUITE(TcvtFromFp8, Fp8Types);

TYPED_TEST(TcvtFromFp8, EveryCodeWidensExactly) {
    using T = TypeParam;
    std::vector<T> in(256);
    std::vector<float> out(256);
    for (int i = 0; i < 256; ++i) in[i] = T::from_bits(static_cast<uint8_t>(i));
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, T, 8, 32> s;
        Tile<TileType::Vec, float, 8, 32> d;
        TASSIGN(s, 0);
        TASSIGN(d, 0x400);
        auto gs = gm_nd(in.data(), 8, 32, 32);
        auto gd = gm_nd(out.data(), 8, 32, 32);
        TLOAD(s, gs);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCVT(d, s, RoundMode::CAST_NONE);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gd, d);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < 256; ++i) ASSERT_TRUE(same_value(out[i], to_double_fp8(in[i]))) << i;
}

#endif

}  // namespace
