// The cost model (docs/cost-model.md): exact simulated times of small
// hand-made record sequences, computed by hand from the figures of
// kFigures below, and one kernel timed end to end.
#include <pto/inst/elementwise.hpp>
#include "sim_test_util.hpp"
#include <ptosim/c_api.h>
#include <ptosim/cost.hpp>
#include <gtest/gtest.h>
#include <cstdlib>
#include <vector>

using namespace pto;
using ptosim::OpRecord;
using ptosim::Pipe;
using ptosim::Space;
using ptosim::SyncOp;
namespace cost = ptosim::cost;

namespace {

// Round figures so every time below is a short sum: 1 GHz (a cycle is a
// nanosecond), 1000 GB/s of GM, 100 B/cycle movers.
cost::Params figures() {
    cost::Params p;
    p.clock_ghz = 1;
    p.gm_gbps = 1000;
    p.mte2 = 100;
    p.mte3 = 100;
    p.vec_plain = 256;
    p.lat_mte2 = 100;
    p.lat_mte3 = 50;
    p.lat_vec = 10;
    p.issue = 1;
    p.flag = 5;
    p.cross_core = 200;
    p.launch_us = 0;
    return p;
}

OpRecord load(uint64_t bytes, uint64_t gm = 0) {
    OpRecord r;
    r.op = "TLOAD";
    r.pipe = Pipe::MTE2;
    r.read(Space::GM, gm, bytes).write(Space::UB, 0, bytes);
    r.bytes = bytes;
    r.dtype = "half";
    return r;
}
OpRecord store(uint64_t bytes) {
    OpRecord r;
    r.op = "TSTORE";
    r.pipe = Pipe::MTE3;
    r.read(Space::UB, 0, bytes).write(Space::GM, 0, bytes);
    r.bytes = bytes;
    r.dtype = "half";
    return r;
}
OpRecord add(uint64_t elements) {
    OpRecord r;
    r.op = "TADD";
    r.pipe = Pipe::V;
    r.elements = elements;
    r.flops = elements;
    r.bytes = elements * 2 * 3;
    r.dtype = "half";
    return r;
}
OpRecord sync(SyncOp op, Pipe src, Pipe dst, int ev, Pipe pipe) {
    OpRecord r;
    r.op = op == SyncOp::SetFlag ? "set_flag" : op == SyncOp::WaitFlag ? "wait_flag" : "sync";
    r.sync = op;
    r.src = src;
    r.dst = dst;
    r.event = ev;
    r.pipe = pipe;
    return r;
}
OpRecord set(Pipe s, Pipe d, int ev = 0) { return sync(SyncOp::SetFlag, s, d, ev, s); }
OpRecord wait(Pipe s, Pipe d, int ev = 0) { return sync(SyncOp::WaitFlag, s, d, ev, d); }

}  // namespace

// TLOAD 12800 B: starts at issue 1, 100 + 12800/100 = 228 -> 229. The flag
// fires 5 later (234); TADD of 3200 halves: 10 + 6400/256 = 35 -> 269; flag
// 274; TSTORE 6400 B: 50 + 64 = 114 -> 388.
TEST(CostModel, LoadAddStoreInSequence) {
    cost::Engine e(figures(), 1, true);
    for (const OpRecord& r : {load(12800), set(Pipe::MTE2, Pipe::V), wait(Pipe::MTE2, Pipe::V), add(3200),
                              set(Pipe::V, Pipe::MTE3), wait(Pipe::V, Pipe::MTE3), store(6400)})
        e.record(0, r);
    EXPECT_DOUBLE_EQ(e.core_end(0), 388);
    const auto& t = e.cores().at(0);
    EXPECT_DOUBLE_EQ(t.busy[static_cast<int>(Pipe::MTE2)], 228);
    EXPECT_DOUBLE_EQ(t.busy[static_cast<int>(Pipe::V)], 35);
    EXPECT_DOUBLE_EQ(t.busy[static_cast<int>(Pipe::MTE3)], 114);
    // The V pipe waits from its issue (cycle 3) to the flag (234); MTE3 from 6 to 274.
    EXPECT_DOUBLE_EQ(t.blocked.at("wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)"), 231);
    EXPECT_DOUBLE_EQ(t.blocked.at("wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0)"), 268);
    EXPECT_EQ(e.moved()[static_cast<int>(Space::GM)][static_cast<int>(Space::UB)], 12800u);
    EXPECT_EQ(e.flows().size(), 2u);
}

// Two halves through one buffer: the second load waits for the first store
// (MTE3 -> MTE2). Load 100 + 64 = 164, add 10 + 3200/256 = 22.5, store 50 +
// 32 = 82. 1 -> 165 | flag 170, add -> 192.5 | flag 197.5, store -> 279.5 |
// flag 284.5, load -> 448.5 | flag 453.5, add -> 476 | flag 481, store -> 563.
TEST(CostModel, SingleBufferSerialises) {
    cost::Engine e(figures(), 1, false);
    for (int i = 0; i < 2; ++i) {
        for (const OpRecord& r : {load(6400), set(Pipe::MTE2, Pipe::V), wait(Pipe::MTE2, Pipe::V), add(1600),
                                  set(Pipe::V, Pipe::MTE3), wait(Pipe::V, Pipe::MTE3), store(3200)})
            e.record(0, r);
        if (i == 0) {
            e.record(0, set(Pipe::MTE3, Pipe::MTE2));
            e.record(0, wait(Pipe::MTE3, Pipe::MTE2));
        }
    }
    EXPECT_DOUBLE_EQ(e.core_end(0), 563);
}

// Two buffers: the second load follows the first at once (165 -> 329), the
// adds run at 170 -> 192.5 and 334 -> 356.5, the stores at 197.5 -> 279.5
// and 361.5 -> 443.5.
TEST(CostModel, DoubleBufferOverlaps) {
    cost::Engine e(figures(), 1, false);
    for (const OpRecord& r :
         {load(6400), set(Pipe::MTE2, Pipe::V, 0), load(6400), set(Pipe::MTE2, Pipe::V, 1), wait(Pipe::MTE2, Pipe::V, 0),
          add(1600), set(Pipe::V, Pipe::MTE3, 0), wait(Pipe::MTE2, Pipe::V, 1), add(1600), set(Pipe::V, Pipe::MTE3, 1),
          wait(Pipe::V, Pipe::MTE3, 0), store(3200), wait(Pipe::V, Pipe::MTE3, 1), store(3200)})
        e.record(0, r);
    EXPECT_DOUBLE_EQ(e.core_end(0), 443.5);
}

// A wait on PIPE_S holds the scalar unit: nothing issues before the flag.
// TLOAD 1 -> 229, flag 234; the next TLOAD issues at 234 + 1 and its MTE2
// is free at 229, so it runs 235 -> 463.
TEST(CostModel, ScalarWaitHoldsIssue) {
    cost::Engine e(figures(), 1, false);
    for (const OpRecord& r : {load(12800), set(Pipe::MTE2, Pipe::S), wait(Pipe::MTE2, Pipe::S), load(12800, 1 << 20)})
        e.record(0, r);
    EXPECT_DOUBLE_EQ(e.core_end(0), 463);
}

// 100 GB/s of GM at 1 GHz is 100 B/cycle for all: two running cores get 50
// each, so 12800 B take 100 + 256 = 356 cycles instead of 228.
TEST(CostModel, TwoCoresShareGmBandwidth) {
    cost::Params p = figures();
    p.gm_gbps = 100;
    cost::Engine one(p, 1, false), two(p, 2, false);
    one.record(0, load(12800));
    two.record(0, load(12800));
    two.record(1, load(12800, 1 << 20));
    EXPECT_DOUBLE_EQ(one.core_end(0), 229);
    EXPECT_DOUBLE_EQ(two.core_end(0), 357);
    EXPECT_DOUBLE_EQ(two.core_end(1), 357);
}

// Core 0 stores (1 -> 115) then signals on MTE3 at 115; core 1 waits on the
// scalar unit from cycle 1 until 115 + 200 and then loads: issue 316, done 544.
TEST(CostModel, CrossCoreSignalAddsItsLatency) {
    cost::Engine e(figures(), 2, false);
    const cost::Channel ch{0, 1, 3, 0};
    e.record(0, store(6400));
    OpRecord sig = sync(SyncOp::CrossSignal, Pipe::MTE3, Pipe::S, 3, Pipe::MTE3);
    e.record(0, sig);
    e.signal(0, ch);
    OpRecord w = sync(SyncOp::CrossWait, Pipe::S, Pipe::S, 3, Pipe::S);
    w.op = "wait_flag_dev";
    e.record(1, w);
    e.acquire(1, ch);
    cost::Params p = figures();
    e.record(1, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 115);
    EXPECT_DOUBLE_EQ(e.core_end(1), 316 + 228);
    EXPECT_DOUBLE_EQ(e.cores().at(1).blocked.at("wait_flag_dev(3)"), 314);
}

// A line read again comes from L2: with 100 B/cycle of HBM and 400 of L2
// for one core and a 400 B/cycle MTE2, 12800 B take 100 + 128 cycles the
// first time and 100 + 32 the second; half new, half old: 100 + 64 + 16.
TEST(CostModel, RereadLinesComeFromL2) {
    cost::Params p = figures();
    p.gm_gbps = 100;
    p.l2_gbps = 400;
    p.mte2 = 400;
    cost::Engine e(p, 1, false);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 1 + 228);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 229 + 132);
    e.record(0, load(12800, 6400));
    EXPECT_DOUBLE_EQ(e.core_end(0), 361 + 180);
}

TEST(CostModel, CubeRateFollowsTheInputType) {
    cost::Params p = figures();
    p.lat_cube = 0;
    cost::Engine e(p, 1, false);
    OpRecord mm;
    mm.op = "TMATMUL";
    mm.pipe = Pipe::M;
    mm.flops = 2ull * 128 * 128 * 128;
    mm.dtype = "float";
    mm.src_dtype = "half";
    EXPECT_DOUBLE_EQ(e.cost(mm), 128.0 * 128 * 128 / 4096);
    mm.src_dtype = "int8_t";
    mm.dtype = "int32_t";
    EXPECT_DOUBLE_EQ(e.cost(mm), 128.0 * 128 * 128 / 8192);
    mm.src_dtype = "float";
    mm.dtype = "float";
    EXPECT_DOUBLE_EQ(e.cost(mm), 128.0 * 128 * 128 / 2048);
}

TEST(CostModel, OpClassesComeFromTheTable) {
    OpRecord r = add(16);
    EXPECT_EQ(cost::classify(r), cost::OpClass::VecPlain);
    r.op = "TEXP";
    EXPECT_EQ(cost::classify(r), cost::OpClass::VecTranscendental);
    r.op = "TROWSUM";
    EXPECT_EQ(cost::classify(r), cost::OpClass::VecReduce);
    r.op = "TMRGSORT";
    EXPECT_EQ(cost::classify(r), cost::OpClass::VecSort);
    EXPECT_EQ(cost::classify(load(16)), cost::OpClass::Mte2);
}

// The add kernel of the cookbook, timed by the launch: set_mask_norm and
// set_vector_mask issue at 1 and 2; TLOAD x (8192 B, 100 + 8192/128 = 164)
// 3 -> 167, TLOAD y 167 -> 331, flag 336, TADD of 4096 halves (10 + 32)
// 336 -> 378, flag 383, TSTORE (50 + 64) 383 -> 497.
TEST(CostModel, KernelLaunchIsTimed) {
    cost::Params p = figures();
    p.mte2 = 128;
    p.mte3 = 128;
    cost::override_params(&p);
    ptosim_enable_timing(1);
    constexpr int R = 64, C = 64;
    using T = Tile<TileType::Vec, half, R, C>;
    using G = GlobalTensor<half, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    std::vector<half> x(R * C, half(1.0f)), y(R * C, half(2.0f)), z(R * C);
    for (int run = 0; run < 2; ++run) {
        auto st = testutil::run_vec([&] {
            set_mask_norm();
            set_vector_mask(-1, -1);
            G gx(x.data()), gy(y.data()), gz(z.data());
            T tx, ty, tz;
            TASSIGN(tx, 0);
            TASSIGN(ty, R * C * 2);
            TASSIGN(tz, 2 * R * C * 2);
            TLOAD(tx, gx);
            TLOAD(ty, gy);
            set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            TADD(tz, tx, ty);
            set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            TSTORE(gz, tz);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        EXPECT_NEAR(ptosim_last_launch_time_us(), 0.497, 1e-9);
    }
    EXPECT_EQ(static_cast<float>(z[5]), 3.0f);
    ptosim_enable_timing(0);
    cost::override_params(nullptr);
}
