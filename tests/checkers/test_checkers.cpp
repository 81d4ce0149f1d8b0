// Mutation suite of the checkers (docs/checkers.md): each kernel below runs
// once with one deliberate synchronisation bug and once fixed. The buggy run
// must produce exactly the expected reports (tool, kind, buffer, both source
// lines, found by the `// @name` markers at the end of kernel lines) and fail
// the launch; the fixed run must report nothing and compute the right result.
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/pto_sync.hpp>
#include <pto/inst/tmatmul.hpp>
#include "test_isa_ref.hpp"
#include "checker_util.hpp"
#include <ptosim/check.hpp>
#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>

using namespace pto;
using ptosim::check::Report;

namespace {

constexpr int R = 16, C = 16, N = R * C;
using V = Tile<TileType::Vec, float, R, C>;
using G = GlobalTensor<float, TileShape2D<float, R, C>, BaseShape2D<float, R, C>>;

int line_of(const std::string& marker) { return checker_test::marker_line(__FILE__, marker); }

std::string base(const char* file) {
    std::string s = file ? file : "";
    return s.substr(s.find_last_of('/') + 1);
}

using checker_test::summary;

std::string race(const char* kind, const char* buffer, const char* first, const char* second) {
    return std::string("racecheck ") + kind + " " + buffer + " " + std::to_string(line_of(first)) + " " +
           std::to_string(line_of(second));
}
std::string sync1(const char* kind, const char* at) {
    return std::string("synccheck ") + kind + " " + std::to_string(line_of(at));
}
std::string sync2(const char* kind, const char* first, const char* second) {
    return std::string("synccheck ") + kind + " " + std::to_string(line_of(first)) + " " + std::to_string(line_of(second));
}

struct Checked {
    ptosim::Status st;
    std::vector<Report> reports;
    std::vector<std::string> summaries() const {
        std::vector<std::string> v;
        for (auto& r : reports) v.push_back(summary(r));
        std::sort(v.begin(), v.end());
        return v;
    }
};

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

class Checkers : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ptosim::check::configure("all"), "");
        ptosim::check::take_reports();
    }
    void TearDown() override {
        ptosim::check::configure("");
        ptosim::check::take_reports();
    }
    Checked run(ptosim::KernelKind kind, testutil::body_ref aic, testutil::body_ref aiv, uint32_t blocks = 1) {
        Checked c;
        c.st = testutil::launch(kind, blocks, std::move(aic), std::move(aiv), "checked_kernel");
        c.reports = ptosim::check::take_reports();
        return c;
    }
    Checked vec(testutil::body_ref body, uint32_t blocks = 1) {
        return run(ptosim::KernelKind::Vec, nullptr, std::move(body), blocks);
    }
    // A vector kernel that starts with the body: no mask initialisation of its own.
    Checked vec_bare(testutil::body_ref body, uint32_t blocks = 1) {
        Checked c;
        c.st = testutil::launch_bare(ptosim::KernelKind::Vec, blocks, nullptr, std::move(body), "checked_kernel");
        c.reports = ptosim::check::take_reports();
        return c;
    }
    Checked cube(testutil::body_ref body) { return run(ptosim::KernelKind::Cube, std::move(body), nullptr); }
    Checked mix(testutil::body_ref aic, testutil::body_ref aiv) {
        return run(ptosim::KernelKind::Mix, std::move(aic), std::move(aiv));
    }

    // The buggy run reports exactly `want` and fails; the fixed one is clean.
    void expect_bug(const Checked& bad, const std::vector<std::string>& want, int code = ptosim::err::kVectorCoreException) {
        EXPECT_EQ(bad.summaries(), sorted(want));
        EXPECT_EQ(bad.st.code, code) << bad.st.message;
    }
    void expect_clean(const Checked& good) {
        EXPECT_TRUE(good.st.ok()) << good.st.message;
        EXPECT_EQ(good.summaries(), std::vector<std::string>{});
    }
};

std::vector<float> iota_vec(float start) {
    std::vector<float> v(N);
    std::iota(v.begin(), v.end(), start);
    return v;
}

// ------------------------------------------------------------ vector add

enum class AddBug { None, NoWait, NoSetWait, NoStoreSync };

void vadd(float* x, float* y, float* out, AddBug bug) {
    V a, b, o;
    TASSIGN(a, 0);
    TASSIGN(b, 0x400);
    TASSIGN(o, 0x800);
    G gx(x), gy(y), go(out);
    TLOAD(a, gx);  // @add-load-a
    TLOAD(b, gy);  // @add-load-b
    if (bug != AddBug::NoSetWait) set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // @add-set
    if (bug == AddBug::None || bug == AddBug::NoStoreSync) wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, b);  // @add-add
    if (bug != AddBug::NoStoreSync) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    }
    TSTORE(go, o);  // @add-store
}

TEST_F(Checkers, VectorAddWithoutWaitFlagRacesLoadAndAdd) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    expect_bug(vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoWait); }),
               {race("read-after-write", "UB", "@add-load-a", "@add-add"),
                race("read-after-write", "UB", "@add-load-b", "@add-add"), sync1("flag-never-waited", "@add-set")});
    // The kernel still ran to the end: its results are written.
    EXPECT_EQ(out[5], x[5] + y[5]);
    auto good = vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::None); });
    expect_clean(good);
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], x[i] + y[i]);
}

TEST_F(Checkers, VectorAddWithoutSetAndWaitRacesLoadAndAdd) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    expect_bug(vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoSetWait); }),
               {race("read-after-write", "UB", "@add-load-a", "@add-add"),
                race("read-after-write", "UB", "@add-load-b", "@add-add")});
}

TEST_F(Checkers, VectorAddWithoutStoreSyncRacesAddAndStore) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    expect_bug(vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoStoreSync); }),
               {race("read-after-write", "UB", "@add-add", "@add-store")});
}

TEST_F(Checkers, RaceReportTextNamesBothLinesAndTheFix) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoSetWait); });
    ASSERT_EQ(bad.reports.size(), 2u);
    const Report& r = bad.reports[0];
    const std::string f = base(r.sites[0].loc.file);
    EXPECT_EQ(f, "test_checkers.cpp");
    const std::string load = f + ":" + std::to_string(line_of("@add-load-a"));
    const std::string add = f + ":" + std::to_string(line_of("@add-add"));
    EXPECT_EQ(r.core, "AIV block 0");
    EXPECT_EQ(r.kernel, "checked_kernel");
    EXPECT_EQ(r.lo, 0u);
    EXPECT_EQ(r.hi, 0x400u);
    EXPECT_EQ(r.sites[0].op, "TLOAD");
    EXPECT_EQ(r.sites[0].pipe, ptosim::Pipe::MTE2);
    EXPECT_EQ(r.sites[1].op, "TADD");
    EXPECT_EQ(r.sites[1].pipe, ptosim::Pipe::V);
    std::string text = ptosim::check::format_text(r);
    // Paths are shortened to their file name for the comparison.
    for (std::string full : {std::string(r.sites[0].loc.file)}) {
        for (size_t p; (p = text.find(full)) != std::string::npos;) text.replace(p, full.size(), f);
    }
    EXPECT_EQ(text, "ptosim: racecheck: error: read-after-write in kernel 'checked_kernel' on AIV block 0: TADD (PIPE_V) at " +
                        add + " reads UB [0x0, 0x400) that TLOAD (PIPE_MTE2) at " + load +
                        " writes; no set_flag/wait_flag or barrier orders the two pipes\n"
                        "  fix: add set_flag(PIPE_MTE2, PIPE_V, id) after " + load +
                        " and wait_flag(PIPE_MTE2, PIPE_V, id) before " + add + " (id: an event id free between them)\n");
    EXPECT_NE(bad.st.message.find("the checkers found 2 error(s)"), std::string::npos) << bad.st.message;
}

// ------------------------------------------------------------ loops reusing tiles

enum class LoopBug { None, NoReloadGuard, NoStoreGuard, SetsPastTheLastRound };

// Two rounds through the same tiles: the reload of `a` must wait for the
// previous TADD to read it, the next TADD into `o` for the previous TSTORE.
void vloop(float* x, float* out, LoopBug bug) {
    V a, o;
    TASSIGN(a, 0);
    TASSIGN(o, 0x400);
    for (int i = 0; i < 2; ++i) {
        G gx(x + i * N), go(out + i * N);
        if (i > 0 && bug != LoopBug::NoReloadGuard) wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
        TLOAD(a, gx);  // @loop-load
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        if (i > 0 && bug != LoopBug::NoStoreGuard) wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
        TADD(o, a, a);  // @loop-add
        const bool more = i == 0 || bug == LoopBug::SetsPastTheLastRound;
        if (more && bug != LoopBug::NoReloadGuard) set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);  // @loop-reload-set
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, o);  // @loop-store
        if (i == 0 && bug != LoopBug::NoStoreGuard) set_flag(PIPE_MTE3, PIPE_V, EVENT_ID2);
    }
}

TEST_F(Checkers, ReloadBeforeThePreviousAddReadIsWriteAfterRead) {
    std::vector<float> x(2 * N), out(2 * N);
    std::iota(x.begin(), x.end(), 0.0f);
    expect_bug(vec([&] { vloop(x.data(), out.data(), LoopBug::NoReloadGuard); }),
               {race("write-after-read", "UB", "@loop-add", "@loop-load")});
    expect_clean(vec([&] { vloop(x.data(), out.data(), LoopBug::None); }));
    for (int i = 0; i < 2 * N; ++i) ASSERT_EQ(out[i], 2 * x[i]);
}

TEST_F(Checkers, HandBackFlagSetInTheLastRoundIsNeverWaited) {
    std::vector<float> x(2 * N), out(2 * N);
    expect_bug(vec([&] { vloop(x.data(), out.data(), LoopBug::SetsPastTheLastRound); }),
               {sync1("flag-never-waited", "@loop-reload-set")});
}

TEST_F(Checkers, AddIntoATileStillBeingStoredIsWriteAfterRead) {
    std::vector<float> x(2 * N), out(2 * N);
    expect_bug(vec([&] { vloop(x.data(), out.data(), LoopBug::NoStoreGuard); }),
               {race("write-after-read", "UB", "@loop-store", "@loop-add")});
}

// ------------------------------------------------------------ GM, scalar, barriers, events

void gm_inplace(float* x, float* y, bool bug) {
    V a, o;
    TASSIGN(a, 0);
    TASSIGN(o, 0x400);
    G gx(x), gy(y);
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gx, o);  // @gm-store
    if (!bug) {
        set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    }
    V b;
    TASSIGN(b, 0x800);
    TLOAD(b, gx);  // @gm-reload
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
    TSTORE(gy, b);
}

TEST_F(Checkers, ReloadOfAGmBufferStillBeingStoredIsReadAfterWrite) {
    auto x = iota_vec(1);
    std::vector<float> y(N);
    auto x0 = x;
    auto bad = vec([&] { gm_inplace(x.data(), y.data(), true); });
    expect_bug(bad, {race("read-after-write", "GM", "@gm-store", "@gm-reload")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(x.data()));
    EXPECT_EQ(bad.reports[0].hi, reinterpret_cast<uintptr_t>(x.data()) + N * sizeof(float));
    x = x0;
    expect_clean(vec([&] { gm_inplace(x.data(), y.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(y[i], 2 * x0[i]);
}

void scalar_read(float* x, float* got, bool bug) {
    V a, o;
    TASSIGN(a, 0);
    TASSIGN(o, 0x400);
    G gx(x);
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, a);  // @scalar-add
    if (!bug) {
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
    }
    *got = o.GetValue(3);  // @scalar-get
}

TEST_F(Checkers, ScalarReadOfAVectorResultWithoutFlagIsReadAfterWrite) {
    auto x = iota_vec(1);
    float got = 0;
    expect_bug(vec([&] { scalar_read(x.data(), &got, true); }),
               {race("read-after-write", "UB", "@scalar-add", "@scalar-get")});
    expect_clean(vec([&] { scalar_read(x.data(), &got, false); }));
    EXPECT_EQ(got, 8.0f);
}

void overwrite(float* x, float* out, bool bug) {
    V a;
    TASSIGN(a, 0);
    G gx(x), go(out);
    TEXPANDS(a, 7.0f);  // @waw-fill
    if (!bug) pipe_barrier(PIPE_ALL);
    TLOAD(a, gx);  // @waw-load
    pipe_barrier(PIPE_ALL);
    TSTORE(go, a);
}

TEST_F(Checkers, LoadOverAVectorFillIsWriteAfterWriteUntilAPipeBarrier) {
    auto x = iota_vec(1);
    std::vector<float> out(N);
    expect_bug(vec([&] { overwrite(x.data(), out.data(), true); }),
               {race("write-after-write", "UB", "@waw-fill", "@waw-load")});
    expect_clean(vec([&] { overwrite(x.data(), out.data(), false); }));
    EXPECT_EQ(out, x);
}

void event_add(float* x, float* out, bool bug) {
    V a, o;
    TASSIGN(a, 0);
    TASSIGN(o, 0x400);
    G gx(x), go(out);
    Event<Op::TLOAD, Op::TADD> loaded;
    loaded = TLOAD(a, gx);  // @ev-load
    if (!bug) TSYNC(loaded);
    TADD(o, a, a);  // @ev-add
    Event<Op::TADD, Op::TSTORE_VEC> added(RecordEvent{});
    added.Wait();
    TSTORE(go, o);
}

TEST_F(Checkers, EventRecordedButNotWaitedRacesAndStaysSet) {
    auto x = iota_vec(1);
    std::vector<float> out(N);
    auto bad = vec([&] { event_add(x.data(), out.data(), true); });
    expect_bug(bad, {race("read-after-write", "UB", "@ev-load", "@ev-add"), sync1("flag-never-waited", "@ev-load")});
    expect_clean(vec([&] { event_add(x.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], 2 * x[i]);
}

TEST_F(Checkers, EveryBlockWithTheSameBugFoldsIntoOneReport) {
    std::vector<float> x(4 * N), y(4 * N), out(4 * N);
    auto bad = vec(
        [&] {
            const int64_t b = get_block_idx();
            vadd(x.data() + b * N, y.data() + b * N, out.data() + b * N, AddBug::NoStoreSync);
        },
        4);
    expect_bug(bad, {race("read-after-write", "UB", "@add-add", "@add-store")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].count, 4u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0");
}

// ------------------------------------------------------------ cube

enum class CubeBug { None, NoLoadSync, NoMoveSync, NoMatmulSync };

constexpr int kT = 16;
using MatT = Tile<TileType::Mat, half, kT, kT, BLayout::ColMajor, kT, kT, SLayout::RowMajor>;
using LeftT = TileLeft<half, kT, kT>;
using RightT = TileRight<half, kT, kT>;
using AccT = TileAcc<float, kT, kT>;

// The cube kernels' tiles: A and B in L1, their L0 copies, the accumulator.
struct CubeTiles {
    MatT ma, mb;
    LeftT l;
    RightT r;
    AccT acc;
    CubeTiles() {
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(acc, 0);
    }
};

void matmul(half* a, half* b, float* c, CubeBug bug) {
    CubeTiles t;
    auto& [ma, mb, l, r, acc] = t;
    auto ga = ref::gm_nd(a, kT, kT, kT);
    auto gb = ref::gm_nd(b, kT, kT, kT);
    auto gc = ref::gm_nd(c, kT, kT, kT);
    TLOAD(ma, ga);  // @mm-load-a
    TLOAD(mb, gb);  // @mm-load-b
    if (bug != CubeBug::NoLoadSync) ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    TMOV(l, ma);  // @mm-mov-l
    TMOV(r, mb);  // @mm-mov-r
    if (bug != CubeBug::NoMoveSync) ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc, l, r);  // @mm-mul
    if (bug != CubeBug::NoMatmulSync) ISA_SYNC(PIPE_M, PIPE_FIX);
    TSTORE(gc, acc);  // @mm-store
}

struct CubeData {
    std::vector<half> a = std::vector<half>(kT * kT), b = std::vector<half>(kT * kT);
    std::vector<float> c = std::vector<float>(kT * kT);
    CubeData() {
        for (int i = 0; i < kT * kT; ++i) {
            a[i] = half(static_cast<float>(i % 7));
            b[i] = half(i / kT == i % kT ? 1.0f : 0.0f);  // identity
        }
    }
};

TEST_F(Checkers, CubeMoveBeforeTheLoadIsWaitedIsReadAfterWriteOnL1) {
    CubeData d;
    expect_bug(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::NoLoadSync); }),
               {race("read-after-write", "L1", "@mm-load-a", "@mm-mov-l"),
                race("read-after-write", "L1", "@mm-load-b", "@mm-mov-r")},
               ptosim::err::kAiCoreException);
    expect_clean(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

TEST_F(Checkers, CubeMatmulBeforeTheMovesAreWaitedIsReadAfterWriteOnL0) {
    CubeData d;
    expect_bug(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::NoMoveSync); }),
               {race("read-after-write", "L0A", "@mm-mov-l", "@mm-mul"),
                race("read-after-write", "L0B", "@mm-mov-r", "@mm-mul")},
               ptosim::err::kAiCoreException);
}

TEST_F(Checkers, CubeStoreBeforeTheMatmulIsWaitedIsReadAfterWriteOnL0C) {
    CubeData d;
    expect_bug(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::NoMatmulSync); }),
               {race("read-after-write", "L0C", "@mm-mul", "@mm-store")}, ptosim::err::kAiCoreException);
}

// The unit flag (pto-isa's AccPhase / STPhase forms): a final-phase matmul
// hands the accumulator to a phased TSTORE without a (PIPE_M, PIPE_FIX)
// flag, and that store hands it back to the next phased matmul. Two rounds
// of a two-step K loop into one accumulator; `unphased` drops the phase of
// the round's last matmul (or of its store), which leaves them unordered.
enum class UnitBug { None, UnphasedMatmul, UnphasedStore };

void unit_flag_rounds(half* a, half* b, float* c, UnitBug bug) {
    CubeTiles t;
    auto& [ma, mb, l, r, acc] = t;
    auto ga = ref::gm_nd(a, kT, kT, kT);
    auto gb = ref::gm_nd(b, kT, kT, kT);
    auto gc = ref::gm_nd(c, kT, kT, kT);
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    TMOV(l, ma);
    TMOV(r, mb);
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    for (int round = 0; round < 2; ++round) {
        TMATMUL<AccPhase::Partial>(acc, l, r);  // @unit-first
        if (bug == UnitBug::UnphasedMatmul) TMATMUL_ACC(acc, l, r);  // @unit-last-unphased
        else TMATMUL_ACC<AccPhase::Final>(acc, l, r);  // @unit-last
        if (bug == UnitBug::UnphasedStore) TSTORE(gc, acc);  // @unit-store-unphased
        else TSTORE<STPhase::Final>(gc, acc);  // @unit-store
    }
}

TEST_F(Checkers, UnitFlagOrdersTheFinalMatmulAndTheFinalStoreWithoutFlags) {
    CubeData d;
    expect_clean(cube([&] { unit_flag_rounds(d.a.data(), d.b.data(), d.c.data(), UnitBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], 2.0f * static_cast<float>(i % 7)) << i;
    // Without the final phase on the matmul the store is unordered after it;
    // without a phase on the store, the store after the matmul and the next
    // round's matmuls after the store's read. The calls with template
    // arguments are named by their own lines.
    expect_bug(cube([&] { unit_flag_rounds(d.a.data(), d.b.data(), d.c.data(), UnitBug::UnphasedMatmul); }),
               {race("read-after-write", "L0C", "@unit-last-unphased", "@unit-store")}, ptosim::err::kAiCoreException);
    expect_bug(cube([&] { unit_flag_rounds(d.a.data(), d.b.data(), d.c.data(), UnitBug::UnphasedStore); }),
               {race("read-after-write", "L0C", "@unit-last", "@unit-store-unphased"),
                race("write-after-read", "L0C", "@unit-store-unphased", "@unit-first"),
                race("write-after-read", "L0C", "@unit-store-unphased", "@unit-last")},
               ptosim::err::kAiCoreException);
}

TEST_F(Checkers, MixKernelReportsTheVectorSideOnceForBothSubBlocks) {
    CubeData d;
    std::vector<float> x(2 * N), y(2 * N), out(2 * N);
    auto bad = mix([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); },
                   [&] {
                       const int64_t s = get_subblockid();
                       vadd(x.data() + s * N, y.data() + s * N, out.data() + s * N, AddBug::NoStoreSync);
                   });
    expect_bug(bad, {race("read-after-write", "UB", "@add-add", "@add-store")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0 sub 0");
    EXPECT_EQ(bad.reports[0].count, 2u);
    auto good = mix([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); },
                    [&] {
                        const int64_t s = get_subblockid();
                        vadd(x.data() + s * N, y.data() + s * N, out.data() + s * N, AddBug::None);
                    });
    expect_clean(good);
}

// ------------------------------------------------------------ synccheck

TEST_F(Checkers, FlagSetAndNeverWaitedIsReportedAtItsSetFlag) {
    auto x = iota_vec(1);
    auto bad = vec([&] {
        V a;
        TASSIGN(a, 0);
        G gx(x.data());
        TLOAD(a, gx);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);  // @never-set
    });
    expect_bug(bad, {sync1("flag-never-waited", "@never-set")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].message.find("set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3) at "), 0u);
    EXPECT_EQ(bad.reports[0].fix.find("add wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3) after "), 0u);
    expect_clean(vec([&] {
        V a;
        TASSIGN(a, 0);
        G gx(x.data());
        TLOAD(a, gx);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    }));
}

TEST_F(Checkers, SecondSetFlagOfASetFlagIsRedundantWithBothLines) {
    auto body = [](bool bug) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);  // @twice-first
        if (!bug) wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);  // @twice-second
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    };
    auto bad = vec([&] { body(true); });
    expect_bug(bad, {sync2("redundant-set-flag", "@twice-first", "@twice-second")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_NE(bad.reports[0].fix.find("add wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1) between "), std::string::npos);
    expect_clean(vec([&] { body(false); }));
}

TEST_F(Checkers, RedundantSetFlagInALoopIsOneReportWithACount) {
    auto bad = vec([&] {
        for (int i = 0; i < 3; ++i) set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);  // @loop-set
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    });
    expect_bug(bad, {sync2("redundant-set-flag", "@loop-set", "@loop-set")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].count, 2u);
}

TEST_F(Checkers, RedundantSetFlagStillFaultsWithTheCheckerOff) {
    ptosim::check::configure("race");
    auto st = testutil::run_vec([] {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    });
    EXPECT_EQ(st.code, ptosim::err::kVectorCoreException);
    EXPECT_NE(st.message.find("while the flag is still set"), std::string::npos) << st.message;
}

TEST_F(Checkers, ScalarAndCubeFlagsLeftSetAreReported) {
    expect_bug(vec([] { set_flag(PIPE_V, PIPE_S, EVENT_ID2); }),  // @left-scalar
               {sync1("flag-never-waited", "@left-scalar")});
    expect_bug(cube([] { set_flag(PIPE_MTE1, PIPE_M, EVENT_ID7); }),  // @left-cube
               {sync1("flag-never-waited", "@left-cube")}, ptosim::err::kAiCoreException);
    expect_clean(cube([] {
        set_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);
        wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);
    }));
}

TEST_F(Checkers, WaitOnTheWrongEventLeavesTheSetOneReported) {
    expect_bug(vec([] {
                   set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // @wrong-id
                   set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
                   wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
               }),
               {sync1("flag-never-waited", "@wrong-id")});
}

// ------------------------------------------------------------ vector masks

// x + x + x into block b's out[b * N, (b + 1) * N) after `prologue`, loaded and stored with the flags it needs: only the
// mask initialisation is at stake.
void triple_after(const float* x, float* out, const std::function<void()>& prologue) {
    V a, o;
    TASSIGN(a, 0);
    TASSIGN(o, 0x400);
    G gx(const_cast<float*>(x)), go(out + get_block_idx() * N);
    prologue();
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, a);  // @mask-add
    TADD(o, o, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

std::string mask_message(const char* missing) {
    const std::string at = std::string(__FILE__) + ":" + std::to_string(line_of("@mask-add"));
    return "TADD (PIPE_V) at " + at + " runs before the kernel called " + missing +
           ": the mask mode and mask are what the previous kernel on this core left, so the instruction may "
           "compute only part of its elements or fault";
}

TEST_F(Checkers, VectorWorkBeforeTheKernelSetTheMaskIsReportedOnA2A3) {
    auto x = iota_vec(1);
    std::vector<float> out(2 * N);
    auto bad = vec_bare([&] { triple_after(x.data(), out.data(), [] {}); }, 2);
    // The device's results do not depend on the checker: both blocks computed.
    EXPECT_EQ(out[N + 7], 3 * x[7]);
    if (testutil::compiled_target() == ptosim::Target::A5) return expect_clean(bad);  // the rule is A2A3's
    expect_bug(bad, {sync1("mask-not-initialised", "@mask-add")});
    ASSERT_EQ(bad.reports.size(), 1u);
    const Report& r = bad.reports[0];
    EXPECT_EQ(r.message, mask_message("set_mask_norm and set_vector_mask"));
    EXPECT_EQ(r.fix, "call set_mask_norm(); set_vector_mask(-1, -1); at the start of the kernel, before " +
                         std::string(__FILE__) + ":" + std::to_string(line_of("@mask-add")));
    EXPECT_EQ(r.kernel, "checked_kernel");
    EXPECT_EQ(r.core, "AIV block 0");
    EXPECT_EQ(r.count, 2u);  // once per block: the first vector instruction of each
    EXPECT_EQ(r.sites[0].op, "TADD");
    expect_clean(vec_bare([&] {
        triple_after(x.data(), out.data(), [] {
            set_mask_norm();
            set_vector_mask(-1, -1);
        });
    }));
    // Strictness is synccheck's: without it the same kernel runs and passes.
    ptosim::check::configure("race,mem,init");
    expect_clean(vec_bare([&] { triple_after(x.data(), out.data(), [] {}); }));
}

TEST_F(Checkers, MaskReportNamesTheCallStillMissing) {
    if (testutil::compiled_target() == ptosim::Target::A5) GTEST_SKIP() << "the rule is A2A3's";
    auto x = iota_vec(1);
    std::vector<float> out(N);
    auto mode_only = vec_bare([&] { triple_after(x.data(), out.data(), [] { set_mask_norm(); }); });
    expect_bug(mode_only, {sync1("mask-not-initialised", "@mask-add")});
    EXPECT_EQ(mode_only.reports.at(0).message, mask_message("set_vector_mask"));
    auto mask_only = vec_bare([&] { triple_after(x.data(), out.data(), [] { set_vector_mask(-1, -1); }); });
    expect_bug(mask_only, {sync1("mask-not-initialised", "@mask-add")});
    EXPECT_EQ(mask_only.reports.at(0).message, mask_message("set_mask_norm (or set_mask_count)"));
    // Both registers hold what the kernel chose by the add, in either order.
    expect_clean(vec_bare([&] {
        triple_after(x.data(), out.data(), [] {
            set_vector_mask(-1, -1);
            set_mask_norm();
        });
    }));
    // Counter mode initialises the mode as well.
    expect_clean(vec_bare([&] {
        triple_after(x.data(), out.data(), [] {
            set_mask_count();
            set_vector_mask(0, N);
        });
    }));
}

#if PTOSIM_TARGET_A5
TEST_F(Checkers, IntraBlockSignalsNobodyWaitsForAreLeftSet) {
    auto cube_side = [](bool bug) {
        set_intra_block(PIPE_FIX, 2);  // @intra-set
        set_intra_block(PIPE_FIX, 18);
        if (bug) {
            set_intra_block(PIPE_FIX, 2);
            set_intra_block(PIPE_FIX, 18);
        }
    };
    auto vec_side = [] { wait_intra_block(PIPE_V, 2); };
    auto bad = mix([&] { cube_side(true); }, vec_side);
    // The extra signals are the second line of the if; both receivers name it.
    const int extra = line_of("@intra-set") + 3;
    ASSERT_EQ(bad.reports.size(), 2u);
    for (auto& r : bad.reports) {
        EXPECT_EQ(r.kind, "cross-core-flag-left-set");
        EXPECT_EQ(r.sites[0].loc.line, r.core == "AIV block 0 sub 0" ? extra : extra + 1) << r.message;
    }
    EXPECT_EQ(bad.st.code, ptosim::err::kVectorCoreException);
    expect_clean(mix([&] { cube_side(false); }, vec_side));
}
#else
TEST_F(Checkers, FftsSignalsNobodyWaitsForAreLeftSet) {
    const uint64_t ffts = ptosim::Device::get().ffts_ctrl_addr();
    auto cube_side = [ffts](bool bug) {
        set_ffts_base_addr(ffts);
        ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (3 << 8));
        if (bug) ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (3 << 8));  // @ffts-extra
    };
    auto vec_side = [] { wait_flag_dev(3); };
    auto bad = mix([&] { cube_side(true); }, vec_side);
    expect_bug(bad, {sync1("cross-core-flag-left-set", "@ffts-extra")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].count, 2u);  // both Vector sub-blocks
    EXPECT_NE(bad.reports[0].fix.find("add wait_flag_dev(3) on AIV block 0 sub 0"), std::string::npos);
    expect_clean(mix([&] { cube_side(false); }, vec_side));
}

TEST_F(Checkers, FftsBarrierOnlyPartOfTheCoresJoinedIsLeftSet) {
    const uint64_t ffts = ptosim::Device::get().ffts_ctrl_addr();
    auto bad = vec(
        [ffts] {
            set_ffts_base_addr(ffts);
            if (get_block_idx() == 0) ffts_cross_core_sync(PIPE_MTE3, 1 | (0 << 4) | (5 << 8));  // @ffts-partial
        },
        2);
    expect_bug(bad, {sync1("cross-core-flag-left-set", "@ffts-partial")});
    expect_clean(vec(
        [ffts] {
            set_ffts_base_addr(ffts);
            ffts_cross_core_sync(PIPE_MTE3, 1 | (0 << 4) | (5 << 8));
            wait_flag_dev(5);
        },
        2));
}
#endif

// ------------------------------------------------------------ inter-core

void block_copy(float* x, float* out, bool bug) {
    const int64_t b = get_block_idx();
    V a;
    TASSIGN(a, 0);
    G gx(x + b * N), go(out + (bug ? 0 : b) * N);
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, a);  // @mc-store
}

TEST_F(Checkers, TwoBlocksStoringOneGmRangeIsMultiCoreCorruption) {
    std::vector<float> x(2 * N), out(2 * N);
    std::iota(x.begin(), x.end(), 0.0f);
    auto bad = vec([&] { block_copy(x.data(), out.data(), true); }, 2);
    expect_bug(bad, {race("multi-core-corruption", "GM", "@mc-store", "@mc-store")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].sites[0].core, "AIV block 0");
    EXPECT_EQ(bad.reports[0].sites[1].core, "AIV block 1");
    EXPECT_EQ(bad.reports[0].core, "AIV block 1");
    expect_clean(vec([&] { block_copy(x.data(), out.data(), false); }, 2));
    EXPECT_EQ(out, x);
}

// Blocks storing column tiles of one wider matrix: their byte spans interleave
// but only overlapping columns are a conflict.
void column_tiles(float* x, float* out, bool bug) {
    const int64_t b = get_block_idx();
    V a;
    TASSIGN(a, 0);
    G gx(x + b * N);
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    auto go = ref::gm_nd(out + b * (bug ? C / 2 : C), R, C, 2 * C);
    TSTORE(go, a);  // @col-store
}

TEST_F(Checkers, ColumnTilesOfOneMatrixConflictOnlyWhereTheyOverlap) {
    std::vector<float> x(2 * N), out(2 * N);
    std::iota(x.begin(), x.end(), 0.0f);
    expect_bug(vec([&] { column_tiles(x.data(), out.data(), true); }, 2),
               {race("multi-core-corruption", "GM", "@col-store", "@col-store")});
    expect_clean(vec([&] { column_tiles(x.data(), out.data(), false); }, 2));
    EXPECT_EQ(out[2 * C + C + 3], x[N + C + 3]);  // block 1, row 1, column 3
}

// The same with a 5-D view: each block stores 8 rows of both 16-row groups
// (pto-isa's tload system test splits its output so).
void group_rows(float* x, float* out, bool bug) {
    const int64_t b = get_block_idx();
    using G5 = GlobalTensor<float, Shape<2, 1, 1, 8, 16>, Stride<256, 256, 256, 16, 1>>;
    V a;
    TASSIGN(a, 0);
    G gx(x + b * N);
    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    G5 go(out + b * (bug ? 4 : 8) * 16);
    TSTORE(go, a);  // @group-store
}

TEST_F(Checkers, RowGroupsOfA5DTensorConflictOnlyWhereTheyOverlap) {
    std::vector<float> x(2 * N), out(2 * N);
    std::iota(x.begin(), x.end(), 0.0f);
    expect_bug(vec([&] { group_rows(x.data(), out.data(), true); }, 2),
               {race("multi-core-corruption", "GM", "@group-store", "@group-store")});
    expect_clean(vec([&] { group_rows(x.data(), out.data(), false); }, 2));
    EXPECT_EQ(out[256 + 8 * 16 + 5], x[N + 8 * 16 + 5]);  // block 1's row 8 is row 8 of group 1
}

TEST_F(Checkers, AtomicStoresOfSeveralBlocksToOneRangeDoNotRace) {
    std::vector<float> x(N, 1.0f), out(N, 0.0f);
    expect_clean(vec(
        [&] {
            V a;
            TASSIGN(a, 0);
            G gx(x.data()), go(out.data());
            TLOAD(a, gx);
            set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
            TSTORE<V, G, AtomicType::AtomicAdd>(go, a);
        },
        4));
    EXPECT_EQ(out[7], 4.0f);
}

// Each block stores a tile for its right neighbour and then loads the one
// its left neighbour stored for it: right only after a barrier of all blocks.
void exchange(float* buf, float* out, bool bug) {
    const int64_t b = get_block_idx(), nb = get_block_num();
    V a, t;
    TASSIGN(a, 0);
    TASSIGN(t, 0x400);
    TEXPANDS(a, static_cast<float>(b + 1));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    G mine(buf + b * N), left(buf + (b + nb - 1) % nb * N), go(out + b * N);
    TSTORE(mine, a);  // @ex-store
    if (bug) pipe_barrier(PIPE_ALL);
    else SYNCALL();
    TLOAD(t, left);  // @ex-load
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, t);
}

TEST_F(Checkers, ReadingAnotherBlocksGmWithoutABarrierIsAnInterCoreRace) {
    std::vector<float> buf(2 * N), out(2 * N);
    expect_bug(vec([&] { exchange(buf.data(), out.data(), true); }, 2),
               {race("inter-core-read-after-write", "GM", "@ex-store", "@ex-load"),
                race("inter-core-write-after-read", "GM", "@ex-load", "@ex-store")});
    auto bad = vec([&] { exchange(buf.data(), out.data(), true); }, 2);
    ASSERT_EQ(bad.reports.size(), 2u);
    EXPECT_EQ(bad.reports[0].fix.find("order the blocks: a SYNCALL after "), 0u) << bad.reports[0].fix;
    expect_clean(vec([&] { exchange(buf.data(), out.data(), false); }, 2));
    EXPECT_EQ(out[0], 2.0f);
    EXPECT_EQ(out[N], 1.0f);
}

// The Cube computes a tile into a GM workspace and tells both Vector
// sub-blocks, which load it. The signal must be sent from the pipe that
// stored it (FIX); one sent from PIPE_M fires before the store has landed.
#if PTOSIM_TARGET_A5
void c2v_signal(bool bug) {
    set_intra_block(bug ? PIPE_M : PIPE_FIX, 3);  // @cv-signal
    set_intra_block(bug ? PIPE_M : PIPE_FIX, 19);
}
void c2v_wait() { wait_intra_block(PIPE_MTE2, 3); }
#else
void c2v_signal(bool bug) {
    set_ffts_base_addr(ptosim::Device::get().ffts_ctrl_addr());
    ffts_cross_core_sync(bug ? PIPE_M : PIPE_FIX, 1 | (2 << 4) | (4 << 8));  // @cv-signal
}
void c2v_wait() {
    set_ffts_base_addr(ptosim::Device::get().ffts_ctrl_addr());
    wait_flag_dev(4);
}
#endif

void c2v_vector(float* ws, float* out) {
    c2v_wait();
    V t;
    TASSIGN(t, 0);
    G gw(ws), go(out + get_subblockid() * N);
    TLOAD(t, gw);  // @cv-load
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, t);
}

TEST_F(Checkers, CubeSignallingFromTheWrongPipeRacesTheVectorLoad) {
    CubeData d;
    std::vector<float> out(2 * N);
    auto bad = mix(
        [&] {
            matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None);
            c2v_signal(true);
        },
        [&] { c2v_vector(d.c.data(), out.data()); });
    expect_bug(bad, {race("inter-core-read-after-write", "GM", "@mm-store", "@cv-load")});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].count, 2u);  // both sub-blocks
    EXPECT_EQ(bad.reports[0].sites[0].core, "AIC block 0");
    EXPECT_NE(bad.reports[0].fix.find(PTOSIM_TARGET_A5 ? "with set_intra_block(PIPE_FIX, id) and wait_intra_block"
                                                       : "with ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (flag << 8))"),
              std::string::npos)
        << bad.reports[0].fix;
    expect_clean(mix(
        [&] {
            matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None);
            c2v_signal(false);
        },
        [&] { c2v_vector(d.c.data(), out.data()); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % 7)) << i;
}

// Both Vector sub-blocks storing one tile to one range from one line is a
// warning (pto-isa's A5 mix tests do it with equal data); from two lines,
// or by two blocks, it is corruption.
TEST_F(Checkers, SubBlocksStoringTheSameRangeFromOneLineIsAWarning) {
    auto x = iota_vec(1);
    std::vector<float> out(N);
    auto store_all = [&](bool split_lines) {
        V a;
        TASSIGN(a, 0);
        G gx(x.data()), go(out.data());
        TLOAD(a, gx);
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        if (!split_lines || get_subblockid() == 0) TSTORE(go, a);  // @dup-store
        else TSTORE(go, a);  // @dup-store-other
    };
    auto warn = mix([] {}, [&] { store_all(false); });
    EXPECT_TRUE(warn.st.ok()) << warn.st.message;
    EXPECT_EQ(warn.summaries(), std::vector<std::string>{race("duplicate-store", "GM", "@dup-store", "@dup-store")});
    ASSERT_EQ(warn.reports.size(), 1u);
    EXPECT_EQ(warn.reports[0].severity, "warning");
    EXPECT_EQ(out, x);
    expect_bug(mix([] {}, [&] { store_all(true); }),
               {race("multi-core-corruption", "GM", "@dup-store", "@dup-store-other")});
}

// ------------------------------------------------------------ framework

TEST(CheckConfig, UnknownToolIsAnErrorNamingIt) {
    EXPECT_EQ(ptosim::check::configure("sync,rce"),
              "PTO_SIM_CHECK: unknown tool 'rce'; use a comma list of sync, race, mem, init (or all), e.g. "
              "PTO_SIM_CHECK=sync,race");
    EXPECT_EQ(ptosim::check::configure("sync, race"), "");
    EXPECT_EQ(ptosim::check::tools(), ptosim::check::kSync | ptosim::check::kRace);
    EXPECT_EQ(ptosim::check::configure("all"), "");
    EXPECT_EQ(ptosim::check::tools(), ptosim::check::kAllTools);
    EXPECT_EQ(ptosim::check::configure("race"), "");
    EXPECT_EQ(ptosim::check::tools(), ptosim::check::kRace);
    EXPECT_EQ(ptosim::check::configure(""), "");
    EXPECT_EQ(ptosim::check::tools(), 0u);
}

TEST_F(Checkers, OnlyTheSelectedToolReports) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    ptosim::check::configure("sync");
    auto bad = vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoWait); });
    expect_bug(bad, {sync1("flag-never-waited", "@add-set")});
    ptosim::check::configure("race");
    bad = vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoWait); });
    expect_bug(bad, {race("read-after-write", "UB", "@add-load-a", "@add-add"),
                     race("read-after-write", "UB", "@add-load-b", "@add-add")});
}

TEST_F(Checkers, JsonLogHoldsOneLinePerReport) {
    const std::string path = ::testing::TempDir() + "checkers_log.jsonl";
    std::remove(path.c_str());
    ptosim::check::set_log(path);
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoStoreSync); });
    ptosim::check::set_log("");
    std::ifstream f(path);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(f, line)) lines.push_back(line);
    ASSERT_EQ(lines.size(), 1u);
    const std::string file = bad.reports.at(0).sites[0].loc.file;
    const std::string add = std::to_string(line_of("@add-add")), store = std::to_string(line_of("@add-store"));
    EXPECT_EQ(lines[0],
              "{\"tool\":\"racecheck\",\"kind\":\"read-after-write\",\"severity\":\"error\",\"kernel\":\"checked_kernel\","
              "\"core\":\"AIV block 0\",\"core_type\":\"AIV\",\"block\":0,\"subblock\":0,\"pipes\":[\"PIPE_V\",\"PIPE_MTE3\"],"
              "\"buffer\":\"UB\",\"range\":[2048,3072],\"locations\":[{\"file\":\"" + file + "\",\"line\":" + add +
              ",\"op\":\"TADD\",\"pipe\":\"PIPE_V\",\"core\":\"AIV block 0\",\"access\":\"write\"},{\"file\":\"" + file +
              "\",\"line\":" + store + ",\"op\":\"TSTORE\",\"pipe\":\"PIPE_MTE3\",\"core\":\"AIV block 0\",\"access\":\"read\"}],\"count\":1,\"message\":\"" +
              bad.reports[0].message + "\",\"fix\":\"" + bad.reports[0].fix + "\"}");
}

TEST_F(Checkers, SarifLogNamesRuleAndBothLocations) {
    const std::string path = ::testing::TempDir() + "checkers_log.sarif";
    ptosim::check::set_log(path);
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    vec([&] { vadd(x.data(), y.data(), out.data(), AddBug::NoStoreSync); });
    ptosim::check::set_log("");
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string s = ss.str();
    EXPECT_NE(s.find("\"version\":\"2.1.0\""), std::string::npos);
    EXPECT_NE(s.find("\"ruleId\":\"racecheck/read-after-write\""), std::string::npos) << s;
    EXPECT_NE(s.find("\"startLine\":" + std::to_string(line_of("@add-add"))), std::string::npos) << s;
    EXPECT_NE(s.find("\"startLine\":" + std::to_string(line_of("@add-store"))), std::string::npos) << s;
}

}  // namespace
