// Multi-core vector and cube launches with tails, written the way production
// kernels are: block_dim blocks loop over tiles of a runtime-sized problem.
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/pto_sync.hpp>
#include <pto/inst/tmatmul.hpp>
#include "sim_test_util.hpp"
#include <ptosim/check.hpp>
#include <gtest/gtest.h>

using namespace pto;

namespace {

constexpr int kCols = 256;  // elements per tile (one row of 256 floats)

// z = x + y over n elements; block b handles tiles b, b + block_num, ...
void vec_add_kernel(__gm__ float* x, __gm__ float* y, __gm__ float* z, int64_t n) {
    set_mask_norm();
    set_vector_mask(-1, -1);
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, DYNAMIC>, Stride<1, 1, 1, kCols, 1>>;
    using T = Tile<TileType::Vec, float, 1, kCols, BLayout::RowMajor, 1, DYNAMIC>;
    const int64_t tiles = (n + kCols - 1) / kCols;
    for (int64_t t = get_block_idx(); t < tiles; t += get_block_num()) {
        const int64_t len = std::min<int64_t>(kCols, n - t * kCols);
        T a(len), b(len), c(len);
        TASSIGN(a, 0x0);
        TASSIGN(b, 0x1000);
        TASSIGN(c, 0x2000);
        G gx(x + t * kCols, G::Shape(len)), gy(y + t * kCols, G::Shape(len)), gz(z + t * kCols, G::Shape(len));
        TLOAD(a, gx);
        TLOAD(b, gy);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(c, a, b);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(gz, c);
        set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    }
}

// c (m x 32, float) = a (m x 32, half) * b (32 x 32, half); block b computes
// 16-row slabs b, b + block_num, ...; the last slab may be partial.
void cube_matmul_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* c, int64_t m) {
    constexpr int K = 32, N = 32, BM = 16;
    using MatA = Tile<TileType::Mat, half, BM, K, BLayout::ColMajor, DYNAMIC, K, SLayout::RowMajor, 512, PadValue::Zero>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, Shape<1, 1, 1, DYNAMIC, K>, Stride<1, 1, 1, K, 1>>;
    using GB = GlobalTensor<half, Shape<1, 1, 1, K, N>, Stride<1, 1, 1, N, 1>>;
    using GC = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, N>, Stride<1, 1, 1, N, 1>>;
    MatB bm;
    TASSIGN(bm, 0x8000);
    GB gb(b);
    TLOAD(bm, gb);
    TileRight<half, K, N> br;
    TASSIGN(br, 0);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID1);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID1);
    TMOV(br, bm);
    const int64_t slabs = (m + BM - 1) / BM;
    for (int64_t s = get_block_idx(); s < slabs; s += get_block_num()) {
        const int64_t rows = std::min<int64_t>(BM, m - s * BM);
        MatA am(rows);
        TASSIGN(am, 0);
        GA ga(a + s * BM * K, GA::Shape(rows));
        TLOAD(am, ga);
        set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        TileLeft<half, BM, K, DYNAMIC, K> al(rows);
        TASSIGN(al, 0);
        TMOV(al, am);
        set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        TileAcc<float, BM, N, DYNAMIC, N> acc(rows);
        TASSIGN(acc, 0);
        TMATMUL(acc, al, br);
        set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        GC gc(c + s * BM * N, GC::Shape(rows));
        TSTORE(gc, acc);
        set_flag(PIPE_FIX, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_FIX, PIPE_MTE2, EVENT_ID0);
    }
}

}  // namespace

class VecAdd : public testing::TestWithParam<std::pair<int64_t, uint32_t>> {};

TEST_P(VecAdd, MatchesScalarSum) {
    auto [n, blocks] = GetParam();
    std::vector<float> x(n), y(n), z(n + 8, -7.0f);
    for (int64_t i = 0; i < n; ++i) {
        x[i] = 0.5f * i;
        y[i] = 1000.0f - i;
    }
    auto st = testutil::run_vec([&] { vec_add_kernel(x.data(), y.data(), z.data(), n); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << "element " << i;
    for (int64_t i = n; i < n + 8; ++i) ASSERT_EQ(z[i], -7.0f) << "wrote past the end at " << i;
}

// one tile, two tiles, a tail, more tiles than cores, more blocks than cores (waves)
INSTANTIATE_TEST_SUITE_P(Shapes, VecAdd,
                         testing::Values(std::pair<int64_t, uint32_t>{256, 1}, std::pair<int64_t, uint32_t>{512, 2},
                                         std::pair<int64_t, uint32_t>{1000, 3}, std::pair<int64_t, uint32_t>{1, 4},
                                         std::pair<int64_t, uint32_t>{256 * 100 + 17, 8},
                                         std::pair<int64_t, uint32_t>{256 * 70, 70}));

class CubeMatmul : public testing::TestWithParam<std::pair<int64_t, uint32_t>> {};

TEST_P(CubeMatmul, MatchesFloatAccumulation) {
    auto [m, blocks] = GetParam();
    constexpr int K = 32, N = 32;
    std::vector<half> a(m * K), b(K * N);
    std::vector<float> c(m * N, -1.0f);
    testutil::Rng rng;
    for (auto& v : a) v = half(static_cast<float>(rng.uniform(-1, 1)));
    for (auto& v : b) v = half(static_cast<float>(rng.uniform(-1, 1)));
    auto st = testutil::run_cube([&] { cube_matmul_kernel(a.data(), b.data(), c.data(), m); }, blocks);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int64_t i = 0; i < m; ++i)
        for (int j = 0; j < N; ++j) {
            float ref = 0;
            for (int p = 0; p < K; ++p) ref += static_cast<float>(a[i * K + p]) * static_cast<float>(b[p * N + j]);
            ASSERT_EQ(c[i * N + j], ref) << i << "," << j;
        }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CubeMatmul,
                         testing::Values(std::pair<int64_t, uint32_t>{16, 1}, std::pair<int64_t, uint32_t>{32, 2},
                                         std::pair<int64_t, uint32_t>{37, 2}, std::pair<int64_t, uint32_t>{5, 3},
                                         std::pair<int64_t, uint32_t>{16 * 40 + 3, 30}));

// CCE's block_idx and block_num are variables: a kernel reads them directly,
// passes them to printf, and may declare a local block_idx (pto-isa's A2A3
// flash attention does) that hides the global one.
namespace {
void block_vars_kernel(int64_t* out) {
    const int64_t b = get_block_idx();
    out[3 * b] = block_idx * 100 + block_num;
    cce::printf("block %ld of %ld\n", block_idx, block_num);
    {
        const int block_idx = 7;
        out[3 * b + 1] = block_idx;
    }
    const int64_t copy = block_idx;
    out[3 * b + 2] = copy;
}
}  // namespace

TEST(BlockVariables, ReadShadowAndPrint) {
    std::vector<int64_t> out(9, -1);
    testing::internal::CaptureStdout();
    auto st = testutil::run_vec([&] { block_vars_kernel(out.data()); }, 3);
    const std::string printed = testing::internal::GetCapturedStdout();
    ASSERT_TRUE(st.ok()) << st.message;
    for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(out[3 * b], b * 100 + 3) << b;
        EXPECT_EQ(out[3 * b + 1], 7) << b;
        EXPECT_EQ(out[3 * b + 2], b) << b;
        EXPECT_NE(printed.find("block " + std::to_string(b) + " of 3\n"), std::string::npos) << printed;
    }
}

namespace {
// Each block prints three lines around a TPRINT, with a barrier between the
// first and the rest, so that the blocks' output would interleave if it were
// printed as the cores run on several host threads.
void print_kernel() {
    const int64_t b = get_block_idx();
    cce::printf("block %lld starts\n", static_cast<long long>(b));
    SYNCALL<SyncCoreType::AIVOnly>();
    Tile<TileType::Vec, float, 1, 8> t;
    TASSIGN(t, 0);
    TEXPANDS(t, static_cast<float>(b));
    pipe_barrier(PIPE_ALL);
    TPRINT(t);
    cce::printf("block %lld ends\n", static_cast<long long>(b));
}
}  // namespace

// Device printf and TPRINT text of cores on host threads comes out in core
// order, each core's text together, the same on 2 and 3 threads; serially it
// is printed as the cores run (docs/semantics.md, "Host threads").
TEST(HostThreads, DevicePrintfOfCoresOnHostThreadsComesOutInCoreOrder) {
    if (ptosim::check::tools() != 0) GTEST_SKIP() << "the checkers run every launch on the serial schedule";
    std::vector<std::string> printed;
    for (int threads : {1, 2, 3}) {
        ptosim::set_sim_threads(threads);
        testing::internal::CaptureStdout();
        auto st = testutil::run_vec(print_kernel, 4);
        printed.push_back(testing::internal::GetCapturedStdout());
        ptosim::set_sim_threads(0);
        ASSERT_TRUE(st.ok()) << st.message;
    }
    // Serially, every block prints its first line before the barrier lets any go on.
    EXPECT_EQ(printed[0].rfind("block 0 starts\nblock 1 starts\nblock 2 starts\nblock 3 starts\nTPRINT ", 0), 0u)
        << printed[0];
    // On host threads, each block's text stays together, in block order.
    EXPECT_EQ(printed[1], printed[2]);
    size_t at = 0;
    for (int b = 0; b < 4; ++b) {
        const std::string start = "block " + std::to_string(b) + " starts\nTPRINT ";
        ASSERT_EQ(printed[1].compare(at, start.size(), start), 0) << printed[1];
        at = printed[1].find("block " + std::to_string(b) + " ends\n", at);
        ASSERT_NE(at, std::string::npos) << printed[1];
        at += std::string("block " + std::to_string(b) + " ends\n").size();
    }
    EXPECT_EQ(at, printed[1].size());
}

// More blocks than cores on two host threads: the cores of one thread may
// run ahead of the other's by whole waves, and each block's text still comes
// out in block order, after every lower block's.
TEST(HostThreads, DevicePrintfAcrossWavesComesOutInBlockOrder) {
    if (ptosim::check::tools() != 0) GTEST_SKIP() << "the checkers run every launch on the serial schedule";
    const int blocks = ptosim::Device::get().soc().aiv * 2 + 3;
    std::string expected;
    for (int b = 0; b < blocks; ++b) expected += "block " + std::to_string(b) + "\n";
    ptosim::set_sim_threads(2);
    for (int round = 0; round < 3; ++round) {
        testing::internal::CaptureStdout();
        testing::internal::CaptureStderr();  // the warning about waves
        auto st = testutil::run_vec(
            [] {
                const int64_t b = get_block_idx();
                // Blocks on the even physical cores take longer, so that the
                // other thread's blocks finish first.
                if (b % 2 == 0) {
                    volatile int spin = 0;
                    for (int i = 0; i < 20000; ++i) spin = spin + i;
                }
                cce::printf("block %lld\n", static_cast<long long>(b));
            },
            static_cast<uint32_t>(blocks));
        const std::string printed = testing::internal::GetCapturedStdout();
        (void)testing::internal::GetCapturedStderr();
        ASSERT_TRUE(st.ok()) << st.message;
        EXPECT_EQ(printed, expected) << "round " << round;
    }
    ptosim::set_sim_threads(0);
}

// Core-local memory reads as zero when a launch first uses a core, whatever
// an earlier launch left there (docs/semantics.md, "Launches and waves"):
// UB on Vector cores and (A2A3, which stores L1 tiles) L1 on Cube cores, on
// every core of a multi-block launch, after a launch that filled them.
TEST(LocalMemory, ReadsAsZeroInTheNextLaunch) {
    constexpr int R = 64, C = 128, kBlocks = 3;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using V = Tile<TileType::Vec, float, R, C>;
    using M = Tile<TileType::Mat, float, R, C, BLayout::RowMajor, R, C, SLayout::NoneBox>;
    std::vector<float> ones(R * C, 1.0f), out(static_cast<size_t>(kBlocks) * R * C);
    // Fills [0, 32 KiB) of the tile's buffer on every core, or stores it unwritten.
    auto fill = [&](auto tile) {
        TASSIGN(tile, 0);
        G g(ones.data());
        TLOAD(tile, g);
        pipe_barrier(PIPE_ALL);
    };
    auto store = [&](auto tile) {
        TASSIGN(tile, 0);
        G g(out.data() + get_block_idx() * R * C);
        TSTORE(g, tile);
        pipe_barrier(PIPE_ALL);
    };
    for (int round = 0; round < 2; ++round) {
        std::fill(out.begin(), out.end(), -1.0f);
        ASSERT_TRUE(testutil::run_vec([&] { fill(V{}); }, kBlocks).ok());
        ASSERT_TRUE(testutil::run_vec([&] { store(V{}); }, kBlocks).ok());
        for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 0.0f) << "UB float " << i << ", round " << round;
#if !PTOSIM_TARGET_A5
        std::fill(out.begin(), out.end(), -1.0f);
        ASSERT_TRUE(testutil::run_cube([&] { fill(M{}); }, kBlocks).ok());
        ASSERT_TRUE(testutil::run_cube([&] { store(M{}); }, kBlocks).ok());
        for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 0.0f) << "L1 float " << i << ", round " << round;
#endif
    }
}
