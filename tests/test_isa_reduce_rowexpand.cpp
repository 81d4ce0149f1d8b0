// Fused row broadcasts (TROWEXPANDADD ... TROWEXPANDEXPDIF, every operand
// mode) (docs/isa/reduce.md) against the scalar references of
// test_isa_reduce_util.hpp: every element type of the compiled target, edge
// valid shapes, untouched elements outside the valid region.
#include "test_isa_reduce_util.hpp"
#include <numeric>

namespace {

// ------------------------------------------------------------ fused row broadcasts

// Src1DNWithAddressTmp: a one-column tmp whose valid shape is dst's, past its
// storage, as pto-isa's trowexpand* case15 passes it: pto-isa's
// implementations take only a tmp's address, and the device runs it.
enum class RowMode { Src1DN, Src1Block, Src1DNWithTmp, Src0DN, Src1DNWithAddressTmp };

template <class T, class Call>
void check_row_expand(Bop op, Call call, RowMode mode, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc) + " mode " + std::to_string(static_cast<int>(mode)));
    auto full = input<T>(kR * kC, 11), vec = input<T>(kR * kC, 12), sentinel = input<T>(kR * kC, 13, Vals::Plain);
    auto out = sentinel;
    auto st = run_vec([&] {
        Full<T> ffull, vfull, dfull, tmp;
        Dyn<T> f(vr, vc), d(vr, vc);
        Tile<TileType::Vec, T, kR, 1, BLayout::ColMajor, DYNAMIC, DYNAMIC> address_tmp(vr, vc);
        TASSIGN(ffull, 0);
        TASSIGN(f, 0);
        TASSIGN(vfull, 0x4000);
        TASSIGN(dfull, 0x8000);
        TASSIGN(d, 0x8000);
        TASSIGN(tmp, 0xc000);
        TASSIGN(address_tmp, 0xc000);
        load(ffull, full, kR, kC);
        load(vfull, vec, kR, kC);
        load(dfull, sentinel, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        RowVecDN<T> dn(vr);
        RowBlock<T> blk(vr, kBlock<T>);
        TASSIGN(dn, 0x4000);
        TASSIGN(blk, 0x4000);
        switch (mode) {
            case RowMode::Src1DN: call(d, f, dn); break;
            case RowMode::Src1Block: call(d, f, blk); break;
            case RowMode::Src1DNWithTmp: call(d, f, dn, tmp); break;
            case RowMode::Src0DN: call(d, dn, f); break;
            case RowMode::Src1DNWithAddressTmp: call(d, f, dn, address_tmp); break;
        }
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    // The DN vector's element r is the r-th element of the buffer; the block
    // tile's row r starts at r * kBlock.
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r >= vr || c >= vc) return;
        const T a = full[r * kC + c];
        const T e = mode == RowMode::Src1Block ? vec[r * kBlock<T> + c % kBlock<T>] : vec[r];
        w = mode == RowMode::Src0DN ? ref_bin(op, e, a) : ref_bin(op, a, e);
    });
}

template <class T, class Call>
void row_expand_all(Bop op, Call call) {
    for (auto [vr, vc] : kShapes)
        for (RowMode m : {RowMode::Src1DN, RowMode::Src1Block, RowMode::Src1DNWithTmp, RowMode::Src0DN,
                          RowMode::Src1DNWithAddressTmp})
            // With one valid column on A5 the DN src0 has dst's valid shape
            // too, so the release build takes it as the full tile
            // (a5/TRowExpand*.hpp): a call that breaks pto-isa's rule.
            if (!(PTOSIM_TARGET_A5 && m == RowMode::Src0DN && vc == 1)) check_row_expand<T>(op, call, m, vr, vc);
}

#define ROW_EXPAND_SUITE(NAME, TYPES, OP)                                                 \
    TYPED_SUITE(NAME##_Types, TYPES);                                                     \
    TYPED_TEST(NAME##_Types, EveryModeAndValidRegion) {                                   \
        row_expand_all<TypeParam>(OP, [](auto&... a) { NAME(a...); });                   \
    }

ROW_EXPAND_SUITE(TROWEXPANDADD, ArithTypes, Bop::Add)
ROW_EXPAND_SUITE(TROWEXPANDSUB, ArithTypes, Bop::Sub)
ROW_EXPAND_SUITE(TROWEXPANDMUL, ArithTypes, Bop::Mul)
ROW_EXPAND_SUITE(TROWEXPANDDIV, FloatTypes, Bop::Div)
ROW_EXPAND_SUITE(TROWEXPANDMAX, ArithTypes, Bop::Max)
ROW_EXPAND_SUITE(TROWEXPANDMIN, ArithTypes, Bop::Min)
ROW_EXPAND_SUITE(TROWEXPANDEXPDIF, FloatTypes, Bop::ExpDif)

TEST(TROWEXPANDSUB_Semantics, BothSourcesMatchingDstPickTheFullTileAsTheReleaseBuild) {
    std::vector<float> a(64), b(128), out(64);
    std::iota(a.begin(), a.end(), 1.0f);
    std::iota(b.begin(), b.end(), 1000.0f);
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, 8, 8> s0, d;
        Tile<TileType::Vec, float, 8, 16> s1whole;
        Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> s1(8, 8);
        TASSIGN(s0, 0);
        TASSIGN(s1whole, 0x400);
        TASSIGN(s1, 0x400);
        TASSIGN(d, 0x800);
        load(s0, a, 8, 8);
        load(s1whole, b, 8, 16);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TROWEXPANDSUB(d, s0, s1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, 8, 8);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c)
            ASSERT_EQ(out[r * 8 + c], a[r * 8 + c] - b[(PTOSIM_TARGET_A5 ? 8 : 16) * r + c]) << r << "," << c;
}

// 3 - 3 * 2^-11 is 2.99853515625, which rounds to the half 2.998046875;
// exp of that is the half 20.046875, exp of the unrounded one 20.0625.
TEST(TROWEXPANDEXPDIF_Semantics, HalfRoundsTheDifferenceBeforeExp) {
    const half three = half_from_bits(0x4200), small = half_from_bits(0x1600);  // 3.0, 3 * 2^-11
    std::vector<half> full(kR * kC, three), vec(kR * kC, small), out(kR * kC), out_col(kR * kC);
    auto st = run_vec([&] {
        Full<half> f, v, d;
        RowVecDN<half> dn(kR);
        ColVec<half> cv(kC);
        TASSIGN(f, 0);
        TASSIGN(v, 0x4000);
        TASSIGN(dn, 0x4000);
        TASSIGN(cv, 0x4000);
        TASSIGN(d, 0x8000);
        load(f, full, kR, kC);
        load(v, vec, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TROWEXPANDEXPDIF(d, f, dn);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, kR, kC);
        ISA_SYNC(PIPE_MTE3, PIPE_V);
        TCOLEXPANDEXPDIF(d, f, cv);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out_col, d, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const uint16_t want = f16_bits(static_cast<_Float16>(20.046875f));
    for (int i = 0; i < kR * kC; ++i) {
        ASSERT_EQ(out[i].bits, want) << i;
        ASSERT_EQ(out_col[i].bits, want) << i;
    }
}

}  // namespace
