// ptosim::vmath_f32 (TEXP/TLOG/TSQRT on float rows) against the C library's
// double exp, log and sqrt rounded to float, bit for bit, over special
// values, every float exponent and a large random sample.
#include <ptosim/vmath.hpp>
#include <gtest/gtest.h>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

// The x86 paths behind vmath_f32 (src/sim/vmath_avx*.cpp); weak, since a
// build without libsleef or without its AVX-512 functions has not both.
namespace ptosim {
[[gnu::weak]] void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd);
[[gnu::weak]] void vmath_f32_avx512(VMath f, const float* in, float* out, size_t n, bool to_odd);
}  // namespace ptosim

namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float from_bits(uint32_t u) { return std::bit_cast<float>(u); }

// The double rounded to odd in float: truncated toward zero, last bit set,
// when inexact and finite in float.
float odd(double r) {
    const float nearest = static_cast<float>(r);
    if (!std::isfinite(nearest) || static_cast<double>(nearest) == r) return nearest;
    const float toward_zero = std::fabs(static_cast<double>(nearest)) > std::fabs(r) ? std::nextafter(nearest, 0.0f) : nearest;
    return from_bits(bits(toward_zero) | 1u);
}

const char* name(ptosim::VMath fn) {
    return fn == ptosim::VMath::Exp ? "exp" : fn == ptosim::VMath::Log ? "log" : "sqrt";
}

void check(ptosim::VMath fn, const std::vector<float>& in, bool to_odd = false) {
    std::vector<float> out(in.size());
    ptosim::vmath_f32(fn, in.data(), out.data(), in.size(), to_odd);
    size_t bad = 0;
    for (size_t i = 0; i < in.size() && bad < 10; ++i) {
        const double x = in[i];
        const double r = fn == ptosim::VMath::Exp ? std::exp(x) : fn == ptosim::VMath::Log ? std::log(x) : std::sqrt(x);
        const float ref = to_odd ? odd(r) : static_cast<float>(r);
        if (bits(ref) != bits(out[i])) {
            ++bad;
            ADD_FAILURE() << name(fn) << "(" << std::hexfloat << in[i] << ") = " << out[i]
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
TEST(VMath, SqrtMatchesTheCLibraryBitForBit) { check(ptosim::VMath::Sqrt, inputs(false)); }

TEST(VMath, RoundedToOddForSixteenBitResults) {
    check(ptosim::VMath::Exp, inputs(true), true);
    check(ptosim::VMath::Log, inputs(false), true);
    check(ptosim::VMath::Sqrt, inputs(false), true);
}

// vmath_f32 takes the AVX-512 path where the host has it; the AVX2 path
// must give the same bits (all 2^32 floats were compared once, for exp and log,
// when the AVX-512 path was added; this keeps a large sample).
TEST(VMath, Avx512PathMatchesAvx2Path) {
    if (!ptosim::vmath_f32_avx2 || !ptosim::vmath_f32_avx512) GTEST_SKIP() << "this build has not both paths";
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        GTEST_SKIP() << "the host lacks AVX-512F";
    for (auto fn : {ptosim::VMath::Exp, ptosim::VMath::Log, ptosim::VMath::Sqrt})
        for (bool to_odd : {false, true}) {
            const std::vector<float> in = inputs(fn == ptosim::VMath::Exp);
            std::vector<float> a(in.size()), b(in.size());
            ptosim::vmath_f32_avx2(fn, in.data(), a.data(), in.size(), to_odd);
            ptosim::vmath_f32_avx512(fn, in.data(), b.data(), in.size(), to_odd);
            size_t bad = 0;
            for (size_t i = 0; i < in.size() && bad < 10; ++i)
                if (bits(a[i]) != bits(b[i]))
                    ++bad, ADD_FAILURE() << name(fn) << "(" << std::hexfloat << in[i] << "): AVX2 " << a[i]
                                         << ", AVX-512 " << b[i] << (to_odd ? " (to odd)" : "");
        }
}

TEST(VMath, InPlace) {
    std::vector<float> v = {0.f, 1.f, 2.f, -3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
    ptosim::vmath_f32(ptosim::VMath::Exp, v.data(), v.data(), v.size());
    EXPECT_EQ(bits(v[0]), bits(1.f));
    EXPECT_EQ(bits(v[3]), bits(static_cast<float>(std::exp(-3.0))));
    EXPECT_EQ(bits(v[8]), bits(static_cast<float>(std::exp(8.0))));
}

}  // namespace
