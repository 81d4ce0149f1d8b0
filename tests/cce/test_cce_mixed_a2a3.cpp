// PTO tile instructions on ptolab's own headers and CCE intrinsics in one
// kernel (mixed_kernels.cpp): each side reads what the other wrote, and an
// intrinsic's fault names the kernel's line.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

extern "C" {
void launch_add_scale(float*, float*, float*, void*);
void launch_to_half(void*, float*, void*);
void launch_past_ub(float*, void*);
}

namespace {

class CceMixed : public cce_test::AclFixture {};

constexpr int kN = 16 * 64;

TEST_F(CceMixed, IntrinsicsComputeBetweenTloadAndTadd) {
    std::vector<float> a(kN), b(kN);
    for (int i = 0; i < kN; ++i) {
        a[i] = static_cast<float>(i % 97) * 0.25f - 7.0f;
        b[i] = static_cast<float>(i % 13) * 1.5f + 0.125f;
    }
    float* out = device(std::vector<float>(kN, -1.0f));
    launch_add_scale(out, device(a), device(b), stream);
    const std::vector<float> r = back(out, kN);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(r[i], (a[i] + b[i]) * 2.0f + a[i]) << i;
}

TEST_F(CceMixed, AConversionIntrinsicWritesTheTileTstoreStores) {
    std::vector<float> x(kN);
    for (int i = 0; i < kN; ++i) x[i] = (static_cast<float>(i) - 512.0f) / 3.0f;
    uint16_t* out = device(std::vector<uint16_t>(kN, 0));
    launch_to_half(out, device(x), stream);
    const std::vector<uint16_t> r = back(out, kN);
    for (int i = 0; i < kN; ++i) {
        // Toward zero: the nearest half no farther from zero than x.
        half h(x[i]);
        if (std::fabs(static_cast<float>(h)) > std::fabs(x[i])) h = half::from_bits(static_cast<uint16_t>(h.bits - 1));
        ASSERT_EQ(r[i], h.bits) << i << ": " << x[i];
    }
}

TEST_F(CceMixed, AnIntrinsicPastUbFaultsAtTheKernelsLine) {
    float* out = device(std::vector<float>(kN, 0.0f));
    launch_past_ub(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vector_dup dst"), std::string::npos) << m;
    EXPECT_NE(m.find("mixed_kernels.cpp:69"), std::string::npos) << m;
}

}  // namespace
