// TLOAD / TSTORE between GM and UB/L1: valid regions, strides, DN, NZ and
// padding, for every element type the transfers take.
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/tmatmul.hpp>
#include <ptosim/check.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;
using testutil::run_vec;

namespace {

template <class T>
class LoadStore : public ::testing::Test {};
using LdStTypes = ::testing::Types<half, bfloat16_t, float, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>;
TYPED_TEST_SUITE(LoadStore, LdStTypes);

constexpr int kR = 16;
constexpr int kC = 64;  // 64 elements: a 32-byte multiple for every element size

struct Region {
    int vr, vc;
};
const Region kRegions[] = {{1, 1}, {7, 13}, {16, 64}, {16, 1}, {1, 64}, {9, 33}};

// GM (row stride ldIn) -> UB tile with a dynamic valid region -> GM (row
// stride ldOut). The UB tile is first filled from a sentinel matrix, so the
// whole tile stored afterwards shows exactly which elements TLOAD wrote.
TYPED_TEST(LoadStore, NdRoundTripWritesExactlyTheValidRegion) {
    using T = TypeParam;
    constexpr int ldIn = 80, ldOut = 72;
    for (Region rg : kRegions) {
        SCOPED_TRACE(std::to_string(rg.vr) + "x" + std::to_string(rg.vc));
        std::vector<T> in(kR * ldIn), sentinel(kR * kC), out(kR * ldOut), whole(kR * kC);
        for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 1);
        for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 2);
        for (size_t i = 0; i < out.size(); ++i) out[i] = pattern<T>(i, 3);
        const std::vector<T> out0 = out;
        auto st = run_vec([&] {
            using Full = Tile<TileType::Vec, T, kR, kC>;
            using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
            Full full;
            Dyn dyn(rg.vr, rg.vc);
            TASSIGN(full, 0x1000);
            TASSIGN(dyn, 0x1000);
            auto gs = gm_nd(sentinel.data(), kR, kC, kC);
            auto gi = gm_nd(in.data(), rg.vr, rg.vc, ldIn);
            auto go = gm_nd(out.data(), rg.vr, rg.vc, ldOut);
            auto gw = gm_nd(whole.data(), kR, kC, kC);
            TLOAD(full, gs);
            TLOAD(dyn, gi);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
            TSTORE(go, dyn);
            TSTORE(gw, full);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) {
                const bool valid = r < rg.vr && c < rg.vc;
                const T want = valid ? in[r * ldIn + c] : sentinel[r * kC + c];
                ASSERT_TRUE(same(whole[r * kC + c], want)) << "UB (" << r << "," << c << ")";
            }
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < ldOut; ++c) {
                const bool valid = r < rg.vr && c < rg.vc;
                const T want = valid ? in[r * ldIn + c] : out0[r * ldOut + c];
                ASSERT_TRUE(same(out[r * ldOut + c], want)) << "GM (" << r << "," << c << ")";
            }
    }
}

// A 5-D ND tensor stacks dims 0..3 into rows: 1 x 2 x 3 x 4 rows of 32
// columns, with gaps between every level.
TYPED_TEST(LoadStore, NdFiveDimensionalRowsStack) {
    using T = TypeParam;
    constexpr int cols = 32, s3 = 40, s2 = 4 * s3 + 8, s1 = 3 * s2 + 16, s0 = 2 * s1 + 24;
    std::vector<T> in(2 * s0), out(24 * cols);
    for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 4);
    auto st2 = run_vec([&] {
        using G = GlobalTensor<T, Shape<1, 2, 3, 4, cols>, Stride<s0, s1, s2, s3, 1>>;
        Tile<TileType::Vec, T, 24, cols> t;
        TASSIGN(t, 0);
        G g(in.data());
        auto go = gm_nd(out.data(), 24, cols, cols);
        TLOAD(t, g);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, t);
    });
    ASSERT_TRUE(st2.ok()) << st2.message;
    for (int d1 = 0; d1 < 2; ++d1)
        for (int d2 = 0; d2 < 3; ++d2)
            for (int d3 = 0; d3 < 4; ++d3)
                for (int c = 0; c < cols; ++c) {
                    const int row = (d1 * 3 + d2) * 4 + d3;
                    ASSERT_TRUE(same(out[row * cols + c], in[d1 * s1 + d2 * s2 + d3 * s3 + c])) << row << "," << c;
                }
}

// DN global <-> column-major UB tile; the UB bytes are checked through a
// row-major alias of the transposed shape.
TYPED_TEST(LoadStore, DnRoundTripAndColumnMajorUbLayout) {
    using T = TypeParam;
    constexpr int R = 64, C = 16;  // R * sizeof(T) is a 32-byte multiple
    constexpr int ldIn = 70, ldOut = 66;
    for (Region rg : {Region{1, 1}, Region{13, 7}, Region{64, 16}}) {
        SCOPED_TRACE(std::to_string(rg.vr) + "x" + std::to_string(rg.vc));
        std::vector<T> in(ldIn * C), sentinel(R * C), out(ldOut * C), trans(C * R);
        for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 5);
        for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 6);
        for (size_t i = 0; i < out.size(); ++i) out[i] = pattern<T>(i, 7);
        const std::vector<T> out0 = out;
        auto st = run_vec([&] {
            using Full = Tile<TileType::Vec, T, R, C, BLayout::ColMajor>;
            using Dyn = Tile<TileType::Vec, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC>;
            using Alias = Tile<TileType::Vec, T, C, R>;  // the same bytes read row-major
            Full full;
            Dyn dyn(rg.vr, rg.vc);
            Alias alias;
            TASSIGN(full, 0x2000);
            TASSIGN(dyn, 0x2000);
            TASSIGN(alias, 0x2000);
            auto gs = gm_dn(sentinel.data(), R, C, R);
            auto gi = gm_dn(in.data(), rg.vr, rg.vc, ldIn);
            auto go = gm_dn(out.data(), rg.vr, rg.vc, ldOut);
            auto gt = gm_nd(trans.data(), C, R, R);
            TLOAD(full, gs);
            TLOAD(dyn, gi);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
            TSTORE(go, dyn);
            TSTORE(gt, alias);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r) {
                const bool valid = r < rg.vr && c < rg.vc;
                const T want = valid ? in[r + c * ldIn] : sentinel[r + c * R];
                ASSERT_TRUE(same(trans[c * R + r], want)) << "UB (" << r << "," << c << ")";
            }
        for (int c = 0; c < C; ++c)
            for (int r = 0; r < ldOut; ++r) {
                const bool valid = r < rg.vr && c < rg.vc;
                const T want = valid ? in[r + c * ldIn] : out0[r + c * ldOut];
                ASSERT_TRUE(same(out[r + c * ldOut], want)) << "GM (" << r << "," << c << ")";
            }
    }
}

template <class T>
T pad_value(PadValue p) {
    if (p == PadValue::Zero) return from_float<T>(0.0f);
    const bool mx = p == PadValue::Max;
    if constexpr (is_half<T>) return half_from_bits(mx ? 0x7c00 : 0xfc00);
    else if constexpr (is_bf16<T>) return bf16_from_bits(mx ? 0x7f80 : 0xff80);
    else if constexpr (std::is_floating_point_v<T>) return mx ? INFINITY : -INFINITY;
    else return mx ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}

// PadValue fills each valid row from the last valid column up to the next
// 32-byte boundary; everything else keeps what the UB held.
template <class T, PadValue P>
void check_padding() {
    SCOPED_TRACE(static_cast<int>(P));
    constexpr int c0 = 32 / sizeof(T);
    for (Region rg : {Region{1, 1}, Region{7, 13}, Region{5, c0}, Region{3, c0 + 1}, Region{16, kC - 1}}) {
        SCOPED_TRACE(std::to_string(rg.vr) + "x" + std::to_string(rg.vc));
        std::vector<T> in(kR * kC), sentinel(kR * kC), whole(kR * kC);
        for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 8);
        for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 9);
        auto st = run_vec([&] {
            using Full = Tile<TileType::Vec, T, kR, kC>;
            using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox,
                             TileConfig::fractalABSize, P>;
            Full full;
            Dyn dyn(rg.vr, rg.vc);
            TASSIGN(full, 0);
            TASSIGN(dyn, 0);
            auto gs = gm_nd(sentinel.data(), kR, kC, kC);
            auto gi = gm_nd(in.data(), rg.vr, rg.vc, kC);
            auto gw = gm_nd(whole.data(), kR, kC, kC);
            TLOAD(full, gs);
            TLOAD(dyn, gi);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
            TSTORE(gw, full);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        const int aligned = (rg.vc + c0 - 1) / c0 * c0;
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) {
                T want = sentinel[r * kC + c];
                if (r < rg.vr && c < rg.vc) want = in[r * kC + c];
                else if (r < rg.vr && c < aligned) want = pad_value<T>(P);
                ASSERT_TRUE(same(whole[r * kC + c], want)) << "(" << r << "," << c << ") got " << show(whole[r * kC + c])
                                                           << " want " << show(want);
            }
    }
}

TYPED_TEST(LoadStore, PadValueFillsTheRowRemainder) {
    check_padding<TypeParam, PadValue::Zero>();
    check_padding<TypeParam, PadValue::Max>();
    check_padding<TypeParam, PadValue::Min>();
}

// ---------------------------------------------------------------- NZ in L1

template <class T>
class NzLayout : public ::testing::Test {};
using NzTypes = ::testing::Types<half, bfloat16_t, float, int8_t>;
TYPED_TEST_SUITE(NzLayout, NzTypes);

#if !PTOSIM_TARGET_A5
// ND GM -> NZ Mat tile -> NZ GM: the stored bytes follow the NZ formula.
TYPED_TEST(NzLayout, NdToNzMatThenStoreNz) {
    using T = TypeParam;
    constexpr int C0 = 32 / sizeof(T), R = 48, C = 2 * C0;
    std::vector<T> in(R * C), nz(R * C);
    for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 10);
    auto st = run_cube([&] {
        using M = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
        using GNz = GlobalTensor<T, TileShape2D<T, R, C, Layout::NZ>, BaseShape2D<T, R, C, Layout::NZ>, Layout::NZ>;
        M m;
        TASSIGN(m, 0x4000);
        auto gi = gm_nd(in.data(), R, C, C);
        GNz go(nz.data());
        TLOAD(m, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, m);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) ASSERT_TRUE(same(nz[nz_index<T>(r, c, R)], in[r * C + c])) << r << "," << c;
}

// A partial valid region with PadValue::Zero: whole fractals around the valid
// region become zero; fractal rows past it keep the old L1 contents.
TYPED_TEST(NzLayout, NdToNzZeroPadsWholeFractals) {
    using T = TypeParam;
    constexpr int C0 = 32 / sizeof(T), R = 48, C = 2 * C0;
    const int vr = 17, vc = C0 + 3;
    std::vector<T> in(R * C), nz(R * C), sentinel(R * C);
    for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 11);
    for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 12);
    auto st = run_cube([&] {
        using M = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
        using MDyn = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                          TileConfig::fractalABSize, PadValue::Zero>;
        using GNz = GlobalTensor<T, TileShape2D<T, R, C, Layout::NZ>, BaseShape2D<T, R, C, Layout::NZ>, Layout::NZ>;
        M m;
        MDyn md(vr, vc);
        TASSIGN(m, 0);
        TASSIGN(md, 0);
        GNz gs(sentinel.data());
        auto gi = gm_nd(in.data(), vr, vc, C);
        GNz go(nz.data());
        TLOAD(m, gs);
        TLOAD(md, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, m);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            const size_t i = nz_index<T>(r, c, R);
            T want = sentinel[i];
            if (r < vr && c < vc) want = in[r * C + c];
            else if (r < 32) want = from_float<T>(0.0f);
            ASSERT_TRUE(same(nz[i], want)) << r << "," << c << " got " << show(nz[i]);
        }
}

// NZ GM -> NZ Mat -> NZ GM keeps every byte.
TYPED_TEST(NzLayout, NzGmToNzMatRoundTrip) {
    using T = TypeParam;
    constexpr int C0 = 32 / sizeof(T), R = 32, C = 3 * C0;
    std::vector<T> in(R * C), out(R * C);
    for (size_t i = 0; i < in.size(); ++i) in[i] = pattern<T>(i, 13);
    auto st = run_cube([&] {
        using M = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
        using GNz = GlobalTensor<T, TileShape2D<T, R, C, Layout::NZ>, BaseShape2D<T, R, C, Layout::NZ>, Layout::NZ>;
        M m;
        TASSIGN(m, 0x800);
        GNz gi(in.data()), go(out.data());
        TLOAD(m, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, m);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (size_t i = 0; i < in.size(); ++i) ASSERT_TRUE(same(out[i], in[i])) << i;
}
#endif

// NZ GM -> NZ Mat and ND GM -> NZ Mat put the same matrix in L1: a Mat ND
// tile is not storable on A5, so both are compared through a matmul
// against the identity (exact for these small values).
TYPED_TEST(NzLayout, NzAndNdLoadsAgreeThroughMatmul) {
    using T = TypeParam;
    if constexpr (!std::is_same_v<T, bfloat16_t> && !std::is_same_v<T, half> && !std::is_same_v<T, int8_t> &&
                  !std::is_same_v<T, float>) {
        return;
    } else {
        using Acc = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
        constexpr int N = 32;
        std::vector<T> a(N * N), anz(N * N), eye(N * N);
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < N; ++c) {
                a[r * N + c] = from_float<T>(static_cast<float>((r * 7 + c * 3) % 23 - 11));
                anz[nz_index<T>(r, c, N)] = a[r * N + c];
                eye[r * N + c] = from_float<T>(r == c ? 1.0f : 0.0f);
            }
        std::vector<Acc> c1(N * N), c2(N * N);
        auto st = run_cube([&] {
            using M = Tile<TileType::Mat, T, N, N, BLayout::ColMajor, N, N, SLayout::RowMajor>;
            using GNz = GlobalTensor<T, TileShape2D<T, N, N, Layout::NZ>, BaseShape2D<T, N, N, Layout::NZ>, Layout::NZ>;
            M ma1, ma2, mb;
            TileLeft<T, N, N> l1, l2;
            TileRight<T, N, N> rb;
            TileAcc<Acc, N, N> acc1, acc2;
            TASSIGN(ma1, 0);
            TASSIGN(ma2, 0x2000);
            TASSIGN(mb, 0x4000);
            TASSIGN(l1, 0);
            TASSIGN(l2, 0x2000);
            TASSIGN(rb, 0);
            TASSIGN(acc1, 0);
            TASSIGN(acc2, 0x2000);
            GNz gnz(anz.data());
            auto gnd = gm_nd(a.data(), N, N, N);
            auto geye = gm_nd(eye.data(), N, N, N);
            auto g1 = gm_nd(c1.data(), N, N, N);
            auto g2 = gm_nd(c2.data(), N, N, N);
            TLOAD(ma1, gnd);
            TLOAD(ma2, gnz);
            TLOAD(mb, geye);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TMOV(l1, ma1);
            TMOV(l2, ma2);
            TMOV(rb, mb);
            ISA_SYNC(PIPE_MTE1, PIPE_M);
            TMATMUL(acc1, l1, rb);
            TMATMUL(acc2, l2, rb);
            ISA_SYNC(PIPE_M, PIPE_FIX);
            TSTORE(g1, acc1);
            TSTORE(g2, acc2);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int i = 0; i < N * N; ++i) {
            ASSERT_EQ(c1[i], static_cast<Acc>(to_double(a[i]))) << i;
            ASSERT_EQ(c2[i], static_cast<Acc>(to_double(a[i]))) << i;
        }
    }
}

// ---------------------------------------------------------------- errors

// A tile with fewer valid columns than the ND tensor's Shape4: A2A3's data
// movers burst validCol elements and skip Stride3 - Shape4, so rows land
// validCol + (Stride3 - Shape4) apart (pto-isa npu/a2a3/TLoad.hpp,
// TStore.hpp); A5 programs Stride3 as the row pitch.
TEST(NdBurstPitch, ValidColsShorterThanShape4) {
    constexpr int R = 4, C = 16, VC = 10, LD = 20;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<R * LD, R * LD, R * LD, LD, 1>>;
    using V = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, DYNAMIC>;
    std::vector<float> in(R * LD), out(R * LD, -1.0f);
    for (int i = 0; i < R * LD; ++i) in[i] = static_cast<float>(i);
    auto st = run_vec([&] {
        V t(VC);
        TASSIGN(t, 0);
        G gi(in.data()), go(out.data());
        TLOAD(t, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, t);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const int pitch = PTOSIM_TARGET_A5 ? LD : VC + (LD - C);
    std::vector<float> want(R * LD, -1.0f);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < VC; ++c) want[r * pitch + c] = static_cast<float>(r * pitch + c);
    EXPECT_EQ(out, want);
}

// More valid columns than Shape4: each row is still one burst of validCol
// elements, so it reads on past the tensor's row into the following GM bytes
// (pto-isa npu/a5/TLoad.hpp TLoadVecND2ND: lenBurst = validCol, gmStride =
// Stride3; A2A3 adds the gap Stride3 - Shape4 after the burst).
TEST(NdBurstPitch, ValidColsLongerThanShape4ReadOn) {
    constexpr int R = 2, C = 13, VC = 16, LD = 13, N = 64;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<R * LD, R * LD, R * LD, LD, 1>>;
    using V = Tile<TileType::Vec, float, R, VC, BLayout::RowMajor, R, DYNAMIC>;
    using Out = GlobalTensor<float, Shape<1, 1, 1, R, VC>, Stride<R * VC, R * VC, R * VC, VC, 1>>;
    std::vector<float> in(N), out(R * VC, -1.0f);
    for (int i = 0; i < N; ++i) in[i] = static_cast<float>(i);
    auto st = run_vec([&] {
        V t(VC);
        TASSIGN(t, 0);
        G gi(in.data());
        Out go(out.data());
        TLOAD(t, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, t);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const int pitch = PTOSIM_TARGET_A5 ? LD : VC + (LD - C);  // 13 on A5, 16 on A2A3
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < VC; ++c) ASSERT_EQ(out[r * VC + c], static_cast<float>(r * pitch + c)) << r << "," << c;
}

// The DN counterpart: a column of 8 valid rows from a 4-row DN tensor is one
// 8-element burst (TLoadVecDN2DN: lenBurst = validRow).
TEST(DnBurst, ValidRowsLongerThanShape3ReadOn) {
    constexpr int R = 4, VR = 8, N = 16;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, 1>, Stride<R, R, R, 1, R>, Layout::DN>;
    using V = Tile<TileType::Vec, float, VR, 1, BLayout::ColMajor>;
    using Out = GlobalTensor<float, Shape<1, 1, 1, VR, 1>, Stride<VR, VR, VR, 1, VR>, Layout::DN>;
    std::vector<float> in(N), out(VR, -1.0f);
    for (int i = 0; i < N; ++i) in[i] = static_cast<float>(i) + 0.25f;
    auto st = run_vec([&] {
        V t;
        TASSIGN(t, 0);
        G gi(in.data());
        Out go(out.data());
        TLOAD(t, gi);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        TSTORE(go, t);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < VR; ++r) ASSERT_EQ(out[r], static_cast<float>(r) + 0.25f) << r;
}

#if PTOSIM_TARGET_A5
// A5 Mat ND->ND with a valid width past the tensor's Shape4 (pto-isa's
// tmatmul_mx bias rows: a 32-column tile from a 30-element row): the columns
// the tensor describes arrive, the rest of their 32-byte block becomes zero
// (the mover writes whole blocks), the rest of the row keeps its contents.
TEST(MatNdLoad, ValidWidthPastShape4MovesTheTensorsColumns) {
    constexpr int N = 30, TC = 40;
    std::vector<float> in(N);
    for (int i = 0; i < N; ++i) in[i] = static_cast<float>(i + 1);
    std::vector<float> l1(TC);
    auto st = testutil::run_cube([&] {
        Tile<TileType::Mat, float, 1, TC, BLayout::RowMajor, 1, TC> t;  // 40 valid columns from 30
        TASSIGN(t, 0x200);
        float* mem = reinterpret_cast<float*>(ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + 0x200);
        for (int i = 0; i < TC; ++i) mem[i] = -7.0f;
        GlobalTensor<float, Shape<1, 1, 1, 1, N>, Stride<N, N, N, N, 1>> g(in.data());
        TLOAD(t, g);
        std::memcpy(l1.data(), mem, TC * sizeof(float));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < TC; ++i) EXPECT_EQ(l1[i], i < N ? static_cast<float>(i + 1) : i < 32 ? 0.0f : -7.0f) << i;
}
#endif

TEST(IsaErrors, TileExtendingPastUbNamesInstructionBufferSizeAndLine) {
    testutil::select_target_soc();
    const uint64_t ub = ptosim::Device::get().soc().ub;
    std::vector<float> x(16 * 64);
    int line = 0;
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, 16, 64> t;  // 4 KiB
        TASSIGN(t, ub - 2048);
        auto g = gm_nd(x.data(), 16, 64, 64);
        line = __LINE__ + 1;
        TLOAD(t, g);
    });
    ASSERT_FALSE(st.ok());
    const std::string& m = st.message;
    EXPECT_NE(m.find("TLOAD"), std::string::npos) << m;
    EXPECT_NE(m.find("UB"), std::string::npos) << m;
    EXPECT_NE(m.find(std::to_string(ub)), std::string::npos) << m;
    EXPECT_NE(m.find(std::string(__FILE__) + ":" + std::to_string(line)), std::string::npos) << m;
}

TEST(IsaErrors, GmAccessPastRegisteredAllocationNamesItInStrictMode) {
    testutil::select_target_soc();
    auto& dev = ptosim::Device::get();
    constexpr uint64_t bytes = 1000;
    void* p = dev.allocate(bytes, true);
    ASSERT_NE(p, nullptr);
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", p);
    int line = 0;
    auto body = [&] {
        Tile<TileType::Vec, float, 16, 64> t;  // 4096 bytes from a 1000-byte buffer
        TASSIGN(t, 0);
        auto g = gm_nd(static_cast<float*>(p), 16, 64, 64);
        line = __LINE__ + 1;
        TLOAD(t, g);
    };
    // The device reads on past the block (docs/semantics.md, "Faults and
    // reports"); strict mode refuses it, naming the allocation and the line.
    EXPECT_TRUE(run_vec(body).ok());
    ptosim::check::set_strict(true);
    auto st = run_vec(body);
    ptosim::check::set_strict(false);
    EXPECT_TRUE(dev.release(p, true).ok());
    ASSERT_FALSE(st.ok());
    const std::string& m = st.message;
    EXPECT_NE(m.find("TLOAD"), std::string::npos) << m;
    EXPECT_NE(m.find("runs 3096 bytes past the 1000 bytes requested for the allocation"), std::string::npos) << m;
    EXPECT_NE(m.find(addr), std::string::npos) << m;
    EXPECT_NE(m.find(std::string(__FILE__) + ":" + std::to_string(line)), std::string::npos) << m;
}

TEST(IsaErrors, StoreIntoRegisteredAllocationPastTheEndFaultsInStrictMode) {
    testutil::select_target_soc();
    auto& dev = ptosim::Device::get();
    void* p = dev.allocate(16 * 64 * 4 - 4, true);
    ASSERT_NE(p, nullptr);
    auto body = [&] {
        Tile<TileType::Vec, float, 16, 64> t;
        TASSIGN(t, 0);
        auto g = gm_nd(static_cast<float*>(p), 16, 64, 64);
        TSTORE(g, t);
    };
    EXPECT_TRUE(run_vec(body).ok());
    ptosim::check::set_strict(true);
    auto st = run_vec(body);
    ptosim::check::set_strict(false);
    EXPECT_TRUE(dev.release(p, true).ok());
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TSTORE"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("allocation"), std::string::npos) << st.message;
}


// ND -> Nz loads take their rows from the GlobalTensor (pto-isa's
// TLoadGm2L1Nd2nz, TLoadCubeND2NZ): a tensor taller than the tile faults
// even when the tile's valid shape fits.
TEST(MatNzLoad, TensorTallerThanTheTileFaults) {
    std::vector<half> in(32 * 16, half(1.0f));
    auto st = run_cube([&] {
        Tile<TileType::Mat, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512> t;
        TASSIGN(t, 0);
        GlobalTensor<half, Shape<1, 1, 1, 32, 16>, Stride<512, 512, 512, 16, 1>> g(in.data());
        TLOAD(t, g);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TLOAD: the ND -> Nz mover moves the GlobalTensor's 32x16 block, more than the 16x16 "
                              "tile holds; shrink the GlobalTensor shape"),
              std::string::npos)
        << st.message;
}

// A tensor smaller than the tile's valid shape loads whole (pto-isa's A2A3
// tmov kernel: a 60 x 80 tensor into a 64 x 96 valid tile).
TEST(MatNzLoad, TensorSmallerThanTheValidShapeLoadsWhole) {
    constexpr int R = 60, C = 80;
    std::vector<half> in(R * C), out(R * C);
    for (int i = 0; i < R * C; ++i) in[i] = half(static_cast<float>(i % 500));
    auto st = run_cube([&] {
        Tile<TileType::Mat, half, 64, 96, BLayout::ColMajor, 64, 96, SLayout::RowMajor, 512> t;
        TASSIGN(t, 0);
        GlobalTensor<half, Shape<1, 1, 1, R, C>, Stride<R * C, R * C, R * C, C, 1>> g(in.data());
        TLOAD(t, g);
        const uint8_t* l1 = ptosim::core().mem[static_cast<int>(ptosim::Space::L1)];
        for (int r = 0; r < R; ++r)  // Nz, c0 = 16 halves: (r, c) at (c / 16) * 64 * 16 + r * 16 + c % 16
            for (int c = 0; c < C; ++c) std::memcpy(&out[r * C + c], l1 + 2 * ((c / 16) * 64 * 16 + r * 16 + c % 16), 2);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < R * C; ++i) ASSERT_EQ(out[i].bits, in[i].bits) << i;
}

}  // namespace

// Assigning a never-placed tile takes its valid shape only; assigning a
// placed one also takes its address (docs/semantics.md, "Tile assignment").
TEST(TileAssignment, UnplacedSourceKeepsTheTargetsAddress) {
    using V = Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, 4, DYNAMIC>;
    V t(16), u(12);
    TASSIGN(t, 0x100);
    t = V(8);
    EXPECT_TRUE(t.assigned());
    EXPECT_EQ(t.address(), 0x100u);
    EXPECT_EQ(t.GetValidCol(), 8);
    TASSIGN(u, 0x200);
    t = u;
    EXPECT_EQ(t.address(), 0x200u);
    EXPECT_EQ(t.GetValidCol(), 12);
    V fresh;
    fresh = V(3);
    EXPECT_FALSE(fresh.assigned());
}
