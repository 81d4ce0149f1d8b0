// A2A3 mix kernel: the Cube core computes A*B into a GM workspace, signals its
// two Vector sub-blocks over FFTS (mode 2), and each adds D to half the rows.
#include <pto/npu/a2a3/custom/TSync_Custom.hpp>  // pto-isa's; it includes pto/pto-inst.hpp
#include "mix_kernel_common.hpp"
#include <gtest/gtest.h>

using namespace pto;
using namespace mixk;

namespace {

int g_vec_wait_line = 0;

void aic_part(__gm__ half* a, __gm__ half* b, __gm__ float* ws, uint64_t ffts, int rounds) {
    set_ffts_base_addr(ffts);
    const int64_t blk = get_block_idx();
    for (int r = 0; r < rounds; ++r) {
        if (r > 0) wait_flag_dev(1);  // both sub-blocks consumed the workspace
        auto acc = cube_matmul(a + blk * M * K, b + blk * K * N);
        using GW = GlobalTensor<float, TileShape2D<float, M, N>, BaseShape2D<float, M, N>>;
        GW gw(ws + blk * M * N);
        TSTORE(gw, acc);
        pipe_barrier(PIPE_ALL);
        ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (0 << 8));
    }
}

void aiv_part(__gm__ float* ws, __gm__ float* d, __gm__ float* out, uint64_t ffts, int rounds) {
    set_ffts_base_addr(ffts);
    set_mask_norm();
    set_vector_mask(-1, -1);
    constexpr int H = M / 2;
    using T = Tile<TileType::Vec, float, H, N>;
    using G = GlobalTensor<float, TileShape2D<float, H, N>, BaseShape2D<float, H, N>>;
    const int64_t off = get_block_idx() * M * N + get_subblockid() * H * N;
    for (int r = 0; r < rounds; ++r) {
        g_vec_wait_line = __LINE__ + 1;
        wait_flag_dev(0);
        T w, dt, o;
        TASSIGN(w, 0);
        TASSIGN(dt, 0x2000);
        TASSIGN(o, 0x4000);
        G gw(ws + off), gd(d + off), go(out + off);
        TLOAD(w, gw);
        TLOAD(dt, gd);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(o, w, dt);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, o);
        pipe_barrier(PIPE_ALL);
        if (r + 1 < rounds) ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (1 << 8));
    }
}

uint64_t ffts_addr() { return ptosim::Device::get().ffts_ctrl_addr(); }

}  // namespace

class MixA2A3 : public testing::TestWithParam<std::pair<int, int>> {};

TEST_P(MixA2A3, MatmulThroughWorkspaceThenVectorAdd) {
    auto [blocks, rounds] = GetParam();
    Inputs in(blocks);
    auto st = testutil::run_mix([&] { aic_part(in.a.data(), in.b.data(), in.ws.data(), ffts_addr(), rounds); },
                                [&] { aiv_part(in.ws.data(), in.d.data(), in.out.data(), ffts_addr(), rounds); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(in.out, reference(in.a, in.b, in.d, blocks));
}

INSTANTIATE_TEST_SUITE_P(BlocksRounds, MixA2A3,
                         testing::Values(std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 3}, std::pair{3, 2}));

TEST(MixA2A3Deadlock, MissingCubeSignalIsReportedWithCoreFlagAndLine) {
    Inputs in(1);
    auto st = testutil::run_mix(
        [&] { set_ffts_base_addr(ffts_addr()); },  // forgets to compute and signal
        [&] { aiv_part(in.ws.data(), in.d.data(), in.out.data(), ffts_addr(), 1); });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    const std::string where = std::string(__FILE__) + ":" + std::to_string(g_vec_wait_line);
    // Both sub-blocks wait alike: one line for the two.
    const std::string want = "AIV block 0 sub 0 .. AIV block 0 sub 1 waits at " + where +
                             ": wait_flag_dev(0) needs 1 release of FFTS flag 0, has 0";
    EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("no cross-core signal was sent in this launch"), std::string::npos) << st.message;
}

// pto-isa's custom Cube<->Vector helpers: the Cube core publishes its
// communication slot with TSYNC_CVID, then hands a GM value to both Vector
// sub-blocks with TSync_Custom's record/wait and takes their free()s back.
TEST(MixA2A3Custom, TsyncCvidAndTsyncCustomHandOverThroughGm) {
    constexpr int blocks = 3;
    std::vector<uint8_t> comm(blocks * kCvCommSlotBytes, 0xff);
    std::vector<int32_t> slot_seen(blocks * 3, -1), data(blocks, 0), got(blocks * 2, 0);
    constexpr TSync_Custom<SyncOpType::TSTORE_C2GM, SyncOpType::TLOAD> sync = {3};
    static_assert(_getFFTSMsg(CV_CORE_SYNC, 5) == (1 | (2 << 4) | (5 << 8)));
    auto st = testutil::run_mix(
        [&] {
            set_ffts_base_addr(ffts_addr());
            const int b = static_cast<int>(get_block_idx());
            slot_seen[b * 3] = TSYNC_CVID(b, comm.data());
            data[b] = 100 + b;
            sync.record();
            sync.allocate();
        },
        [&] {
            set_ffts_base_addr(ffts_addr());
            const int b = static_cast<int>(get_block_idx()), sub = static_cast<int>(get_subblockid());
            slot_seen[b * 3 + 1 + sub] = TSYNC_CVID(b, comm.data());
            sync.wait();
            got[b * 2 + sub] = data[b];
            sync.free();
        },
        blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int b = 0; b < blocks; ++b) {
        EXPECT_EQ(slot_seen[b * 3], b % kCvMaxCores) << "block " << b;
        EXPECT_EQ(slot_seen[b * 3 + 1], slot_seen[b * 3]);
        EXPECT_EQ(slot_seen[b * 3 + 2], slot_seen[b * 3]);
        EXPECT_EQ(got[b * 2], 100 + b);
        EXPECT_EQ(got[b * 2 + 1], 100 + b);
    }
}

TEST(MixA2A3Custom, TsyncCvidWithoutABufferFaultsAtTheCall) {
    int line = 0;
    auto st = testutil::run_mix(
        [&] {
            line = __LINE__ + 1;
            TSYNC_CVID(0, nullptr);
        },
        [&] {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("test_mix_a2a3.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("TSYNC_CVID: cv_comm_buf is null; pass a GM buffer of CV_COMM_SLOT_BYTES per block"),
              std::string::npos)
        << st.message;
}
