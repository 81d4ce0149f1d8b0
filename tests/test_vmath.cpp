// ptosim::vmath_f32 (TEXP/TLOG on float rows) against the C library's double
// exp and log rounded to float, bit for bit, over special values, every
// float exponent and a large random sample.
#include <ptosim/vmath.hpp>
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// The double rounded to odd in float: truncated toward zero, last bit set,
// when inexact and finite in float.
float odd(double r) {
    const float nearest = static_cast<float>(r);
    if (!std::isfinite(nearest) || static_cast<double>(nearest) == r) return nearest;
    const float toward_zero = std::fabs(static_cast<double>(nearest)) > std::fabs(r) ? std::nextafter(nearest, 0.0f) : nearest;
    return from_bits(bits(toward_zero) | 1u);
}

void check(ptosim::VMath fn, const std::vector<float>& in, bool to_odd = false) {
    std::vector<float> out(in.size());
    ptosim::vmath_f32(fn, in.data(), out.data(), in.size(), to_odd);
    size_t bad = 0;
    for (size_t i = 0; i < in.size() && bad < 10; ++i) {
        const double x = in[i];
        const double r = fn == ptosim::VMath::Exp ? std::exp(x) : std::log(x);
        const float ref = to_odd ? odd(r) : static_cast<float>(r);
        if (bits(ref) != bits(out[i])) {
            ++bad;
            ADD_FAILURE() << (fn == ptosim::VMath::Exp ? "exp(" : "log(") << std::hexfloat << in[i] << ") = " << out[i]
                          << ", want " << ref;
        }
    }
}

std::vector<float> inputs(bool exp_range) {
    std::vector<float> v = {0.f, -0.f, INFINITY, -INFINITY, NAN, -NAN, from_bits(0x7f800001u), from_bits(0xffa00000u),
                            1.f, -1.f, from_bits(1), from_bits(0x807fffffu), 88.72283f, 88.72284f, -87.33654f,
                            -103.97208f, -103.97209f, -150.f, 1e-30f, 3.4028235e38f};
    for (int e = -149; e <= 127; ++e)
        for (float m : {1.f, 1.37f, 1.9999999f}) v.push_back(std::ldexp(m, e)), v.push_back(-std::ldexp(m, e));
    std::mt19937 rng(7);
    for (int i = 0; i < 1 << 20; ++i) {
        float f = from_bits(rng());
        if (exp_range && std::isfinite(f)) f = std::fmod(f, 110.f);
        v.push_back(f);
    }
    v.push_back(2.5f);  // a tail shorter than one vector
    return v;
}

TEST(VMath, ExpMatchesTheCLibraryBitForBit) { check(ptosim::VMath::Exp, inputs(true)); }
TEST(VMath, LogMatchesTheCLibraryBitForBit) { check(ptosim::VMath::Log, inputs(false)); }

TEST(VMath, RoundedToOddForSixteenBitResults) {
    check(ptosim::VMath::Exp, inputs(true), true);
    check(ptosim::VMath::Log, inputs(false), true);
}

TEST(VMath, InPlace) {
    std::vector<float> v = {0.f, 1.f, 2.f, -3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
    ptosim::vmath_f32(ptosim::VMath::Exp, v.data(), v.data(), v.size());
    EXPECT_EQ(bits(v[0]), bits(1.f));
    EXPECT_EQ(bits(v[3]), bits(static_cast<float>(std::exp(-3.0))));
    EXPECT_EQ(bits(v[8]), bits(static_cast<float>(std::exp(8.0))));
}

}  // namespace
