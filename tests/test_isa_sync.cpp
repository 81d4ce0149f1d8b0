// PTO-level synchronisation: Event/TSYNC on one core, the Cube<->Vector
// FIFO (TPUSH/TPOP/TFREE, TALLOC) across a mix group, misuse ending in the
// runtime's deadlock report, TPRINT's format, TPREFETCH's record, SYNCALL's
// hardware and software barriers and TPREFETCH_ASYNC.
#include "sim_test_util.hpp"
#include <gtest/gtest.h>
#include <cstring>
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

TEST(Event, InstructionsWaitOnTheirTrailingEvents) {
    std::vector<float> x(R * C), out(R * C);
    std::iota(x.begin(), x.end(), 1.0f);
    std::vector<std::string> ops;
    const int sub = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) { ops.push_back(r.op); });
    auto st = testutil::run_vec([&] {
        VecFull a, o;
        TASSIGN(a, 0);
        TASSIGN(o, 0x1000);
        GFull gx(x.data()), go(out.data());
        Event<Op::TLOAD, Op::TADD> loaded = TLOAD(a, gx);
        Event<Op::TADD, Op::TSTORE_VEC> added = TADD(o, a, a, loaded);
        TSTORE(go, o, added);
    });
    ptosim::unsubscribe(sub);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(ops, (std::vector<std::string>{"TLOAD", "set_flag", "wait_flag", "TADD", "set_flag", "wait_flag",
                                             "TSTORE"}));
    for (int i = 0; i < R * C; ++i) EXPECT_EQ(out[i], 2 * x[i]);
}

TEST(Event, TrailingEventNeverRecordedDeadlocksAtTheInstruction) {
    int line = 0;
    auto st = testutil::run_vec([&] {
        VecFull a, o;
        TASSIGN(a, 0);
        TASSIGN(o, 0x1000);
        Event<Op::TLOAD, Op::TADD> never;
        line = __LINE__ + 1;
        TADD(o, a, a, never);
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
    // The 2x3 load from a 16-wide tensor: A2A3's mover packs the rows
    // (pitch validCol + Stride3 - Shape4 = 3; docs/semantics.md, "TLOAD / TSTORE").
    EXPECT_EQ(text, head + (PTOSIM_TARGET_A5 ? "  [0] 0 1 2\n  [1] 16 17 18\n" : "  [0] 0 1 2\n  [1] 3 4 5\n"));
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


// Each core writes its block index to out[block] before the barrier and,
// after it, reads its right neighbour's value: correct only when every core
// has written before any core reads.
template <class Barrier>
std::vector<int32_t> neighbour_exchange(Barrier barrier, int blocks) {
    std::vector<int32_t> slots(blocks), seen(blocks, -1);
    auto st = testutil::run_vec([&] {
        const int b = static_cast<int>(get_block_idx());
        slots[b] = 100 + b;
        barrier();
        seen[b] = slots[(b + 1) % blocks];
    }, blocks);
    EXPECT_TRUE(st.ok()) << st.message;
    return seen;
}

std::vector<int32_t> expected_neighbours(int blocks) {
    std::vector<int32_t> v(blocks);
    for (int b = 0; b < blocks; ++b) v[b] = 100 + (b + 1) % blocks;
    return v;
}

TEST(SyncAll, HardBarrierOrdersEveryVectorCore) {
    EXPECT_EQ(neighbour_exchange([] { SYNCALL(); }, 8), expected_neighbours(8));
}

TEST(SyncAll, HardBarrierIsReusable) {
    constexpr int blocks = 4;
    std::vector<int32_t> log;
    auto st = testutil::run_vec([&] {
        for (int round = 0; round < 3; ++round) {
            log.push_back(round * 10 + static_cast<int>(get_block_idx()));
            SYNCALL<SyncCoreType::AIVOnly>();
        }
    }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(log.size(), 12u);
    for (size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i] / 10, static_cast<int>(i / blocks)) << i;
}

TEST(SyncAll, SoftBarrierCountsGenerationsInTheWorkspace) {
    constexpr int blocks = 6, rounds = 2;
    void* ws = ptosim::Device::get().allocate(blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto* slots = static_cast<int32_t*>(ws);
    auto seen = neighbour_exchange([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(slots);
        Tile<TileType::Vec, int32_t, 1, blocks * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        for (int r = 0; r < rounds; ++r) SYNCALL<SyncAllMode::Soft, SyncCoreType::AIVOnly>(gm, ub, 0);
    }, blocks);
    EXPECT_EQ(seen, expected_neighbours(blocks));
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(slots[b * SYNCALL_SOFT_SLOT_INT32], rounds) << b;
    ptosim::Device::get().release(ws, true);
}

TEST(SyncAll, HardBarrierAcrossCubeAndVectorCores) {
#if PTOSIM_TARGET_A5
    GTEST_SKIP() << "A2A3 only: A5 has no FFTS context for a hardware Mix barrier (a compile error there)";
#else
    constexpr int blocks = 2;
    std::vector<std::string> order;
    auto st = testutil::run_mix(
        [&] {
            order.push_back("aic");
            SYNCALL<SyncCoreType::Mix>();
            order.push_back("after");
        },
        [&] {
            order.push_back("aiv");
            SYNCALL<SyncCoreType::Mix>();
            order.push_back("after");
        },
        blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(order.size(), 12u);
    for (int i = 0; i < 6; ++i) EXPECT_NE(order[i], "after") << i;
    for (int i = 6; i < 12; ++i) EXPECT_EQ(order[i], "after") << i;
#endif
}

TEST(SyncAll, SoftBarrierAcrossCubeCores) {
#if PTOSIM_TARGET_A5
    GTEST_SKIP() << "A2A3 only: the A5 Cube core has no L1->GM write path, so the AIC-only software barrier is a "
                    "compile error there";
#else
    constexpr int blocks = 3, rounds = 2;
    void* ws = ptosim::Device::get().allocate(blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto* slots = static_cast<int32_t*>(ws);
    std::vector<int32_t> log;
    auto st = testutil::run_cube([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(slots);
        Tile<TileType::Mat, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> l1;
        TASSIGN(l1, 0);
        for (int r = 0; r < rounds; ++r) {
            log.push_back(r * 10 + static_cast<int>(get_block_idx()));
            SYNCALL<SyncAllMode::Soft, SyncCoreType::AICOnly>(gm, l1);
        }
    }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(log.size(), static_cast<size_t>(blocks * rounds));
    for (size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i] / 10, static_cast<int>(i / blocks)) << i;
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(slots[b * SYNCALL_SOFT_SLOT_INT32], rounds) << b;
    ptosim::Device::get().release(ws, true);
#endif
}

TEST(SyncAll, SoftBarrierAcrossCubeAndVectorCores) {
    constexpr int blocks = 2, participants = blocks * 3;
    void* ws = ptosim::Device::get().allocate(participants * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, participants * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto* slots = static_cast<int32_t*>(ws);
    std::vector<std::string> order;
    auto body = [&](const char* who) {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(slots);
        Tile<TileType::Vec, int32_t, 1, participants * SYNCALL_SOFT_SLOT_INT32> ub;
        Tile<TileType::Mat, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> l1;
        TASSIGN(ub, 0);
        TASSIGN(l1, 0);
        order.push_back(who);
        SYNCALL<SyncAllMode::Soft, SyncCoreType::Mix>(gm, ub, l1);
        order.push_back("after");
    };
    auto st = testutil::run_mix([&] { body("aic"); }, [&] { body("aiv"); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(order.size(), 12u);
    for (int i = 0; i < 6; ++i) EXPECT_NE(order[i], "after") << i;
    for (int p = 0; p < participants; ++p) EXPECT_EQ(slots[p * SYNCALL_SOFT_SLOT_INT32], 1) << p;
    ptosim::Device::get().release(ws, true);
}

TEST(SyncAll, ACoreThatSkipsTheBarrierIsADeadlock) {
    int line = 0;
    auto st = testutil::run_vec([&] {
        line = __LINE__ + 1;
        if (get_block_idx() != 2) SYNCALL();
    }, 4);
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("SYNCALL<SyncCoreType::AIVOnly> (hardware mode) waits for all 4 participating cores "
                              "of the launch; 3 have arrived"),
              std::string::npos)
        << st.message;
}

TEST(SyncAll, SoftBarrierNamesTheSlotsStillBehind) {
    constexpr int blocks = 3;
    void* ws = ptosim::Device::get().allocate(blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, blocks * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(static_cast<int32_t*>(ws));
        Tile<TileType::Vec, int32_t, 1, blocks * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        if (get_block_idx() != 1) SYNCALL<SyncAllMode::Soft>(gm, ub);
    }, blocks);
    ptosim::Device::get().release(ws, true);
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    EXPECT_NE(st.message.find("SYNCALL (software mode) waits until all 3 GM slots reach 1; 2 have (slots still behind: 1;"),
              std::string::npos)
        << st.message;
}

TEST(SyncAll, SoftBarrierRejectsATooSmallUbWorkspace) {
    std::vector<int32_t> ws(4 * SYNCALL_SOFT_SLOT_INT32);
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(ws.data());
        Tile<TileType::Vec, int32_t, 1, 2 * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        SYNCALL<SyncAllMode::Soft>(gm, ub);
    }, 4);
    EXPECT_NE(st.message.find("SYNCALL (software mode): the UB workspace tile holds 64 bytes but 4 participating cores "
                              "need 128"),
              std::string::npos)
        << st.message;
}

TEST(SyncAll, SoftBarrierRejectsAParticipantBeyondUsedCores) {
    std::vector<int32_t> ws(4 * SYNCALL_SOFT_SLOT_INT32);
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(ws.data());
        Tile<TileType::Vec, int32_t, 1, 4 * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        SYNCALL<SyncAllMode::Soft>(gm, ub, 2);
    }, 3);
    EXPECT_NE(st.message.find("SYNCALL (software mode): AIV block 2 is participant 2 but usedCores is 2; every "
                              "participating core must be counted in usedCores"),
              std::string::npos)
        << st.message;
}

TEST(SyncAll, SoftBarrierRejectsNegativeUsedCores) {
    std::vector<int32_t> ws(SYNCALL_SOFT_SLOT_INT32);
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(ws.data());
        Tile<TileType::Vec, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        SYNCALL<SyncAllMode::Soft>(gm, ub, -1);
    });
    EXPECT_NE(st.message.find("SYNCALL (software mode): usedCores is -1; pass the number of participating cores, "
                              "or 0 for all of them"),
              std::string::npos)
        << st.message;
}

TEST(SyncAll, SoftWorkspacePastItsAllocationFaults) {
    void* ws = ptosim::Device::get().allocate(2 * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, 2 * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(static_cast<int32_t*>(ws));
        Tile<TileType::Vec, int32_t, 1, 4 * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        SYNCALL<SyncAllMode::Soft>(gm, ub);
    }, 4);
    ptosim::Device::get().release(ws, true);
    EXPECT_NE(st.message.find("SYNCALL workspace: GM bytes"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("run past the end of the 64-byte allocation"), std::string::npos) << st.message;
}

TEST(SyncAll, MixBarrierNeedsAMixLaunch) {
#if PTOSIM_TARGET_A5
    GTEST_SKIP() << "A2A3 only: SYNCALL<SyncCoreType::Mix>() is a compile error on A5";
#else
    auto st = testutil::run_vec([] { SYNCALL<SyncCoreType::Mix>(); });
    EXPECT_NE(st.message.find("SYNCALL<SyncCoreType::Mix> synchronises the Cube and Vector cores of a mix launch, but "
                              "this launch runs only AIV cores"),
              std::string::npos)
        << st.message;
#endif
}

TEST(SyncAll, OtherCoreTypePassesThrough) {
    // AIV-only SYNCALL compiles to nothing on a Cube core.
    auto st = testutil::run_cube([] { SYNCALL(); }, 3);
    EXPECT_TRUE(st.ok()) << st.message;
}

TEST(TPrefetchAsync, RecordsTheSpanAndReturnsAValidEvent) {
    constexpr int N = 256;
    void* src = ptosim::Device::get().allocate(N * sizeof(half), true);
    uint8_t workspace[64] = {};
    uint64_t bytes = 0;
    const int sub = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        if (std::string(r.op) == "TPREFETCH_ASYNC" && r.n_reads == 1 && r.reads[0].space == ptosim::Space::GM)
            bytes = r.reads[0].bytes;
    });
    bool valid = false, done = false;
    auto st = testutil::run_vec([&] {
        GlobalTensor<half, pto::Shape<1, 1, 1, 1, N>, pto::Stride<N, N, N, N, 1>> g(static_cast<half*>(src));
        PrefetchAsyncContext ctx(workspace);
        auto evt = TPREFETCH_ASYNC(g, ctx);
        valid = evt.valid();
        done = evt.Wait(ctx.session);
    });
    ptosim::unsubscribe(sub);
    ptosim::Device::get().release(src, true);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_TRUE(valid);
    EXPECT_TRUE(done);
    EXPECT_EQ(bytes, N * sizeof(half));
}

TEST(TPrefetchAsync, StridedSourceGivesTheInvalidEvent) {
    std::vector<float> x(64);
    uint8_t workspace[64] = {};
    bool valid = true;
    auto st = testutil::run_vec([&] {
        GlobalTensor<float, pto::Shape<1, 1, 1, 4, 8>, pto::Stride<64, 64, 64, 16, 1>> g(x.data());
        PrefetchAsyncContext ctx(workspace);
        valid = TPREFETCH_ASYNC(g, ctx).valid();
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_FALSE(valid);
}

TEST(TPrefetchAsync, ContextWithoutWorkspaceFaults) {
    std::vector<float> x(64);
    const std::string msg = testutil::fault_of([&] {
        GlobalTensor<float, pto::Shape<1, 1, 1, 1, 64>, pto::Stride<64, 64, 64, 64, 1>> g(x.data());
        PrefetchAsyncContext ctx;
        TPREFETCH_ASYNC(g, ctx);
    });
    EXPECT_NE(msg.find("TPREFETCH_ASYNC: the PrefetchAsyncContext has no SDMA workspace (nullptr); construct it with "
                       "the GM workspace the host prepared for the kernel"),
              std::string::npos)
        << msg;
}

TEST(TPrefetchAsync, SpanPastTheAllocationFaults) {
    void* src = ptosim::Device::get().allocate(100 * sizeof(float), true);
    uint8_t workspace[64] = {};
    const std::string msg = testutil::fault_of([&] {
        GlobalTensor<float, pto::Shape<1, 1, 1, 1, 128>, pto::Stride<128, 128, 128, 128, 1>> g(static_cast<float*>(src));
        PrefetchAsyncContext ctx(workspace);
        TPREFETCH_ASYNC(g, ctx);
    });
    ptosim::Device::get().release(src, true);
    EXPECT_NE(msg.find("TPREFETCH_ASYNC source"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sync.cpp:"), std::string::npos) << msg;
}

}  // namespace
