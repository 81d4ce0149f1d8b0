// Fused column broadcasts (TCOLEXPANDADD ... TCOLEXPANDEXPDIF)
// (docs/isa/reduce.md) against the scalar references of
// test_isa_reduce_util.hpp: every element type of the compiled target, edge
// valid shapes, untouched elements outside the valid region.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ fused column broadcasts

template <class T, class Call>
void check_col_expand(Bop op, Call call, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc));
    auto a = input<T>(kR * kC, 21), b = input<T>(kC, 22), sentinel = input<T>(kR * kC, 23, Vals::Plain);
    auto out = sentinel;
    auto st = run_vec([&] {
        Full<T> afull, dfull;
        ColVecFull<T> bfull;
        Dyn<T> s0(vr, vc), d(vr, vc);
        ColVec<T> s1(vc);
        TASSIGN(afull, 0);
        TASSIGN(s0, 0);
        TASSIGN(bfull, 0x4000);
        TASSIGN(s1, 0x4000);
        TASSIGN(dfull, 0x8000);
        TASSIGN(d, 0x8000);
        load(afull, a, kR, kC);
        load(bfull, b, 1, kC);
        load(dfull, sentinel, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        call(d, s0, s1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r < vr && c < vc) w = ref_bin(op, a[r * kC + c], b[c]);
    });
}

#define COL_EXPAND_SUITE(NAME, TYPES, OP)                                                 \
    TYPED_SUITE(NAME##_Types, TYPES);                                                     \
    TYPED_TEST(NAME##_Types, ValidRegions) {                                              \
        for (auto [vr, vc] : kShapes)                                                     \
            check_col_expand<TypeParam>(OP, [](auto&... a) { NAME(a...); }, vr, vc);     \
    }

COL_EXPAND_SUITE(TCOLEXPANDADD, ArithTypes, Bop::Add)
COL_EXPAND_SUITE(TCOLEXPANDSUB, ArithTypes, Bop::Sub)
COL_EXPAND_SUITE(TCOLEXPANDMUL, ArithTypes, Bop::Mul)
COL_EXPAND_SUITE(TCOLEXPANDDIV, FloatTypes, Bop::Div)
COL_EXPAND_SUITE(TCOLEXPANDMAX, ArithTypes, Bop::Max)
COL_EXPAND_SUITE(TCOLEXPANDMIN, ArithTypes, Bop::Min)
COL_EXPAND_SUITE(TCOLEXPANDEXPDIF, FloatTypes, Bop::ExpDif)

}  // namespace
