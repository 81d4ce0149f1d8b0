// Convolution layouts: TLOAD of NC1HWC0 / FRACTAL_Z / NHWC / NCHW / NCDHW
// tensors into a ConvTile, TMOV/TEXTRACT of FRACTAL_Z weights into L0B, and
// accumulator stores to NC1HWC0 (A2A3) and NHWC / NCHW / NCDHW (A5). Every
// expected value is an index computed here from the layouts' definitions.
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/layout.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;
using testutil::run_mix;

namespace {

using G5 = Shape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
using S5 = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
template <class T, Layout L>
using Gm5 = GlobalTensor<T, G5, S5, L>;

template <class T, Layout L>
Gm5<T, L> gm5(T* p, std::array<int64_t, 5> s, std::array<int64_t, 5> st) {
    return Gm5<T, L>(p, G5(s[0], s[1], s[2], s[3], s[4]), S5(st[0], st[1], st[2], st[3], st[4]));
}

// Element value i of a GM buffer: distinct for the first 120 indices and
// never zero, so a zero in L1 can only be padding.
int16_t value_at(size_t i) { return static_cast<int16_t>(i % 120 + 1); }

template <class T>
std::vector<T> l1_elements(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + addr, n * sizeof(T));
    return v;
}

constexpr int kConvC0 = 16;  // int16_t: 32 bytes

// A strided GM tensor [2,3,4,5,16] (whole [3,4,6,7,16]) loads densely.
TEST(ConvLoad, Nc1hwc0CopiesTheShapeThroughTheStrides) {
    const std::array<int64_t, 5> whole{3, 4, 6, 7, kConvC0}, shape{2, 3, 4, 5, kConvC0};
    const std::array<int64_t, 5> st{4 * 6 * 7 * kConvC0, 6 * 7 * kConvC0, 7 * kConvC0, kConvC0, 1};
    std::vector<int16_t> gm(3 * 4 * 6 * 7 * kConvC0);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = value_at(i);
    std::vector<int16_t> got;
    auto st_ = run_cube([&] {
        using Fmap = ConvTile<TileType::Mat, int16_t, 2 * 3 * 4 * 5 * kConvC0 * 2, Layout::NC1HWC0,
                              ConvTileShape<2, 3, 4, 5, kConvC0>>;
        Fmap t;
        TASSIGN(t, 0x200);
        auto g = gm5<int16_t, Layout::NC1HWC0>(gm.data(), shape, st);
        TLOAD(t, g);
        got = l1_elements<int16_t>(0x200, 2 * 3 * 4 * 5 * kConvC0);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    size_t e = 0;
    for (int n = 0; n < 2; ++n)
        for (int c1 = 0; c1 < 3; ++c1)
            for (int h = 0; h < 4; ++h)
                for (int w = 0; w < 5; ++w)
                    for (int c0 = 0; c0 < kConvC0; ++c0, ++e)
                        ASSERT_EQ(got[e], gm[n * st[0] + c1 * st[1] + h * st[2] + w * st[3] + c0]) << e;
}

// [C1HW=3, N/16=2, 16, C0] weights from GM [1,3,2,16,C0] whose C1HW rows are
// 3 fractal rows apart; then TMOV and TEXTRACT read them as a K x N Zn matrix.
TEST(ConvLoad, FractalZ4dLoadsAndMovesIntoRightAsZn) {
    constexpr int X = 3, N1 = 2, K = X * kConvC0, N = N1 * 16;
    const std::array<int64_t, 5> st{X * 3 * 16 * kConvC0, 3 * 16 * kConvC0, 16 * kConvC0, kConvC0, 1};
    std::vector<int16_t> gm(X * 3 * 16 * kConvC0);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = value_at(i * 7);
    std::vector<int16_t> l1, l0b_whole(K * N), l0b_part(kConvC0 * 16);
    auto st_ = run_cube([&] {
        using W = ConvTile<TileType::Mat, int16_t, K * N * 2, Layout::FRACTAL_Z, ConvTileShape<X, N1, 16, kConvC0>>;
        W w;
        TASSIGN(w, 0);
        auto g = gm5<int16_t, Layout::FRACTAL_Z>(gm.data(), {1, X, N1, 16, kConvC0}, st);
        TLOAD(w, g);
        l1 = l1_elements<int16_t>(0, K * N);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TileRight<int16_t, K, N> whole;
        TASSIGN(whole, 0);
        TMOV(whole, w);
        TileRight<int16_t, kConvC0, 16> part;
        TASSIGN(part, 0x4000);
        TEXTRACT(part, w, kConvC0 * 2, 16);
        const uint8_t* l0b = ptosim::core().mem[static_cast<int>(ptosim::Space::L0B)];
        std::memcpy(l0b_whole.data(), l0b, K * N * 2);
        std::memcpy(l0b_part.data(), l0b + 0x4000, kConvC0 * 16 * 2);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    auto weight = [&](int k, int n) {  // K x N view of the GM weights
        return gm[(k / kConvC0) * st[1] + (n / 16) * st[2] + (n % 16) * st[3] + k % kConvC0];
    };
    for (int i = 0; i < X; ++i)
        for (int n = 0; n < N; ++n)
            for (int c0 = 0; c0 < kConvC0; ++c0)
                ASSERT_EQ(l1[(i * N + n) * kConvC0 + c0], weight(i * kConvC0 + c0, n));
    // Zn: C0 x 16 fractals, row-major between fractals, column-major inside.
    auto zn = [](int k, int n, int cols) { return ((k / kConvC0) * (cols / 16) + n / 16) * 16 * kConvC0 + (n % 16) * kConvC0 + k % kConvC0; };
    for (int k = 0; k < K; ++k)
        for (int n = 0; n < N; ++n) ASSERT_EQ(l0b_whole[zn(k, n, N)], weight(k, n)) << k << "," << n;
    for (int k = 0; k < kConvC0; ++k)
        for (int n = 0; n < 16; ++n) ASSERT_EQ(l0b_part[zn(k, n, 16)], weight(2 * kConvC0 + k, 16 + n));
}

TEST(ConvLoad, ShapeMismatchFaultsWithTheRule) {
    std::vector<int16_t> gm(4096, 1);
    auto st = run_cube([&] {
        ConvTile<TileType::Mat, int16_t, 8192, Layout::NC1HWC0, ConvTileShape<1, 2, 4, 4, kConvC0>> t;
        TASSIGN(t, 0);
        auto g = gm5<int16_t, Layout::NC1HWC0>(gm.data(), {1, 2, 4, 3, kConvC0}, {512, 256, 64, 16, 1});
        TLOAD(t, g);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("GlobalTensor shape [1,2,4,3,16] does not fit ConvTile shape [1,2,4,4,16]"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("test_isa_conv.cpp"), std::string::npos) << st.message;
}

// BufferSize counts elements (pto-isa declares the storage as BufferSize
// elements): a kernel sizing it in bytes declares twice the room an int16
// shape needs, and the load runs; one element fewer than the shape faults.
TEST(ConvLoad, BufferSizeCountsElements) {
    std::vector<int16_t> gm(2 * 4 * 4 * kConvC0, 3);
    constexpr int kElems = 2 * 4 * 4 * kConvC0;
    auto load = [&](auto tile) {
        return run_cube([&] {
            decltype(tile) t;
            TASSIGN(t, 0);
            auto g = gm5<int16_t, Layout::NC1HWC0>(gm.data(), {1, 2, 4, 4, kConvC0}, {512, 256, 64, 16, 1});
            TLOAD(t, g);
        });
    };
    using Shape = ConvTileShape<1, 2, 4, 4, kConvC0>;
    EXPECT_TRUE(load(ConvTile<TileType::Mat, int16_t, kElems, Layout::NC1HWC0, Shape>{}).ok());
    auto st = load(ConvTile<TileType::Mat, int16_t, kElems - 1, Layout::NC1HWC0, Shape>{});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TLOAD: the ConvTile shape [1,2,4,4,16] holds 512 elements but its BufferSize declares "
                              "storage for 511 (BufferSize counts elements of the tile's type, not bytes)"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("test_isa_conv.cpp"), std::string::npos) << st.message;
}

#if PTOSIM_TARGET_A5

// C = 20 channels fill C1 = 2 blocks of 16; channels 20..31 are zeros.
TEST(ConvLoadA5, NchwAndNhwcConvertToNc1hwc0WithZeroChannels) {
    constexpr int N = 2, C = 20, H = 3, W = 4, C1 = 2;
    std::vector<int16_t> nchw(N * C * H * W), nhwc(N * H * W * C);
    for (size_t i = 0; i < nchw.size(); ++i) nchw[i] = value_at(i), nhwc[i] = value_at(i + 3);
    std::vector<int16_t> a, b;
    auto st_ = run_cube([&] {
        using Fmap = ConvTile<TileType::Mat, int16_t, N * C1 * H * W * kConvC0 * 2, Layout::NC1HWC0,
                              ConvTileShape<N, C1, H, W, kConvC0>>;
        Fmap ta, tb;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x8000);
        auto ga = gm5<int16_t, Layout::NCHW>(nchw.data(), {1, N, C, H, W}, {N * C * H * W, C * H * W, H * W, W, 1});
        auto gb = gm5<int16_t, Layout::NHWC>(nhwc.data(), {1, N, H, W, C}, {N * H * W * C, H * W * C, W * C, C, 1});
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        a = l1_elements<int16_t>(0, N * C1 * H * W * kConvC0);
        b = l1_elements<int16_t>(0x8000, N * C1 * H * W * kConvC0);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    size_t e = 0;
    for (int n = 0; n < N; ++n)
        for (int c1 = 0; c1 < C1; ++c1)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w)
                    for (int c0 = 0; c0 < kConvC0; ++c0, ++e) {
                        const int c = c1 * kConvC0 + c0;
                        ASSERT_EQ(a[e], c < C ? nchw[((n * C + c) * H + h) * W + w] : 0) << e;
                        ASSERT_EQ(b[e], c < C ? nhwc[((n * H + h) * W + w) * C + c] : 0) << e;
                    }
}

// N = 20 kernels pad to 32 and C = 18 channels to 32: [C1*H*W = 2*2*3, 2, 16, C0].
TEST(ConvLoadA5, NchwConvertsToFractalZWithZeroPadding) {
    constexpr int N = 20, C = 18, H = 2, W = 3, C1 = 2, N1 = 2;
    std::vector<int16_t> gm(N * C * H * W);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = value_at(i);
    std::vector<int16_t> got;
    auto st_ = run_cube([&] {
        ConvTile<TileType::Mat, int16_t, C1 * H * W * N1 * 16 * kConvC0 * 2, Layout::FRACTAL_Z,
                 ConvTileShape<C1 * H * W, N1, 16, kConvC0>>
            t;
        TASSIGN(t, 0);
        auto g = gm5<int16_t, Layout::NCHW>(gm.data(), {1, N, C, H, W}, {N * C * H * W, C * H * W, H * W, W, 1});
        TLOAD(t, g);
        got = l1_elements<int16_t>(0, C1 * H * W * N1 * 16 * kConvC0);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    size_t e = 0;
    for (int c1 = 0; c1 < C1; ++c1)
        for (int h = 0; h < H; ++h)
            for (int w = 0; w < W; ++w)
                for (int n = 0; n < N1 * 16; ++n)
                    for (int c0 = 0; c0 < kConvC0; ++c0, ++e) {
                        const int c = c1 * kConvC0 + c0;
                        ASSERT_EQ(got[e], n < N && c < C ? gm[((n * C + c) * H + h) * W + w] : 0) << e;
                    }
}

// NCDHW with a depth of 2 inside a deeper tensor (D stride covers 3 slices).
TEST(ConvLoadA5, NcdhwConvertsToNdc1hwc0AndFractalZ3d) {
    constexpr int N = 2, C = 17, D = 2, H = 2, W = 3, C1 = 2, DW = 3;
    const std::array<int64_t, 5> st{C * DW * H * W, DW * H * W, H * W, W, 1};
    std::vector<int16_t> gm(N * C * DW * H * W);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = value_at(i * 5);
    std::vector<int16_t> a, b;
    auto st_ = run_cube([&] {
        ConvTile<TileType::Mat, int16_t, N * D * C1 * H * W * kConvC0 * 2, Layout::NDC1HWC0,
                 ConvTileShape<N, D, C1, H, W, kConvC0>>
            ta;
        ConvTile<TileType::Mat, int16_t, C1 * D * H * W * 16 * kConvC0 * 2, Layout::FRACTAL_Z_3D,
                 ConvTileShape<C1 * D * H * W, 1, 16, kConvC0>>
            tb;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x8000);
        auto g = gm5<int16_t, Layout::NCDHW>(gm.data(), {N, C, D, H, W}, st);
        TLOAD(ta, g);
        TLOAD(tb, g);
        a = l1_elements<int16_t>(0, N * D * C1 * H * W * kConvC0);
        b = l1_elements<int16_t>(0x8000, C1 * D * H * W * 16 * kConvC0);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    auto src = [&](int n, int c, int d, int h, int w) { return gm[n * st[0] + c * st[1] + d * st[2] + h * st[3] + w]; };
    size_t e = 0;
    for (int n = 0; n < N; ++n)
        for (int d = 0; d < D; ++d)
            for (int c1 = 0; c1 < C1; ++c1)
                for (int h = 0; h < H; ++h)
                    for (int w = 0; w < W; ++w)
                        for (int c0 = 0; c0 < kConvC0; ++c0, ++e) {
                            const int c = c1 * kConvC0 + c0;
                            ASSERT_EQ(a[e], c < C ? src(n, c, d, h, w) : 0) << e;
                        }
    e = 0;
    for (int c1 = 0; c1 < C1; ++c1)
        for (int d = 0; d < D; ++d)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w)
                    for (int n = 0; n < 16; ++n)
                        for (int c0 = 0; c0 < kConvC0; ++c0, ++e) {
                            const int c = c1 * kConvC0 + c0;
                            ASSERT_EQ(b[e], n < N && c < C ? src(n, c, d, h, w) : 0) << e;
                        }
}

#endif

// ------------------------------------------------------------ 2-D Mat loads

// ND -> Nz without a PadValue: the valid rows are zeroed up to the C0 block
// boundary; the columns past it and the rows past the valid height keep L1's
// old bytes.
TEST(MatLoad, NdToNzZeroesTheC0TailOfValidRows) {
    constexpr int R = 32, C = 48, vr = 5, vc = 19;
    std::vector<int16_t> in(vr * 24);
    for (size_t i = 0; i < in.size(); ++i) in[i] = value_at(i);
    std::vector<int16_t> got;
    auto st_ = run_cube([&] {
        std::memset(ptosim::core().mem[static_cast<int>(ptosim::Space::L1)], 0x55, R * C * 2);
        Tile<TileType::Mat, int16_t, R, C, BLayout::ColMajor, vr, vc, SLayout::RowMajor> t;
        TASSIGN(t, 0);
        auto g = gm_nd(in.data(), vr, vc, 24);
        TLOAD(t, g);
        got = l1_elements<int16_t>(0, R * C);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            const int16_t v = got[(c / kConvC0) * R * kConvC0 + r * kConvC0 + c % kConvC0];
            const int16_t want = r >= vr || c >= 32 ? 0x5555 : c < vc ? in[r * 24 + c] : 0;
            ASSERT_EQ(v, want) << r << "," << c;
        }
}

#if PTOSIM_TARGET_A5
// A mix kernel's shared code runs an L1 TLOAD / TFILLPAD on the Vector cores
// too; there, as in pto-isa's cube-only A5 movers, it does nothing.
TEST(MatLoadA5, L1LoadAndFillPadOnTheVectorCoreDoNothing) {
    std::vector<int16_t> in(16 * 16, 3);
    std::vector<int16_t> cube_l1;
    auto body = [&] {
        Tile<TileType::Mat, int16_t, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512, PadValue::Zero> t;
        TASSIGN(t, 0);
        auto g = gm_nd(in.data(), 16, 16, 16);
        TFILLPAD(t, t);
        TLOAD(t, g);
        ConvTile<TileType::Mat, int16_t, 512, Layout::NC1HWC0, ConvTileShape<1, 1, 1, 1, kConvC0>> ct;
        TASSIGN(ct, 0x1000);
        auto gc = gm5<int16_t, Layout::NC1HWC0>(in.data(), {1, 1, 1, 1, kConvC0}, {16, 16, 16, 16, 1});
        TLOAD(ct, gc);
    };
    auto st_ = run_mix([&] {
        body();
        cube_l1 = l1_elements<int16_t>(0, 16 * 16);
    }, body);
    ASSERT_TRUE(st_.ok()) << st_.message;
    for (int16_t v : cube_l1) ASSERT_EQ(v, 3);
}

// A5 loads a DN (column-major) matrix into an Nz Mat tile element for element.
TEST(MatLoadA5, DnToNz) {
    constexpr int R = 32, C = 32, vr = 20, vc = 30, ld = 24;
    std::vector<int16_t> in(ld * vc);
    for (size_t i = 0; i < in.size(); ++i) in[i] = value_at(i);
    std::vector<int16_t> got;
    auto st_ = run_cube([&] {
        Tile<TileType::Mat, int16_t, R, C, BLayout::ColMajor, vr, vc, SLayout::RowMajor> t;
        TASSIGN(t, 0);
        auto g = gm_dn(in.data(), vr, vc, ld);
        TLOAD(t, g);
        got = l1_elements<int16_t>(0, R * C);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) ASSERT_EQ(got[(c / kConvC0) * R * kConvC0 + r * kConvC0 + c % kConvC0], in[r + c * ld]) << r << "," << c;
}
#endif

// ------------------------------------------------------------ Acc stores

// Fills a TileAcc<float, R, C> at L0C 0 with acc(r, c) = r * 1000 + c,
// written at the accumulator's Nz offsets (16 x 16 fractals, column-major
// between fractals, row-major inside).
template <int R, int C>
void fill_acc() {
    auto* l0c = reinterpret_cast<float*>(ptosim::core().mem[static_cast<int>(ptosim::Space::L0C)]);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) l0c[((c / 16) * (R / 16) + r / 16) * 256 + (r % 16) * 16 + c % 16] = r * 1000.0f + c;
    testutil::announce_seeded(ptosim::Pipe::FIX, ptosim::Space::L0C, 0, R * C * sizeof(float));
}

#if PTOSIM_TARGET_A5

// 24 output positions (H = 4, W = 6) x 20 channels into NHWC, NCHW and NCDHW.
TEST(AccStoreA5, NhwcNchwNcdhwAddressPositionsAndChannels) {
    constexpr int H = 4, W = 6, C = 20, M = H * W;
    std::vector<float> nhwc(M * C + 8, -1.0f), nchw(C * M, -1.0f), ncdhw(C * 2 * M, -1.0f);
    auto st_ = run_cube([&] {
        TileAcc<float, 32, 32, DYNAMIC, DYNAMIC> acc(M, C);
        TASSIGN(acc, 0);
        fill_acc<32, 32>();
        // NHWC with a row pitch of C + 0: channels contiguous, positions C apart.
        auto g1 = gm5<float, Layout::NHWC>(nhwc.data(), {1, 1, H, W, C}, {M * C, M * C, W * C, C, 1});
        // NCHW: each channel's H*W positions contiguous.
        auto g2 = gm5<float, Layout::NCHW>(nchw.data(), {1, 1, C, H, W}, {C * M, C * M, M, W, 1});
        // NCDHW with D = 1 of 2: channels two depth slices apart.
        auto g3 = gm5<float, Layout::NCDHW>(ncdhw.data(), {1, C, 1, H, W}, {C * 2 * M, 2 * M, M, W, 1});
        TSTORE(g1, acc);
        TSTORE(g2, acc);
        TSTORE(g3, acc);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < C; ++c) {
            const float v = r * 1000.0f + c;
            ASSERT_EQ(nhwc[r * C + c], v);
            ASSERT_EQ(nchw[c * M + r], v);
            ASSERT_EQ(ncdhw[c * 2 * M + r], v);
            ASSERT_EQ(ncdhw[c * 2 * M + M + r], -1.0f);
        }
}

TEST(AccStoreA5, NhwcWithABatchDimensionFaults) {
    std::vector<float> out(4096);
    auto st = run_cube([&] {
        TileAcc<float, 16, 16> acc;
        TASSIGN(acc, 0);
        auto g = gm5<float, Layout::NHWC>(out.data(), {2, 1, 2, 8, 16}, {256, 256, 128, 16, 1});
        TSTORE(g, acc);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TSTORE: an NHWC store repeats over shape0 (2)"), std::string::npos) << st.message;
}

#else

// 48 positions (H = 6, W = 8) x 32 channels into NC1HWC0 with C0 = 16 (the
// A2A3 float store) and C0 = 8 (channel split).
TEST(AccStoreA2A3, Nc1hwc0StoresC0WideChannelBlocks) {
    constexpr int H = 6, W = 8, M = H * W, C = 32;
    std::vector<float> c16(C * M, -1.0f), c8(C * M, -1.0f);
    auto st_ = run_cube([&] {
        TileAcc<float, M, C> acc;
        TASSIGN(acc, 0);
        fill_acc<M, C>();
        auto g16 = gm5<float, Layout::NC1HWC0>(c16.data(), {1, C / 16, H, W, 16}, {C * M, M * 16, W * 16, 16, 1});
        auto g8 = gm5<float, Layout::NC1HWC0>(c8.data(), {1, C / 8, H, W, 8}, {C * M, M * 8, W * 8, 8, 1});
        TSTORE(g16, acc);
        TSTORE(g8, acc);
    });
    ASSERT_TRUE(st_.ok()) << st_.message;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < C; ++c) {
            const float v = r * 1000.0f + c;
            ASSERT_EQ(c16[(c / 16) * M * 16 + r * 16 + c % 16], v) << r << "," << c;
            ASSERT_EQ(c8[(c / 8) * M * 8 + r * 8 + c % 8], v) << r << "," << c;
        }
}

#endif

}  // namespace
