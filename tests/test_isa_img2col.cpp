// img2col: TSETFMATRIX, TSET_IMG2COL_RPT, TSET_IMG2COL_PADDING and TIMG2COL,
// against a direct convolution-window reference written here: K runs over
// (C1, Kh, Kw, C0) like FRACTAL_Z weights, M over (N, Ho, Wo).
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/img2col.hpp>
#include <pto/inst/tmatmul.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;

namespace {

struct Conv {
    int n, c1, h, w;
    int kh, kw, sh, sw, dh, dw;
    int pl, pr, pt, pb;
    int channels;  // 0: all C1 * C0
    int ho() const { return (h + pt + pb - dh * (kh - 1) - 1) / sh + 1; }
    int wo() const { return (w + pl + pr - dw * (kw - 1) - 1) / sw + 1; }
};

template <class T>
constexpr int kC0 = 32 / sizeof(T);

// Offsets in L0A written from the fractal definitions: A2A3 Zz (16 x C0
// fractals, row-major between and within), A5 Nz (column-major between).
template <class T, int Rows, int Cols>
size_t left_offset(int r, int c) {
    constexpr int c0 = kC0<T>;
    if (PTOSIM_TARGET_A5) return static_cast<size_t>(c / c0) * Rows * c0 + r * c0 + c % c0;
    return static_cast<size_t>(r / 16) * 16 * Cols + (c / c0) * 16 * c0 + (r % 16) * c0 + c % c0;
}

template <class T>
std::vector<T> fmap_values(const Conv& p) {
    std::vector<T> v(static_cast<size_t>(p.n) * p.c1 * p.h * p.w * kC0<T>);
    for (size_t i = 0; i < v.size(); ++i) {
        const int q = static_cast<int>(i % 97) - 48;
        if constexpr (is_fp<T>) v[i] = from_float<T>(static_cast<float>(q) + 0.5f);
        else v[i] = static_cast<T>(q + 50);
    }
    return v;
}

template <class T>
T expect_at(const std::vector<T>& fm, const Conv& p, int m, int k, T pad) {
    constexpr int c0 = kC0<T>;
    const int per = p.ho() * p.wo();
    const int img = m / per, oy = m % per / p.wo(), ox = m % p.wo();
    const int cc0 = k % c0, rest = k / c0;
    const int kx = rest % p.kw, ky = rest / p.kw % p.kh, cc1 = rest / (p.kw * p.kh);
    const int channels = p.channels ? p.channels : p.c1 * c0;
    const int iy = oy * p.sh + ky * p.dh - p.pt, ix = ox * p.sw + kx * p.dw - p.pl;
    if (img >= p.n || cc1 >= p.c1 || cc1 * c0 + cc0 >= channels || iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) return pad;
    return fm[((static_cast<size_t>(img) * p.c1 + cc1) * p.h + iy) * p.w * c0 + static_cast<size_t>(ix) * c0 + cc0];
}

template <class T, int Rows, int Cols, SetFmatrixMode Mode = SetFmatrixMode::FMATRIX_A_MANUAL>
void check_img2col(const Conv& p, int vr, int vc, int posM, int posK, T pad) {
    constexpr int c0 = kC0<T>;
    using Fmap = ConvTile<TileType::Mat, T, 64 * 1024, Layout::NC1HWC0,
                          ConvTileShape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, kC0<T>>>;
    using Left = TileLeft<T, Rows, Cols, DYNAMIC, DYNAMIC>;
    const auto fm = fmap_values<T>(p);
    const T sentinel = from_float<T>(7.0f);
    std::vector<T> got(Rows * Cols);
    auto st = run_cube([&] {
        // NC1HWC0 in L1 is dense: load it as rows of C0 elements.
        const int fm_rows = p.n * p.c1 * p.h * p.w;
        Tile<TileType::Mat, T, 1024, c0, BLayout::RowMajor, DYNAMIC, c0> flat(fm_rows);
        TASSIGN(flat, 0x1000);
        auto g = gm_nd(const_cast<T*>(fm.data()), fm_rows, c0, c0);
        TLOAD(flat, g);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        Fmap src(static_cast<int64_t>(p.n), static_cast<int64_t>(p.c1), static_cast<int64_t>(p.h),
                 static_cast<int64_t>(p.w));
        TASSIGN(src, 0x1000);
        src.SetFmapH(p.h);
        src.SetFmapW(p.w);
        const uint8_t pads[4] = {static_cast<uint8_t>(p.pl), static_cast<uint8_t>(p.pr), static_cast<uint8_t>(p.pt),
                                 static_cast<uint8_t>(p.pb)};
        src.SetPadListArray(pads);
        src.SetFilterH(p.kh);
        src.SetFilterW(p.kw);
        src.SetStrideH(p.sh);
        src.SetStrideW(p.sw);
        src.SetDilationH(p.dh);
        src.SetDilationW(p.dw);
        src.SetChannelSize(p.channels);
        src.SetPadValue(pad);
        uint8_t* l0a = ptosim::core().mem[static_cast<int>(ptosim::Space::L0A)];
        for (int i = 0; i < Rows * Cols; ++i) std::memcpy(l0a + i * sizeof(T), &sentinel, sizeof(T));
        Left dst(vr, vc);
        TASSIGN(dst, 0);
        TSET_IMG2COL_PADDING(src);
        if constexpr (Mode == SetFmatrixMode::FMATRIX_A_MANUAL || Mode == SetFmatrixMode::FMATRIX_B_MANUAL)
            TSETFMATRIX<Fmap, Mode>(src);
        TIMG2COL<Left, Fmap, Mode>(dst, src, posM, posK);
        for (int r = 0; r < Rows; ++r)
            for (int c = 0; c < Cols; ++c)
                std::memcpy(&got[r * Cols + c], l0a + left_offset<T, Rows, Cols>(r, c) * sizeof(T), sizeof(T));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    // Whole fractals are written: valid rows to 16, valid columns to C0.
    const int rows = (vr + 15) / 16 * 16, cols = (vc + c0 - 1) / c0 * c0;
    for (int r = 0; r < Rows; ++r)
        for (int c = 0; c < Cols; ++c) {
            const T want = r < rows && c < cols ? expect_at(fm, p, posM + r, posK + c, pad) : sentinel;
            ASSERT_TRUE(same(got[r * Cols + c], want))
                << "(" << r << "," << c << ") got " << show(got[r * Cols + c]) << " want " << show(want);
        }
}

// 3x3, stride 1, pad 1 everywhere: 4x16 map -> 64 output rows.
const Conv kBasic{1, 2, 4, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0};
// Strides, dilations and uneven padding.
const Conv kStrided{1, 2, 7, 9, 3, 2, 2, 1, 1, 2, 0, 2, 1, 0, 0};
// Two images and fewer channels than C1 * C0.
const Conv kBatch{2, 2, 3, 4, 2, 2, 1, 1, 1, 1, 0, 1, 1, 0, 20};

template <class T>
class Img2col : public ::testing::Test {};
#if PTOSIM_TARGET_A5
using Img2colTypes = ::testing::Types<half, bfloat16_t, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>;
#else
using Img2colTypes = ::testing::Types<half, bfloat16_t, float, int8_t>;
#endif
TYPED_TEST_SUITE(Img2col, Img2colTypes);

TYPED_TEST(Img2col, WholeWindowFromOrigin) {
    using T = TypeParam;
    check_img2col<T, 64, 2 * 9 * kC0<T>>(kBasic, 64, 2 * 9 * kC0<T>, 0, 0, from_float<T>(0.0f));
}
TYPED_TEST(Img2col, StridedDilatedUnevenPaddingWithPadValue) {
    using T = TypeParam;
    check_img2col<T, 32, 4 * kC0<T>>(kStrided, 17, 3 * kC0<T> - 1, 5, 2 * kC0<T>, from_float<T>(3.0f));
}
TYPED_TEST(Img2col, BatchAndPartialChannels) {
    using T = TypeParam;
    check_img2col<T, 48, 4 * kC0<T>>(kBatch, 40, 4 * kC0<T>, 0, 0, from_float<T>(5.0f));
}
TYPED_TEST(Img2col, OneRowOneColumnAtAnOffset) {
    using T = TypeParam;
    check_img2col<T, 16, kC0<T>>(kBasic, 1, 1, 63, 17 * kC0<T> + 3, from_float<T>(0.0f));
}
TYPED_TEST(Img2col, AutoModeSetsFmatrixB) {
    using T = TypeParam;
    check_img2col<T, 32, 2 * kC0<T>, SetFmatrixMode::FMATRIX_B_AUTO>(kStrided, 32, 2 * kC0<T>, 0, 0,
                                                                    from_float<T>(0.0f));
}

// TIMG2COL then TMATMUL with FRACTAL_Z-ordered weights is a convolution:
// checked against a direct convolution of the same integers.
TEST(Img2colConv, MatmulWithFractalZWeightsIsAConvolution) {
    constexpr int H = 4, W = 5, KH = 3, KW = 3, C = 16, COUT = 16;
    constexpr int HO = 4, WO = 5, M = HO * WO, K = KH * KW * C;
    std::vector<half> x(H * W * C), wk(static_cast<size_t>(K) * COUT);  // x: NC1HWC0 with C1 = 1
    std::vector<float> out(M * COUT, -1.0f);
    auto xv = [](int c, int y, int xx) { return static_cast<float>((c * 7 + y * 3 + xx) % 9 - 4); };
    auto wv = [](int o, int c, int ky, int kx) { return static_cast<float>((o * 5 + c * 3 + ky * 2 + kx) % 7 - 3); };
    for (int y = 0; y < H; ++y)
        for (int xx = 0; xx < W; ++xx)
            for (int c = 0; c < C; ++c) x[(y * W + xx) * C + c] = from_float<half>(xv(c, y, xx));
    for (int ky = 0; ky < KH; ++ky)
        for (int kx = 0; kx < KW; ++kx)
            for (int c = 0; c < C; ++c)
                for (int o = 0; o < COUT; ++o) wk[((ky * KW + kx) * C + c) * COUT + o] = from_float<half>(wv(o, c, ky, kx));
    using Fmap = ConvTile<TileType::Mat, half, H * W * C, Layout::NC1HWC0, ConvTileShape<1, 1, H, W, C>>;
    using MatB = Tile<TileType::Mat, half, K, COUT, BLayout::ColMajor, K, COUT, SLayout::RowMajor, 512>;
    auto st = run_cube([&] {
        Tile<TileType::Mat, half, H * W, C, BLayout::RowMajor, H * W, C> flat;
        TASSIGN(flat, 0);
        MatB mb;
        TASSIGN(mb, 0x4000);
        auto gx = gm_nd(x.data(), H * W, C, C);
        auto gw = gm_nd(wk.data(), K, COUT, COUT);
        TLOAD(flat, gx);
        TLOAD(mb, gw);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        Fmap src;
        TASSIGN(src, 0);
        src.SetFmapH(H);
        src.SetFmapW(W);
        const uint8_t pads[4] = {1, 1, 1, 1};
        src.SetPadListArray(pads);
        src.SetFilterH(KH);
        src.SetFilterW(KW);
        TSET_IMG2COL_PADDING(src);
        TileLeft<half, 32, K, DYNAMIC, DYNAMIC> a(M, K);
        TASSIGN(a, 0);
        TIMG2COL<decltype(a), Fmap, SetFmatrixMode::FMATRIX_A_AUTO>(a, src, 0, 0);
        TileRight<half, K, COUT> b;
        TASSIGN(b, 0);
        TMOV(b, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TileAcc<float, 32, COUT, DYNAMIC, DYNAMIC> acc(M, COUT);
        TASSIGN(acc, 0);
        TMATMUL(acc, a, b);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        auto go = gm_nd(out.data(), M, COUT, COUT);
        TSTORE(go, acc);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int oy = 0; oy < HO; ++oy)
        for (int ox = 0; ox < WO; ++ox)
            for (int o = 0; o < COUT; ++o) {
                double want = 0;
                for (int ky = 0; ky < KH; ++ky)
                    for (int kx = 0; kx < KW; ++kx) {
                        const int iy = oy + ky - 1, ix = ox + kx - 1;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        for (int c = 0; c < C; ++c) want += xv(c, iy, ix) * wv(o, c, ky, kx);
                    }
                ASSERT_EQ(out[(oy * WO + ox) * COUT + o], want) << "(" << oy << "," << ox << ") channel " << o;
            }
}

TEST(Img2colRegisters, ConfigInstructionsWriteTheRegisters) {
    using Fmap = ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 8, 8, 16>>;
    uint64_t fm = 0, fmb = 0, rpt = 0, pad = 0, auto_fm = 0;
    auto st = run_cube([&] {
        Fmap src;
        TASSIGN(src, 0);
        src.SetFmapH(0x1234);
        src.SetFmapW(0x0567);
        const uint8_t pads[4] = {1, 2, 3, 4};
        src.SetPadListArray(pads);
        src.SetRepeatStride(0x0abc);
        src.SetRepeatTime(5);
        src.SetRepeatMode(1);
        src.SetPadValue(from_float<half>(-2.0f));
        TSETFMATRIX(src);
        TSETFMATRIX<Fmap, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
        TSET_IMG2COL_RPT(src);
        TSET_IMG2COL_PADDING(src);
        fm = ptosim::core().fmatrix;
        fmb = ptosim::core().fmatrix_b;
        rpt = ptosim::core().img2col_rpt;
        pad = ptosim::core().img2col_pad;
        // AUTO modes leave the registers to TIMG2COL.
        src.SetFmapH(1);
        TSETFMATRIX<Fmap, SetFmatrixMode::FMATRIX_A_AUTO>(src);
        auto_fm = ptosim::core().fmatrix;
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(fm, 0x0403020112340567ull);
    EXPECT_EQ(fmb, fm);
    EXPECT_EQ(rpt, 0x01050abcull);
    EXPECT_EQ(pad, 0xc000ull);
    EXPECT_EQ(auto_fm, fm);
}

TEST(Img2colRegisters, Int8PaddingRepeatsTheByte) {
    using Fmap = ConvTile<TileType::Mat, int8_t, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 32>>;
    uint64_t pad = 0;
    auto st = run_cube([&] {
        Fmap src;
        TASSIGN(src, 0);
        src.SetPadValue(-3);
        TSET_IMG2COL_PADDING(src);
        pad = ptosim::core().img2col_pad;
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(pad, 0xfdfdull);
}

TEST(Img2colFaults, ManualModeWithoutSetfmatrix) {
    using Fmap = ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>>;
    ptosim::Status st = run_cube([] {
        Fmap src;
        TASSIGN(src, 0);
        src.SetFmapH(4);
        src.SetFmapW(4);
        TileLeft<half, 16, 16> dst;
        TASSIGN(dst, 0);
        TIMG2COL(dst, src, 0, 0);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("call TSETFMATRIX(convTile) first"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_img2col.cpp"), std::string::npos) << st.message;
}

TEST(Img2colFaults, WrongC0) {
    using Fmap = ConvTile<TileType::Mat, float, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>>;
    ptosim::Status st = run_cube([] {
        Fmap src;
        TASSIGN(src, 0);
        TileLeft<float, 16, 8> dst;
        TASSIGN(dst, 0);
        TIMG2COL(dst, src, 0, 0);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("C0 is 16 but 8 elements"), std::string::npos) << st.message;
}

}  // namespace
