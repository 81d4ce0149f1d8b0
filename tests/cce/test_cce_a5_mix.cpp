// A5's fixpipe from the Cube core into its Vector sub-blocks' UB
// (copy_matrix_cc_to_ub): single and dual destination modes, checked to the
// bit through the Vector cores' stores (a5_mix_kernels.cpp, built for
// dav-c310).
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <cstdint>
#include <vector>

extern "C" {
void launch_a5_acc_to_ub(float*, float*, half*, half*, uint32_t, uint32_t, void*);
void launch_a5_l1_to_ub(float*, float*, float*, void*);
void launch_a5_ub_to_l1(float*, float*, void*);
}

namespace {

class CceA5Mix : public cce_test::AclFixture {
protected:
    void SetUp() override {
        AclFixture::SetUp();
        a.resize(16 * 32);
        b.resize(32 * 32);
        for (int i = 0; i < 16; ++i)
            for (int k = 0; k < 32; ++k) a[i * 32 + k] = half(static_cast<float>((i * 5 + k) % 7 - 3));
        for (int k = 0; k < 32; ++k)
            for (int j = 0; j < 32; ++j) b[k * 32 + j] = half(static_cast<float>((k * 3 + j) % 11 - 5) * 0.25f);
    }
    float c(int i, int j) const {
        float s = 0;
        for (int k = 0; k < 32; ++k) s += static_cast<float>(a[i * 32 + k]) * static_cast<float>(b[k * 32 + j]);
        return s;
    }
    // Runs the kernel; out[s] holds what sub-block s stored (or -5 where it
    // stored nothing).
    void run(uint32_t dual, uint32_t sub, std::vector<float> out[2]) {
        float* d0 = device(std::vector<float>(16 * 32, -5.0f));
        float* d1 = device(std::vector<float>(16 * 32, -5.0f));
        launch_a5_acc_to_ub(d0, d1, device(a), device(b), dual, sub, stream);
        out[0] = back(d0, 16 * 32);
        out[1] = back(d1, 16 * 32);
    }
    std::vector<half> a, b;
};

TEST_F(CceA5Mix, SingleModeWritesTheChosenSubBlockOnly) {
    std::vector<float> out[2];
    run(0, 1, out);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            EXPECT_EQ(out[1][i * 32 + j], c(i, j)) << i << "," << j;
            EXPECT_EQ(out[0][i * 32 + j], -5.0f) << i << "," << j;
        }
}

TEST_F(CceA5Mix, DualSplitMSendsTheTopHalfToSubBlockZero) {
    std::vector<float> out[2];
    run(1, 0, out);
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 32; ++j) EXPECT_EQ(out[s][i * 32 + j], c(s * 8 + i, j)) << s << "," << i << "," << j;
}

TEST_F(CceA5Mix, DualSplitNSendsTheLeftHalfToSubBlockZero) {
    std::vector<float> out[2];
    run(2, 0, out);
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) EXPECT_EQ(out[s][i * 16 + j], c(i, s * 16 + j)) << s << "," << i << "," << j;
}

TEST_F(CceA5Mix, L1ToEachSubBlocksUbWithGaps) {
    std::vector<float> src(64);
    for (int i = 0; i < 64; ++i) src[i] = 1.5f * static_cast<float>(i) - 20.0f;
    float* d0 = device(std::vector<float>(32, -5.0f));
    float* d1 = device(std::vector<float>(32, -5.0f));
    launch_a5_l1_to_ub(d0, d1, device(src), stream);
    const std::vector<float> r0 = back(d0, 32), r1 = back(d1, 32);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(r0[i], src[i]) << i;
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(r1[i], src[32 + i]) << i;      // block 4
        EXPECT_EQ(r1[8 + i], src[48 + i]) << i;  // block 6, after one gap block
    }
}

TEST_F(CceA5Mix, UbToL1FromBothSubBlocksAndBack) {
    std::vector<float> src(64);
    for (int i = 0; i < 64; ++i) src[i] = 100.0f - 3.0f * static_cast<float>(i);
    float* d = device(std::vector<float>(64, -5.0f));
    launch_a5_ub_to_l1(d, device(src), stream);
    const std::vector<float> r = back(d, 64);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], src[i]) << i;
}

}  // namespace
