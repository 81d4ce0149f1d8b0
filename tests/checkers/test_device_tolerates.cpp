// What the device tolerates (docs/semantics.md, "Faults and reports"): each
// kernel below breaks a rule the device does not check. By default it runs to
// the end with the device's result; under memcheck the same launch is a
// report at the kernel's line; with PTO_SIM_STRICT (check::set_strict) it is
// a fault at that line again.
#include <pto/inst/elementwise_fused.hpp>
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/layout.hpp>
#include <pto/inst/pto_sync.hpp>
#include <pto/inst/quant.hpp>
#include <pto/inst/rearrange.hpp>
#include <pto/inst/reduce.hpp>
#include "test_isa_ref.hpp"
#include "checker_util.hpp"
#include <acl/acl.h>
#include <ptosim/check.hpp>
#include <ptosim/intrinsics.hpp>
#include <cstring>
#include <numeric>

using namespace pto;
using ptosim::check::Report;

namespace {

int line_of(const std::string& marker) { return checker_test::marker_line(__FILE__, marker); }
// As reports and faults print a location: the compiler's path of this file.
std::string here(const char* marker) { return std::string(__FILE__) + ":" + std::to_string(line_of(marker)); }

struct Outcome {
    ptosim::Status st;
    std::vector<Report> reports;
    std::string err;  // what the launch printed on stderr
};

// Runs one launch with `tools` selected and strict mode as given.
Outcome launch(const char* tools, bool strict, ptosim::KernelKind kind, testutil::body_ref aic,
               testutil::body_ref aiv, std::vector<const void*> gm_args = {}) {
    EXPECT_EQ(ptosim::check::configure(tools), "");
    ptosim::check::set_strict(strict);
    ptosim::check::take_reports();
    testutil::select_target_soc();
    ptosim::LaunchSpec s;
    s.kernel = "tolerated_kernel";
    s.site = {__FILE__, __LINE__};
    s.target = testutil::compiled_target();
    s.kind = kind;
    s.block_dim = 1;
    s.aic_body = aic.function();
    s.aiv_body = testutil::mask_initialised(aiv.function());
    s.gm_args = std::move(gm_args);
    Outcome o;
    ::testing::internal::CaptureStderr();
    o.st = ptosim::run_launch(ptosim::Device::get(), s);
    o.err = ::testing::internal::GetCapturedStderr();
    o.reports = ptosim::check::take_reports();
    ptosim::check::configure("");
    ptosim::check::set_strict(false);
    return o;
}

Outcome vec(const char* tools, bool strict, testutil::body_ref body, std::vector<const void*> gm_args = {}) {
    return launch(tools, strict, ptosim::KernelKind::Vec, nullptr, std::move(body), std::move(gm_args));
}

struct Acl {
    Acl() {
        aclInit(nullptr);
        aclrtSetDevice(0);
    }
};

// ------------------------------------------------------------ TGATHER with fewer valid columns than Cols

constexpr int kGC = 64, kValid = 40;
using Row = Tile<TileType::Vec, float, 1, kGC>;
using Idx = Tile<TileType::Vec, int32_t, 1, kGC>;
using PartRow = Tile<TileType::Vec, float, 1, kGC, BLayout::RowMajor, 1, DYNAMIC>;

void gather_partial_row(float* src, int32_t* idx, float* out) {
    Row s, whole;
    Idx i, tmp;
    PartRow d(kValid);
    TASSIGN(s, 0);
    TASSIGN(whole, 0x400);
    TASSIGN(d, 0x400);
    TASSIGN(i, 0x800);
    TASSIGN(tmp, 0xC00);
    GlobalTensor<float, TileShape2D<float, 1, kGC>, BaseShape2D<float, 1, kGC>> gs(src), go(out);
    GlobalTensor<int32_t, TileShape2D<int32_t, 1, kGC>, BaseShape2D<int32_t, 1, kGC>> gi(idx);
    TLOAD(s, gs);
    TLOAD(whole, go);  // the sentinel: columns the gather leaves alone keep it
    TLOAD(i, gi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TGATHER(d, s, i, tmp);  // @gather-partial
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, whole);
}

TEST(DeviceTolerates, TgatherWithFewerValidColumnsThanColsRunsAsTheReleaseBuild) {
    std::vector<float> src(kGC), out(kGC, -1.0f), want(kGC, -1.0f);
    std::vector<int32_t> idx(kGC);
    std::iota(src.begin(), src.end(), 100.0f);
    for (int c = 0; c < kGC; ++c) idx[c] = (c * 7 + 3) % kGC;
    // pto-isa's release build gathers the valid columns at dst's row pitch
    // and leaves the rest (npu/a2a3/TGather.hpp: a counter-mode mask of validCol).
    for (int c = 0; c < kValid; ++c) want[c] = src[idx[c]];
    auto body = [&] { gather_partial_row(src.data(), idx.data(), out.data()); };

    Outcome plain = vec("", false, body);
    ASSERT_TRUE(plain.st.ok()) << plain.st.message;
    EXPECT_EQ(out, want);
    EXPECT_TRUE(plain.reports.empty());
    EXPECT_NE(plain.err.find("ptosim: memcheck: note: debug-only-contract in kernel 'tolerated_kernel' on AIV block 0: "
                             "TGATHER at " + here("@gather-partial") +
                             ": dst.GetValidCol() (40) differs from dst's Cols (64)"),
              std::string::npos)
        << plain.err;

    std::fill(out.begin(), out.end(), -1.0f);
    Outcome checked = vec("mem", false, body);
    EXPECT_EQ(checked.st.code, ptosim::err::kVectorCoreException) << checked.st.message;
    EXPECT_EQ(out, want);  // a checked launch still runs to the end
    ASSERT_EQ(checked.reports.size(), 1u);
    const Report& r = checked.reports[0];
    EXPECT_EQ(checker_test::summary(r), "memcheck debug-only-contract " + std::to_string(line_of("@gather-partial")));
    EXPECT_EQ(r.kernel, "tolerated_kernel");
    EXPECT_EQ(r.core, "AIV block 0");
    EXPECT_EQ(r.severity, "error");
    EXPECT_NE(r.message.find("the release build gathers the 40 valid columns of each valid row at dst's row pitch"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.fix.find("declare dst with Cols equal to its valid columns"), std::string::npos) << r.fix;

    Outcome strict = vec("", true, body);
    EXPECT_EQ(strict.st.code, ptosim::err::kVectorCoreException);
    EXPECT_NE(strict.st.message.find("faulted on AIV block 0 at " + here("@gather-partial") + ": TGATHER at"),
              std::string::npos)
        << strict.st.message;
    EXPECT_NE(strict.st.message.find("PTO_SIM_STRICT makes it a fault"), std::string::npos) << strict.st.message;
}

// ------------------------------------------------------------ TCOLSUM with a tmp narrower than the source

using Src8 = Tile<TileType::Vec, float, 8, 32>;
using Sum8 = Tile<TileType::Vec, float, 1, 32>;
using NarrowTmp = Tile<TileType::Vec, float, 4, 16>;

void col_sum_narrow_tmp(float* src, float* out) {
    Src8 s;
    Sum8 d;
    NarrowTmp tmp;
    TASSIGN(s, 0);
    TASSIGN(d, 0x800);
    TASSIGN(tmp, 0x1000);
    GlobalTensor<float, TileShape2D<float, 8, 32>, BaseShape2D<float, 8, 32>> gs(src);
    GlobalTensor<float, TileShape2D<float, 1, 32>, BaseShape2D<float, 1, 32>> go(out);
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TCOLSUM(d, s, tmp, true);  // @colsum-narrow
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
}

TEST(DeviceTolerates, TcolsumWithATmpNarrowerThanTheSourceRunsAndIsReported) {
    std::vector<float> src(8 * 32), out(32, -1.0f), want(32);
    std::iota(src.begin(), src.end(), 1.0f);
    for (int c = 0; c < 32; ++c)
        for (int r = 0; r < 8; ++r) want[c] += src[r * 32 + c];  // small integers: every order is exact
    auto body = [&] { col_sum_narrow_tmp(src.data(), out.data()); };

    Outcome plain = vec("", false, body);
    ASSERT_TRUE(plain.st.ok()) << plain.st.message;
    EXPECT_EQ(out, want);
    EXPECT_NE(plain.err.find("debug-only-contract in kernel 'tolerated_kernel' on AIV block 0: TCOLSUM at " +
                             here("@colsum-narrow") + ": with isBinary the tmp rows (16 elements) are shorter than "
                             "the source's valid columns (32)"),
              std::string::npos)
        << plain.err;

    Outcome checked = vec("mem", false, body);
    ASSERT_EQ(checked.reports.size(), 1u);
    EXPECT_EQ(checker_test::summary(checked.reports[0]),
              "memcheck debug-only-contract " + std::to_string(line_of("@colsum-narrow")));
    EXPECT_EQ(checked.reports[0].fix, "give tmp at least 32 columns of the source's element type");
}

// ------------------------------------------------------------ valid shapes pto-isa asserts only in debug builds

template <class T, int R, int C>
using Gm = GlobalTensor<T, TileShape2D<T, R, C>, BaseShape2D<T, R, C>>;

void v_after_mte2() {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
void mte3_after_v() {
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
}

// One operand's valid shape breaks a rule pto-isa checks with PTO_ASSERT
// only: by default the launch succeeds with the release build's result and a
// note naming the op and line; memcheck reports it once at that line (the
// results still written); strict mode faults there. `check` looks at the
// results, `reset` puts the outputs back before the next run.
void expect_release_result(const std::function<void()>& body, const std::function<void()>& reset,
                           const std::function<void()>& check, const char* marker, const std::string& op,
                           const std::string& what, const std::string& release, const std::string& fix) {
    const std::string at = op + " at " + here(marker) + ": ";
    Outcome plain = vec("", false, body);
    ASSERT_TRUE(plain.st.ok()) << plain.st.message;
    check();
    EXPECT_TRUE(plain.reports.empty());
    EXPECT_NE(plain.err.find("ptosim: memcheck: note: debug-only-contract in kernel 'tolerated_kernel' on AIV block 0: " +
                             at + what + "; pto-isa states this rule, but only its debug build checks it: " + release),
              std::string::npos)
        << plain.err;

    reset();
    Outcome checked = vec("mem", false, body);
    EXPECT_EQ(checked.st.code, ptosim::err::kVectorCoreException) << checked.st.message;
    check();
    ASSERT_EQ(checked.reports.size(), 1u);
    EXPECT_EQ(checker_test::summary(checked.reports[0]), "memcheck debug-only-contract " + std::to_string(line_of(marker)));
    EXPECT_EQ(checked.reports[0].fix, fix);

    reset();
    Outcome strict = vec("", true, body);
    EXPECT_EQ(strict.st.code, ptosim::err::kVectorCoreException);
    EXPECT_NE(strict.st.message.find("faulted on AIV block 0 at " + here(marker) + ": " + at + what), std::string::npos)
        << strict.st.message;
}

// A row reduction into a dst of fewer valid rows than the source: the
// release build loops over the source's rows (npu/a2a3/TRowSum.hpp,
// npu/a5/TRowReduce.hpp) and writes all 8 sums.
constexpr int kRR = 8, kRC = 16;
using RowSrc = Tile<TileType::Vec, float, kRR, kRC>;
using RowSums = Tile<TileType::Vec, float, kRR, 1, BLayout::ColMajor, DYNAMIC, 1>;
using RowSumsBytes = Tile<TileType::Vec, float, 1, kRR>;  // the same bytes, ND

void row_sum_short_dst(float* src, float* out) {
    RowSrc s, tmp;
    RowSums d(4);
    RowSumsBytes whole;
    TASSIGN(s, 0);
    TASSIGN(tmp, 0x400);
    TASSIGN(d, 0x800);
    TASSIGN(whole, 0x800);
    Gm<float, kRR, kRC> gs(src);
    Gm<float, 1, kRR> go(out);
    TLOAD(s, gs);
    v_after_mte2();
    TROWSUM(d, s, tmp);  // @rowsum-short
    mte3_after_v();
    TSTORE(go, whole);
}

TEST(DeviceTolerates, RowReductionIntoFewerValidRowsWritesTheSourcesRows) {
    std::vector<float> src(kRR * kRC), out(kRR, -1.0f), want(kRR, 0.0f);
    std::iota(src.begin(), src.end(), 1.0f);
    for (int r = 0; r < kRR; ++r)
        for (int c = 0; c < kRC; ++c) want[r] += src[r * kRC + c];  // small integers: every order is exact
    expect_release_result([&] { row_sum_short_dst(src.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@rowsum-short", "TROWSUM", "dst's valid shape 4x1 differs from 8x1 (the source's valid rows)",
                          "the release build writes dst over 8x1 and ignores its own valid shape",
                          "set dst's valid shape to 8x1");
}

// A column reduction into a dst of fewer valid columns: the release build
// folds the source's 32 columns (npu/a2a3/TColMax.hpp, npu/a5/TColMax.hpp).
constexpr int kCR = 4, kCC = 32;
using ColSrc = Tile<TileType::Vec, float, kCR, kCC>;
using ColOut = Tile<TileType::Vec, float, 1, kCC, BLayout::RowMajor, 1, DYNAMIC>;
using ColOutWhole = Tile<TileType::Vec, float, 1, kCC>;

void col_max_short_dst(float* src, float* out) {
    ColSrc s;
    ColOut d(16);
    ColOutWhole whole;
    TASSIGN(s, 0);
    TASSIGN(d, 0x400);
    TASSIGN(whole, 0x400);
    Gm<float, kCR, kCC> gs(src);
    Gm<float, 1, kCC> go(out);
    TLOAD(s, gs);
    v_after_mte2();
    TCOLMAX(d, s);  // @colmax-short
    mte3_after_v();
    TSTORE(go, whole);
}

TEST(DeviceTolerates, ColumnReductionIntoFewerValidColumnsWritesTheSourcesColumns) {
    std::vector<float> src(kCR * kCC), out(kCC, -1.0f), want(kCC);
    for (int i = 0; i < kCR * kCC; ++i) src[i] = static_cast<float>((i * 37) % 101);
    for (int c = 0; c < kCC; ++c)
        for (int r = 0; r < kCR; ++r) want[c] = std::max(r ? want[c] : src[c], src[r * kCC + c]);
    expect_release_result([&] { col_max_short_dst(src.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@colmax-short", "TCOLMAX",
                          "dst's valid shape 1x16 differs from 1x32 (the source's valid columns)",
                          "the release build writes dst over 1x32 and ignores its own valid shape",
                          "set dst's valid shape to 1x32");
}

// TPAIRREDUCESUM with a src0 of fewer valid columns than dst: the release
// build reads src0 over dst's valid shape (npu/{a2a3,a5}/TPairReduceSum.hpp).
using PairRow = Tile<TileType::Vec, float, 1, 32>;
using PairPart = Tile<TileType::Vec, float, 1, 32, BLayout::RowMajor, 1, DYNAMIC>;

void pair_sum_short_src(float* src, float* out) {
    PairRow whole, d;
    PairPart s(20);
    TASSIGN(whole, 0);
    TASSIGN(s, 0);
    TASSIGN(d, 0x400);
    Gm<float, 1, 32> gs(src), go(out);
    TLOAD(whole, gs);
    v_after_mte2();
    TPAIRREDUCESUM(d, s);  // @pair-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, PairReduceSumReadsSrc0OverDstsValidShape) {
    std::vector<float> src(32), out(32, -1.0f), want(32, 0.0f);
    std::iota(src.begin(), src.end(), 1.0f);
    for (int k = 0; k < 16; ++k) want[k] = src[2 * k] + src[2 * k + 1];
    expect_release_result([&] { pair_sum_short_src(src.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@pair-short", "TPAIRREDUCESUM", "src0's valid shape 1x20 differs from 1x32 (dst's valid shape)",
                          "the release build reads src0 over 1x32 and ignores its own valid shape",
                          "give src0 dst's valid shape 1x32");
}

// TCMP reads src1 over src0's valid shape (npu/a2a3/TCmp.hpp,
// npu/a5/TCmp.hpp); TCMPS writes src0's valid rows of the mask.
using MaskE = std::conditional_t<PTOSIM_TARGET_A5, uint32_t, uint8_t>;
constexpr int kMaskCols = 32 / sizeof(MaskE);
using CmpRow = Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, DYNAMIC>;
using CmpRows = Tile<TileType::Vec, float, 2, 64>;
using Mask = Tile<TileType::Vec, MaskE, 2, kMaskCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using MaskWhole = Tile<TileType::Vec, uint8_t, 2, 32>;

void cmp_short_src1(float* a, float* b, uint8_t* out) {
    CmpRow s0(64), s1(32), s1whole(64);
    Mask m(1, kMaskCols);
    MaskWhole whole;
    TASSIGN(s0, 0);
    TASSIGN(s1, 0x400);
    TASSIGN(s1whole, 0x400);
    TASSIGN(m, 0x800);
    TASSIGN(whole, 0x800);
    Gm<float, 1, 64> ga(a), gb(b);
    Gm<uint8_t, 2, 32> go(out);
    TLOAD(s0, ga);
    TLOAD(s1whole, gb);
    TLOAD(whole, go);
    v_after_mte2();
    TCMP(m, s0, s1, CmpMode::EQ);  // @cmp-short
    mte3_after_v();
    TSTORE(go, whole);
}

void cmps_short_mask(float* a, uint8_t* out) {
    CmpRows s;
    Mask m(1, kMaskCols);
    MaskWhole whole;
    TASSIGN(s, 0);
    TASSIGN(m, 0x800);
    TASSIGN(whole, 0x800);
    Gm<float, 2, 64> ga(a);
    Gm<uint8_t, 2, 32> go(out);
    TLOAD(s, ga);
    TLOAD(whole, go);
    v_after_mte2();
    TCMPS(m, s, 1.0f, CmpMode::EQ);  // @cmps-short
    mte3_after_v();
    TSTORE(go, whole);
}

// Equal at even columns only: each mask byte is 0b01010101.
std::vector<float> even_ones(int n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = i % 2 ? 3.0f : 1.0f;
    return v;
}

TEST(DeviceTolerates, CmpReadsSrc1OverSrc0sValidShape) {
    std::vector<float> a = even_ones(64), b(64, 1.0f);
    std::vector<uint8_t> out(64, 0xAB);
    auto check = [&] {
        for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 0x55) << i;  // 64 bits: src1's 32 invalid columns compared too
    };
    expect_release_result([&] { cmp_short_src1(a.data(), b.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), 0xAB); }, check, "@cmp-short", "TCMP",
                          "src1's valid shape 1x32 differs from 1x64 (src0's valid shape)",
                          "the release build reads src1 over 1x64 and ignores its own valid shape",
                          "give src1 src0's valid shape");
}

TEST(DeviceTolerates, CmpsWritesSrc0sValidRowsOfTheMask) {
    std::vector<float> a = even_ones(128);
    std::vector<uint8_t> out(64, 0xAB);
    // A2A3 packs each row into its own mask row; A5 packs the region linearly.
    const int second = PTOSIM_TARGET_A5 ? 8 : 32;
    auto check = [&] {
        for (int i = 0; i < 8; ++i) {
            EXPECT_EQ(out[i], 0x55) << i;
            EXPECT_EQ(out[second + i], 0x55) << second + i;
        }
    };
    expect_release_result([&] { cmps_short_mask(a.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), 0xAB); }, check, "@cmps-short", "TCMPS",
                          "dst's valid shape 1x" + std::to_string(kMaskCols) + " differs from 2x" +
                              std::to_string(kMaskCols) + " (src0's valid rows)",
                          "the release build writes dst over 2x" + std::to_string(kMaskCols) +
                              " and ignores its own valid shape",
                          "set dst's valid rows to src0's (2)");
}

// TROWEXPANDADD with a per-row DN operand of fewer valid rows than dst: both
// targets' release builds take src0 (dst's valid shape) as the full tile and
// read one value of src1 for each of dst's 8 valid rows (a2a3 vbrcb,
// a5 TRowExpandBinOps_2D_NoPostUpdate), past src1's 4.
using RexFull = Tile<TileType::Vec, float, 8, 16>;
using RexVec = Tile<TileType::Vec, float, 8, 1, BLayout::ColMajor, DYNAMIC, 1>;
using RexVecBytes = Tile<TileType::Vec, float, 1, 8>;

void row_expand_add_short_vec(float* a, float* b, float* out) {
    RexFull s0, d;
    RexVec s1(4);
    RexVecBytes whole;
    TASSIGN(s0, 0);
    TASSIGN(s1, 0x400);
    TASSIGN(whole, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 8, 16> ga(a), go(out);
    Gm<float, 1, 8> gb(b);
    TLOAD(s0, ga);
    TLOAD(whole, gb);
    v_after_mte2();
    TROWEXPANDADD(d, s0, s1);  // @rowexpandadd-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, RowExpandAddReadsDstsValidRowsOfThePerRowOperand) {
    std::vector<float> a(128), b(8), out(128, -1.0f), want(128);
    std::iota(a.begin(), a.end(), 1.0f);
    for (int r = 0; r < 8; ++r) b[r] = 1000.0f * (r + 1);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = a[r * 16 + c] + b[r];
    expect_release_result([&] { row_expand_add_short_vec(a.data(), b.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@rowexpandadd-short", "TROWEXPANDADD",
                          "src1's valid shape 4x1 differs from 8x1 (dst's valid rows, one value per row)",
                          "the release build reads src1 over 8x1 and ignores its own valid shape",
                          "set src1's valid shape to 8x1");
}

#if PTOSIM_TARGET_A5
// A5's TROWEXPAND reads one value from each of dst's valid rows of src
// (npu/a5/TRowExpand.hpp), past src's own valid rows.
using ExpSrc = Tile<TileType::Vec, float, 8, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using ExpSrcWhole = Tile<TileType::Vec, float, 8, 8>;
using ExpDst = Tile<TileType::Vec, float, 8, 16>;

void row_expand_short_src(float* src, float* out) {
    ExpSrc s(4, 8);
    ExpSrcWhole whole;
    ExpDst d;
    TASSIGN(s, 0);
    TASSIGN(whole, 0);
    TASSIGN(d, 0x400);
    Gm<float, 8, 8> gs(src);
    Gm<float, 8, 16> go(out);
    TLOAD(whole, gs);
    v_after_mte2();
    TROWEXPAND(d, s);  // @rowexpand-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, A5RowExpandReadsDstsValidRowsOfSrc) {
    std::vector<float> src(64), out(128, -1.0f), want(128);
    std::iota(src.begin(), src.end(), 1.0f);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = src[r * 8];
    expect_release_result([&] { row_expand_short_src(src.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@rowexpand-short", "TROWEXPAND", "src's valid shape 4x8 differs from 8x8 (dst's valid rows)",
                          "the release build reads src over 8x8 and ignores its own valid shape",
                          "set src's valid shape to 8x8");
}
#endif

// Column broadcasts (npu/a2a3 and npu/a5 TColExpandBinOp.hpp, TColExpand.hpp):
// the per-column operand is read as dst's valid columns of consecutive
// elements from the start of its storage, whatever its valid shape.
using CexFull = Tile<TileType::Vec, float, 4, 16>;
using CexFullRows = Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, 16>;
using CexVec = Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, DYNAMIC>;
using CexVecWhole = Tile<TileType::Vec, float, 1, 16>;

// TCOLEXPANDADD with a per-column src1 of 8 valid columns under a dst of 16:
// src0 has dst's valid shape, so it is the full tile, and 16 values of src1
// are added.
void col_expand_add_short_vec(float* a, float* b, float* out) {
    CexFull s0, d;
    CexVec s1(8);
    CexVecWhole whole;
    TASSIGN(s0, 0);
    TASSIGN(s1, 0x400);
    TASSIGN(whole, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 4, 16> ga(a), go(out);
    Gm<float, 1, 16> gb(b);
    TLOAD(s0, ga);
    TLOAD(whole, gb);
    v_after_mte2();
    TCOLEXPANDADD(d, s0, s1);  // @colexpandadd-short
    mte3_after_v();
    TSTORE(go, d);
}

std::vector<float> col_vec_values() {
    std::vector<float> b(16);
    for (int c = 0; c < 16; ++c) b[c] = 1000.0f * (c + 1);
    return b;
}

TEST(DeviceTolerates, ColExpandAddReadsDstsValidColumnsOfThePerColumnOperand) {
    std::vector<float> a(64), b = col_vec_values(), out(64, -1.0f), want(64);
    std::iota(a.begin(), a.end(), 1.0f);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = a[r * 16 + c] + b[c];
    expect_release_result([&] { col_expand_add_short_vec(a.data(), b.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@colexpandadd-short", "TCOLEXPANDADD",
                          "src1's valid shape 1x8 differs from 1x16 (dst's valid columns, one value per column)",
                          "the release build reads src1 over 1x16 and ignores its own valid shape",
                          "set src1's valid shape to 1x16");
}

// TCOLEXPANDSUB whose src0 is the per-column vector: src0's valid shape is
// not dst's, so the release build takes src1 as the full tile and computes
// src0(0, c) - src1(r, c) (ColExpandSubOp2). With src1 of dst's valid shape
// that breaks no rule: no report.
void col_expand_sub_vec_first(float* a, float* b, float* out, int full_rows) {
    CexVecWhole s0;
    CexFull whole;
    CexFullRows s1(full_rows);
    CexFull d;
    TASSIGN(s0, 0);
    TASSIGN(whole, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 1, 16> gb(b);
    Gm<float, 4, 16> ga(a), go(out);
    TLOAD(s0, gb);
    TLOAD(whole, ga);
    v_after_mte2();
    TCOLEXPANDSUB(d, s0, s1);  // @colexpandsub-swapped
    mte3_after_v();
    TSTORE(go, d);
}

std::vector<float> vec_minus_full(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> want(64);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = b[c] - a[r * 16 + c];
    return want;
}

TEST(DeviceTolerates, ColExpandSubWithThePerColumnOperandFirstTakesSrc1AsTheFullTile) {
    std::vector<float> a(64), b = col_vec_values(), out(64, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    Outcome o = vec("mem", false, [&] { col_expand_sub_vec_first(a.data(), b.data(), out.data(), 4); });
    ASSERT_TRUE(o.st.ok()) << o.st.message;
    EXPECT_TRUE(o.reports.empty());
    EXPECT_EQ(out, vec_minus_full(a, b));
}

// The same call with src1 of 2 valid rows: neither source has dst's valid
// shape, the release build still takes src1 as the full tile and reads it
// over dst's 4x16.
TEST(DeviceTolerates, ColExpandSubWithNeitherSourceOfDstsShapeReadsSrc1OverIt) {
    std::vector<float> a(64), b = col_vec_values(), out(64, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    const std::vector<float> want = vec_minus_full(a, b);
    expect_release_result([&] { col_expand_sub_vec_first(a.data(), b.data(), out.data(), 2); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@colexpandsub-swapped", "TCOLEXPANDSUB",
                          "src1's valid shape 2x16 differs from 4x16 (dst's valid shape, which neither source has: "
                          "the release build then takes src1 as the full tile)",
                          "the release build reads src1 over 4x16 and ignores its own valid shape",
                          "give the full operand dst's valid shape 4x16");
}

// TCOLEXPAND from a src of 8 valid columns into 16: pto-isa asserts equal
// valid columns (a5/TColExpand.hpp); both release builds copy dst's 16.
void col_expand_short_src(float* b, float* out, int rows, int cols) {
    CexVec s(cols);
    CexVecWhole whole;
    CexFull d;
    Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, 16> dv(rows);
    TASSIGN(s, 0);
    TASSIGN(whole, 0);
    TASSIGN(d, 0x400);
    TASSIGN(dv, 0x400);
    Gm<float, 1, 16> gb(b);
    Gm<float, 4, 16> go(out);
    TLOAD(whole, gb);
    TLOAD(d, go);
    v_after_mte2();
    if (cols == 0)
        TCOLEXPAND(dv, s);  // @colexpand-empty
    else
        TCOLEXPAND(dv, s);  // @colexpand-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, ColExpandCopiesDstsValidColumnsOfSrc) {
    std::vector<float> b = col_vec_values(), out(64, -1.0f), want(64);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = b[c];
    expect_release_result([&] { col_expand_short_src(b.data(), out.data(), 4, 8); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@colexpand-short", "TCOLEXPAND", "src's valid columns (8) differ from dst's (16)",
                          "the release build reads 16 values from the start of src's storage, one per destination "
                          "column",
                          "set src's valid columns to dst's (16)");
}

// An empty src: A2A3 returns before copying (a2a3/TColExpand.hpp) and states
// no rule; A5 asserts a non-empty src but its release build copies anyway.
TEST(DeviceTolerates, ColExpandFromAnEmptySrcFollowsEachTarget) {
    std::vector<float> b = col_vec_values(), out(64, -1.0f), want(64, -1.0f);
    if (PTOSIM_TARGET_A5) {
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 16; ++c) want[r * 16 + c] = b[c];
        expect_release_result([&] { col_expand_short_src(b.data(), out.data(), 2, 0); },
                              [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                              "@colexpand-empty", "TCOLEXPAND", "src's valid shape 1x0 is empty",
                              "the release build reads 16 values from the start of src's storage, one per "
                              "destination column",
                              "give src one valid row and dst's 16 valid columns");
        return;
    }
    Outcome o = vec("mem", false, [&] { col_expand_short_src(b.data(), out.data(), 2, 0); });
    ASSERT_TRUE(o.st.ok()) << o.st.message;
    EXPECT_TRUE(o.reports.empty());
    EXPECT_EQ(out, want);
}

// TCONCAT with a src1 of 2 valid rows under a dst of 4: both targets' release
// builds loop over dst's valid rows (npu/a2a3 and npu/a5 TConcat.hpp) and
// copy 4 rows of each source.
using CatSrc = Tile<TileType::Vec, float, 4, 8>;
using CatSrcRows = Tile<TileType::Vec, float, 4, 8, BLayout::RowMajor, DYNAMIC, 8>;
using CatDst = Tile<TileType::Vec, float, 4, 16>;

void concat_short_src1(float* a, float* b, float* out) {
    CatSrc s0, whole1;
    CatSrcRows s1(2);
    CatDst d;
    TASSIGN(s0, 0);
    TASSIGN(whole1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 4, 8> ga(a), gb(b);
    Gm<float, 4, 16> go(out);
    TLOAD(s0, ga);
    TLOAD(whole1, gb);
    v_after_mte2();
    TCONCAT(d, s0, s1);  // @concat-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, ConcatCopiesDstsValidRowsOfEachSource) {
    std::vector<float> a(32), b(32), out(64, -1.0f), want(64);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 101.0f);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 8; ++c) {
            want[r * 16 + c] = a[r * 8 + c];
            want[r * 16 + 8 + c] = b[r * 8 + c];
        }
    expect_release_result([&] { concat_short_src1(a.data(), b.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@concat-short", "TCONCAT", "src1's valid rows (2) differ from dst's (4)",
                          "the release build reads 4 rows of src1", "set src1's valid rows to dst's (4)");
}

// TDEQUANT with a src of 8 valid columns under a dst of 16: both targets
// assert equal valid shapes and drive the loops with dst's
// (npu/a2a3/TDequant.hpp, npu/a5/TDeQuant.hpp), reading src's storage.
using DqSrc = Tile<TileType::Vec, int8_t, 4, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using DqSrcWhole = Tile<TileType::Vec, int8_t, 4, 32>;
using DqDst = Tile<TileType::Vec, float, 4, 16>;
using DqPara = Tile<TileType::Vec, float, 4, 1, BLayout::ColMajor, DYNAMIC, 1>;
using DqParaBytes = Tile<TileType::Vec, float, 1, 8>;  // the same bytes, ND

void dequant_short(int8_t* q, float* scale, float* offset, float* out, int src_cols, int para_rows) {
    DqSrc s(4, src_cols);
    DqSrcWhole whole;
    DqDst d;
    DqPara ps(para_rows), po(para_rows);
    DqParaBytes psb, pob;
    TASSIGN(s, 0);
    TASSIGN(whole, 0);
    TASSIGN(d, 0x400);
    TASSIGN(ps, 0x800);
    TASSIGN(psb, 0x800);
    TASSIGN(po, 0x900);
    TASSIGN(pob, 0x900);
    Gm<int8_t, 4, 32> gq(q);
    Gm<float, 1, 8> gs(scale), go(offset);
    Gm<float, 4, 16> gout(out);
    TLOAD(whole, gq);
    TLOAD(psb, gs);
    TLOAD(pob, go);
    v_after_mte2();
    if (para_rows == 4)
        TDEQUANT(d, s, ps, po);  // @dequant-short
    else
        TDEQUANT(d, s, ps, po);  // @dequant-para
    mte3_after_v();
    TSTORE(gout, d);
}

struct DequantData {
    std::vector<int8_t> q = std::vector<int8_t>(128);
    std::vector<float> scale = std::vector<float>(8), offset = std::vector<float>(8), want = std::vector<float>(64);
    DequantData() {
        for (int i = 0; i < 128; ++i) q[i] = static_cast<int8_t>(i - 64);
        for (int r = 0; r < 4; ++r) scale[r] = 0.5f * (r + 1), offset[r] = static_cast<float>(r);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 16; ++c) want[r * 16 + c] = (static_cast<float>(q[r * 32 + c]) - offset[r]) * scale[r];
    }
};

TEST(DeviceTolerates, DequantReadsSrcOverDstsValidShape) {
    DequantData t;
    std::vector<float> out(64, -1.0f);
    expect_release_result([&] { dequant_short(t.q.data(), t.scale.data(), t.offset.data(), out.data(), 8, 4); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, t.want); },
                          "@dequant-short", "TDEQUANT", "src's valid shape 4x8 differs from 4x16 (dst's valid shape)",
                          "the release build reads src over 4x16 and ignores its own valid shape",
                          "give src dst's valid shape 4x16");
}

// Scale and offset of 2 valid rows under a dst of 4: A5 asserts they have
// dst's rows (npu/a5/TDeQuant.hpp), A2A3 states nothing; both read one value
// per dst row (a2a3 ApplyScaleAndOffset, a5 LoadScaleOffset).
TEST(DeviceTolerates, DequantReadsOneParameterPerDstRow) {
    DequantData t;
    std::vector<float> out(64, -1.0f);
    auto run = [&] { dequant_short(t.q.data(), t.scale.data(), t.offset.data(), out.data(), 16, 2); };
    if (PTOSIM_TARGET_A5) {
        expect_release_result(run, [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, t.want); },
                              "@dequant-para", "TDEQUANT", "scale's valid rows (2) differ from dst's (4)",
                              "the release build reads one scale value from each of 4 rows",
                              "set scale's valid rows to dst's (4)");
        return;
    }
    Outcome o = vec("mem", false, run);
    ASSERT_TRUE(o.st.ok()) << o.st.message;
    EXPECT_TRUE(o.reports.empty());
    EXPECT_EQ(out, t.want);
}

#if PTOSIM_TARGET_A5
// TINTERLEAVE with a src1 of 8 valid columns: A5 asserts every operand has
// dst0's valid shape and passes dst0's to the loops (npu/a5/TInterleave.hpp),
// so all 16 columns of src1 are interleaved.
using IlvTile = Tile<TileType::Vec, float, 2, 16>;
using IlvPart = Tile<TileType::Vec, float, 2, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

void interleave_short_src1(float* a, float* b, float* out0, float* out1) {
    IlvTile whole0, whole1, d0, d1;
    IlvPart s0(2, 16), s1(2, 8);  // one tile type for both sources, as TInterleave takes them
    TASSIGN(whole0, 0);
    TASSIGN(s0, 0);
    TASSIGN(whole1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(d0, 0x800);
    TASSIGN(d1, 0xC00);
    Gm<float, 2, 16> ga(a), gb(b), g0(out0), g1(out1);
    TLOAD(whole0, ga);
    TLOAD(whole1, gb);
    v_after_mte2();
    TINTERLEAVE(d1, d0, s1, s0);  // @interleave-short
    mte3_after_v();
    TSTORE(g0, d0);
    TSTORE(g1, d1);
}

TEST(DeviceTolerates, A5InterleaveReadsSrc1OverDst0sValidShape) {
    std::vector<float> a(32), b(32), out0(32, -1.0f), out1(32, -1.0f), want0(32), want1(32);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 101.0f);
    // Row r's stream a(r, 0), b(r, 0), a(r, 1), ...: its first 16 go to dst0, the rest to dst1.
    for (int r = 0; r < 2; ++r)
        for (int q = 0; q < 32; ++q) {
            const float v = q % 2 ? b[r * 16 + q / 2] : a[r * 16 + q / 2];
            (q < 16 ? want0 : want1)[r * 16 + q % 16] = v;
        }
    expect_release_result([&] { interleave_short_src1(a.data(), b.data(), out0.data(), out1.data()); },
                          [&] {
                              std::fill(out0.begin(), out0.end(), -1.0f);
                              std::fill(out1.begin(), out1.end(), -1.0f);
                          },
                          [&] {
                              EXPECT_EQ(out0, want0);
                              EXPECT_EQ(out1, want1);
                          },
                          "@interleave-short", "TINTERLEAVE",
                          "src1's valid shape 2x8 differs from 2x16 (dst0's valid shape)",
                          "the release build reads src1 over 2x16 and ignores its own valid shape",
                          "give every operand dst0's valid shape 2x16");
}
#endif

#if !PTOSIM_TARGET_A5
// TPARTADD with a src1 of more valid rows than dst: outside pto-isa's
// patterns A2A3's release build takes none of its branches
// (npu/a2a3/TPartOp.hpp TPartInstr), so dst keeps its bytes.
using PartTile = Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using PartWhole = Tile<TileType::Vec, float, 8, 16>;

void part_add_tall_src1(float* a, float* out) {
    PartTile s0(4, 16), s1(6, 16), d(4, 16);
    PartWhole whole0, wholed;
    TASSIGN(whole0, 0);
    TASSIGN(s0, 0);
    TASSIGN(s1, 0);
    TASSIGN(wholed, 0x800);
    TASSIGN(d, 0x800);
    Gm<float, 8, 16> ga(a), go(out);
    TLOAD(whole0, ga);
    TLOAD(wholed, go);
    v_after_mte2();
    TPARTADD(d, s0, s1);  // @partadd-tall
    mte3_after_v();
    TSTORE(go, wholed);
}

TEST(DeviceTolerates, A2A3PartAddOutsideThePatternsWritesNothing) {
    std::vector<float> a(128), out(128);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(out.begin(), out.end(), -200.0f);
    const std::vector<float> before = out;
    expect_release_result([&] { part_add_tall_src1(a.data(), out.data()); }, [&] { out = before; },
                          [&] { EXPECT_EQ(out, before); }, "@partadd-tall", "TPARTADD",
                          "source valid shapes 4x16 and 6x16 do not fit the destination's 4x16: one source must "
                          "match it and the other must not exceed it",
                          "the release build writes nothing to dst",
                          "give one source dst's valid shape 4x16 and the other at most that");
}

// TPARTARGMAX with a dstIdx of other valid columns than dstVal: A2A3's
// checkTiles returns before any write (npu/a2a3/TPartArgOp.hpp).
using ArgIdx = Tile<TileType::Vec, int32_t, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using ArgIdxWhole = Tile<TileType::Vec, int32_t, 8, 16>;

void part_argmax_narrow_idx(float* vals, int32_t* idx) {
    PartTile s0(4, 16), s1(4, 16), d(4, 16);
    ArgIdx i0(4, 16), i1(4, 16), di(4, 8);
    PartWhole wd;
    ArgIdxWhole wi;
    TASSIGN(s0, 0x400);  // the sources share the loaded bytes of dst
    TASSIGN(s1, 0x400);
    TASSIGN(d, 0x400);
    TASSIGN(wd, 0x400);
    TASSIGN(i0, 0xC00);
    TASSIGN(i1, 0xC00);
    TASSIGN(di, 0xC00);
    TASSIGN(wi, 0xC00);
    Gm<float, 8, 16> gv(vals);
    Gm<int32_t, 8, 16> gi(idx);
    TLOAD(wd, gv);
    TLOAD(wi, gi);
    v_after_mte2();
    TPARTARGMAX(d, s0, s1, di, i0, i1);  // @partargmax-idx
    mte3_after_v();
    TSTORE(gv, wd);
    TSTORE(gi, wi);
}

TEST(DeviceTolerates, A2A3PartArgMaxWithAnIndexOfOtherShapeWritesNothing) {
    std::vector<float> vals(128);
    std::vector<int32_t> idx(128);
    std::iota(vals.begin(), vals.end(), 0.5f);
    std::iota(idx.begin(), idx.end(), 1000);
    const std::vector<float> vals0 = vals;
    const std::vector<int32_t> idx0 = idx;
    expect_release_result([&] { part_argmax_narrow_idx(vals.data(), idx.data()); },
                          [&] {
                              vals = vals0;
                              idx = idx0;
                          },
                          [&] {
                              EXPECT_EQ(vals, vals0);
                              EXPECT_EQ(idx, idx0);
                          },
                          "@partargmax-idx", "TPARTARGMAX", "dstIdx valid shape 4x8 must equal dstVal's 4x16",
                          "the release build writes nothing to dstVal or dstIdx",
                          "give dstIdx dstVal's valid shape 4x16");
}
#endif

// Element-wise ops with a source of fewer valid columns than dst: pto-isa
// asserts equal valid shapes (npu/a2a3/TAdd.hpp, npu/a5/TAdd.hpp) and loops
// over dst's, so TADD reads src1's 16 columns.
using EwTile = Tile<TileType::Vec, float, 4, 16>;
using EwPart = Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

void add_short_src1(float* a, float* b, float* out) {
    EwTile s0, whole1, d;
    EwPart s1(4, 8);
    TASSIGN(s0, 0);
    TASSIGN(whole1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 4, 16> ga(a), gb(b), go(out);
    TLOAD(s0, ga);
    TLOAD(whole1, gb);
    TLOAD(d, go);
    v_after_mte2();
    TADD(d, s0, s1);  // @add-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, AddReadsASourceOverDstsValidShape) {
    std::vector<float> a(64), b(64), out(64, -1.0f), want(64);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 1001.0f);
    for (int i = 0; i < 64; ++i) want[i] = a[i] + b[i];
    expect_release_result([&] { add_short_src1(a.data(), b.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@add-short", "TADD", "src1's valid shape 4x8 differs from 4x16 (dst's valid shape)",
                          "the release build reads src1 over 4x16 and ignores its own valid shape",
                          "give src1 dst's valid shape 4x16");
}

// TADDS with such a source: A2A3's release build adds only when the shapes
// agree and otherwise writes nothing (npu/a2a3/TAddS.hpp); A5's loops over
// dst's valid shape (npu/a5/TAddS.hpp).
void adds_short_src(float* a, float* out) {
    EwTile whole, d;
    EwPart s(4, 8);
    TASSIGN(whole, 0);
    TASSIGN(s, 0);
    TASSIGN(d, 0x800);
    Gm<float, 4, 16> ga(a), go(out);
    TLOAD(whole, ga);
    TLOAD(d, go);
    v_after_mte2();
    TADDS(d, s, 0.5f);  // @adds-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, AddsWithASourceOfAnotherShapeFollowsEachTarget) {
    std::vector<float> a(64), out(64, -1.0f), want(64, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    if (PTOSIM_TARGET_A5)
        for (int i = 0; i < 64; ++i) want[i] = a[i] + 0.5f;
    expect_release_result([&] { adds_short_src(a.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@adds-short", "TADDS", "src's valid shape 4x8 differs from 4x16 (dst's valid shape)",
                          PTOSIM_TARGET_A5 ? "the release build reads src over 4x16 and ignores its own valid shape"
                                           : "the release build writes nothing to dst",
                          "give src dst's valid shape 4x16");
}

// ------------------------------------------------------------ select, interleave and partial ops

// TSELS with a source of fewer valid columns than dst: both targets assert
// equal valid shapes in debug builds only and select over dst's, reading src
// at its own row pitch (npu/a2a3/TSels.hpp, npu/a5/TSels.hpp).
using SelTile = Tile<TileType::Vec, float, 4, 16>;
using SelPart = Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using SelMask = Tile<TileType::Vec, uint8_t, 4, 32>;

// Row r's predicate bits: bit c of the row's first two bytes.
std::vector<uint8_t> sel_mask_bytes() {
    std::vector<uint8_t> m(4 * 32, 0);
    for (int r = 0; r < 4; ++r) {
        m[r * 32] = static_cast<uint8_t>(0x5A + r);
        m[r * 32 + 1] = static_cast<uint8_t>(0xC3 ^ r);
    }
    return m;
}
bool sel_bit(const std::vector<uint8_t>& m, int r, int c) { return (m[r * 32 + c / 8] >> (c % 8)) & 1; }

void sels_short_src(float* a, uint8_t* mask, float* out) {
    SelTile whole, d;
    SelPart s(4, 8);
    SelMask m;
    TASSIGN(whole, 0);
    TASSIGN(s, 0);
    TASSIGN(m, 0x400);
    TASSIGN(d, 0x800);
    Gm<float, 4, 16> ga(a), go(out);
    Gm<uint8_t, 4, 32> gm(mask);
    TLOAD(whole, ga);
    TLOAD(m, gm);
    TLOAD(d, go);
    v_after_mte2();
    TSELS(d, m, s, -7.0f);  // @sels-short
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, SelsReadsItsSourceOverDstsValidShape) {
    std::vector<float> a(64), out(64, -1.0f), want(64);
    std::iota(a.begin(), a.end(), 1.0f);
    std::vector<uint8_t> mask = sel_mask_bytes();
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = sel_bit(mask, r, c) ? a[r * 16 + c] : -7.0f;
    expect_release_result([&] { sels_short_src(a.data(), mask.data(), out.data()); },
                          [&] { std::fill(out.begin(), out.end(), -1.0f); }, [&] { EXPECT_EQ(out, want); },
                          "@sels-short", "TSELS", "src's valid shape 4x8 differs from 4x16 (dst's valid shape)",
                          "the release build reads src over 4x16 and ignores its own valid shape",
                          "give src dst's valid shape 4x16");
}

// TSEL states no rule on its sources' valid shapes: both targets select over
// dst's (npu/a2a3/TSel.hpp, npu/a5/TSel.hpp), and there is nothing to report.
void sel_short_src1(float* a, float* b, uint8_t* mask, float* out) {
    SelPart s0(4, 16), s1(4, 8), d(4, 16);
    SelTile whole1;
    SelMask m;
    TASSIGN(s0, 0);
    TASSIGN(whole1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(m, 0x800);
    TASSIGN(d, 0xC00);
    Gm<float, 4, 16> ga(a), gb(b), go(out);
    Gm<uint8_t, 4, 32> gm(mask);
    TLOAD(s0, ga);
    TLOAD(whole1, gb);
    TLOAD(m, gm);
    v_after_mte2();
    TSEL(d, m, s0, s1);
    mte3_after_v();
    TSTORE(go, d);
}

TEST(DeviceTolerates, SelWithASourceOfFewerValidColumnsRunsUnreported) {
    std::vector<float> a(64), b(64), out(64, -1.0f), want(64);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 501.0f);
    std::vector<uint8_t> mask = sel_mask_bytes();
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c) want[r * 16 + c] = sel_bit(mask, r, c) ? a[r * 16 + c] : b[r * 16 + c];
    for (bool strict : {false, true}) {
        std::fill(out.begin(), out.end(), -1.0f);
        Outcome o = vec(strict ? "" : "mem", strict, [&] { sel_short_src1(a.data(), b.data(), mask.data(), out.data()); });
        ASSERT_TRUE(o.st.ok()) << o.st.message;
        EXPECT_EQ(out, want);
        EXPECT_TRUE(o.reports.empty());
        EXPECT_EQ(o.err.find("debug-only-contract"), std::string::npos) << o.err;
    }
}

#if PTOSIM_TARGET_A5
// TINTERLEAVE with 7 valid columns: pto-isa asserts an even count in debug
// builds only; the release build splits each row at 7 / 2 = 3
// (npu/a5/TInterleave.hpp TInterleaveUnalign): dst0 takes the stream from
// column 0 of both sources, dst1 from column 3, 7 values each.
using OddTile = Tile<TileType::Vec, float, 2, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using OddWhole = Tile<TileType::Vec, float, 2, 16>;

template <bool Interleave>
void odd_two_source(float* a, float* b, float* out0, float* out1, int cols) {
    OddTile s0(2, cols), s1(2, cols), d0(2, cols), d1(2, cols);
    OddWhole w0, w1, wd0, wd1;
    TASSIGN(w0, 0);
    TASSIGN(s0, 0);
    TASSIGN(w1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(wd0, 0x800);
    TASSIGN(d0, 0x800);
    TASSIGN(wd1, 0xC00);
    TASSIGN(d1, 0xC00);
    Gm<float, 2, 16> ga(a), gb(b), g0(out0), g1(out1);
    TLOAD(w0, ga);
    TLOAD(w1, gb);
    TLOAD(wd0, g0);
    TLOAD(wd1, g1);
    v_after_mte2();
    if constexpr (Interleave) TINTERLEAVE(d1, d0, s1, s0);  // @interleave-odd
    else TDEINTERLEAVE(d1, d0, s1, s0);  // @deinterleave-odd
    mte3_after_v();
    TSTORE(g0, wd0);
    TSTORE(g1, wd1);
}

TEST(DeviceTolerates, A5InterleaveWithOddColumnsSplitsAtHalfTheCount) {
    std::vector<float> a(32), b(32), out0(32, -1.0f), out1(32, -1.0f), want0(32, -1.0f), want1(32, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 101.0f);
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 7; ++k) {
            const std::vector<float>& from = k % 2 ? b : a;
            want0[r * 16 + k] = from[r * 16 + k / 2];
            want1[r * 16 + k] = from[r * 16 + 3 + k / 2];
        }
    expect_release_result([&] { odd_two_source<true>(a.data(), b.data(), out0.data(), out1.data(), 7); },
                          [&] {
                              std::fill(out0.begin(), out0.end(), -1.0f);
                              std::fill(out1.begin(), out1.end(), -1.0f);
                          },
                          [&] {
                              EXPECT_EQ(out0, want0);
                              EXPECT_EQ(out1, want1);
                          },
                          "@interleave-odd", "TINTERLEAVE", "the valid column count (7) is odd",
                          "the release build interleaves the sources from column 0 into dst0 and from column 3 into "
                          "dst1, 7 values each",
                          "give every operand an even number of valid columns");
}

// TDEINTERLEAVE's page asks for an even count and nothing checks it: the
// release build de-interleaves 6 columns of src0 into dst0's and dst1's
// first 3 and 6 of src1 into the next 3 (npu/a5/TDeInterleave.hpp
// TDeInterleaveUnalign); column 6 keeps its bytes.
TEST(DeviceTolerates, A5DeinterleaveWithOddColumnsLeavesTheLastColumn) {
    std::vector<float> a(32), b(32), out0(32, -1.0f), out1(32, -1.0f), want0(32, -1.0f), want1(32, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 101.0f);
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 3; ++k)
            for (int out = 0; out < 2; ++out) {
                (out ? want1 : want0)[r * 16 + k] = a[r * 16 + 2 * k + out];
                (out ? want1 : want0)[r * 16 + 3 + k] = b[r * 16 + 2 * k + out];
            }
    expect_release_result([&] { odd_two_source<false>(a.data(), b.data(), out0.data(), out1.data(), 7); },
                          [&] {
                              std::fill(out0.begin(), out0.end(), -1.0f);
                              std::fill(out1.begin(), out1.end(), -1.0f);
                          },
                          [&] {
                              EXPECT_EQ(out0, want0);
                              EXPECT_EQ(out1, want1);
                          },
                          "@deinterleave-odd", "TDEINTERLEAVE", "the valid column count (7) is odd",
                          "the release build de-interleaves 6 columns of src0 into dst0's and dst1's first 3 and of "
                          "src1 into the next 3; column 6 of dst0 and dst1 keeps its bytes",
                          "give every operand an even number of valid columns");
}

// 129 valid floats: 64 to a half, so the release build's one pass of 128
// columns ends before column 128, which keeps its bytes in dst0 and dst1.
using WideOdd = Tile<TileType::Vec, float, 1, 136, BLayout::RowMajor, 1, DYNAMIC>;
using WideWhole = Tile<TileType::Vec, float, 1, 136>;

void interleave_129(float* a, float* b, float* out0, float* out1) {
    WideOdd s0(129), s1(129), d0(129), d1(129);
    WideWhole w0, w1, wd0, wd1;
    TASSIGN(w0, 0);
    TASSIGN(s0, 0);
    TASSIGN(w1, 0x400);
    TASSIGN(s1, 0x400);
    TASSIGN(wd0, 0x800);
    TASSIGN(d0, 0x800);
    TASSIGN(wd1, 0xC00);
    TASSIGN(d1, 0xC00);
    Gm<float, 1, 136> ga(a), gb(b), g0(out0), g1(out1);
    TLOAD(w0, ga);
    TLOAD(w1, gb);
    TLOAD(wd0, g0);
    TLOAD(wd1, g1);
    v_after_mte2();
    TINTERLEAVE(d1, d0, s1, s0);  // @interleave-129
    mte3_after_v();
    TSTORE(g0, wd0);
    TSTORE(g1, wd1);
}

TEST(DeviceTolerates, A5InterleaveOfAnOddCountAtARegisterMultipleLeavesTheLastColumn) {
    std::vector<float> a(136), b(136), out0(136, -1.0f), out1(136, -1.0f), want0(136, -1.0f), want1(136, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 1001.0f);
    for (int k = 0; k < 128; ++k) {
        const std::vector<float>& from = k % 2 ? b : a;
        want0[k] = from[k / 2];
        want1[k] = from[64 + k / 2];
    }
    expect_release_result([&] { interleave_129(a.data(), b.data(), out0.data(), out1.data()); },
                          [&] {
                              std::fill(out0.begin(), out0.end(), -1.0f);
                              std::fill(out1.begin(), out1.end(), -1.0f);
                          },
                          [&] {
                              EXPECT_EQ(out0, want0);
                              EXPECT_EQ(out1, want1);
                          },
                          "@interleave-129", "TINTERLEAVE", "the valid column count (129) is odd",
                          "the release build interleaves the sources from column 0 into dst0 and from column 64 into "
                          "dst1, 128 values each; column 128 of dst0 and dst1 keeps its bytes",
                          "give every operand an even number of valid columns");
}

// The one-source form with 9 valid columns: the release build pairs the
// first 8 and ignores the last (npu/a5/TDeInterleave.hpp
// TDeInterleaveSingleSrc).
using DeSrc = Tile<TileType::Vec, float, 2, 128, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using DeSrcWhole = Tile<TileType::Vec, float, 2, 128>;
using DeDst = Tile<TileType::Vec, float, 2, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

void deinterleave_one_source_odd(float* a, float* out0, float* out1) {
    DeSrc s(2, 9);
    DeSrcWhole w;
    DeDst d0(2, 4), d1(2, 4);
    OddWhole wd0, wd1;
    TASSIGN(w, 0);
    TASSIGN(s, 0);
    TASSIGN(wd0, 0x800);
    TASSIGN(d0, 0x800);
    TASSIGN(wd1, 0xC00);
    TASSIGN(d1, 0xC00);
    Gm<float, 2, 128> ga(a);
    Gm<float, 2, 16> g0(out0), g1(out1);
    TLOAD(w, ga);
    TLOAD(wd0, g0);
    TLOAD(wd1, g1);
    v_after_mte2();
    TDEINTERLEAVE(d1, d0, s);  // @deinterleave-one-odd
    mte3_after_v();
    TSTORE(g0, wd0);
    TSTORE(g1, wd1);
}

TEST(DeviceTolerates, A5DeinterleaveOfOneSourceWithOddColumnsIgnoresTheLast) {
    std::vector<float> a(256), out0(32, -1.0f), out1(32, -1.0f), want0(32, -1.0f), want1(32, -1.0f);
    std::iota(a.begin(), a.end(), 1.0f);
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 4; ++k) {
            want0[r * 16 + k] = a[r * 128 + 2 * k];
            want1[r * 16 + k] = a[r * 128 + 2 * k + 1];
        }
    expect_release_result([&] { deinterleave_one_source_odd(a.data(), out0.data(), out1.data()); },
                          [&] {
                              std::fill(out0.begin(), out0.end(), -1.0f);
                              std::fill(out1.begin(), out1.end(), -1.0f);
                          },
                          [&] {
                              EXPECT_EQ(out0, want0);
                              EXPECT_EQ(out1, want1);
                          },
                          "@deinterleave-one-odd", "TDEINTERLEAVE", "src's valid column count (9) is odd",
                          "the release build de-interleaves its first 8 columns into 4 of dst0 and dst1 and ignores "
                          "the last",
                          "give src an even number of valid columns");
}
#endif

// TPARTADD with neither source of dst's valid shape (src0 short of rows,
// src1 of columns). A2A3's release build takes none of its branches
// (npu/a2a3/TPartOp.hpp). A5's (pto-isa 3186c381, npu/a5/TPartBinOps.hpp
// TPartOp) takes src1 as the bigger source since src0 has fewer rows, adds
// over the common 4x8 and copies src1, read over dst's 16 columns past its
// own 8, into the rest of dst's 6x16.
using PTile = Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using PWhole = Tile<TileType::Vec, float, 8, 16>;

template <bool Max>
void part_outside(float* a, float* b, float* out, int r0, int c0, int r1, int c1, int vr, int vc) {
    PTile s0(r0, c0), s1(r1, c1), d(vr, vc);
    PWhole w0, w1, wd;
    TASSIGN(w0, 0);
    TASSIGN(s0, 0);
    TASSIGN(w1, 0x800);
    TASSIGN(s1, 0x800);
    TASSIGN(wd, 0x1000);
    TASSIGN(d, 0x1000);
    Gm<float, 8, 16> ga(a), gb(b), go(out);
    TLOAD(w0, ga);
    TLOAD(w1, gb);
    TLOAD(wd, go);
    v_after_mte2();
    if constexpr (Max) TPARTMAX(d, s0, s1);  // @partmax-outside
    else TPARTADD(d, s0, s1);  // @partadd-outside
    mte3_after_v();
    TSTORE(go, wd);
}

TEST(DeviceTolerates, PartAddWithNeitherSourceOfDstsShapeFollowsEachTarget) {
    std::vector<float> a(128), b(128), out(128);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 1001.0f);
    std::iota(out.begin(), out.end(), -500.0f);
    const std::vector<float> before = out;
    std::vector<float> want = before;
    if (PTOSIM_TARGET_A5)
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 16; ++c) want[r * 16 + c] = r < 4 && c < 8 ? a[r * 16 + c] + b[r * 16 + c] : b[r * 16 + c];
    expect_release_result([&] { part_outside<false>(a.data(), b.data(), out.data(), 4, 16, 6, 8, 6, 16); },
                          [&] { out = before; }, [&] { EXPECT_EQ(out, want); }, "@partadd-outside", "TPARTADD",
                          "source valid shapes 4x16 and 6x8 do not fit the destination's 6x16: one source must match "
                          "it and the other must not exceed it",
                          PTOSIM_TARGET_A5 ? "the release build combines the sources over their common 4x8 and copies "
                                             "src1 elsewhere, writing dst over 6x16"
                                           : "the release build writes nothing to dst",
                          "give one source dst's valid shape 6x16 and the other at most that");
}

// TPARTMAX with both sources taller than dst: A5's release build takes src0
// as the bigger source (src0 is neither shorter nor narrower than src1),
// takes the max over the common 6x8 and copies src0 elsewhere, over rows
// [0, 6): two rows past dst's 4 valid ones. A2A3 writes nothing.
TEST(DeviceTolerates, PartMaxWithSourcesTallerThanDstFollowsEachTarget) {
    std::vector<float> a(128), b(128), out(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = static_cast<float>((i * 37) % 101);
        b[i] = static_cast<float>((i * 53) % 97);
    }
    std::iota(out.begin(), out.end(), -500.0f);
    const std::vector<float> before = out;
    std::vector<float> want = before;
    if (PTOSIM_TARGET_A5)
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 16; ++c) {
                const int i = r * 16 + c;
                want[i] = c < 8 ? std::max(a[i], b[i]) : a[i];
            }
    expect_release_result([&] { part_outside<true>(a.data(), b.data(), out.data(), 6, 16, 6, 8, 4, 16); },
                          [&] { out = before; }, [&] { EXPECT_EQ(out, want); }, "@partmax-outside", "TPARTMAX",
                          PTOSIM_TARGET_A5 ? "source valid shapes 6x16 and 6x8 do not fit the destination's 4x16: "
                                             "neither source may exceed it"
                                           : "source valid shapes 6x16 and 6x8 do not fit the destination's 4x16: "
                                             "one source must match it and the other must not exceed it",
                          PTOSIM_TARGET_A5 ? "the release build combines the sources over their common 6x8 and copies "
                                             "src0 elsewhere, writing dst over 6x16"
                                           : "the release build writes nothing to dst",
                          "give one source dst's valid shape 4x16 and the other at most that");
}

#if PTOSIM_TARGET_A5
// TPARTARGMAX with a dstIdx of fewer valid columns than dstVal: A5's release
// build never reads the index tiles' valid shapes (npu/a5/TPartArgBinOps.hpp
// TPartArgImpl) and writes all 16 columns of both.
using AIdx = Tile<TileType::Vec, int32_t, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using AIdxWhole = Tile<TileType::Vec, int32_t, 8, 16>;

void part_argmax_idx_a5(float* a, float* b, int32_t* ia, int32_t* ib, float* vals, int32_t* idx) {
    PTile s0(4, 16), s1(4, 16), d(4, 16);
    AIdx i0(4, 16), i1(4, 16), di(4, 8);
    PWhole w0, w1, wd;
    AIdxWhole wi0, wi1, wdi;
    TASSIGN(w0, 0);
    TASSIGN(s0, 0);
    TASSIGN(w1, 0x200);
    TASSIGN(s1, 0x200);
    TASSIGN(wd, 0x400);
    TASSIGN(d, 0x400);
    TASSIGN(wi0, 0x800);
    TASSIGN(i0, 0x800);
    TASSIGN(wi1, 0xA00);
    TASSIGN(i1, 0xA00);
    TASSIGN(wdi, 0xC00);
    TASSIGN(di, 0xC00);
    Gm<float, 8, 16> ga(a), gb(b), gv(vals);
    Gm<int32_t, 8, 16> gia(ia), gib(ib), gi(idx);
    TLOAD(w0, ga);
    TLOAD(w1, gb);
    TLOAD(wd, gv);
    TLOAD(wi0, gia);
    TLOAD(wi1, gib);
    TLOAD(wdi, gi);
    v_after_mte2();
    TPARTARGMAX(d, s0, s1, di, i0, i1);  // @partargmax-idx-a5
    mte3_after_v();
    TSTORE(gv, wd);
    TSTORE(gi, wdi);
}

// An empty src0 and a src1 of neither dst's shape: A5's release build
// copies src1's values and indices with TMOV, each over the overlap of the
// pair's valid shapes (4x10); the rest keeps its bytes.
void part_argmin_empty_a5(float* b, int32_t* ib, float* vals, int32_t* idx) {
    PTile s0(0, 16), s1(4, 10), d(4, 16);
    AIdx i0(0, 16), i1(4, 10), di(4, 16);
    PWhole w1, wd;
    AIdxWhole wi1, wdi;
    TASSIGN(s0, 0);
    TASSIGN(w1, 0x200);
    TASSIGN(s1, 0x200);
    TASSIGN(wd, 0x400);
    TASSIGN(d, 0x400);
    TASSIGN(i0, 0x800);
    TASSIGN(wi1, 0xA00);
    TASSIGN(i1, 0xA00);
    TASSIGN(wdi, 0xC00);
    TASSIGN(di, 0xC00);
    Gm<float, 8, 16> gb(b), gv(vals);
    Gm<int32_t, 8, 16> gib(ib), gi(idx);
    TLOAD(w1, gb);
    TLOAD(wd, gv);
    TLOAD(wi1, gib);
    TLOAD(wdi, gi);
    v_after_mte2();
    TPARTARGMIN(d, s0, s1, di, i0, i1);  // @partargmin-empty-a5
    mte3_after_v();
    TSTORE(gv, wd);
    TSTORE(gi, wdi);
}

TEST(DeviceTolerates, A5PartArgMinWithAnEmptySourceCopiesTheOtherWithTmov) {
    std::vector<float> b(128), vals(128, -1.0f), want_v(128, -1.0f);
    std::vector<int32_t> ib(128), idx(128, -1), want_i(128, -1);
    for (int i = 0; i < 128; ++i) {
        b[i] = static_cast<float>((i * 53) % 97);
        ib[i] = 2000 + i;
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 10; ++c) {
            want_v[r * 16 + c] = b[r * 16 + c];
            want_i[r * 16 + c] = ib[r * 16 + c];
        }
    expect_release_result([&] { part_argmin_empty_a5(b.data(), ib.data(), vals.data(), idx.data()); },
                          [&] {
                              std::fill(vals.begin(), vals.end(), -1.0f);
                              std::fill(idx.begin(), idx.end(), -1);
                          },
                          [&] {
                              EXPECT_EQ(vals, want_v);
                              EXPECT_EQ(idx, want_i);
                          },
                          "@partargmin-empty-a5", "TPARTARGMIN",
                          "source valid shapes 0x16 and 4x10 do not fit the destination's 4x16: one source must match "
                          "it and the other must not exceed it",
                          "the release build copies src1Val over 4x10 into dstVal, and that source's index tile into "
                          "dstIdx over the overlap of their valid shapes",
                          "give one source dst's valid shape 4x16 and the other at most that");
}

TEST(DeviceTolerates, A5PartArgMaxWithAnIndexOfOtherShapeRunsTheValuesRegion) {
    std::vector<float> a(128), b(128), vals(128, -1.0f), want_v(128, -1.0f);
    std::vector<int32_t> ia(128), ib(128), idx(128, -1), want_i(128, -1);
    for (int i = 0; i < 128; ++i) {
        a[i] = static_cast<float>((i * 37) % 101);
        b[i] = static_cast<float>((i * 53) % 97);
        ia[i] = 1000 + i;
        ib[i] = 2000 + i;
    }
    for (int i = 0; i < 64; ++i) {
        const bool first = a[i] > b[i];  // src0 only on a strict win
        want_v[i] = first ? a[i] : b[i];
        want_i[i] = first ? ia[i] : ib[i];
    }
    expect_release_result([&] { part_argmax_idx_a5(a.data(), b.data(), ia.data(), ib.data(), vals.data(), idx.data()); },
                          [&] {
                              std::fill(vals.begin(), vals.end(), -1.0f);
                              std::fill(idx.begin(), idx.end(), -1);
                          },
                          [&] {
                              EXPECT_EQ(vals, want_v);
                              EXPECT_EQ(idx, want_i);
                          },
                          "@partargmax-idx-a5", "TPARTARGMAX", "dstIdx valid shape 4x8 must equal dstVal's 4x16",
                          "the release build runs dstVal's region over dstIdx", "give dstIdx dstVal's valid shape 4x16");
}
#endif

// ------------------------------------------------------------ GM past the requested bytes

constexpr int kR = 4, kC = 16;  // 4 x 16 floats: 256 bytes
using Tile4 = Tile<TileType::Vec, float, kR, kC>;
using G4 = GlobalTensor<float, TileShape2D<float, kR, kC>, BaseShape2D<float, kR, kC>>;

// Loads a 256-byte tile from `in` and stores it to `out`.
void copy_tile(float* in, float* out) {
    Tile4 t;
    TASSIGN(t, 0);
    G4 gi(in), go(out);
    TLOAD(t, gi);  // @past-load
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, t);  // @past-store
}

// aclrtMalloc(252) gives a block of 288 (rounded to 32, plus 32): one
// element past the request lies in the padding. Neither faults; memcheck
// names both accesses.
TEST(DeviceTolerates, OneElementPastTheRequestedSizeIsReportedPaddingIncluded) {
    Acl acl;
    void *in = nullptr, *out = nullptr;
    ASSERT_EQ(aclrtMalloc(&in, 252, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out, 252, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> host(kR * kC);
    std::iota(host.begin(), host.end(), 1.0f);
    ASSERT_EQ(aclrtMemcpy(in, 252, host.data(), 252, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    auto body = [&] { copy_tile(static_cast<float*>(in), static_cast<float*>(out)); };

    Outcome plain = vec("", false, body, {in, out});
    ASSERT_TRUE(plain.st.ok()) << plain.st.message;
    std::vector<float> back(kR * kC - 1);
    ASSERT_EQ(aclrtMemcpy(back.data(), 252, out, 252, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back, std::vector<float>(host.begin(), host.end() - 1));

    Outcome checked = vec("mem", false, body, {in, out});
    EXPECT_EQ(checked.st.code, ptosim::err::kVectorCoreException) << checked.st.message;
    std::vector<std::string> got;
    for (const Report& r : checked.reports) got.push_back(checker_test::summary(r));
    std::sort(got.begin(), got.end());
    std::vector<std::string> want = {"memcheck gm-past-allocation GM " + std::to_string(line_of("@past-load")),
                                     "memcheck gm-past-allocation GM " + std::to_string(line_of("@past-store"))};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
    for (const Report& r : checked.reports) {
        EXPECT_NE(r.message.find("runs 4 bytes past the 252 bytes requested for the allocation at"), std::string::npos)
            << r.message;
        EXPECT_NE(r.message.find("(into the padding the allocator adds)"), std::string::npos) << r.message;
        EXPECT_EQ(r.hi - r.lo, 256u);
    }

    Outcome strict = vec("", true, body, {in, out});
    EXPECT_EQ(strict.st.code, ptosim::err::kVectorCoreException);
    EXPECT_NE(strict.st.message.find("at " + here("@past-load") + ": TLOAD at"), std::string::npos)
        << strict.st.message;
    aclrtFree(in);
    aclrtFree(out);
}

// A block far smaller than the tile: the load reads on past its padding into
// memory the device would also read (ptosim's tail after the block, zeros
// until written), and the store writes there; a later launch reads back what
// the store left, as HBM would keep it.
TEST(DeviceTolerates, GmPastTheBlockReadsAndWritesTheMemoryAfterIt) {
    Acl acl;
    void *in = nullptr, *out = nullptr;
    ASSERT_EQ(aclrtMalloc(&in, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);   // 16 floats of 64
    ASSERT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<float> host(16);
    std::iota(host.begin(), host.end(), 1.0f);
    ASSERT_EQ(aclrtMemcpy(in, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    Outcome plain = vec("", false, [&] { copy_tile(static_cast<float*>(in), static_cast<float*>(out)); }, {in, out});
    ASSERT_TRUE(plain.st.ok()) << plain.st.message;
    const float* o = static_cast<const float*>(out);
    for (int i = 0; i < kR * kC; ++i) EXPECT_EQ(o[i], i < 16 ? host[i] : 0.0f) << i;
    // The over-write stays: copying `out` (and what lies after it) back in reads it.
    std::memcpy(static_cast<float*>(in) + 16, std::vector<float>(48, 7.0f).data(), 48 * sizeof(float));
    ASSERT_TRUE(vec("", false, [&] { copy_tile(static_cast<float*>(in), static_cast<float*>(out)); }, {in, out}).st.ok());
    for (int i = 16; i < kR * kC; ++i) EXPECT_EQ(o[i], 7.0f) << i;

    Outcome checked = vec("mem", false, [&] { copy_tile(static_cast<float*>(in), static_cast<float*>(out)); }, {in, out});
    ASSERT_EQ(checked.reports.size(), 2u);
    EXPECT_NE(checked.reports[0].message.find("runs 192 bytes past the 64 bytes requested for the allocation at " +
                                              [&] {
                                                  char b[32];
                                                  std::snprintf(b, sizeof b, "%p", in);
                                                  return std::string(b);
                                              }()),
              std::string::npos)
        << checked.reports[0].message;
    EXPECT_NE(checked.reports[0].message.find("as the device reads and writes whatever lies there"), std::string::npos)
        << checked.reports[0].message;
    aclrtFree(in);
    aclrtFree(out);
}

// Farther than the memory kept after a block: ptosim cannot give the
// device's answer (another allocation's bytes), so that stays a fault.
TEST(DeviceTolerates, GmFarPastTheBlockStillFaults) {
    void* blk = ptosim::Device::get().allocate(256, true);
    Outcome o = vec("", false, [&] { ptosim::check_gm(static_cast<uint8_t*>(blk) + 1000, 2u << 20, "TLOAD", {__FILE__, 8}); });
    EXPECT_NE(o.st.message.find("run past the end of the 256-byte allocation"), std::string::npos) << o.st.message;
    EXPECT_NE(o.st.message.find("farther than the memory ptosim keeps after a device block"), std::string::npos)
        << o.st.message;
    ASSERT_TRUE(ptosim::Device::get().release(blk, true).ok());
}

// ------------------------------------------------------------ FFTS base of a mix launch

#if !PTOSIM_TARGET_A5
// A mix kernel that never calls set_ffts_base_addr signals through the base
// the runtime gives the launch, as mix kernels that pass on the device do;
// memcheck names the signal, which the CCE documentation says needs the base.
TEST(DeviceTolerates, MixKernelWithoutSetFftsBaseAddrSignals) {
    int seen = 0;
    auto aic = [&] {
        ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (3 << 8));  // @ffts-unset
    };
    auto aiv = [&] {
        wait_flag_dev(3);
        ++seen;
    };
    Outcome plain = launch("", false, ptosim::KernelKind::Mix, aic, aiv);
    EXPECT_TRUE(plain.st.ok()) << plain.st.message;
    EXPECT_EQ(seen, 2);
    EXPECT_NE(plain.err.find("ptosim: memcheck: note: ffts-base-unset in kernel 'tolerated_kernel' on AIC block 0: "
                             "ffts_cross_core_sync at " + here("@ffts-unset")),
              std::string::npos)
        << plain.err;

    Outcome checked = launch("all", false, ptosim::KernelKind::Mix, aic, aiv);
    EXPECT_EQ(checked.st.code, ptosim::err::kAiCoreException) << checked.st.message;
    EXPECT_EQ(seen, 4);  // the Vector cores were released all the same
    ASSERT_EQ(checked.reports.size(), 1u);
    EXPECT_EQ(checker_test::summary(checked.reports[0]), "memcheck ffts-base-unset " + std::to_string(line_of("@ffts-unset")));
    EXPECT_EQ(checked.reports[0].core, "AIC block 0");
    EXPECT_NE(checked.reports[0].fix.find("call set_ffts_base_addr(addr) before the first cross-core signal"),
              std::string::npos);

    Outcome strict = launch("", true, ptosim::KernelKind::Mix, aic, aiv);
    EXPECT_EQ(strict.st.code, ptosim::err::kAiCoreException);
    EXPECT_NE(strict.st.message.find("faulted on AIC block 0 at " + here("@ffts-unset") + ": ffts_cross_core_sync at"),
              std::string::npos)
        << strict.st.message;
}

// A base other than the runtime's would send the signal nowhere (on the
// device the receivers hang): a fault naming both lines.
TEST(DeviceTolerates, MixKernelWithAWrongFftsBaseFaults) {
    Outcome o = launch(
        "", false, ptosim::KernelKind::Mix,
        [&] {
            set_ffts_base_addr(0x1234);  // @ffts-set-wrong
            ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (3 << 8));  // @ffts-wrong
        },
        [&] { wait_flag_dev(3); });
    EXPECT_EQ(o.st.code, ptosim::err::kAiCoreException) << o.st.message;
    EXPECT_NE(o.st.message.find("at " + here("@ffts-wrong") + ": ffts_cross_core_sync: set_ffts_base_addr at " +
                                here("@ffts-set-wrong") + " set the FFTS base to 0x1234, but the device's FFTS "
                                "control block is at"),
              std::string::npos)
        << o.st.message;
}
#endif

}  // namespace
