// A5: PTO tile instructions on ptolab's own headers and A5's register-based
// vector intrinsics in one kernel (mixed_a5_kernels.cpp): each side reads
// what the other wrote, and an intrinsic's fault names the kernel's line.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
void launch_a5_add_scale(float*, float*, float*, void*);
void launch_a5_to_half(void*, float*, void*);
void launch_a5_past_ub(float*, void*);
void launch_a5_simt_after_tstore(float*, float*, void*);
void launch_a5_simt_ub_argument(float*, void*);
void launch_a5_hadamard(float*, float*, void*);
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

}  // namespace
