// PTO-level synchronisation: Event/TSYNC on one core, the Cube<->Vector
// FIFO (TPUSH/TPOP/TFREE, TALLOC) across a mix group, misuse ending in the
// runtime's deadlock report, TPRINT's format and TPREFETCH's record.
#include "sim_test_util.hpp"
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

using namespace pto;

namespace {

constexpr int R = 16, C = 16, H = R / 2;
using VecFull = Tile<TileType::Vec, float, R, C>;
using VecHalf = Tile<TileType::Vec, float, H, C>;
using MatFull = Tile<TileType::Mat, float, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
using GFull = GlobalTensor<float, TileShape2D<float, R, C>, BaseShape2D<float, R, C>>;
using GHalf = GlobalTensor<float, TileShape2D<float, H, C>, BaseShape2D<float, H, C>>;
using BothPipe = TPipe<0, DIR_BOTH, R * C * sizeof(float), 2>;

void ffts_setup() {
    if (!PTOSIM_TARGET_A5) set_ffts_base_addr(ptosim::Device::get().ffts_ctrl_addr());
}

TEST(Event, RecordThenWaitOrdersLoadBeforeAdd) {
    std::vector<float> x(R * C), out(R * C);
    std::iota(x.begin(), x.end(), 1.0f);
    auto st = testutil::run_vec([&] {
        VecFull a, o;
        TASSIGN(a, 0);
        TASSIGN(o, 0x1000);
        GFull gx(x.data()), go(out.data());
        Event<Op::TLOAD, Op::TADD> load_done;
        load_done = TLOAD(a, gx);
        TSYNC(load_done);
        TADD(o, a, a);
        TSYNC<Op::TADD>();
        Event<Op::TADD, Op::TSTORE_VEC> add_done(RecordEvent{});
        add_done.Wait();
        TSTORE(go, o);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < R * C; ++i) EXPECT_EQ(out[i], 2 * x[i]);
}

TEST(Event, WaitWithoutRecordDeadlocks) {
    int line = 0;
    auto st = testutil::run_vec([&] {
        Event<Op::TLOAD, Op::TADD> never;
        line = __LINE__ + 1;
        TSYNC(never);
    });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("wait_flag(PIPE_MTE2, PIPE_V"), std::string::npos) << st.message;
}

// Each sub-block pushes its half up to the Cube core (TILE_UP_DOWN), the
// Cube core pops the whole tile and pushes it back down; the sub-blocks pop
// their halves and store them. Runs `rounds` times through a 2-slot ring.
TEST(TPipeFifo, RoundTripThroughCubeCore) {
    constexpr int rounds = 5;
    std::vector<float> x(rounds * R * C), out(rounds * R * C, -1.0f);
    std::iota(x.begin(), x.end(), 0.5f);
    std::vector<float> fifo(2 * 2 * R * C);
    auto st = testutil::run_mix(
        [&] {
            ffts_setup();
            BothPipe pipe(fifo.data(), 0, 0);
            MatFull m;
            TASSIGN(m, 0);
            for (int r = 0; r < rounds; ++r) {
                TPOP<BothPipe, MatFull, TILE_UP_DOWN>(pipe, m);
                TFREE(pipe);
                TPUSH<BothPipe, MatFull, TILE_UP_DOWN>(pipe, m);
            }
        },
        [&] {
            ffts_setup();
            BothPipe pipe(fifo.data(), 0, 0);
            VecHalf v, w;
            TASSIGN(v, 0);
            TASSIGN(w, 0x1000);
            const int64_t off = get_subblockid() * H * C;
            for (int r = 0; r < rounds; ++r) {
                GHalf gx(x.data() + r * R * C + off), go(out.data() + r * R * C + off);
                TLOAD(v, gx);
                TPUSH<BothPipe, VecHalf, TILE_UP_DOWN>(pipe, v);
                TPOP<BothPipe, VecHalf, TILE_UP_DOWN>(pipe, w);
                TFREE(pipe);
                TSTORE(go, w);
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(out, x);
}

TEST(TPipeFifo, GlobalDataFlowCommitsAllocatedSlot) {
    using DownPipe = TPipe<2, DIR_C2V, R * C * sizeof(float), 2>;
    std::vector<float> x(R * C), out(R * C, -1.0f), fifo(2 * R * C);
    std::iota(x.begin(), x.end(), 3.0f);
    auto st = testutil::run_mix(
        [&] {
            ffts_setup();
            DownPipe pipe(fifo.data(), 0, 0);
            GFull slot;
            TALLOC(pipe, slot);
            std::copy(x.begin(), x.end(), slot.data());
            TPUSH(pipe, slot);
        },
        [&] {
            ffts_setup();
            DownPipe pipe(fifo.data(), 0, 0);
            GHalf slot;
            VecHalf v;
            TASSIGN(v, 0);
            TPOP<DownPipe, GHalf, TILE_UP_DOWN>(pipe, slot);
            TLOAD(v, slot);
            TFREE(pipe, slot);
            GHalf go(out.data() + get_subblockid() * H * C);
            TSTORE(go, v);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(out, x);
}

TEST(TPipeFifo, PopWithoutPushReportsDeadlockAtThePop) {
    using DownPipe = TPipe<4, DIR_C2V, R * C * sizeof(float), 2>;
    std::vector<float> fifo(2 * R * C);
    int line = 0;
    auto st = testutil::run_mix([&] { ffts_setup(); },
                                [&] {
                                    ffts_setup();
                                    DownPipe pipe(fifo.data(), 0, 0);
                                    VecHalf v;
                                    TASSIGN(v, 0);
                                    line = __LINE__ + 1;
                                    TPOP(pipe, v);
                                });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    EXPECT_NE(st.message.find("AIV block 0 sub 0 waits at"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line)), std::string::npos) << st.message;
}

TEST(TPipeFifo, WrongDirectionFaults) {
    using UpPipe = TPipe<6, DIR_V2C, R * C * sizeof(float), 2>;
    std::vector<float> fifo(2 * R * C);
    auto st = testutil::run_mix([&] {},
                                [&] {
                                    ffts_setup();
                                    UpPipe pipe(fifo.data(), 0, 0);
                                    VecHalf v;
                                    TASSIGN(v, 0);
                                    TPOP(pipe, v);
                                });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("this TPipe is DIR_V2C"), std::string::npos) << st.message;
}

TEST(TPrint, PrintsTheValidRegion) {
    std::vector<float> x(R * C);
    std::iota(x.begin(), x.end(), 0.0f);
    int line = 0;
    testing::internal::CaptureStdout();
    auto st = testutil::run_vec([&] {
        Tile<TileType::Vec, float, R, C, BLayout::RowMajor, 2, 3> t;
        TASSIGN(t, 0);
        GFull gx(x.data());
        TLOAD(t, gx);
        line = __LINE__ + 1;
        TPRINT(t);
    });
    const std::string text = testing::internal::GetCapturedStdout();
    ASSERT_TRUE(st.ok()) << st.message;
    const std::string head = "TPRINT " + std::string(__FILE__) + ":" + std::to_string(line) +
                             ": Vec float 16x16 valid 2x3 on AIV block 0\n";
    EXPECT_EQ(text, head + "  [0] 0 1 2\n  [1] 16 17 18\n");
}

TEST(TPrefetch, RecordsAnMte2ReadAndMovesNothing) {
    std::vector<float> x(R * C, 1.0f);
    int reads = 0;
    const int sub = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        if (std::string(r.op) == "TPREFETCH" && r.pipe == ptosim::Pipe::MTE2 && r.n_reads == 1) ++reads;
    });
    auto st = testutil::run_vec([&] {
        VecFull t;
        TASSIGN(t, 0);
        GFull gx(x.data());
        TPREFETCH(t, gx);
    });
    ptosim::unsubscribe(sub);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(reads, 1);
}

}  // namespace
