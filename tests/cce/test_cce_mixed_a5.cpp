// A5: PTO tile instructions on ptolab's own headers and A5's register-based
// vector intrinsics in one kernel (mixed_a5_kernels.cpp): each side reads
// what the other wrote, and an intrinsic's fault names the kernel's line.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void launch_a5_add_scale(float*, float*, float*, void*);
void launch_a5_to_half(void*, float*, void*);
void launch_a5_past_ub(float*, void*);
void launch_a5_simt_after_tstore(float*, float*, void*);
void launch_a5_simt_ub_argument(float*, void*);
void launch_a5_hadamard(float*, float*, void*);
void launch_a5_mxfp4(uint8_t*, uint8_t*, float*, void*);
void launch_a5_ub_deref(float*, float*, void*);
}

namespace {

class CceMixedA5 : public cce_test::AclFixture {};

constexpr int kN = 16 * 64;

TEST_F(CceMixedA5, RegisterIntrinsicsComputeBetweenTloadAndTadd) {
    std::vector<float> a(kN), b(kN);
    for (int i = 0; i < kN; ++i) {
        a[i] = static_cast<float>(i % 97) * 0.25f - 7.0f;
        b[i] = static_cast<float>(i % 13) * 1.5f + 0.125f;
    }
    float* out = device(std::vector<float>(kN, -1.0f));
    launch_a5_add_scale(out, device(a), device(b), stream);
    const std::vector<float> r = back(out, kN);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(r[i], (a[i] + b[i]) * 2.0f + a[i]) << i;
}

TEST_F(CceMixedA5, VcvtInAVectorFunctionWritesTheTileTstoreStores) {
    std::vector<float> x(kN);
    for (int i = 0; i < kN; ++i) x[i] = (static_cast<float>(i) - 512.0f) / 3.0f;
    x[5] = 1.0e6f;  // saturates to the largest half (RS_ENABLE)
    uint16_t* out = device(std::vector<uint16_t>(kN, 0));
    launch_a5_to_half(out, device(x), stream);
    const std::vector<uint16_t> r = back(out, kN);
    const uint16_t untouched = half(-3.0f).bits;  // TEXPANDS's value past the 1000 active elements
    for (int i = 0; i < kN; ++i) {
        const uint16_t want = i >= kN - 24 ? untouched : i == 5 ? uint16_t{0x7bff} : half(x[i]).bits;
        ASSERT_EQ(r[i], want) << i << ": " << x[i];
    }
}

TEST_F(CceMixedA5, ARegisterStorePastUbFaultsAtTheKernelsLine) {
    float* out = device(std::vector<float>(kN, 0.0f));
    launch_a5_past_ub(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vsts dst: bytes [0x3ffc0, 0x400c0) lie outside UB (262144 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("mixed_a5_kernels.cpp:92: "), std::string::npos) << m;
}

TEST_F(CceMixedA5, ASimtFunctionOnGmRunsAfterTstore) {
    std::vector<float> a(kN);
    for (int i = 0; i < kN; ++i) a[i] = static_cast<float>(i % 29) - 10.5f;
    float* out = device(std::vector<float>(kN, -1.0f));
    launch_a5_simt_after_tstore(out, device(a), stream);
    const std::vector<float> r = back(out, kN);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(r[i], a[i] * 3.0f + (i < 64 ? static_cast<float>(i) : 0.0f)) << i;
}

TEST_F(CceMixedA5, ASimtFunctionHandedAUbAddressIsRefusedAtItsStart) {
    float* out = device(std::vector<float>(kN, 0.0f));
    launch_a5_simt_ub_argument(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("mixed_a5_kernels.cpp:124: cce::async_invoke: argument 1 holds 0x100, an offset into this "
                     "core's UB (a __ubuf__ pointer)"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("--pto-headers=pto-isa"), std::string::npos) << m;
}

// The public-style Hadamard kernel against the definition: out[r][i] =
// sum_j (-1)^popcount(i & j) x[r][j] / 16. Inputs are multiples of 1/4 below
// 64 in magnitude, so every partial sum is exact in float and the result
// must match bit for bit.
TEST_F(CceMixedA5, APublicStyleHadamardKernelMatchesTheDefinition) {
    constexpr int kRows = 4, kN = 256;
    std::vector<float> x(kRows * kN);
    for (int i = 0; i < kRows * kN; ++i) x[i] = static_cast<float>((i * 37 + 11) % 251 - 125) * 0.25f;
    float* out = device(std::vector<float>(kRows * kN, -1.0f));
    launch_a5_hadamard(out, device(x), stream);
    const std::vector<float> r = back(out, kRows * kN);
    for (int row = 0; row < kRows; ++row)
        for (int i = 0; i < kN; ++i) {
            double want = 0;
            for (int j = 0; j < kN; ++j) want += (__builtin_popcount(i & j) % 2 ? -1.0 : 1.0) * x[row * kN + j];
            ASSERT_EQ(r[row * kN + i], static_cast<float>(want / 16)) << row << ", " << i;
        }
}

// The public-style MXFP4 kernel against a reference of the same steps in
// C++: per block of 32 the E8M0 scale e - 2 (e the biased exponent of the
// largest |x|), each element x * 2^(129 - e) rounded to bfloat16 (nearest
// even), then to E2M1 (nearest, ties to the even code, saturating at 6),
// packed two a byte with the first element in the low nibble.
namespace mxfp4_ref {
float bf16_round(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000u;
    std::memcpy(&v, &b, 4);
    return v;
}
uint8_t e2m1(float v) {
    static const float kValues[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    const uint8_t sign = std::signbit(v) ? 8 : 0;
    const float a = std::fabs(v);
    uint8_t best = 7;
    if (a < 6.0f) {
        for (uint8_t k = 0; k < 7; ++k) {
            if (a > kValues[k + 1]) continue;
            const float below = a - kValues[k], above = kValues[k + 1] - a;
            best = below < above ? k : above < below ? k + 1 : (k % 2 == 0 ? k : k + 1);
            break;
        }
    }
    return sign | best;
}
TEST_F(CceMixedA5, AUbPointerTheKernelDereferencesStopsWithTheLocalMemoryHint) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    float* out = device(std::vector<float>(kN, 0.0f));
    float* a = device(std::vector<float>(kN, 1.0f));
    EXPECT_DEATH(
        {
            launch_a5_ub_deref(out, a, stream);
            (void)aclrtSynchronizeStream(stream);
        },
        "SIGSEGV \\(address 0xc\\) in kernel 'a5_ub_deref'.* The faulting access at .*mixed_a5_kernels.cpp:271 is "
        "to address 0xc, inside the 262144 bytes of this core's UB: if it is a __ubuf__ or __cbuf__ pointer the kernel "
        "dereferenced itself");
}

}  // namespace mxfp4_ref

TEST_F(CceMixedA5, APublicStyleMxfp4QuantisationMatchesAReference) {
    constexpr int kN = 4 * 128, kBlocks = kN / 32;
    std::vector<float> x(kN);
    uint32_t seed = 12345;
    for (int i = 0; i < kN; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const float unit = static_cast<float>(static_cast<int32_t>(seed >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
        x[i] = std::ldexp(unit, (i / 32) % 7 - 3);
    }
    uint8_t* packed = device(std::vector<uint8_t>(kN / 2, 0xee));
    uint8_t* scales = device(std::vector<uint8_t>(32, 0xee));
    launch_a5_mxfp4(packed, scales, device(x), stream);
    const std::vector<uint8_t> q = back(packed, kN / 2);
    const std::vector<uint8_t> sc = back(scales, 32);
    int ties = 0;
    for (int b = 0; b < kBlocks; ++b) {
        uint32_t top = 0;
        for (int i = 0; i < 32; ++i) {
            uint32_t bits;
            std::memcpy(&bits, &x[b * 32 + i], 4);
            top = std::max(top, bits & 0x7fffffffu);
        }
        const int e = static_cast<int>(top >> 23);
        ASSERT_EQ(sc[b], e - 2) << "block " << b;
        for (int i = 0; i < 32; i += 2) {
            const float f0 = mxfp4_ref::bf16_round(std::ldexp(x[b * 32 + i], 129 - e));
            const float f1 = mxfp4_ref::bf16_round(std::ldexp(x[b * 32 + i + 1], 129 - e));
            for (float f : {f0, f1})
                for (float mid : {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f}) ties += std::fabs(f) == mid;
            const uint8_t want = static_cast<uint8_t>(mxfp4_ref::e2m1(f0) | (mxfp4_ref::e2m1(f1) << 4));
            ASSERT_EQ(q[(b * 32 + i) / 2], want) << "block " << b << ", elements " << i << ", " << i + 1 << ": " << f0
                                                 << ", " << f1;
        }
    }
    for (int b = kBlocks; b < 32; ++b) EXPECT_EQ(sc[b], 0) << b;  // the scale tile's bytes past the blocks (UB at launch)
    EXPECT_GT(ties, 0) << "the data should put some elements midway between two E2M1 values";
}

}  // namespace
