// Mutation suite of memcheck, initcheck and racecheck's Cube<->Vector buffer
// accesses (docs/checkers.md): each kernel runs once with one deliberate bug
// and once fixed. The buggy run must produce exactly the expected reports
// (tool, kind, buffer, the source lines found by `// @name` markers) and,
// for one kernel per kind, exactly the expected text; the fixed run must
// report nothing under every tool and compute the right result.
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/pto_sync.hpp>
#include <pto/inst/tmatmul.hpp>
#include "test_isa_ref.hpp"
#include "checker_util.hpp"
#include <acl/acl.h>
#include <ptosim/c_api.h>
#include <ptosim/check.hpp>
#include <algorithm>
#include <fstream>
#include <numeric>

using namespace pto;
using ptosim::check::Report;

namespace {

constexpr int R = 16, C = 16, N = R * C;
using V = Tile<TileType::Vec, float, R, C>;
using G = GlobalTensor<float, TileShape2D<float, R, C>, BaseShape2D<float, R, C>>;

int line_of(const std::string& marker) { return checker_test::marker_line(__FILE__, marker); }

std::string here(const char* marker) { return "test_checkers_mem.cpp:" + std::to_string(line_of(marker)); }

using checker_test::summary;
std::string want(const char* tool, const char* kind, const char* buffer, std::vector<const char*> at) {
    std::string s = std::string(tool) + " " + kind + (*buffer ? " " : "") + buffer;
    for (const char* m : at) s += " " + std::to_string(line_of(m));
    return s;
}

// A report's text with every path shortened to its file name.
std::string text_of(const Report& r) {
    std::string t = ptosim::check::format_text(r);
    for (const auto& site : r.sites) {
        if (!site.loc.file) continue;
        const std::string full = site.loc.file;
        const std::string base = full.substr(full.find_last_of('/') + 1);
        for (size_t p; (p = t.find(full)) != std::string::npos;) t.replace(p, full.size(), base);
    }
    return t;
}

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
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

class MemCheckers : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ptosim::check::configure("all"), "");
        ptosim::check::take_reports();
    }
    void TearDown() override {
        ptosim::check::configure("");
        ptosim::check::take_reports();
    }
    Checked run(ptosim::KernelKind kind, testutil::body_ref aic, testutil::body_ref aiv,
                std::vector<const void*> gm_args = {}, uint32_t blocks = 1) {
        testutil::select_target_soc();
        ptosim::LaunchSpec s;
        s.kernel = "checked_kernel";
        s.site = {__FILE__, __LINE__};
        s.target = testutil::compiled_target();
        s.kind = kind;
        s.block_dim = blocks;
        s.aic_body = aic.function();
        s.aiv_body = testutil::mask_initialised(aiv.function());
        s.gm_args = std::move(gm_args);
        Checked c;
        c.st = ptosim::run_launch(ptosim::Device::get(), s);
        c.reports = ptosim::check::take_reports();
        return c;
    }
    Checked vec(testutil::body_ref body, std::vector<const void*> gm_args = {}) {
        return run(ptosim::KernelKind::Vec, nullptr, std::move(body), std::move(gm_args));
    }
    Checked cube(testutil::body_ref body) { return run(ptosim::KernelKind::Cube, std::move(body), nullptr); }
    Checked mix(testutil::body_ref aic, testutil::body_ref aiv) {
        return run(ptosim::KernelKind::Mix, std::move(aic), std::move(aiv));
    }
    static void expect_bug(const Checked& bad, std::vector<std::string> w,
                           int code = ptosim::err::kVectorCoreException) {
        std::sort(w.begin(), w.end());
        EXPECT_EQ(bad.summaries(), w);
        EXPECT_EQ(bad.st.code, code) << bad.st.message;
    }
    static void expect_clean(const Checked& good) {
        EXPECT_TRUE(good.st.ok()) << good.st.message;
        EXPECT_EQ(good.summaries(), std::vector<std::string>{});
    }
};

std::vector<float> iota_vec(float start) {
    std::vector<float> v(N);
    std::iota(v.begin(), v.end(), start);
    return v;
}

// ------------------------------------------------------------ memcheck: overlapping tiles

// b is placed inside a (16 x 16 floats: 0x400 bytes): loading b overwrites
// the upper half of a, which the add still reads.
void overlapping_add(float* x, float* y, float* out, bool bug) {
    V a, b, o;
    TASSIGN(a, 0);
    TASSIGN(b, bug ? 0x200 : 0x400);
    TASSIGN(o, 0x800);
    G gx(x), gy(y), go(out);
    TLOAD(a, gx);  // @ov-load-a
    TLOAD(b, gy);  // @ov-load-b
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, b);  // @ov-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, TileLoadedIntoAnotherLiveTileIsOverlappingTiles) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { overlapping_add(x.data(), y.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@ov-load-b", "@ov-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(text_of(bad.reports[0]),
              "ptosim: memcheck: error: overlapping-tiles in kernel 'checked_kernel' on AIV block 0: TADD (PIPE_V) at " +
                  here("@ov-add") + " reads the tile at UB [0x0, 0x400) that TLOAD (PIPE_MTE2) at " + here("@ov-load-a") +
                  " wrote, but TLOAD (PIPE_MTE2) at " + here("@ov-load-b") +
                  " wrote another tile over part of it since: the two live tiles share UB [0x200, 0x400)\n"
                  "  fix: give the tile written at " + here("@ov-load-b") +
                  " a TASSIGN address outside UB [0x0, 0x400) (the tile read at " + here("@ov-add") +
                  "), or read that tile before its bytes are reused\n");
    expect_clean(vec([&] { overlapping_add(x.data(), y.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], x[i] + y[i]);
}

// Tiles are judged by their valid rows: two 16 x 16 tiles of which 8 rows
// are valid, 0x200 bytes apart, share storage but no valid row (pto-isa's
// tmax int16 testcase places its tiles so); 0x100 apart they share rows 4-7.
void half_tiles_add(float* x, float* y, float* out, bool bug) {
    using Half = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using GH = GlobalTensor<float, TileShape2D<float, R / 2, C>, BaseShape2D<float, R / 2, C>>;
    Half a(R / 2, C), b(R / 2, C), o(R / 2, C);
    TASSIGN(a, 0);
    TASSIGN(b, bug ? 0x100 : 0x200);
    TASSIGN(o, 0x800);
    GH gx(x), gy(y), go(out);
    TLOAD(a, gx);  // @half-load-a
    TLOAD(b, gy);  // @half-load-b
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, b);  // @half-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, TilesApartInTheirValidRowsDoNotOverlap) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N / 2);
    auto bad = vec([&] { half_tiles_add(x.data(), y.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@half-load-b", "@half-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x100u);
    EXPECT_EQ(bad.reports[0].hi, 0x200u);
    expect_clean(vec([&] { half_tiles_add(x.data(), y.data(), out.data(), false); }));
    for (int i = 0; i < N / 2; ++i) ASSERT_EQ(out[i], x[i] + y[i]);
}

// b is placed at a's address: loading b loses a before the add reads it.
void aliased_add(float* x, float* y, float* out, bool bug) {
    V a, b, o;
    TASSIGN(a, 0);
    TASSIGN(b, bug ? 0 : 0x400);
    TASSIGN(o, 0x800);
    G gx(x), gy(y), go(out);
    TLOAD(a, gx);  // @al-load-a
    TLOAD(b, gy);  // @al-load-b
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, b);  // @al-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, SecondTileLoadedAtTheFirstOnesAddressIsOverlappingTiles) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { aliased_add(x.data(), y.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@al-load-a", "@al-load-b"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(text_of(bad.reports[0]),
              "ptosim: memcheck: error: overlapping-tiles in kernel 'checked_kernel' on AIV block 0: TLOAD (PIPE_MTE2) at " +
                  here("@al-load-b") + " loaded UB [0x0, 0x400) over the tile TLOAD (PIPE_MTE2) at " +
                  here("@al-load-a") + " loaded there before anything read it, and TADD (PIPE_V) at " + here("@al-add") +
                  " reads those bytes as two operands: two tiles at the same address, the first one's data lost\n"
                  "  fix: give the tiles loaded at " + here("@al-load-a") + " and " + here("@al-load-b") +
                  " TASSIGN addresses that do not overlap\n");
    EXPECT_EQ(out[0], 2 * y[0]);  // what the aliased kernel computes: b + b
    expect_clean(vec([&] { aliased_add(x.data(), y.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], x[i] + y[i]);
}

// Writing a view inside a live tile, or a tile over others once they were
// read for the last time, is not an overlap.
TEST_F(MemCheckers, SubTileWritesAndReuseAfterTheLastReadAreClean) {
    auto x = iota_vec(1);
    std::vector<float> out(N), again(N);
    expect_clean(vec([&] {
        using Half = Tile<TileType::Vec, float, R / 2, C>;
        V a, o, c;
        Half top;
        TASSIGN(a, 0);
        TASSIGN(o, 0x400);
        TASSIGN(top, 0);    // the upper half of a
        TASSIGN(c, 0x200);  // over a's lower and o's upper half, once both were read
        G gx(x.data()), go(out.data()), ga(again.data());
        TLOAD(a, gx);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TEXPANDS(top, 1.0f);
        pipe_barrier(PIPE_V);
        TADD(o, a, a);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, o);
        set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        TLOAD(c, gx);
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(ga, c);
    }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], i < N / 2 ? 2.0f : 2 * x[i]) << i;
    EXPECT_EQ(again, x);
}

// The same on the Cube: B's L1 tile is placed inside A's.
constexpr int kT = 16;
using MatT = Tile<TileType::Mat, half, kT, kT, BLayout::ColMajor, kT, kT, SLayout::RowMajor>;
using LeftT = TileLeft<half, kT, kT>;
using RightT = TileRight<half, kT, kT>;
using AccT = TileAcc<float, kT, kT>;

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

// The Cube kernels' common start: A and B loaded into L1, moved into
// L0A/L0B and multiplied into `acc` (L0C 0), every step ordered by its flag,
// so that the bug each kernel carries comes after it.
void matmul_into(CubeData& d, AccT& acc) {
    MatT ma, mb;
    LeftT l;
    RightT r;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x1000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(acc, 0);
    auto ga = ref::gm_nd(d.a.data(), kT, kT, kT);
    auto gb = ref::gm_nd(d.b.data(), kT, kT, kT);
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    TMOV(l, ma);
    TMOV(r, mb);
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc, l, r);
    ISA_SYNC(PIPE_M, PIPE_FIX);
}

// StaleL0A: the matmul's view of the left operand is TASSIGNed to another
// L0A address than the tile the move filled.
enum class CubeBug { None, OverlappingL1, NoLoadB, NoMoveB, StaleL0A };

void matmul(half* a, half* b, float* c, CubeBug bug) {
    MatT ma, mb;
    LeftT l, lm;
    RightT r;
    AccT acc;
    TASSIGN(ma, 0);
    TASSIGN(mb, bug == CubeBug::OverlappingL1 ? 0x100 : 0x1000);
    TASSIGN(l, 0);
    TASSIGN(lm, bug == CubeBug::StaleL0A ? 0x200 : 0);
    TASSIGN(r, 0);
    TASSIGN(acc, 0);
    auto ga = ref::gm_nd(a, kT, kT, kT);
    auto gb = ref::gm_nd(b, kT, kT, kT);
    auto gc = ref::gm_nd(c, kT, kT, kT);
    TLOAD(ma, ga);  // @mm-load-a
    if (bug != CubeBug::NoLoadB) TLOAD(mb, gb);  // @mm-load-b
    ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    TMOV(l, ma);  // @mm-mov-l
    if (bug != CubeBug::NoMoveB) TMOV(r, mb);  // @mm-mov-r
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc, lm, r);  // @mm-matmul
    ISA_SYNC(PIPE_M, PIPE_FIX);
    TSTORE(gc, acc);
}

TEST_F(MemCheckers, CubeL1TilePlacedInsideAnotherIsOverlappingTiles) {
    CubeData d;
    expect_bug(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::OverlappingL1); }),
               {want("memcheck", "overlapping-tiles", "L1", {"@mm-load-b", "@mm-mov-l"})}, ptosim::err::kAiCoreException);
    expect_clean(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

// ------------------------------------------------------------ memcheck: GM outside every allocation

// A host call site in a report, "main+0x4f (./app) at /src/app.cpp:12" between
// `lead` and `tail`, as "<caller> at app.cpp:12": the symbol and the path
// depend on the build, the file and line do not.
std::string shorten_call_site(std::string t, const std::string& lead, const std::string& tail) {
    const size_t from = t.find(lead);
    if (from == std::string::npos) return t;
    const size_t at = t.find(" at ", from + lead.size()), end = t.find(tail, from + lead.size());
    if (at == std::string::npos || end == std::string::npos || at > end) return t;
    const std::string path = t.substr(at + 4, end - at - 4);
    return t.replace(from + lead.size(), end - from - lead.size(), "<caller> at " + path.substr(path.rfind('/') + 1));
}

struct Acl {
    Acl() {
        aclInit(nullptr);
        aclrtSetDevice(0);
    }
    static void* malloc_dev(size_t n) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // @acl-malloc
        return p;
    }
};

// Both kernel arguments are device blocks; the kernel also reads a host
// buffer it reached some other way (here: the lambda captures it).
TEST_F(MemCheckers, GmReadOutsideEveryAllocationIsGmUnallocated) {
    Acl acl;
    auto* x = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto host = iota_vec(1);
    ASSERT_EQ(aclrtMemcpy(x, N * sizeof(float), host.data(), N * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    auto body = [&](bool bug) {
        V a;
        TASSIGN(a, 0);
        G gx(bug ? host.data() : x), go(out);
        TLOAD(a, gx);  // @gm-outside
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, a);
    };
    auto bad = vec([&] { body(true); }, {x, out});
    expect_bug(bad, {want("memcheck", "gm-unallocated", "GM", {"@gm-outside"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    const uint64_t lo = reinterpret_cast<uintptr_t>(host.data()), hi = lo + N * sizeof(float);
    std::string t = text_of(bad.reports[0]);
    // The distance to the block below depends on where the host heap lies.
    const size_t cut = t.find(", which lies in no allocation");
    ASSERT_NE(cut, std::string::npos) << t;
    const size_t resume = t.find("; every pointer argument");
    ASSERT_NE(resume, std::string::npos) << t;
    t.replace(cut, resume - cut, ", which lies in no allocation");
    EXPECT_EQ(t, "ptosim: memcheck: error: gm-unallocated in kernel 'checked_kernel' on AIV block 0: TLOAD (PIPE_MTE2) at " +
                     here("@gm-outside") + " reads GM [" + hex(lo) + ", " + hex(hi) +
                     "), which lies in no allocation; every pointer argument of the launch points into an allocation, "
                     "so the address was computed outside them\n"
                     "  fix: check the offset added to the kernel's GM argument at " + here("@gm-outside") +
                     " (block index x tile size, the GlobalTensor shape and strides) against the size given to "
                     "aclrtMalloc\n");
    // Host-pointer launches (no device arguments) are not judged.
    EXPECT_EQ(vec([&] { body(true); }).summaries(), std::vector<std::string>{});
    expect_clean(vec([&] { body(false); }, {x, out}));
    std::vector<float> back(N);
    ASSERT_EQ(aclrtMemcpy(back.data(), N * sizeof(float), out, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back, host);
    aclrtFree(x);
    aclrtFree(out);
}

// Two matmuls on one Cube: c1 = A x I and c2 = I x A. Each bug places the
// second operand or accumulator over half of the first one while the first
// matmul (or its store) still reads it.
enum class L0Bug { None, L0A, L0B, L0C };

void two_matmuls(CubeData& d, float* c2, L0Bug bug) {
    MatT ma, mb;
    LeftT l1, l2;
    RightT r1, r2;
    AccT acc1, acc2;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x1000);
    TASSIGN(l1, 0);
    TASSIGN(l2, bug == L0Bug::L0A ? 0x100 : 0x200);
    TASSIGN(r1, 0);
    TASSIGN(r2, bug == L0Bug::L0B ? 0x100 : 0x200);
    TASSIGN(acc1, 0);
    TASSIGN(acc2, bug == L0Bug::L0C ? 0x200 : 0x400);
    auto ga = ref::gm_nd(d.a.data(), kT, kT, kT);
    auto gb = ref::gm_nd(d.b.data(), kT, kT, kT);
    auto gc1 = ref::gm_nd(d.c.data(), kT, kT, kT);
    auto gc2 = ref::gm_nd(c2, kT, kT, kT);
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    TMOV(l1, ma);
    TMOV(r1, mb);
    TMOV(l2, mb);  // @two-mov-l2
    TMOV(r2, ma);  // @two-mov-r2
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc1, l1, r1);  // @two-mm-1
    TMATMUL(acc2, l2, r2);  // @two-mm-2
    ISA_SYNC(PIPE_M, PIPE_FIX);
    TSTORE(gc1, acc1);  // @two-store-1
    TSTORE(gc2, acc2);
}

void expect_two_matmuls_fixed(Checked good, const CubeData& d, const std::vector<float>& c2) {
    EXPECT_TRUE(good.st.ok()) << good.st.message;
    EXPECT_EQ(good.summaries(), std::vector<std::string>{});
    for (int i = 0; i < kT * kT; ++i) {
        ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
        ASSERT_EQ(c2[i], static_cast<float>(i % 7)) << i;
    }
}

TEST_F(MemCheckers, L0aTileMovedOverAnotherLiveOneIsOverlappingTiles) {
    CubeData d;
    std::vector<float> c2(kT * kT);
    auto bad = cube([&] { two_matmuls(d, c2.data(), L0Bug::L0A); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "L0A", {"@two-mov-l2", "@two-mm-1"})},
               ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIC block 0");
    EXPECT_EQ(bad.reports[0].lo, 0x100u);
    EXPECT_EQ(bad.reports[0].hi, 0x200u);
    expect_two_matmuls_fixed(cube([&] { two_matmuls(d, c2.data(), L0Bug::None); }), d, c2);
}

TEST_F(MemCheckers, L0bTileMovedOverAnotherLiveOneIsOverlappingTiles) {
    CubeData d;
    std::vector<float> c2(kT * kT);
    auto bad = cube([&] { two_matmuls(d, c2.data(), L0Bug::L0B); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "L0B", {"@two-mov-r2", "@two-mm-1"})},
               ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].count, 1u);
    expect_two_matmuls_fixed(cube([&] { two_matmuls(d, c2.data(), L0Bug::None); }), d, c2);
}

TEST_F(MemCheckers, AccumulatorWrittenOverAnotherBeforeItsStoreIsOverlappingTiles) {
    CubeData d;
    std::vector<float> c2(kT * kT);
    auto bad = cube([&] { two_matmuls(d, c2.data(), L0Bug::L0C); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "L0C", {"@two-mm-2", "@two-store-1"})},
               ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x200u);
    EXPECT_EQ(bad.reports[0].hi, 0x400u);
    expect_two_matmuls_fixed(cube([&] { two_matmuls(d, c2.data(), L0Bug::None); }), d, c2);
}

// A vector result (t = a + a) is TASSIGNed over the lower half of b, which
// the next add still reads.
void result_over_input(float* x, float* y, float* out, bool bug) {
    V a, b, t, o;
    TASSIGN(a, 0);
    TASSIGN(b, 0x400);
    TASSIGN(t, bug ? 0x600 : 0x800);
    TASSIGN(o, 0xc00);
    G gx(x), gy(y), go(out);
    TLOAD(a, gx);
    TLOAD(b, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(t, a, a);  // @vr-double
    pipe_barrier(PIPE_V);
    TADD(o, t, b);  // @vr-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, VectorResultOverALiveInputTileIsOverlappingTiles) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { result_over_input(x.data(), y.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@vr-double", "@vr-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x600u);
    EXPECT_EQ(bad.reports[0].hi, 0x800u);
    expect_clean(vec([&] { result_over_input(x.data(), y.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], 2 * x[i] + y[i]);
}

// Each block loads its tile at x + block * tiles_per_block * tile; the buggy
// kernel was written for three tiles per block and launched with one, so
// block 1 reads 3 KiB into a 2-tile (2 KiB) block: past its end (and its
// aclrtMalloc padding), in the memory ptosim keeps after the block, which
// the device would read as well: a report naming the block, not a fault.
TEST_F(MemCheckers, BlockOffsetPastTheEndOfTheDeviceBlockIsGmPastAllocation) {
    Acl acl;
    auto* x = static_cast<float*>(Acl::malloc_dev(2 * N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(2 * N * sizeof(float)));
    std::vector<float> host(2 * N);
    std::iota(host.begin(), host.end(), 1.0f);
    ASSERT_EQ(aclrtMemcpy(x, 2 * N * 4, host.data(), 2 * N * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    auto body = [&](bool bug) {
        const int64_t b = get_block_idx();
        V a;
        TASSIGN(a, 0);
        const int64_t tiles_per_block = bug ? 3 : 1;
        G gx(x + b * tiles_per_block * N), go(out + b * N);
        TLOAD(a, gx);  // @gm-stride
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, a);
    };
    auto bad = run(ptosim::KernelKind::Vec, nullptr, [&] { body(true); }, {x, out}, 2);
    expect_bug(bad, {want("memcheck", "gm-past-allocation", "GM", {"@gm-stride"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 1");
    EXPECT_NE(bad.reports[0].message.find("runs 2048 bytes past the 2048 bytes requested for the allocation at " +
                                          hex(reinterpret_cast<uintptr_t>(x))),
              std::string::npos)
        << bad.reports[0].message;
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(x) + 3 * N * sizeof(float));
    EXPECT_EQ(bad.reports[0].count, 1u);
    expect_clean(run(ptosim::KernelKind::Vec, nullptr, [&] { body(false); }, {x, out}, 2));
    std::vector<float> back(2 * N);
    ASSERT_EQ(aclrtMemcpy(back.data(), 2 * N * 4, out, 2 * N * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back, host);
    aclrtFree(x);
    aclrtFree(out);
}

// Mix kernels of both targets: the Cube computes A x I into a GM workspace
// and signals both Vector sub-blocks (from PIPE_FIX, after the store).
#if PTOSIM_TARGET_A5
void ws_signal() {
    set_intra_block(PIPE_FIX, 3);
    set_intra_block(PIPE_FIX, 19);
}
void ws_wait() { wait_intra_block(PIPE_MTE2, 3); }
#else
void ws_signal() {
    set_ffts_base_addr(ptosim::Device::get().ffts_ctrl_addr());
    ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (4 << 8));
}
void ws_wait() {
    set_ffts_base_addr(ptosim::Device::get().ffts_ctrl_addr());
    wait_flag_dev(4);
}
#endif

void ws_cube(CubeData& d, float* ws) {
    AccT acc;
    matmul_into(d, acc);
    auto gw = ref::gm_nd(ws, kT, kT, kT);
    TSTORE(gw, acc);
    ws_signal();
}

// Each sub-block adds a bias to the Cube's tile; the buggy bias tile is
// TASSIGNed over the upper half of the workspace tile.
void ws_bias_vector(float* ws, float* bias, float* out, bool bug) {
    ws_wait();
    V w, b, o;
    TASSIGN(w, 0);
    TASSIGN(b, bug ? 0x200 : 0x400);
    TASSIGN(o, 0x800);
    G gw(ws), gb(bias), go(out + get_subblockid() * N);
    TLOAD(w, gw);
    TLOAD(b, gb);  // @mix-load-bias
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, w, b);  // @mix-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, MixVectorBiasLoadedOverTheCubesTileIsOverlappingTiles) {
    CubeData d;
    std::vector<float> ws(N), out(2 * N);
    auto bias = iota_vec(100);
    auto bad = mix([&] { ws_cube(d, ws.data()); }, [&] { ws_bias_vector(ws.data(), bias.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@mix-load-bias", "@mix-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0 sub 0");
    EXPECT_EQ(bad.reports[0].count, 2u);  // both sub-blocks
    expect_clean(mix([&] { ws_cube(d, ws.data()); }, [&] { ws_bias_vector(ws.data(), bias.data(), out.data(), false); }));
    for (int i = 0; i < 2 * N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % N % 7) + bias[i % N]) << i;
}

// ------------------------------------------------------------ initcheck

void add_unloaded(float* x, float* y, float* out, bool bug) {
    V a, b, o;
    TASSIGN(a, 0);
    TASSIGN(b, 0x400);
    TASSIGN(o, 0x800);
    G gx(x), gy(y), go(out);
    TLOAD(a, gx);
    if (!bug) TLOAD(b, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, a, b);  // @init-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
}

TEST_F(MemCheckers, AddOfATileNothingLoadedIsAnUninitializedRead) {
    auto x = iota_vec(1), y = iota_vec(100);
    std::vector<float> out(N);
    auto bad = vec([&] { add_unloaded(x.data(), y.data(), out.data(), true); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "UB", {"@init-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(text_of(bad.reports[0]),
              "ptosim: initcheck: error: uninitialized-read in kernel 'checked_kernel' on AIV block 0: TADD (PIPE_V) at " +
                  here("@init-add") +
                  " reads UB [0x400, 0x800), which nothing wrote in this launch (the read covers UB [0x400, 0x800))\n"
                  "  fix: write these bytes before " + here("@init-add") +
                  " (TLOAD, a vector instruction, TEXPANDS, ...) or check the tile's TASSIGN address and shape; local "
                  "buffers hold nothing defined when a kernel starts\n");
    expect_clean(vec([&] { add_unloaded(x.data(), y.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], x[i] + y[i]);
}

TEST_F(MemCheckers, CubeMoveOfAnUnloadedL1TileIsAnUninitializedRead) {
    CubeData d;
    expect_bug(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::NoLoadB); }),
               {want("initcheck", "uninitialized-read", "L1", {"@mm-mov-r"})}, ptosim::err::kAiCoreException);
    expect_clean(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

// A device block the host never filled: the kernel's read names the block
// and where it was allocated.
TEST_F(MemCheckers, LoadOfADeviceBlockNeverWrittenIsAnUninitializedRead) {
    Acl acl;
    auto* x = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto host = iota_vec(1);
    auto body = [&] {
        V a;
        TASSIGN(a, 0);
        G gx(x), go(out);
        TLOAD(a, gx);  // @init-gm-load
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, a);
    };
    auto bad = vec(body, {x, out});
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@init-gm-load"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    const std::string t = shorten_call_site(text_of(bad.reports[0]), "(aclrtMalloc called from ", "), which");
    const uint64_t lo = reinterpret_cast<uintptr_t>(x);
    EXPECT_EQ(t, "ptosim: initcheck: error: uninitialized-read in kernel 'checked_kernel' on AIV block 0: TLOAD "
                 "(PIPE_MTE2) at " + here("@init-gm-load") + " reads GM [" + hex(lo) + ", " + hex(lo + N * 4) +
                     ") of the 1024-byte device block at " + hex(lo) +
                     " (aclrtMalloc called from <caller> at " + here("@acl-malloc") + "), which neither the host (aclrtMemcpy, aclrtMemset) nor a "
                     "kernel wrote since it was allocated\n"
                     "  fix: copy the input into the block with aclrtMemcpy (or clear it with aclrtMemset) before the "
                     "launch, or write it in the kernel before " + here("@init-gm-load") +
                     "; aclrtMalloc leaves device memory undefined\n");
    // Half written by the host: the read names the other half.
    ASSERT_EQ(aclrtMemcpy(x, N * 2, host.data(), N * 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    bad = vec(body, {x, out});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, lo + N * 2);
    EXPECT_EQ(bad.reports[0].hi, lo + N * 4);
    ASSERT_EQ(aclrtMemcpy(x, N * 4, host.data(), N * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    expect_clean(vec(body, {x, out}));
    // What a kernel stored counts as written for the next launch's load.
    std::swap(x, out);
    expect_clean(vec(body, {x, out}));
    aclrtFree(x);
    aclrtFree(out);
}

TEST_F(MemCheckers, MatmulOfAnL0bTileNeverMovedIsAnUninitializedRead) {
    CubeData d;
    auto bad = cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::NoMoveB); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "L0B", {"@mm-matmul"})}, ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0u);
    EXPECT_EQ(bad.reports[0].hi, 0x200u);
    expect_clean(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

TEST_F(MemCheckers, MatmulOfAnL0aTileAtAnotherAddressThanTheMoveIsAnUninitializedRead) {
    CubeData d;
    auto bad = cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::StaleL0A); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "L0A", {"@mm-matmul"})}, ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x200u);
    EXPECT_EQ(bad.reports[0].hi, 0x400u);
    expect_clean(cube([&] { matmul(d.a.data(), d.b.data(), d.c.data(), CubeBug::None); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

// A load of 8 valid rows, then an add reading the tile with all 16 rows
// valid: rows 8-15 were never written (fixed: the add reads the 8 rows).
void add_past_the_loaded_rows(float* x, float* out, bool bug) {
    using Dyn = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using GH = GlobalTensor<float, TileShape2D<float, R / 2, C>, BaseShape2D<float, R / 2, C>>;
    const int rows = bug ? R : R / 2;
    Dyn loaded(R / 2, C), read(rows, C), o(rows, C);
    TASSIGN(loaded, 0);
    TASSIGN(read, 0);
    TASSIGN(o, 0x800);
    GH gx(x), go(out);
    TLOAD(loaded, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, read, read);  // @rows-add
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    if (!bug) TSTORE(go, o);
}

TEST_F(MemCheckers, AddOfMoreRowsThanTheLoadWroteIsAnUninitializedRead) {
    auto x = iota_vec(1);
    std::vector<float> out(N / 2);
    auto bad = vec([&] { add_past_the_loaded_rows(x.data(), out.data(), true); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "UB", {"@rows-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x200u);
    EXPECT_EQ(bad.reports[0].hi, 0x400u);
    expect_clean(vec([&] { add_past_the_loaded_rows(x.data(), out.data(), false); }));
    for (int i = 0; i < N / 2; ++i) ASSERT_EQ(out[i], 2 * x[i]);
}

// The kernel fills the tile's upper half and, in the buggy version,
// forgets the lower one before storing the whole tile.
void fill_halves(float* out, bool bug) {
    using Half = Tile<TileType::Vec, float, R / 2, C>;
    V t;
    Half top, bottom;
    TASSIGN(t, 0);
    TASSIGN(top, 0);
    TASSIGN(bottom, 0x200);
    TEXPANDS(top, 1.0f);
    if (!bug) TEXPANDS(bottom, 2.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    G go(out);
    TSTORE(go, t);  // @half-store
}

TEST_F(MemCheckers, StoreOfATileWhoseSecondHalfWasNeverWrittenIsAnUninitializedRead) {
    std::vector<float> out(N);
    auto bad = vec([&] { fill_halves(out.data(), true); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "UB", {"@half-store"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, 0x200u);
    EXPECT_EQ(bad.reports[0].hi, 0x400u);
    expect_clean(vec([&] { fill_halves(out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], i < N / 2 ? 1.0f : 2.0f) << i;
}

// aclrtMemset clears only the first half of the input the kernel reads.
TEST_F(MemCheckers, LoadOfADeviceBlockMemsetOnlyInPartIsAnUninitializedRead) {
    Acl acl;
    auto* x = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto body = [&] {
        V a;
        TASSIGN(a, 0);
        G gx(x), go(out);
        TLOAD(a, gx);  // @memset-load
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, a);
    };
    ASSERT_EQ(aclrtMemset(x, N * 4, 0, N * 2), ACL_SUCCESS);
    auto bad = vec(body, {x, out});
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@memset-load"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(x) + N * 2);
    EXPECT_EQ(bad.reports[0].hi, reinterpret_cast<uintptr_t>(x) + N * 4);
    ASSERT_EQ(aclrtMemset(x, N * 4, 0, N * 4), ACL_SUCCESS);
    expect_clean(vec(body, {x, out}));
    aclrtFree(x);
    aclrtFree(out);
}

// A host framework that computes into device memory directly (the
// simulated torch_npu's host-side operators) says so with
// ptosim_host_wrote; only the range it names counts as written.
TEST_F(MemCheckers, HostWritesAnnouncedThroughTheCApiCountAsWritten) {
    Acl acl;
    auto* x = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(N * sizeof(float)));
    auto body = [&] {
        V a;
        TASSIGN(a, 0);
        G gx(x), go(out);
        TLOAD(a, gx);  // @host-wrote-load
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, a);
    };
    for (int i = 0; i < N; ++i) x[i] = static_cast<float>(i);
    ptosim_host_wrote(x, N * 2);
    auto bad = vec(body, {x, out});
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@host-wrote-load"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(x) + N * 2);
    EXPECT_EQ(bad.reports[0].hi, reinterpret_cast<uintptr_t>(x) + N * 4);
    ptosim_host_wrote(x, N * 4);
    expect_clean(vec(body, {x, out}));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], static_cast<float>(i));
    aclrtFree(x);
    aclrtFree(out);
}

// A Cube kernel whose B input was never copied into its device block.
TEST_F(MemCheckers, CubeLoadOfADeviceBlockNeverWrittenIsAnUninitializedRead) {
    Acl acl;
    CubeData d;
    auto* a = static_cast<half*>(Acl::malloc_dev(kT * kT * sizeof(half)));
    auto* b = static_cast<half*>(Acl::malloc_dev(kT * kT * sizeof(half)));
    auto* c = static_cast<float*>(Acl::malloc_dev(kT * kT * sizeof(float)));
    const size_t in_bytes = kT * kT * sizeof(half);
    ASSERT_EQ(aclrtMemcpy(a, in_bytes, d.a.data(), in_bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    auto launch = [&] { return run(ptosim::KernelKind::Cube, [&] { matmul(a, b, c, CubeBug::None); }, nullptr, {a, b, c}); };
    auto bad = launch();
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@mm-load-b"})}, ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIC block 0");
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(b));
    ASSERT_EQ(aclrtMemcpy(b, in_bytes, d.b.data(), in_bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    expect_clean(launch());
    std::vector<float> back(kT * kT);
    ASSERT_EQ(aclrtMemcpy(back.data(), kT * kT * 4, c, kT * kT * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(back[i], static_cast<float>(i % 7)) << i;
    aclrtFree(a);
    aclrtFree(b);
    aclrtFree(c);
}

// One launch stores only block 0's tile of y; the next one, of two blocks,
// reads both tiles: block 1 reads what no kernel wrote.
TEST_F(MemCheckers, LoadOfWhatAnEarlierLaunchLeftUnstoredIsAnUninitializedRead) {
    Acl acl;
    auto* y = static_cast<float*>(Acl::malloc_dev(2 * N * sizeof(float)));
    auto* out = static_cast<float*>(Acl::malloc_dev(2 * N * sizeof(float)));
    auto producer = [&] {
        V t;
        TASSIGN(t, 0);
        TEXPANDS(t, static_cast<float>(get_block_idx() + 1));
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        G gy(y + get_block_idx() * N);
        TSTORE(gy, t);
    };
    auto consumer = [&] {
        V t;
        TASSIGN(t, 0);
        G gy(y + get_block_idx() * N), go(out + get_block_idx() * N);
        TLOAD(t, gy);  // @next-load
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(go, t);
    };
    expect_clean(run(ptosim::KernelKind::Vec, nullptr, producer, {y}, 1));
    auto bad = run(ptosim::KernelKind::Vec, nullptr, consumer, {y, out}, 2);
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@next-load"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 1");
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(y) + N * 4);
    expect_clean(run(ptosim::KernelKind::Vec, nullptr, producer, {y}, 2));
    expect_clean(run(ptosim::KernelKind::Vec, nullptr, consumer, {y, out}, 2));
    std::vector<float> back(2 * N);
    ASSERT_EQ(aclrtMemcpy(back.data(), 2 * N * 4, out, 2 * N * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 2 * N; ++i) ASSERT_EQ(back[i], i < N ? 1.0f : 2.0f) << i;
    aclrtFree(y);
    aclrtFree(out);
}

// A mix kernel whose workspace is a device block: the Cube stores one tile,
// and sub-block 1 loads the tile after it, which nothing wrote.
void ws_read_vector(float* ws, float* out, bool bug) {
    ws_wait();
    V w;
    TASSIGN(w, 0);
    G gw(ws + (bug ? get_subblockid() * N : 0)), go(out + get_subblockid() * N);
    TLOAD(w, gw);  // @mix-ws-load
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, w);
}

TEST_F(MemCheckers, MixVectorLoadOfWorkspaceTheCubeNeverStoredIsAnUninitializedRead) {
    Acl acl;
    CubeData d;
    auto* ws = static_cast<float*>(Acl::malloc_dev(2 * N * sizeof(float)));
    std::vector<float> out(2 * N);
    auto bad = mix([&] { ws_cube(d, ws); }, [&] { ws_read_vector(ws, out.data(), true); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "GM", {"@mix-ws-load"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0 sub 1");
    EXPECT_EQ(bad.reports[0].lo, reinterpret_cast<uintptr_t>(ws) + N * 4);
    expect_clean(mix([&] { ws_cube(d, ws); }, [&] { ws_read_vector(ws, out.data(), false); }));
    for (int i = 0; i < 2 * N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % N % 7)) << i;
    aclrtFree(ws);
}

// ------------------------------------------------------------ memcheck: device memory leaked at aclFinalize

TEST_F(MemCheckers, DeviceBlockNeverFreedIsALeakAtAclFinalize) {
    {
        // What earlier tests of this process left allocated is theirs.
        Acl earlier;
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
        ptosim::check::take_reports();
    }
    {
        Acl acl;
        void* kept = Acl::malloc_dev(N * sizeof(float));
        void* freed = Acl::malloc_dev(2 * N * sizeof(float));
        ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
        auto reports = ptosim::check::take_reports();
        ASSERT_EQ(reports.size(), 1u);
        const Report& r = reports[0];
        EXPECT_EQ(summary(r), "memcheck leak GM 0");
        EXPECT_EQ(r.severity, "error");
        EXPECT_EQ(r.count, 1u);
        EXPECT_EQ(r.lo, reinterpret_cast<uintptr_t>(kept));
        EXPECT_EQ(r.hi, reinterpret_cast<uintptr_t>(kept) + N * 4);
        const std::string t = shorten_call_site(ptosim::check::format_text(r), "aclrtMalloc called from ", " (the first");
        EXPECT_EQ(t, "ptosim: memcheck: error: leak: aclFinalize with 1 device block(s) of 1024 bytes never freed, "
                     "allocated by aclrtMalloc called from <caller> at " + here("@acl-malloc") +
                     " (the first: the 1024-byte block at " +
                         hex(reinterpret_cast<uintptr_t>(kept)) +
                         ")\n  fix: call aclrtFree(ptr) before aclFinalize for every block allocated there\n");
        EXPECT_NE(ptosim::check::format_json(r).find("\"kind\":\"leak\""), std::string::npos);
        // Reported once: a second finalisation does not repeat it.
        Acl again;
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
        EXPECT_EQ(ptosim::check::take_reports().size(), 0u);
        aclrtFree(kept);
    }
    {
        Acl acl;
        void* p = Acl::malloc_dev(N * sizeof(float));
        ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
        EXPECT_EQ(ptosim::check::take_reports().size(), 0u);
    }
    {
        // Without memcheck nothing is watched.
        ASSERT_EQ(ptosim::check::configure("race,init"), "");
        Acl acl;
        void* p = Acl::malloc_dev(N * sizeof(float));
        ASSERT_EQ(ptosim::check::configure("all"), "");
        ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
        EXPECT_EQ(ptosim::check::take_reports().size(), 0u);
        Acl again;
        aclrtFree(p);
    }
}

// ------------------------------------------------------------ racecheck: Cube<->Vector buffers (A5)

#if PTOSIM_TARGET_A5
// The Cube moves its accumulator into Vector sub-block 0's UB (TMOV
// Acc->Vec); the sub-block stores it. Without the intra-block flag the store
// may read UB before the move wrote it.
void acc_to_vec_cube(CubeData& d, bool bug) {
    AccT acc;
    matmul_into(d, acc);
    V v;
    TASSIGN(v, 0x2000);
    TMOV(v, acc);  // @cv-tmov
    if (!bug) set_intra_block(PIPE_FIX, 4);
}

void acc_to_vec_vector(float* out, bool bug) {
    if (get_subblockid() != 0) return;
    if (!bug) wait_intra_block(PIPE_MTE3, 4);
    V v;
    TASSIGN(v, 0x2000);
    G go(out);
    TSTORE(go, v);  // @cv-store
}

TEST_F(MemCheckers, VectorStoreOfAnAccMoveWithoutTheIntraBlockFlagRaces) {
    CubeData d;
    std::vector<float> out(N);
    auto bad = mix([&] { acc_to_vec_cube(d, true); }, [&] { acc_to_vec_vector(out.data(), true); });
    expect_bug(bad, {want("racecheck", "inter-core-read-after-write", "UB", {"@cv-tmov", "@cv-store"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(text_of(bad.reports[0]),
              "ptosim: racecheck: error: inter-core-read-after-write in kernel 'checked_kernel' on AIV block 0 sub 0: "
              "TSTORE (PIPE_MTE3) at " + here("@cv-store") + " on AIV block 0 sub 0 reads UB [0x2000, 0x2400) that TMOV "
              "(PIPE_FIX) at " + here("@cv-tmov") + " on AIC block 0 writes; no cross-core flag or SYNCALL orders the "
              "two cores\n"
              "  fix: after " + here("@cv-tmov") + " signal from AIC block 0 with set_intra_block(PIPE_FIX, id) and "
              "wait_intra_block(pipe, id) on AIV block 0 sub 0 before " + here("@cv-store") + "\n");
    expect_clean(mix([&] { acc_to_vec_cube(d, false); }, [&] { acc_to_vec_vector(out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % 7)) << i;
}

// Vector sub-block 0 inserts a tile into the Cube's L1 (TINSERT Vec->Mat);
// the Cube moves it on to L0A. Without the flag the move may read L1 first.
void vec_to_mat_cube(CubeData& d, bool bug) {
    MatT ma, mb;
    LeftT l;
    RightT r;
    AccT acc;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x1000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(acc, 0);
    auto gb = ref::gm_nd(d.b.data(), kT, kT, kT);
    auto gc = ref::gm_nd(d.c.data(), kT, kT, kT);
    TLOAD(mb, gb);
    ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
    if (!bug) wait_intra_block(PIPE_MTE1, 5);
    TMOV(l, ma);  // @vm-mov
    TMOV(r, mb);
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc, l, r);
    ISA_SYNC(PIPE_M, PIPE_FIX);
    TSTORE(gc, acc);
}

void vec_to_mat_vector(CubeData& d, bool bug) {
    if (get_subblockid() != 0) return;
    using Nz = Tile<TileType::Vec, half, kT, kT, BLayout::ColMajor, kT, kT, SLayout::RowMajor>;
    using Nd = Tile<TileType::Vec, half, kT, kT>;
    Nd nd;
    Nz nz;
    TASSIGN(nd, 0);
    TASSIGN(nz, 0x1000);
    auto ga = ref::gm_nd(d.a.data(), kT, kT, kT);
    TLOAD(nd, ga);
    ISA_SYNC(PIPE_MTE2, PIPE_V);
    TMOV(nz, nd);
    ISA_SYNC(PIPE_V, PIPE_MTE3);
    MatT ma;
    TASSIGN(ma, 0);
    TINSERT(ma, nz, 0, 0);  // @vm-insert
    if (!bug) set_intra_block(PIPE_MTE3, 5);
}

TEST_F(MemCheckers, CubeMoveOfATileAVectorInsertsWithoutTheFlagRaces) {
    CubeData d;
    // ptosim runs the Cube until it blocks: its move reads L1 first, before
    // anything was inserted, and the insert then overwrites what it read.
    auto bad = mix([&] { vec_to_mat_cube(d, true); }, [&] { vec_to_mat_vector(d, true); });
    expect_bug(bad,
               {want("initcheck", "uninitialized-read", "L1", {"@vm-mov"}),
                want("racecheck", "inter-core-write-after-read", "L1", {"@vm-mov", "@vm-insert"})},
               ptosim::err::kAiCoreException);
    ASSERT_EQ(bad.reports.size(), 2u);
    const Report& race = bad.reports[0].tool == "racecheck" ? bad.reports[0] : bad.reports[1];
    EXPECT_EQ(race.sites[0].core, "AIC block 0");
    EXPECT_EQ(race.core, "AIV block 0 sub 0");
    EXPECT_NE(race.fix.find("with set_intra_block(PIPE_MTE1, id) and wait_intra_block(pipe, id) on AIV block 0 sub 0"),
              std::string::npos)
        << race.fix;
    expect_clean(mix([&] { vec_to_mat_cube(d, false); }, [&] { vec_to_mat_vector(d, false); }));
    for (int i = 0; i < kT * kT; ++i) ASSERT_EQ(d.c[i], static_cast<float>(i % 7)) << i;
}

// A Cube->Vector FIFO through UB (TPUSH TMOV_C2UB, TPOP): the consumer that
// does not wait for the entry reads UB the Cube's move may not have written.
using VecHalf = Tile<TileType::Vec, float, R / 2, C>;
using UbPipe = TPipe<6, FIFOType::VEC_FIFO, 2, 1, AccT, VecHalf, TSyncOpType::TMOV_C2UB, TSyncOpType::NONE>;
constexpr uint64_t kRing = 0x4000;

void fifo_cube(CubeData& d) {
    AccT acc;
    matmul_into(d, acc);
    VecHalf first;
    TASSIGN(first, kRing);
    UbPipe pipe(first);
    pipe.prod.setTileId(0, 0);
    pipe.prod.setAllocateStatus(false);
    pipe.prod.setRecordStatus(true);
    TPUSH(acc, pipe);  // @fifo-push
}

void fifo_vector(float* out, bool bug) {
    VecHalf first;
    TASSIGN(first, kRing);
    UbPipe pipe(&first);
    pipe.cons.setTileId(0, 0);
    pipe.cons.setWaitStatus(!bug);
    pipe.cons.setFreeStatus(false);
    TPOP(first, pipe);
    using GHalf = GlobalTensor<float, TileShape2D<float, R / 2, C>, BaseShape2D<float, R / 2, C>>;
    GHalf go(out + get_subblockid() * (N / 2));
    TSTORE(go, first);  // @fifo-store
}

TEST_F(MemCheckers, FifoConsumerThatDoesNotWaitRacesTheProducersMove) {
    CubeData d;
    std::vector<float> out(N);
    auto bad = mix([&] { fifo_cube(d); }, [&] { fifo_vector(out.data(), true); });
    // Both sub-blocks: each reads its half in its own UB; the entry's signal
    // is then never consumed.
    expect_bug(bad, {want("racecheck", "inter-core-read-after-write", "UB", {"@fifo-push", "@fifo-store"}),
                     want("synccheck", "cross-core-flag-left-set", "", {"@fifo-push"})});
    for (const Report& r : bad.reports) EXPECT_EQ(r.count, 2u) << r.message;
    expect_clean(mix([&] { fifo_cube(d); }, [&] { fifo_vector(out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % 7)) << i;
}

// The Cube moves its accumulator into sub-block 0's UB over the upper half
// of a tile the sub-block loaded and still adds.
void acc_over_vec_cube(CubeData& d, bool bug) {
    AccT acc;
    matmul_into(d, acc);
    V v;
    TASSIGN(v, bug ? 0x2200 : 0x2400);
    wait_intra_block(PIPE_FIX, 6);
    TMOV(v, acc);  // @cvo-tmov
    set_intra_block(PIPE_FIX, 7);
}

void acc_over_vec_vector(float* x, float* out, bool bug) {
    if (get_subblockid() != 0) return;
    V a, v, o;
    TASSIGN(a, 0x2000);
    TASSIGN(v, bug ? 0x2200 : 0x2400);
    TASSIGN(o, 0x3000);
    G gx(x), go(out);
    TLOAD(a, gx);
    set_intra_block(PIPE_MTE2, 6);
    ISA_SYNC(PIPE_MTE2, PIPE_V);
    wait_intra_block(PIPE_V, 7);
    TADD(o, a, v);  // @cvo-add
    ISA_SYNC(PIPE_V, PIPE_MTE3);
    TSTORE(go, o);
}

TEST_F(MemCheckers, CubeMoveIntoVectorUbOverALiveTileIsOverlappingTiles) {
    CubeData d;
    auto x = iota_vec(100);
    std::vector<float> out(N);
    auto bad = mix([&] { acc_over_vec_cube(d, true); }, [&] { acc_over_vec_vector(x.data(), out.data(), true); });
    expect_bug(bad, {want("memcheck", "overlapping-tiles", "UB", {"@cvo-tmov", "@cvo-add"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0 sub 0");
    EXPECT_EQ(bad.reports[0].sites[0].core, "AIC block 0");
    expect_clean(mix([&] { acc_over_vec_cube(d, false); }, [&] { acc_over_vec_vector(x.data(), out.data(), false); }));
    for (int i = 0; i < N; ++i) ASSERT_EQ(out[i], x[i] + static_cast<float>(i % 7)) << i;
}

// Both sub-blocks store the Cube's result from their own UB; the buggy Cube
// moves it into sub-block 0's UB only (TMOV's default SingleModeVec0).
void acc_to_both_cube(CubeData& d, bool bug) {
    AccT acc;
    matmul_into(d, acc);
    V v;
    TASSIGN(v, 0x2000);
    TMOV(v, acc);
    if (!bug) TMOV<V, AccT, AccToVecMode::SingleModeVec1>(v, acc);
    set_intra_block(PIPE_FIX, 8);
    set_intra_block(PIPE_FIX, 24);
}

void acc_to_both_vector(float* out) {
    wait_intra_block(PIPE_MTE3, 8);
    V v;
    TASSIGN(v, 0x2000);
    G go(out + get_subblockid() * N);
    TSTORE(go, v);  // @both-store
}

TEST_F(MemCheckers, SubBlockStoringUbTheCubeNeverMovedIntoIsAnUninitializedRead) {
    CubeData d;
    std::vector<float> out(2 * N);
    auto bad = mix([&] { acc_to_both_cube(d, true); }, [&] { acc_to_both_vector(out.data()); });
    expect_bug(bad, {want("initcheck", "uninitialized-read", "UB", {"@both-store"})});
    ASSERT_EQ(bad.reports.size(), 1u);
    EXPECT_EQ(bad.reports[0].core, "AIV block 0 sub 1");
    EXPECT_EQ(bad.reports[0].count, 1u);
    expect_clean(mix([&] { acc_to_both_cube(d, false); }, [&] { acc_to_both_vector(out.data()); }));
    for (int i = 0; i < 2 * N; ++i) ASSERT_EQ(out[i], static_cast<float>(i % N % 7)) << i;
}
#endif

}  // namespace
