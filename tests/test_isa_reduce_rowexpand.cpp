// Fused row broadcasts (TROWEXPANDADD ... TROWEXPANDEXPDIF, every operand
// mode) (docs/isa/reduce.md) against the scalar references of
// test_isa_reduce_util.hpp: every element type of the compiled target, edge
// valid shapes, untouched elements outside the valid region.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ fused row broadcasts

enum class RowMode { Src1DN, Src1Block, Src1DNWithTmp, Src0DN };

template <class T, class Call>
void check_row_expand(Bop op, Call call, RowMode mode, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc) + " mode " + std::to_string(static_cast<int>(mode)));
    auto full = input<T>(kR * kC, 11), vec = input<T>(kR * kC, 12), sentinel = input<T>(kR * kC, 13, Vals::Plain);
    auto out = sentinel;
    auto st = run_vec([&] {
        Full<T> ffull, vfull, dfull, tmp;
        Dyn<T> f(vr, vc), d(vr, vc);
        TASSIGN(ffull, 0);
        TASSIGN(f, 0);
        TASSIGN(vfull, 0x4000);
        TASSIGN(dfull, 0x8000);
        TASSIGN(d, 0x8000);
        TASSIGN(tmp, 0xc000);
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
        for (RowMode m : {RowMode::Src1DN, RowMode::Src1Block, RowMode::Src1DNWithTmp, RowMode::Src0DN})
            check_row_expand<T>(op, call, m, vr, vc);
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
