// The cost model (docs/cost-model.md): exact simulated times of small
// hand-made record sequences, computed by hand from the figures of
// kFigures below, and one kernel timed end to end.
#include <pto/inst/elementwise.hpp>
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/reduce.hpp>
#include "sim_test_util.hpp"
#include <ptosim/c_api.h>
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>
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

// HBM at 100 B/cycle and L2 at 400 for one core, a 400 B/cycle MTE2: the
// figures of the L2 tests below.
cost::Params l2_figures() {
    cost::Params p = figures();
    p.gm_gbps = 100;
    p.l2_gbps = 400;
    p.mte2 = 400;
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
    cost::Params p = l2_figures();
    cost::Engine e(p, 1, false);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 1 + 228);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 229 + 132);
    e.record(0, load(12800, 6400));
    EXPECT_DOUBLE_EQ(e.core_end(0), 361 + 180);
}

// The fixed costs (docs/cost-model.md, "Fixed costs"): a block's first
// instruction issues after the block start-up (1000 cycles), and a read that
// first-touches a line pays the HBM latency (70) once on top of the DMA
// start-up; a re-read of the same lines (an L2 hit) does not: 1000 + 1 + 100
// + 70 + 128 = 1299, then 1299 + 100 + 32 = 1431. A block placed at 5000
// starts its work at 6000: 6001 + 100 + 70 + 64 = 6235.
TEST(CostModel, BlockStartAndHbmLatencyAreFixedCosts) {
    cost::Params p = l2_figures();
    p.block_start = 1000;
    p.lat_hbm = 70;
    cost::Engine e(p, 1, false);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 1299);
    e.record(0, load(12800));
    EXPECT_DOUBLE_EQ(e.core_end(0), 1431);
    e.start_core(1, 5000, "block 1");
    e.record(1, load(6400, 1 << 20));
    EXPECT_DOUBLE_EQ(e.core_end(1), 6235);
    EXPECT_DOUBLE_EQ(e.cores().at(1).start, 5000);
}

// A line the launch wrote is in L2: reading it back is a hit with no HBM
// latency. Store 6400 B at 0 on MTE3 (1 + 50 + 64 = 115); load them on MTE2
// (no flag between, so from its issue at 2: 2 + 100 + 16 = 118 at the L2
// share of 400 B/cycle); then load 6400 fresh bytes (118 + 100 + 70 + 64 =
// 352). The written and the fresh bytes count as HBM traffic, the re-read not.
TEST(CostModel, WrittenLinesAreL2Hits) {
    cost::Params p = l2_figures();
    p.lat_hbm = 70;
    cost::Engine e(p, 1, false);
    e.record(0, store(6400));
    EXPECT_DOUBLE_EQ(e.core_end(0), 115);
    e.record(0, load(6400));
    EXPECT_DOUBLE_EQ(e.core_end(0), 118);
    e.record(0, load(6400, 1 << 20));
    EXPECT_DOUBLE_EQ(e.core_end(0), 352);
    EXPECT_EQ(e.hbm_bytes(), 6400u + 6400u);
}

// A transfer that reads GM and writes nowhere (the SDMA engine's prefetch,
// pto-isa's TPREFETCH_ASYNC) leaves its lines in L2: the load after it is a
// hit, as after a store (WrittenLinesAreL2Hits: 2 + 100 + 16 = 118), and
// its bytes count as HBM traffic once.
TEST(CostModel, PrefetchedLinesAreL2Hits) {
    cost::Params p = l2_figures();
    p.lat_hbm = 70;
    cost::Engine e(p, 1, false);
    OpRecord prefetch;
    prefetch.op = "SDMA prefetch";
    prefetch.pipe = Pipe::MTE3;
    prefetch.read(Space::GM, 0, 6400);
    prefetch.bytes = 6400;
    e.record(0, prefetch);
    e.record(0, load(6400));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 118);
    EXPECT_EQ(e.hbm_bytes(), 6400u);
}

// The write-back L2 (docs/cost-model.md, "The model"): 128 B/cycle of HBM
// and 512 of L2 for one core, 512 B/cycle movers, 512-byte lines and a
// capacity of 32 lines (16 KiB). 8192 B (16 lines) take 16 cycles at the
// L2 share and 64 at the HBM share.
cost::Params wb_figures() {
    cost::Params p = figures();
    p.gm_gbps = 128;
    p.l2_gbps = 512;
    p.mte2 = 512;
    p.mte3 = 512;
    p.l2_line = 512;
    p.l2_bytes = 16384;
    return p;
}
OpRecord store_at(uint64_t bytes, uint64_t gm) {
    OpRecord r = store(bytes);
    r.writes[0].offset = gm;
    return r;
}

// A write then a read within the capacity: the store goes at the L2 share
// (1 + 50 + 16 = 67, where without the write-back L2 it takes 1 + 50 + 64 =
// 115) and the load of the same bytes is a hit (issue 2: 2 + 100 + 16 =
// 118). Nothing is written back during the launch; the 16 dirty lines are
// the launch's HBM traffic (written back after it).
TEST(CostModel, WriteThenReadWithinTheL2IsL2Speed) {
    cost::Engine e(wb_figures(), 1, false);
    e.record(0, store_at(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE3), 67);
    e.record(0, load(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 118);
    EXPECT_EQ(e.written_back_bytes(), 0u);
    EXPECT_EQ(e.hbm_bytes(), 8192u);

    cost::Params old = wb_figures();
    old.l2_bytes = 0;
    cost::Engine o(old, 1, false);
    o.record(0, store_at(8192, 0));
    EXPECT_DOUBLE_EQ(o.pipe_free(0, Pipe::MTE3), 115);
    o.record(0, load(8192, 0));
    EXPECT_DOUBLE_EQ(o.pipe_free(0, Pipe::MTE2), 118);
}

// A working set past the capacity pays HBM: 16 KiB from 0 (1 + 100 + 128 =
// 229), 16 KiB from 16 KiB (229 + 228 = 457, evicting the first, clean, so
// no write-back), then the first 16 KiB again: evicted, so HBM again (457 +
// 228 = 685), where without a capacity it would be an L2 hit (457 + 100 + 32).
TEST(CostModel, AWorkingSetPastTheL2PaysHbm) {
    cost::Engine e(wb_figures(), 1, false);
    e.record(0, load(16384, 0));
    EXPECT_DOUBLE_EQ(e.core_end(0), 229);
    e.record(0, load(16384, 16384));
    EXPECT_DOUBLE_EQ(e.core_end(0), 457);
    e.record(0, load(16384, 0));
    EXPECT_DOUBLE_EQ(e.core_end(0), 685);
    EXPECT_EQ(e.hbm_bytes(), 3u * 16384);
    EXPECT_EQ(e.written_back_bytes(), 0u);

    cost::Params unbounded = wb_figures();
    unbounded.l2_bytes = 1 << 20;
    cost::Engine u(unbounded, 1, false);
    for (uint64_t at : {0, 16384, 0}) u.record(0, load(16384, at));
    EXPECT_DOUBLE_EQ(u.core_end(0), 457 + 132);
}

// Eviction takes the least recently used lines first, and a dirty victim
// costs its write-back at the HBM share to the instruction that evicted it.
// A = 16 lines stored at 0 (dirty), then B = 16 lines loaded (clean): L2
// is full. Loading C (16 lines, starting at 166)
// evicts A, the older: 100 + 64 + 64 of write-back = 228 -> 394; B is still
// an L2 hit (394 + 116 = 510).
TEST(CostModel, TheLeastRecentlyUsedLinesLeaveTheL2AndDirtyOnesAreWrittenBack) {
    cost::Engine e(wb_figures(), 1, false);
    e.record(0, store_at(8192, 0));
    e.record(0, load(8192, 1 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 166);
    e.record(0, load(8192, 2 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 394);
    EXPECT_EQ(e.written_back_bytes(), 8192u);
    e.record(0, load(8192, 1 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 510);
    EXPECT_EQ(e.hbm_bytes(), 3u * 8192);
}

// The same with A read again (a hit, 166 -> 282) before C: now B is the
// least recently used and leaves, clean (282 + 164 = 446); A stays (446 +
// 116 = 562) and B is read from HBM again (562 + 164 = 726). A is still
// dirty at the end: its 8192 B count as HBM traffic, written back after.
TEST(CostModel, AReadKeepsItsLinesInTheL2) {
    cost::Engine e(wb_figures(), 1, false);
    e.record(0, store_at(8192, 0));
    e.record(0, load(8192, 1 << 20));
    e.record(0, load(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 282);
    e.record(0, load(8192, 2 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 446);
    EXPECT_EQ(e.written_back_bytes(), 0u);
    e.record(0, load(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 562);
    e.record(0, load(8192, 1 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 726);
    EXPECT_EQ(e.hbm_bytes(), 8192u + 8192u + 8192u + 8192u);
}

// Recency is the order the engine receives the records, not simulated
// time (docs/cost-model.md, "The write-back L2"): core 1, placed at 10000,
// stores A (dirty) before core 0 loads B and C. C evicts A, received
// first though used later in simulated time: its write-back takes 64
// cycles (165 + 100 + 64 + 64 = 393). A read back is an HBM read again and
// evicts B, clean (393 + 164 = 557).
TEST(CostModel, RecencyIsTheOrderOfTheRecords) {
    cost::Engine e(wb_figures(), 1, false);
    e.start_core(1, 10000, "block 1");
    e.record(1, store_at(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(1, Pipe::MTE3), 10067);
    e.record(0, load(8192, 1 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 165);
    e.record(0, load(8192, 2 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 393);
    EXPECT_EQ(e.written_back_bytes(), 8192u);
    e.record(0, load(8192, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 557);
    EXPECT_EQ(e.written_back_bytes(), 8192u);
}

// Lines a prefetch put in L2 before the launch are older than any use in
// it: they leave first, in the order of their addresses. 32 prefetched lines fill the L2; B's 16 evict the
// first 16 of them (clean: 1 + 164 = 165), C's the other 16 (165 + 164 =
// 329); the prefetched range is then read from HBM (329 + 100 + 128 = 557).
TEST(CostModel, PrefetchedLinesLeaveTheL2First) {
    cost::Engine e(wb_figures(), 1, false);
    e.present_in_l2(0, 16384);
    e.record(0, load(8192, 1 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 165);
    e.record(0, load(8192, 2 << 20));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 329);
    e.record(0, load(16384, 0));
    EXPECT_DOUBLE_EQ(e.pipe_free(0, Pipe::MTE2), 557);
    EXPECT_EQ(e.written_back_bytes(), 0u);
}

// The profiles carry the block start-up and no separate HBM latency
// (docs/soc-profiles.md, "Timing", notes 8 and 9).
TEST(CostModel, ProfilesCarryTheFixedCosts) {
    for (const char* soc : {"Ascend910B2", "Ascend910_93", "Ascend950DT"}) {
        const cost::Params p = cost::params_for(*ptosim::find_soc(soc));
        EXPECT_DOUBLE_EQ(p.block_start, 2000) << soc;
        EXPECT_DOUBLE_EQ(p.lat_hbm, 0) << soc;
        EXPECT_DOUBLE_EQ(p.l2_bytes, 192.0 * 1024 * 1024) << soc;
    }
    // The 910B4's platform ini gives half the L2 of the other 910B parts
    // (docs/soc-profiles.md, "Timing", note 18).
    EXPECT_DOUBLE_EQ(cost::params_for(*ptosim::find_soc("Ascend910B4")).l2_bytes, 96.0 * 1024 * 1024);
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

// ------------------------------------------------------------ calibration
// The calibrated vector costs (docs/cost-model.md, "Per-instruction
// calibration"): a one-instruction kernel under the A2A3 profile's figures,
// with a 1 GHz clock, no issue slot, launch overhead or block start-up, takes exactly
// the cycles of pto-isa's published formula for its shape (pto-isa 3186c381,
// include/pto/costmodel/a2a3/formula_costmodel/formula_params.csv).

namespace {

template <class Body>
double calibrated_launch_cycles(Body body) {
    cost::Params p = cost::params_for(*ptosim::find_soc("Ascend910B2"));
    EXPECT_EQ(p.calibration, cost::Calibration::A2A3);
    p.clock_ghz = 1;
    p.issue = 0;
    p.launch_us = 0;
    p.block_start = 0;
    cost::override_params(&p);
    ptosim_enable_timing(1);
    auto st = testutil::run_vec(body);
    EXPECT_TRUE(st.ok()) << st.message;
    const double cycles = ptosim_last_launch_time_us() * 1000;
    ptosim_enable_timing(0);
    cost::override_params(nullptr);
    return cycles;
}

OpRecord vec_record(const char* op, const char* dtype, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.dtype = r.src_dtype = dtype;
    r.dst_shape = r.src_shape = {rows, cols, vr, vc};
    r.elements = uint64_t(vr) * vc;
    return r;
}

}  // namespace

// TMUL fp32 at 64 columns: 0.0313 x 32 x 64 + 26 = 90.1 -> 90 cycles.
TEST(CostCalibration, TmulFp32IsTheFormula) {
    using T = Tile<TileType::Vec, float, 32, 64>;
    EXPECT_DOUBLE_EQ(calibrated_launch_cycles([] {
                         T a, b, c;
                         TASSIGN(a, 0);
                         TASSIGN(b, 0x2000);
                         TASSIGN(c, 0x4000);
                         TMUL(c, a, b);
                     }),
                     90);
}

// TADDS fp16 at 128 columns, 16 rows: 0.0078 x 2048 + 25 = 40.97 -> 41.
TEST(CostCalibration, TaddsFp16IsTheFormula) {
    using T = Tile<TileType::Vec, half, 16, 128>;
    EXPECT_DOUBLE_EQ(calibrated_launch_cycles([] {
                         T a, c;
                         TASSIGN(a, 0);
                         TASSIGN(c, 0x1000);
                         TADDS(c, a, half(1.0f));
                     }),
                     41);
}

// A row reduction takes the shape of the tile it reduces: TROWSUM fp32 of
// 16 x 64 is 0.1094 x 1024 + 44 = 156.03 -> 156.
TEST(CostCalibration, TrowsumTakesTheSourceShape) {
    EXPECT_DOUBLE_EQ(calibrated_launch_cycles([] {
                         Tile<TileType::Vec, float, 16, 64> s, tmp;
                         Tile<TileType::Vec, float, 16, 8, BLayout::RowMajor, DYNAMIC, 1> d(16);
                         TASSIGN(s, 0);
                         TASSIGN(tmp, 0x1000);
                         TASSIGN(d, 0x2000);
                         TROWSUM(d, s, tmp);
                     }),
                     156);
}

// The valid columns pick the class: TSUB fp16 over 8 x 96 of a 16 x 256
// tile is the 96-column formula, 0.0208 x 768 + 41 = 56.97 -> 57.
TEST(CostCalibration, ValidColumnsPickTheClass) {
    using D = Tile<TileType::Vec, half, 16, 256, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    EXPECT_DOUBLE_EQ(calibrated_launch_cycles([] {
                         D a(8, 96), b(8, 96), c(8, 96);
                         TASSIGN(a, 0);
                         TASSIGN(b, 0x2000);
                         TASSIGN(c, 0x4000);
                         TSUB(c, a, b);
                     }),
                     57);
}

// Between two classes the per-row cycles and the bias are interpolated:
// TMUL fp16 at 48 columns lies halfway between 32 (2 cycles a row, bias
// 43) and 64 (2.0032 a row, bias 42): 16 x 2.0016 + 42.5 = 74.5 -> 75.
// Beyond the widest class (656) its slope and bias: 0.0156 x 4 x 1024 + 43
// = 106.9 -> 107.
TEST(CostCalibration, BetweenClassesInterpolates) {
    cost::Calibrated c;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, vec_record("TMUL", "half", 16, 64, 16, 48), c));
    EXPECT_DOUBLE_EQ(c.cycles, 75);
    EXPECT_TRUE(c.interpolated);
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, vec_record("TMUL", "half", 4, 1024, 4, 1024), c));
    EXPECT_DOUBLE_EQ(c.cycles, 107);
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, vec_record("TMUL", "half", 4, 128, 4, 128), c));
    EXPECT_FALSE(c.interpolated);
    EXPECT_EQ(c.source, "a2a3 formula TMUL fp16 cols=128");
}

// No formula, no change: TADD (none published for A2A3) and the types the
// tables do not name keep the op-class figure; so does every record under
// Calibration::None.
TEST(CostCalibration, UncoveredRecordsKeepTheClassFigure) {
    cost::Calibrated c;
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A2A3, vec_record("TADD", "half", 16, 64, 16, 64), c));
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A2A3, vec_record("TMUL", "int32_t", 16, 64, 16, 64), c));
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::None, vec_record("TMUL", "half", 16, 64, 16, 64), c));
    cost::Params p = cost::params_for(*ptosim::find_soc("Ascend910B2"));
    cost::Engine e(p, 1, false);
    EXPECT_DOUBLE_EQ(e.cost(vec_record("TADD", "half", 16, 64, 16, 64)), p.lat_vec + 16.0 * 64 * 2 / p.vec_plain);
    EXPECT_DOUBLE_EQ(e.cost(vec_record("TMUL", "half", 16, 64, 16, 64)), 74);  // 0.0313 x 1024 + 42 = 74.05
}

// A5 (pto-isa 3186c381, include/pto/costmodel/a5/formula_costmodel/formula_params.csv):
// TADD fp32 over one 640-element row is one run of 10 loops, 1.2469671 x 10
// + 55.073657 = 67.5 -> 68 (pto-isa's fit test gives 67 for this case);
// over 2 x 128 valid of 2 x 160 it goes row by row, (1.8749443 x 2 +
// 2.8762808) x 2 + 44.344619 = 57.6 -> 58. TDIVS fp16 over a whole 1 x 640
// row: 5 loops, 3.5491803 x 5 + 68.737705 = 86.48 -> 86.
TEST(CostCalibration, A5FormulasFollowTheLoopCounts) {
    cost::Calibrated c;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A5, vec_record("TADD", "float", 1, 640, 1, 640), c));
    EXPECT_DOUBLE_EQ(c.cycles, 68);
    EXPECT_EQ(c.source, "a5 formula TADD fp32 1D");
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A5, vec_record("TADD", "float", 2, 160, 2, 128), c));
    EXPECT_DOUBLE_EQ(c.cycles, 58);
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A5, vec_record("TDIVS", "half", 1, 640, 1, 640), c));
    EXPECT_DOUBLE_EQ(c.cycles, 86);
    EXPECT_EQ(cost::params_for(*ptosim::find_soc("Ascend950DT")).calibration, cost::Calibration::A5);
}

// The sort unit on A2A3 (pto-isa's per-intrinsic figures, measured on a
// 910B3): vbitsort = 16 a repeat + 21, so 32 repeats (1024 scores) take
// 533; vmrgsort4 = 78 per 128 structures written + 20, so a merge writing
// 1024 structures takes 644. TSORT32 pays vbitsort's head once a row, as
// the one vbitsort a row pto-isa issues does: two rows of 1024 are 1066,
// twice the intrinsic. A5 has no sort figures.
TEST(CostCalibration, SortUnitTakesTheIntrinsicFigures) {
    cost::Calibrated c;
    OpRecord bitsort = vec_record("vbitsort", "float", 0, 0, 0, 0);
    bitsort.elements = 32 * 32;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, bitsort, c));
    EXPECT_DOUBLE_EQ(c.cycles, 533);
    EXPECT_EQ(c.source, "a2a3 intrinsic vbitsort (16 x repeat + 21)");
    OpRecord sort32 = vec_record("TSORT32", "float", 2, 2048, 2, 2048);
    sort32.elements = 2 * 32 * 32;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, sort32, c));
    EXPECT_DOUBLE_EQ(c.cycles, 1066);
    OpRecord merge = vec_record("vmrgsort4", "float", 0, 0, 0, 0);
    merge.elements = 1024;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, merge, c));
    EXPECT_DOUBLE_EQ(c.cycles, 644);
    EXPECT_EQ(c.source, "a2a3 intrinsic vmrgsort4 (78 per 128 structures + 20)");
    merge.op = "TMRGSORT";
    merge.dtype = merge.src_dtype = "half";
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, merge, c));
    EXPECT_DOUBLE_EQ(c.cycles, 644);
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A5, merge, c));
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A5, bitsort, c));
}

// The measured A2A3 vector intrinsics (pto-isa's per-intrinsic model, 910B3
// fp32): vadd = 10 + 2 a repeat + 14, so a full-mask vadd of 8 fp32 repeats
// (512 elements) takes 40, and 16 more in counter mode; in counter mode the
// repeats are the count's, rounded up (100 floats: 2 repeats, 28 + 16).
// vexp = 13 + 2 a repeat + 18 (128 repeats: 287, pto-isa's "real 287");
// vmuls = 11 + 1 a repeat + 15, the same per repeat for half (128 a repeat).
// A5 records of the same names keep their class rate.
TEST(CostCalibration, A2A3VectorIntrinsicsTakeTheMeasuredFigures) {
    cost::Calibrated c;
    OpRecord add = vec_record("vadd", "float", 0, 0, 0, 0);
    add.elements = 8 * 64;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, add, c));
    EXPECT_DOUBLE_EQ(c.cycles, 40);
    EXPECT_EQ(c.source, "a2a3 intrinsic vadd (2 x repeat + 24)");
    add.counter = true;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, add, c));
    EXPECT_DOUBLE_EQ(c.cycles, 56);
    EXPECT_EQ(c.source, "a2a3 intrinsic vadd (2 x repeat + 24, counter mode +16)");
    add.elements = 100;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, add, c));
    EXPECT_DOUBLE_EQ(c.cycles, 44);
    OpRecord ex = vec_record("vexp", "float", 0, 0, 0, 0);
    ex.elements = 128 * 64;
    ex.counter = true;  // no counter-mode floor outside the binary ALU ops
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, ex, c));
    EXPECT_DOUBLE_EQ(c.cycles, 287);
    OpRecord muls = vec_record("vmuls", "half", 0, 0, 0, 0);
    muls.elements = 4 * 128;
    ASSERT_TRUE(cost::calibrated_cost(cost::Calibration::A2A3, muls, c));
    EXPECT_DOUBLE_EQ(c.cycles, 30);
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A5, add, c));
    OpRecord adds = vec_record("vadds", "float", 0, 0, 0, 0);  // not measured: the class rate
    adds.elements = 64;
    EXPECT_FALSE(cost::calibrated_cost(cost::Calibration::A2A3, adds, c));
}

// The list form of TMRGSORT is priced as the instructions pto-isa issues for
// it: the merge into tmp (1024 structures: 644), a V barrier (4) and the
// copy of dst's 8192 bytes (16 + 8192 / 256 = 48): 696, the sum of the
// three records the executed path makes. Its record holds 16 bytes a
// structure plus the copy's bytes twice.
TEST(CostModel, ListMergeAddsItsCopy) {
    const cost::Params p = cost::params_for(*ptosim::find_soc("Ascend910B2"));
    cost::Engine e(p, 1, false);
    OpRecord list = vec_record("TMRGSORT", "float", 1, 2048, 1, 2048);
    list.elements = 1024;
    list.bytes = 1024 * 16 + 2 * 8192;
    OpRecord merge = vec_record("vmrgsort4", "float", 0, 0, 0, 0);
    merge.elements = 1024;
    merge.bytes = 1024 * 16;
    OpRecord copy;
    copy.op = "copy_ubuf_to_ubuf";
    copy.pipe = Pipe::V;
    copy.bytes = 8192;
    EXPECT_DOUBLE_EQ(e.cost(list), 696);
    EXPECT_DOUBLE_EQ(e.cost(merge) + p.barrier + e.cost(copy), 696);
    // The single-list form (16 bytes a structure, nothing more) is the merge alone.
    list.bytes = 1024 * 16;
    EXPECT_DOUBLE_EQ(e.cost(list), 644);
}

// The mask-pattern TGATHER keeps 1000 of 2048 floats; the vreducev2 it
// issues reads all 2048, and both paths price that stream at the gather
// rate: 16 + 2048 x 4 / 32 = 272 cycles.
TEST(CostModel, MaskGatherStreamsItsSource) {
    const cost::Params p = cost::params_for(*ptosim::find_soc("Ascend910B2"));
    cost::Engine e(p, 1, false);
    OpRecord tile = vec_record("TGATHER", "float", 1, 2048, 1, 2048);
    tile.elements = 1000;
    tile.bytes = 1000 * 2 * 4;
    tile.read(Space::UB, 0, 2048 * 4);
    tile.write(Space::UB, 0x4000, 1000 * 4);
    EXPECT_EQ(cost::classify(tile), cost::OpClass::VecGather);
    EXPECT_DOUBLE_EQ(e.cost(tile), 272);
    OpRecord reduce = vec_record("vreducev2", "float", 0, 0, 0, 0);
    reduce.elements = 2048;
    reduce.bytes = 2048 * 4;
    EXPECT_EQ(cost::classify(reduce), cost::OpClass::VecGather);
    EXPECT_DOUBLE_EQ(e.cost(reduce), 272);
}
