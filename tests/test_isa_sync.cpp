// PTO-level synchronisation: Event/TSYNC on one core, the Cube<->Vector
// FIFO (TPipe with TPUSH/TPOP/TFREE) across a mix group, misuse ending in the
// runtime's deadlock report, TPRINT's format, TPREFETCH's record, SYNCALL's
// hardware and software barriers and TPREFETCH_ASYNC.
#include <pto/inst/elementwise.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/pto_sync.hpp>
#include <ptosim/check.hpp>
#include "sim_test_util.hpp"
#include <gtest/gtest.h>
#include <cstring>
#include <mutex>
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

// ---------------------------------------------------------------- TPipe FIFOs
//
// Tiles cross between the Cube core and its two Vector sub-blocks through
// pto-isa's TPipe. Every expected value is a closed formula of (round, row,
// column); Acc and Mat tiles are written or read in their fractal layouts
// directly, so the FIFO is the only instruction under test.

constexpr int kRounds = 5, kDepth = 2;

float cell(int round, int r, int c) { return static_cast<float>(round * 1000 + r * 32 + c); }

// An R x C float accumulator is NZ with 16 x 16 fractals: fractal (r/16, c/16)
// at column-block-major order, element (r%16, c%16) row-major inside it.
template <int Rows, int Cols>
uint64_t acc_offset(int r, int c) {
    return static_cast<uint64_t>((c / 16) * Rows * 16 + (r / 16) * 256 + (r % 16) * 16 + c % 16) * sizeof(float);
}
// An NZ float Mat tile: 8-column blocks of Rows x 8 row-major elements.
template <int Rows>
uint64_t nz_offset(int r, int c) {
    return static_cast<uint64_t>((c / 8) * Rows * 8 + r * 8 + c % 8) * sizeof(float);
}

uint8_t* local(ptosim::Space s, uint64_t addr) { return ptosim::core().mem[static_cast<int>(s)] + addr; }

using AccFull = TileAcc<float, R, C, R, C>;
using C2VPipe = TPipe<0, FIFOType::GM_FIFO, kDepth, 1, AccFull, VecFull, TSyncOpType::TSTORE_C2GM_UFOFF,
                      TSyncOpType::TLOAD>;
using V2CPipe = TPipe<2, FIFOType::GM_FIFO, kDepth, 1, VecHalf, MatFull, TSyncOpType::TSTORE_V2GM, TSyncOpType::TLOAD>;

// Orders two pipes of the calling core, as a kernel does between a
// producer and a consumer of the same tile.
void order(pipe_t src, pipe_t dst) {
    set_flag(src, dst, EVENT_ID0);
    wait_flag(src, dst, EVENT_ID0);
}

// Fills the calling Cube core's accumulator at 0 with round t's values,
// as a matmul would have left them for the fixpipe.
void seed_acc(int t) {
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            const float v = cell(t, r, c);
            std::memcpy(local(ptosim::Space::L0C, acc_offset<R, C>(r, c)), &v, sizeof v);
        }
    testutil::announce_seeded(ptosim::Pipe::FIX, ptosim::Space::L0C, 0, R * C * sizeof(float));
}

// The Cube core fills its accumulator with round t's values and pushes it.
void push_acc_rounds(C2VPipe& pipe, int rounds, bool allocate = true) {
    AccFull acc;
    TASSIGN(acc, 0);
    for (int t = 0; t < rounds; ++t) {
        seed_acc(t);
        pipe.prod.setTileId(t, 0);
        pipe.prod.setAllocateStatus(allocate && t >= kDepth);
        pipe.prod.setRecordStatus(true);
        TPUSH(acc, pipe);
    }
}

// Cube -> Vector through GM: both sub-blocks pop the whole tile and store
// their half of it; five rounds through two entries wrap around twice.
TEST(TPipeFifo, CubeToVectorThroughGm) {
    std::vector<float> out(kRounds * R * C, -1.0f), fifo(kDepth * R * C, -1.0f);
    std::vector<std::string> cube_ops;
    const int sub = ptosim::subscribe([&](const ptosim::Core& c, const ptosim::OpRecord& r) {
        if (c.type == ptosim::CoreType::AIC && !testutil::is_seed(r.op)) cube_ops.push_back(r.op);
    });
    auto st = testutil::run_mix([&] {
        C2VPipe pipe(fifo.data());
        push_acc_rounds(pipe, kRounds);
    },
                                [&] {
                                    C2VPipe pipe(fifo.data());
                                    VecFull v;
                                    TASSIGN(v, 0);
                                    VecHalf half;
                                    const int s = static_cast<int>(get_subblockid());
                                    TASSIGN(half, s * H * C * sizeof(float));
                                    for (int t = 0; t < kRounds; ++t) {
                                        pipe.cons.setTileId(t, 0);
                                        pipe.cons.setWaitStatus(true);
                                        pipe.cons.setFreeStatus(t + kDepth < kRounds);
                                        TPOP(v, pipe);
                                        order(PIPE_MTE2, PIPE_MTE3);
                                        GHalf go(out.data() + t * R * C + s * H * C);
                                        TSTORE(go, half);
                                        order(PIPE_MTE3, PIPE_MTE2);
                                    }
                                });
    ptosim::unsubscribe(sub);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int t = 0; t < kRounds; ++t)
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) ASSERT_EQ(out[(t * R + r) * C + c], cell(t, r, c)) << t << " " << r << " " << c;
    // Entry i holds the last round with t % 2 == i: rounds 4 and 3.
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            EXPECT_EQ(fifo[r * C + c], cell(4, r, c));
            EXPECT_EQ(fifo[R * C + r * C + c], cell(3, r, c));
        }
    // Rounds 0-1 only store and signal; rounds 2-4 first wait for a free entry.
    const std::vector<std::string> first = PTOSIM_TARGET_A5
        ? std::vector<std::string>{"TPUSH", "TSTORE", "set_intra_block", "set_intra_block"}
        : std::vector<std::string>{"TPUSH", "TSTORE", "ffts_cross_core_sync"};
    const std::vector<std::string> later = PTOSIM_TARGET_A5
        ? std::vector<std::string>{"wait_intra_block", "wait_intra_block", "TPUSH", "TSTORE", "set_intra_block",
                                   "set_intra_block"}
        : std::vector<std::string>{"wait_flag_dev", "TPUSH", "TSTORE", "ffts_cross_core_sync"};
    std::vector<std::string> expected;
    for (int t = 0; t < kRounds; ++t) expected.insert(expected.end(), (t < kDepth ? first : later).begin(),
                                                      (t < kDepth ? first : later).end());
    EXPECT_EQ(cube_ops, expected);
}

// Vector -> Cube through GM: each sub-block pushes its 8-row half at its
// entry offset, the Cube core pops the 16-row NZ Mat tile.
TEST(TPipeFifo, VectorToCubeThroughGm) {
    constexpr int rounds = 3;
    std::vector<float> x(rounds * R * C), mat(rounds * R * C, -1.0f), fifo(kDepth * R * C, -1.0f);
    for (int t = 0; t < rounds; ++t)
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) x[(t * R + r) * C + c] = cell(t, r, c);
    auto st = testutil::run_mix(
        [&] {
            V2CPipe pipe(fifo.data());
            MatFull m;
            TASSIGN(m, 0x100);
            for (int t = 0; t < rounds; ++t) {
                pipe.cons.setTileId(t, 0);
                pipe.cons.setWaitStatus(true);
                pipe.cons.setFreeStatus(false);
                TPOP(m, pipe);
                for (int r = 0; r < R; ++r)
                    for (int c = 0; c < C; ++c)
                        std::memcpy(&mat[(t * R + r) * C + c], local(ptosim::Space::L1, 0x100 + nz_offset<R>(r, c)),
                                    sizeof(float));
                // A5's Cube frees on PIPE_MTE1 (pto-isa npu/a5/TPush.hpp),
                // which the pop's load on PIPE_MTE2 must be ordered before.
                order(PIPE_MTE2, PIPE_MTE1);
                if (t + kDepth < rounds) pipe.cons.free();
            }
        },
        [&] {
            V2CPipe pipe(fifo.data());
            VecHalf v;
            TASSIGN(v, 0);
            const int s = static_cast<int>(get_subblockid());
            pipe.prod.setEntryOffset(s * H * C * sizeof(float));
            for (int t = 0; t < rounds; ++t) {
                GHalf gx(x.data() + t * R * C + s * H * C);
                TLOAD(v, gx);
                order(PIPE_MTE2, PIPE_MTE3);
                pipe.prod.setTileId(t, 0);
                pipe.prod.setAllocateStatus(t >= kDepth);
                pipe.prod.setRecordStatus(true);
                TPUSH(v, pipe);
                order(PIPE_MTE3, PIPE_MTE2);
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(mat, x);
    for (int i = 0; i < R * C; ++i) {
        EXPECT_EQ(fifo[i], x[2 * R * C + i]);  // round 2 wrapped into entry 0
        EXPECT_EQ(fifo[R * C + i], x[R * C + i]);
    }
}

// The explicit forms TPUSH(prod, tile, fifo) / TPOP(cons, tile, fifo), with
// the producer and consumer objects outside the pipe, as pto-isa's kernels
// also write them; a three-entry ring, seven rounds.
TEST(TPipeFifo, ExplicitProducerConsumerFormsWithDepthThree) {
    using Pipe3 = TPipe<4, FIFOType::GM_FIFO, 3, 1, AccFull, VecFull, TSyncOpType::TSTORE_C2GM_UFON,
                        TSyncOpType::TLOAD>;
    constexpr int rounds = 7;
    std::vector<float> out(rounds * R * C, -1.0f), fifo(3 * R * C, -1.0f);
    auto st = testutil::run_mix(
        [&] {
            Pipe3 pipe(fifo.data());
            Pipe3::Producer prod;
            AccFull acc;
            TASSIGN(acc, 0);
            for (int t = 0; t < rounds; ++t) {
                seed_acc(t);
                prod.setTileId(t, 0);
                prod.setAllocateStatus(t >= 3);
                prod.setRecordStatus(true);
                TPUSH<Pipe3::Producer, AccFull, Pipe3::DataFiFo>(prod, acc, pipe.fifo);
            }
        },
        [&] {
            Pipe3 pipe(fifo.data());
            Pipe3::Consumer cons;
            VecFull v;
            TASSIGN(v, 0);
            for (int t = 0; t < rounds; ++t) {
                cons.setTileId(t, 0);
                cons.setWaitStatus(true);
                cons.setFreeStatus(t + 3 < rounds);
                TPOP(cons, v, pipe.fifo);
                if (get_subblockid() == 1) {
                    order(PIPE_MTE2, PIPE_MTE3);
                    GFull go(out.data() + t * R * C);
                    TSTORE(go, v);
                    order(PIPE_MTE3, PIPE_MTE2);
                }
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int t = 0; t < rounds; ++t)
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) ASSERT_EQ(out[(t * R + r) * C + c], cell(t, r, c));
}

TEST(TPipeFifo, PopWithoutRecordDeadlocksAtThePop) {
    std::vector<float> fifo(kDepth * R * C);
    int line = 0;
    auto st = testutil::run_mix([&] {},
                                [&] {
                                    C2VPipe pipe(fifo.data());
                                    VecFull v;
                                    TASSIGN(v, 0);
                                    pipe.cons.setTileId(0, 0);
                                    pipe.cons.setWaitStatus(true);
                                    line = __LINE__ + 1;
                                    TPOP(v, pipe);
                                });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    const std::string wait = PTOSIM_TARGET_A5 ? "wait_intra_block(0) needs 1 signal on intra-block flag 0, has 0"
                                              : "wait_flag_dev(0) needs 1 release of FFTS flag 0, has 0";
    EXPECT_NE(st.message.find("AIV block 0 sub 0 .. AIV block 0 sub 1 waits at"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line) + ": " + wait), std::string::npos)
        << st.message;
}

// The consumers never free: the third push waits for entry 0 forever.
TEST(TPipeFifo, PushWithoutFreeDeadlocksAtThePush) {
    std::vector<float> fifo(kDepth * R * C);
    int line = 0;
    auto st = testutil::run_mix(
        [&] {
            C2VPipe pipe(fifo.data());
            AccFull acc;
            TASSIGN(acc, 0);
            for (int t = 0; t < 3; ++t) {
                seed_acc(t);
                pipe.prod.setTileId(t, 0);
                pipe.prod.setAllocateStatus(t >= kDepth);
                pipe.prod.setRecordStatus(true);
                line = __LINE__ + 1;
                TPUSH(acc, pipe);
            }
        },
        [&] {
            C2VPipe pipe(fifo.data());
            VecFull v;
            TASSIGN(v, 0);
            for (int t = 0; t < 3; ++t) {
                pipe.cons.setTileId(t, 0);
                pipe.cons.setWaitStatus(t < kDepth);
                TPOP(v, pipe);
            }
        });
    ASSERT_EQ(st.code, ptosim::err::kKernelDeadlock) << st.message;
    const std::string wait = PTOSIM_TARGET_A5 ? "wait_intra_block(1) needs 1 signal on intra-block flag 1, has 0"
                                              : "wait_flag_dev(1) needs 1 release of FFTS flag 1, has 0";
    EXPECT_NE(st.message.find("AIC block 0 waits at"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line) + ": " + wait), std::string::npos)
        << st.message;
}

TEST(TPipeFifo, ProducerOnTheWrongCoreFaults) {
    std::vector<float> fifo(kDepth * R * C);
    int line = 0;
    auto st = testutil::run_mix([&] {},
                                [&] {
                                    C2VPipe pipe(fifo.data());
                                    AccFull acc;
                                    pipe.prod.setTileId(0, 0);
                                    line = __LINE__ + 1;
                                    TPUSH(acc, pipe);
                                });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("test_isa_sync.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("TPUSH: the producer of this TPipe (TSTORE_C2GM_UFOFF) runs on the Cube core, but AIV "
                              "block 0 sub 0 called it"),
              std::string::npos)
        << st.message;
}

TEST(TPipeFifo, ConsumerOnTheWrongCoreFaults) {
    std::vector<float> fifo(kDepth * R * C);
    auto st = testutil::run_mix(
        [&] {
            C2VPipe pipe(fifo.data());
            VecFull v;
            pipe.cons.setTileId(0, 0);
            TPOP(v, pipe);
        },
        [&] {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TPOP: the consumer of this TPipe (TSTORE_C2GM_UFOFF) runs on the Vector cores, but AIC "
                              "block 0 called it"),
              std::string::npos)
        << st.message;
}

TEST(TPipeFifo, PushBeforeSetTileIdFaults) {
    std::vector<float> fifo(kDepth * R * C);
    auto st = testutil::run_mix(
        [&] {
            C2VPipe pipe(fifo.data());
            AccFull acc;
            TASSIGN(acc, 0);
            TPUSH(acc, pipe);
        },
        [&] {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TPUSH: the producer's tile id is -1; call pipe.prod.setTileId(id, subId) first"),
              std::string::npos)
        << st.message;
}

#if !PTOSIM_TARGET_A5
// The FIFO signals use the launch's FFTS context; an address the kernel set
// itself must still be the runtime's.
TEST(TPipeFifo, WrongFftsAddressSetByTheKernelFaults) {
    std::vector<float> fifo(kDepth * R * C);
    auto st = testutil::run_mix(
        [&] {
            set_ffts_base_addr(0x1234);
            C2VPipe pipe(fifo.data());
            push_acc_rounds(pipe, 1);
        },
        [&] {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("set the FFTS base to 0x1234, but the device's FFTS control block is at"),
              std::string::npos)
        << st.message;
}
#endif

#if PTOSIM_TARGET_A5
// A5 VEC_FIFO: the Cube core moves its accumulator straight into the two
// sub-blocks' UB (TMOV Acc->Vec, rows split), entry t % 2 at 0x4000 + 512 t.
TEST(TPipeFifo, CubeToVectorThroughUb) {
    using UbPipe = TPipe<6, FIFOType::VEC_FIFO, kDepth, 1, AccFull, VecHalf, TSyncOpType::TMOV_C2UB,
                         TSyncOpType::NONE>;
    constexpr int rounds = 3;
    constexpr uint64_t ring = 0x4000, entry = H * C * sizeof(float);
    std::vector<float> out(rounds * R * C, -1.0f);
    auto st = testutil::run_mix(
        [&] {
            VecHalf first;
            TASSIGN(first, ring);
            UbPipe pipe(first);
            AccFull acc;
            TASSIGN(acc, 0);
            for (int t = 0; t < rounds; ++t) {
                seed_acc(t);
                pipe.prod.setTileId(t, 0);
                pipe.prod.setAllocateStatus(t >= kDepth);
                pipe.prod.setRecordStatus(true);
                TPUSH(acc, pipe);
            }
        },
        [&] {
            VecHalf first;
            TASSIGN(first, ring);
            UbPipe pipe(&first);
            const int s = static_cast<int>(get_subblockid());
            for (int t = 0; t < rounds; ++t) {
                pipe.cons.setTileId(t, 0);
                pipe.cons.setWaitStatus(true);
                pipe.cons.setFreeStatus(false);
                TPOP(first, pipe);  // waits; the data is already in UB
                VecHalf v;
                TASSIGN(v, ring + (t % kDepth) * entry);
                GHalf go(out.data() + t * R * C + s * H * C);
                TSTORE(go, v);
                // The entry goes back once the store read it: the free
                // signals on PIPE_V, which the store's pipe is ordered before.
                order(PIPE_MTE3, PIPE_V);
                if (t + kDepth < rounds) pipe.cons.free();
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int t = 0; t < rounds; ++t)
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) ASSERT_EQ(out[(t * R + r) * C + c], cell(t, r, c));
}

// A5 MAT_FIFO: each sub-block inserts its 16-row NZ tile into the Cube
// core's 32-row L1 entry (TINSERT Vec->Mat, rows split).
TEST(TPipeFifo, VectorToCubeThroughL1) {
    constexpr int M = 2 * R;
    using Mat32 = Tile<TileType::Mat, float, M, C, BLayout::ColMajor, M, C, SLayout::RowMajor>;
    using VecNz = Tile<TileType::Vec, float, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
    using L1Pipe = TPipe<8, FIFOType::MAT_FIFO, kDepth, 1, VecNz, Mat32, TSyncOpType::TINSERT_V2L1,
                         TSyncOpType::NONE>;
    constexpr int rounds = 3;
    constexpr uint64_t ring = 0x2000, entry = M * C * sizeof(float);
    std::vector<float> x(rounds * M * C), mat(rounds * M * C, -1.0f);
    for (int t = 0; t < rounds; ++t)
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < C; ++c) x[(t * M + r) * C + c] = cell(t, r, c);
    auto st = testutil::run_mix(
        [&] {
            Mat32 first;
            TASSIGN(first, ring);
            L1Pipe pipe(first);
            for (int t = 0; t < rounds; ++t) {
                pipe.cons.setTileId(t, 0);
                pipe.cons.setWaitStatus(true);
                pipe.cons.setFreeStatus(t + kDepth < rounds);
                TPOP(first, pipe);
                const uint64_t at = ring + (t % kDepth) * entry;
                for (int r = 0; r < M; ++r)
                    for (int c = 0; c < C; ++c)
                        std::memcpy(&mat[(t * M + r) * C + c], local(ptosim::Space::L1, at + nz_offset<M>(r, c)),
                                    sizeof(float));
            }
        },
        [&] {
            Mat32 first;
            TASSIGN(first, ring);
            L1Pipe pipe(first);
            VecFull nd;
            VecNz nz;
            TASSIGN(nd, 0);
            TASSIGN(nz, 0x1000);
            const int s = static_cast<int>(get_subblockid());
            for (int t = 0; t < rounds; ++t) {
                GFull gx(x.data() + (t * M + s * R) * C);
                TLOAD(nd, gx);
                order(PIPE_MTE2, PIPE_V);
                TMOV(nz, nd);
                order(PIPE_V, PIPE_MTE2);
                order(PIPE_V, PIPE_MTE3);
                pipe.prod.setTileId(t, 0);
                pipe.prod.setAllocateStatus(t >= kDepth);
                pipe.prod.setRecordStatus(true);
                TPUSH(nz, pipe);
                order(PIPE_MTE3, PIPE_V);
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(mat, x);
}

// A5's TFREE releases on the second free channel (FlagID + 2), which
// allocate<true>() waits on: a one-entry ring handed back by TFREE.
TEST(TPipeFifo, TfreeReleasesTheEntryForAllocateStart) {
    using Pipe1 = TPipe<10, FIFOType::GM_FIFO, 1, 1, AccFull, VecFull, TSyncOpType::TSTORE_C2GM_UFOFF,
                        TSyncOpType::TLOAD>;
    constexpr int rounds = 3;
    std::vector<float> out(rounds * R * C, -1.0f), fifo(R * C);
    auto st = testutil::run_mix(
        [&] {
            Pipe1 pipe(fifo.data());
            AccFull acc;
            TASSIGN(acc, 0);
            for (int t = 0; t < rounds; ++t) {
                seed_acc(t);
                if (t > 0) pipe.prod.allocate<true>();
                pipe.prod.setTileId(t, 0);
                pipe.prod.setRecordStatus(true);
                TPUSH(acc, pipe);
            }
        },
        [&] {
            Pipe1 pipe(fifo.data());
            VecFull v;
            TASSIGN(v, 0);
            for (int t = 0; t < rounds; ++t) {
                pipe.cons.setTileId(t, 0);
                pipe.cons.setWaitStatus(true);
                pipe.cons.setFreeStatus(false);  // TFREE below gives the entry back
                TPOP(v, pipe);
                order(PIPE_MTE2, PIPE_MTE3);
                GHalf go(out.data() + t * R * C + get_subblockid() * H * C);
                VecHalf half;
                TASSIGN(half, get_subblockid() * H * C * sizeof(float));
                TSTORE(go, half);
                order(PIPE_MTE3, PIPE_MTE2);
                pipe.cons.setFreeStatus(t + 1 < rounds);
                TFREE(pipe.cons);
            }
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int t = 0; t < rounds; ++t)
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) ASSERT_EQ(out[(t * R + r) * C + c], cell(t, r, c));
}
#endif

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


// A log that every core of a launch appends to: cores may run on several
// host threads (docs/semantics.md, "Host threads"), so appends are locked;
// what the barrier tests check (every entry of a round before any of the
// next) holds whatever the threads' order.
template <class T>
struct SharedLog {
    std::mutex mu;
    std::vector<T> v;
    void push(T x) {
        std::lock_guard lk(mu);
        v.push_back(std::move(x));
    }
};

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
    SharedLog<int32_t> log;
    auto st = testutil::run_vec([&] {
        for (int round = 0; round < 3; ++round) {
            log.push(round * 10 + static_cast<int>(get_block_idx()));
            SYNCALL<SyncCoreType::AIVOnly>();
        }
    }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(log.v.size(), 12u);
    for (size_t i = 0; i < log.v.size(); ++i) EXPECT_EQ(log.v[i] / 10, static_cast<int>(i / blocks)) << i;
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
    SharedLog<std::string> order;
    auto st = testutil::run_mix(
        [&] {
            order.push("aic");
            SYNCALL<SyncCoreType::Mix>();
            order.push("after");
        },
        [&] {
            order.push("aiv");
            SYNCALL<SyncCoreType::Mix>();
            order.push("after");
        },
        blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(order.v.size(), 12u);
    for (int i = 0; i < 6; ++i) EXPECT_NE(order.v[i], "after") << i;
    for (int i = 6; i < 12; ++i) EXPECT_EQ(order.v[i], "after") << i;
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
    SharedLog<int32_t> log;
    auto st = testutil::run_cube([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(slots);
        Tile<TileType::Mat, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> l1;
        TASSIGN(l1, 0);
        for (int r = 0; r < rounds; ++r) {
            log.push(r * 10 + static_cast<int>(get_block_idx()));
            SYNCALL<SyncAllMode::Soft, SyncCoreType::AICOnly>(gm, l1);
        }
    }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(log.v.size(), static_cast<size_t>(blocks * rounds));
    for (size_t i = 0; i < log.v.size(); ++i) EXPECT_EQ(log.v[i] / 10, static_cast<int>(i / blocks)) << i;
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(slots[b * SYNCALL_SOFT_SLOT_INT32], rounds) << b;
    ptosim::Device::get().release(ws, true);
#endif
}

TEST(SyncAll, SoftBarrierAcrossCubeAndVectorCores) {
    constexpr int blocks = 2, participants = blocks * 3;
    void* ws = ptosim::Device::get().allocate(participants * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t), true);
    std::memset(ws, 0, participants * SYNCALL_SOFT_SLOT_INT32 * sizeof(int32_t));
    auto* slots = static_cast<int32_t*>(ws);
    SharedLog<std::string> order;
    auto body = [&](const char* who) {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(slots);
        Tile<TileType::Vec, int32_t, 1, participants * SYNCALL_SOFT_SLOT_INT32> ub;
        Tile<TileType::Mat, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> l1;
        TASSIGN(ub, 0);
        TASSIGN(l1, 0);
        order.push(who);
        SYNCALL<SyncAllMode::Soft, SyncCoreType::Mix>(gm, ub, l1);
        order.push("after");
    };
    auto st = testutil::run_mix([&] { body("aic"); }, [&] { body("aiv"); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(order.v.size(), 12u);
    for (int i = 0; i < 6; ++i) EXPECT_NE(order.v[i], "after") << i;
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
    // The device runs past the block (docs/semantics.md, "Faults and reports"); strict mode refuses it.
    ptosim::check::set_strict(true);
    auto st = testutil::run_vec([&] {
        GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(static_cast<int32_t*>(ws));
        Tile<TileType::Vec, int32_t, 1, 4 * SYNCALL_SOFT_SLOT_INT32> ub;
        TASSIGN(ub, 0);
        SYNCALL<SyncAllMode::Soft>(gm, ub);
    }, 4);
    ptosim::check::set_strict(false);
    ptosim::Device::get().release(ws, true);
    EXPECT_NE(st.message.find("SYNCALL workspace at "), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("past the 64 bytes requested for the allocation"), std::string::npos) << st.message;
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

// The device prefetches past the block without complaint; strict mode refuses it.
TEST(TPrefetchAsync, SpanPastTheAllocationFaultsInStrictMode) {
    void* src = ptosim::Device::get().allocate(100 * sizeof(float), true);
    uint8_t workspace[64] = {};
    auto body = [&] {
        GlobalTensor<float, pto::Shape<1, 1, 1, 1, 128>, pto::Stride<128, 128, 128, 128, 1>> g(static_cast<float*>(src));
        PrefetchAsyncContext ctx(workspace);
        TPREFETCH_ASYNC(g, ctx);
    };
    EXPECT_TRUE(testutil::run_vec(body).ok());
    ptosim::check::set_strict(true);
    const std::string msg = testutil::fault_of(body);
    ptosim::check::set_strict(false);
    ptosim::Device::get().release(src, true);
    EXPECT_NE(msg.find("runs 112 bytes past the 400 bytes requested"), std::string::npos) << msg;
    EXPECT_NE(msg.find("TPREFETCH_ASYNC source"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sync.cpp:"), std::string::npos) << msg;
}

}  // namespace
