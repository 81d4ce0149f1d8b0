// A5 mix kernel: the Cube core computes A*B in L0C and moves it straight into
// both Vector sub-blocks' UB with TMOV Acc->Vec (DualModeSplitM), signalling
// with intra-block flags; each sub-block adds D to its half and stores.
#include <pto/inst/elementwise.hpp>
#include "mix_kernel_common.hpp"
#include <gtest/gtest.h>

using namespace pto;
using namespace mixk;

namespace {

constexpr int H = M / 2;
constexpr uint64_t kAccInUb = 0x10000;
constexpr int kReady = 0, kFree = 1;
using VecHalf = Tile<TileType::Vec, float, H, N>;

void aic_part(__gm__ half* a, __gm__ half* b, int rounds) {
    const int64_t blk = get_block_idx();
    for (int r = 0; r < rounds; ++r) {
        if (r > 0) {  // both sub-blocks are done with the previous result
            wait_intra_block(PIPE_FIX, kFree);
            wait_intra_block(PIPE_FIX, kFree + 16);
        }
        auto acc = cube_matmul(a + blk * M * K, b + blk * K * N);
        VecHalf v;
        TASSIGN(v, kAccInUb);
        TMOV<VecHalf, TileAcc<float, M, N>, AccToVecMode::DualModeSplitM>(v, acc);
        pipe_barrier(PIPE_ALL);
        set_intra_block(PIPE_FIX, kReady);
        set_intra_block(PIPE_FIX, kReady + 16);
    }
}

void aiv_part(__gm__ float* d, __gm__ float* out, int rounds) {
    using G = GlobalTensor<float, TileShape2D<float, H, N>, BaseShape2D<float, H, N>>;
    const int64_t off = get_block_idx() * M * N + get_subblockid() * H * N;
    for (int r = 0; r < rounds; ++r) {
        wait_intra_block(PIPE_V, kReady);
        VecHalf acc, dt, o;
        TASSIGN(acc, kAccInUb);
        TASSIGN(dt, 0);
        TASSIGN(o, 0x2000);
        G gd(d + off), go(out + off);
        TLOAD(dt, gd);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(o, acc, dt);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, o);
        pipe_barrier(PIPE_ALL);
        if (r + 1 < rounds) set_intra_block(PIPE_V, kFree);
    }
}

}  // namespace

class MixA5 : public testing::TestWithParam<std::pair<int, int>> {};

TEST_P(MixA5, MatmulMovedIntoBothSubBlocksThenVectorAdd) {
    auto [blocks, rounds] = GetParam();
    Inputs in(blocks);
    auto st = testutil::run_mix([&] { aic_part(in.a.data(), in.b.data(), rounds); },
                                [&] { aiv_part(in.d.data(), in.out.data(), rounds); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(in.out, reference(in.a, in.b, in.d, blocks));
}

INSTANTIATE_TEST_SUITE_P(BlocksRounds, MixA5,
                         testing::Values(std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 3}, std::pair{4, 2}));

TEST(MixA5Deadlock, SubBlockOneNeverSignalsFree) {
    Inputs in(1);
    auto st = testutil::run_mix([&] { aic_part(in.a.data(), in.b.data(), 2); },
                                [&] {
                                    if (get_subblockid() == 0) aiv_part(in.d.data(), in.out.data(), 2);
                                });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    EXPECT_NE(st.message.find("AIC block 0 waits at"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("wait_intra_block(17) needs 1 signal on intra-block flag 17, has 0"), std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("AIV block 0 sub 0 waits at"), std::string::npos) << st.message;
}

// A5 keeps only FFTS mode 0 (all cores of one type); the group modes 1 and 2
// are A2A3's.
TEST(MixA5, FftsGroupModesAreRejectedOnA5) {
    auto st = testutil::run_vec([] { ffts_cross_core_sync(PIPE_MTE3, 1u << 4 | 1u << 8); });
    EXPECT_NE(st.message.find("ffts_cross_core_sync mode 1 is A2A3's (dav-c220) group signal; on A5 use "
                              "set_intra_block/wait_intra_block"),
              std::string::npos)
        << st.message;
}

// Mode 0 is a barrier over every Vector core of the launch (pto-isa's A5
// hardware SYNCALL): each of four blocks writes its slot, passes the
// barrier, then sees every other block's slot written.
TEST(MixA5, FftsModeZeroBarriersAllVectorCores) {
    std::vector<int32_t> slots(4, 0), seen(4, -1);
    auto st = testutil::run_vec(
        [&] {
            const int b = static_cast<int>(get_block_idx());
            slots[b] = b + 1;
            ffts_cross_core_sync(PIPE_MTE3, 3u << 8);  // mode 0, flag 3
            wait_flag_dev(3);
            int32_t sum = 0;
            for (int32_t v : slots) sum += v;
            seen[b] = sum;
        },
        4);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(seen, (std::vector<int32_t>{10, 10, 10, 10}));
}

// The schedule approximates the device's concurrency (docs/semantics.md,
// "Which core runs next"): cores switch at cross-core signals and waits, and the ready
// core with the lowest progress clock (instructions issued, plus time spent
// waiting) goes on. Each `work(n)` below stands for n instructions.
void work(int n) {
    for (int i = 0; i < n; ++i) pipe_barrier(PIPE_ALL);
}

class MixA5Schedule : public testing::TestWithParam<int> {};

// pto-isa's textract_acc2vec case_nz2nd_3 in miniature: both sub-blocks
// initialise their result slot with a short load, then signal intra-block
// flag 1; the Cube core waits for flag 1 once (sub-block 0's signal, as
// sub-block 1's arrives as flag 17), computes, and writes both slots. On the
// device sub-block 1's short load ends long before the Cube core's result, so
// both slots hold the Cube core's values; a schedule that runs a core until it
// blocks ran sub-block 1's initialisation last and left -1 in its slot.
TEST_P(MixA5Schedule, ShortInitialisationEndsBeforeTheCubeResult) {
    const int blocks = GetParam();
    std::vector<int32_t> slot(2 * blocks, 0), seen(2 * blocks, 0);
    auto st = testutil::run_mix(
        [&] {
            const int b = static_cast<int>(get_block_idx());
            wait_intra_block(PIPE_FIX, 1);
            work(32);  // the matmul
            slot[2 * b] = 100 * b + 10;
            slot[2 * b + 1] = 100 * b + 11;
            set_intra_block(PIPE_FIX, 2);
            set_intra_block(PIPE_FIX, 2 + 16);
            wait_intra_block(PIPE_FIX, 1 + 16);
        },
        [&] {
            const int i = static_cast<int>(2 * get_block_idx() + get_subblockid());
            work(4);  // the initialising load
            slot[i] = -1;
            set_intra_block(PIPE_MTE3, 1);
            wait_intra_block(PIPE_V, 2);
            seen[i] = slot[i];
        },
        blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<int32_t> want;
    for (int b = 0; b < blocks; ++b) want.insert(want.end(), {100 * b + 10, 100 * b + 11});
    EXPECT_EQ(seen, want);
}

// pto-isa's tpushpop_vc four-tile cases in miniature: a two-slot FIFO from
// Vector sub-block 0 to the Cube core, whose consumer frees both slots in
// advance while the producer waits for a free only before tile 2. On the
// device the Cube core takes each tile as soon as it is recorded, long
// before the producer has made two more; running the producer until it
// blocks had it overwrite slots 0 and 1 first, and the Cube core read
// tiles 2, 3, 2, 3.
TEST_P(MixA5Schedule, ConsumerTakesEachTileBeforeTheProducerRunsTwoAhead) {
    const int blocks = GetParam();
    constexpr int kTiles = 4, kReady = 3, kFree = 4;
    std::vector<int32_t> fifo(2 * blocks, -1), got(kTiles * blocks, -1);
    auto st = testutil::run_mix(
        [&] {
            const int b = static_cast<int>(get_block_idx());
            set_intra_block(PIPE_FIX, kFree);
            set_intra_block(PIPE_FIX, kFree);
            for (int t = 0; t < kTiles; ++t) {
                wait_intra_block(PIPE_FIX, kReady);
                got[kTiles * b + t] = fifo[2 * b + t % 2];
                work(8);  // the matmul on the tile
            }
        },
        [&] {
            if (get_subblockid() != 0) return;
            const int b = static_cast<int>(get_block_idx());
            for (int t = 0; t < kTiles; ++t) {
                if (t == 2) wait_intra_block(PIPE_V, kFree);
                work(8);  // dequantising the tile
                fifo[2 * b + t % 2] = 10 * b + t;
                set_intra_block(PIPE_MTE3, kReady);
            }
            wait_intra_block(PIPE_V, kFree);  // the advance free never waited for, as a FIFO's teardown takes it
        },
        blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<int32_t> want;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kTiles; ++t) want.push_back(10 * b + t);
    EXPECT_EQ(got, want);
}

// One block, and more blocks than one host thread's share (the parallel.*
// runs use 1 and 3 threads): each group's order is its own.
INSTANTIATE_TEST_SUITE_P(Blocks, MixA5Schedule, testing::Values(1, 4));
