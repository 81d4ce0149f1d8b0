// A5's register layer run end to end: kernels written in the register-based
// vector API alone (vreg_kernels.cpp), built by ptocc for dav-c310 over
// include/cce/a5, launched through ACL, results checked to the bit against a
// host reference.
#include "acl_fixture.hpp"

#include <ptosim/float16.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void launch_vreg_add_f32(float*, float*, float*, uint32_t, void*);
void launch_vreg_chain_f16(uint16_t*, uint16_t*, uint16_t*, uint32_t, void*);
void launch_vreg_exp_bf16(uint16_t*, uint16_t*, uint16_t*, void*);
void launch_vreg_int32(int32_t*, int32_t*, int32_t*, void*);
void launch_vreg_patterns(float*, float*, void*);
void launch_vreg_reduce(float*, float*, float*, void*);
void launch_vreg_int64(int64_t*, int64_t*, int64_t*, void*);
void launch_vreg_fma_f32(float*, float*, float*, void*);
void launch_vreg_misaligned(float*, void*);
}

namespace {

class Vreg : public cce_test::AclFixture {};

template <class T>
uint16_t bits(T v) {
    uint16_t b;
    std::memcpy(&b, &v, 2);
    return b;
}
template <class T>
T from_bits(uint16_t b) {
    T v;
    std::memcpy(&v, &b, 2);
    return v;
}

// 300 floats: four full registers and a tail of 44; the store leaves the
// elements past n as they were in UB (zero at launch), and GM past the
// copy untouched.
TEST_F(Vreg, F32AddHandlesTheTailWithPlt) {
    const uint32_t n = 300;
    std::vector<float> a(n + 20), b(n + 20);
    for (uint32_t i = 0; i < a.size(); ++i) {
        a[i] = 0.25f * i - 7.0f;
        b[i] = 1000.0f / (i + 1);
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(n + 20, -3.0f));
    launch_vreg_add_f32(dout, da, db, n, stream);
    const std::vector<float> r = back(dout, n + 20);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] + b[i]) << i;
    for (uint32_t i = n; i < n + 20; ++i) EXPECT_EQ(r[i], -3.0f) << i;
}

TEST_F(Vreg, F16ChainWithPostUpdatedPointers) {
    const uint32_t n = 200;
    std::vector<uint16_t> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = bits(half(0.5f * static_cast<float>(i % 37) - 6.0f));
        b[i] = bits(half(0.125f * static_cast<float>(i % 11) - 0.5f));
    }
    uint16_t* da = device(a);
    uint16_t* db = device(b);
    uint16_t* dout = device(std::vector<uint16_t>(n, 0));
    launch_vreg_chain_f16(dout, da, db, n, stream);
    const std::vector<uint16_t> r = back(dout, n);
    for (uint32_t i = 0; i < n; ++i) {
        // Each step rounds to half once: the products and sums of these
        // inputs are exact in float, so float arithmetic rounded to half is
        // the reference.
        const float x = static_cast<float>(from_bits<half>(a[i])), y = static_cast<float>(from_bits<half>(b[i]));
        float t = static_cast<float>(half(x * y));
        t = std::max(t, x);
        t = static_cast<float>(half(t * 0.5f));
        t = static_cast<float>(half(t + 1.0f));
        EXPECT_EQ(r[i], bits(half(t))) << i;
    }
}

TEST_F(Vreg, Bf16ExpThenSubtract) {
    std::vector<uint16_t> a(128), b(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = bits(bfloat16_t(0.0625f * (i - 64)));
        b[i] = bits(bfloat16_t(0.5f * (i % 5)));
    }
    uint16_t* da = device(a);
    uint16_t* db = device(b);
    uint16_t* dout = device(std::vector<uint16_t>(128, 0));
    launch_vreg_exp_bf16(dout, da, db, stream);
    const std::vector<uint16_t> r = back(dout, 128);
    for (int i = 0; i < 128; ++i) {
        const double x = static_cast<float>(from_bits<bfloat16_t>(a[i]));
        // exp rounded to bfloat16 once (through float rounded to odd), then
        // the difference, exact in double, rounded once.
        float e = static_cast<float>(std::exp(x));
        if (static_cast<double>(e) != std::exp(x)) {
            if (std::fabs(static_cast<double>(e)) > std::fabs(std::exp(x))) e = std::nextafter(e, 0.0f);
            uint32_t u;
            std::memcpy(&u, &e, 4);
            u |= 1;
            std::memcpy(&e, &u, 4);
        }
        const float eb = static_cast<float>(bfloat16_t(e));
        const double d = static_cast<double>(eb) - static_cast<float>(from_bits<bfloat16_t>(b[i]));
        EXPECT_EQ(r[i], bits(bfloat16_t(static_cast<float>(d)))) << i;
    }
}

TEST_F(Vreg, Int32WrapsAndMergingKeepsInactiveElements) {
    std::vector<int32_t> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = (i % 2 ? 1 : -1) * (i * 70001);
        b[i] = 40000 + i * 977;
    }
    int32_t* da = device(a);
    int32_t* db = device(b);
    int32_t* dout = device(std::vector<int32_t>(320, 7));
    launch_vreg_int32(dout, da, db, stream);
    const std::vector<int32_t> r = back(dout, 320);
    for (int i = 0; i < 64; ++i) {
        const uint32_t prod = static_cast<uint32_t>(a[i]) * static_cast<uint32_t>(b[i]) + static_cast<uint32_t>(a[i]);
        EXPECT_EQ(r[i], static_cast<int32_t>(prod)) << i;
        EXPECT_EQ(r[64 + i], std::min(std::max(a[i], b[i]), 1000)) << i;
        EXPECT_EQ(r[128 + i], i % 2 == 0 ? b[i] : a[i]) << i;
        EXPECT_EQ(r[192 + i], a[i] < 0 ? -1 : 0) << i;
        EXPECT_EQ(r[256 + i], 0) << i;
    }
}

TEST_F(Vreg, PredicatePatternsAndZeroing) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i);
    float* da = device(a);
    float* dout = device(std::vector<float>(256, -1.0f));
    launch_vreg_patterns(dout, da, stream);
    const std::vector<float> r = back(dout, 256);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], i < 8 ? i + 100.0f : 0.0f) << "VL8 " << i;
        EXPECT_EQ(r[64 + i], i < 32 ? i + 100.0f : 0.0f) << "H " << i;
        EXPECT_EQ(r[128 + i], i % 3 == 0 ? i + 100.0f : 0.0f) << "M3 " << i;
        EXPECT_EQ(r[192 + i], 0.0f) << "ALLF " << i;
    }
}

TEST_F(Vreg, ReductionsCompareSelectAndPredicateSelect) {
    std::vector<float> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = static_cast<float>((i * 37) % 64) - 20.5f;
        b[i] = static_cast<float>(i) - 30.0f;
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_reduce(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    float sum = 0.0f;
    for (float v : a) sum += v;  // exact: multiples of 0.5 far below 2^24
    EXPECT_EQ(r[0], sum);
    EXPECT_EQ(r[1], *std::max_element(a.begin(), a.end()));
    EXPECT_EQ(r[2], *std::min_element(a.begin(), a.end()));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[64 + i], a[i] < b[i] ? a[i] : b[i]) << i;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[128 + i], (i < 32 ? a[i] < b[i] : a[i] >= b[i]) ? 0.0f : 1.0f) << i;
}

TEST_F(Vreg, Int64FromHalvesWithTheCarryChained) {
    std::vector<int64_t> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        // Low words that carry and borrow, high words of both signs.
        a[i] = static_cast<int64_t>((uint64_t(0xFFFFFFF0u + i) << 0) | (uint64_t(i * 977) << 32)) * (i % 3 ? 1 : -1);
        b[i] = static_cast<int64_t>(uint64_t(0x20u + 3 * i) | (uint64_t(0x7FFFFFFFu - i) << 32));
    }
    int64_t* da = device(a);
    int64_t* db = device(b);
    int64_t* dout = device(std::vector<int64_t>(192, 0));
    launch_vreg_int64(dout, da, db, stream);
    const std::vector<int64_t> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], static_cast<int64_t>(uint64_t(a[i]) + uint64_t(b[i]))) << i;
        EXPECT_EQ(r[64 + i], static_cast<int64_t>(uint64_t(a[i]) - uint64_t(b[i]))) << i;
        EXPECT_EQ(uint64_t(r[128 + i]), uint64_t(uint32_t(a[i])) * uint64_t(uint32_t(b[i]))) << i;
    }
}

TEST_F(Vreg, MultiplyAddsTakeTheDestinationWhereEachDocumentsIt) {
    std::vector<float> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = 0.5f * i - 9.0f;
        b[i] = 0.25f * (i % 13) + 3.0f;
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_fma_f32(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], b[i] + a[i] * 2.0f) << i;  // exact: small multiples of 1/4
        EXPECT_EQ(r[64 + i], a[i] * b[i] + a[i]) << i;
        EXPECT_EQ(r[128 + i], a[i] + a[i] * b[i]) << i;
    }
}

// A5's multiply-adds round once (pto-isa's A5 TAXPY golden), where A2A3's
// vector unit rounds the product first: a product that float cannot hold,
// nearly cancelled by the addend, tells the two apart.
TEST_F(Vreg, MultiplyAddsRoundOnce) {
    const float a = 1.0f + std::ldexp(1.0f, -12) + std::ldexp(1.0f, -23);
    const float b = -(1.0f - std::ldexp(1.0f, -12));
    const float once = static_cast<float>(double(a) * double(b) + double(a));
    const float twice = static_cast<float>(double(a * b) + double(a));
    ASSERT_NE(once, twice);
    float* da = device(std::vector<float>(64, a));
    float* db = device(std::vector<float>(64, b));
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_fma_f32(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[64 + i], once) << i;   // vmadd: a * b + a
        EXPECT_EQ(r[128 + i], once) << i;  // vmula: a + a * b
    }
}

TEST_F(Vreg, AnAlignedLoadFromAMisalignedAddressFaultsAtItsLine) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_vreg_misaligned(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vreg_kernels.cpp:"), std::string::npos) << m;
    EXPECT_NE(m.find("vlds NORM from UB offset 12, which is not 32-byte aligned"), std::string::npos) << m;
}

}  // namespace
