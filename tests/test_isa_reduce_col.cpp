// Column reductions (TCOLSUM, TCOLMAX, TCOLMIN, TCOLPROD) and the plain
// broadcasts (TROWEXPAND, TCOLEXPAND) (docs/isa/reduce.md) against the scalar
// references of test_isa_reduce_util.hpp: every element type of the compiled
// target, edge valid shapes, untouched elements outside the valid region,
// NaN/Inf/signed zeros.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ column reductions

template <class T, class Call>
void check_col_reduce(Rop op, Call call, int vr, int vc, const std::vector<T>& src) {
    SCOPED_TRACE(shape(vr, vc));
    auto sentinel = input<T>(kC, 98, Vals::Plain), out = sentinel;
    auto st = run_vec([&] {
        Full<T> sfull;
        Dyn<T> s(vr, vc);
        ColVec<T> d(vc);
        ColVecFull<T> dfull;
        TASSIGN(sfull, 0);
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(dfull, 0x4000);
        auto srcv = src;
        load(sfull, srcv, kR, kC);
        load(dfull, sentinel, 1, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        call(d, s);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, 1, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int, int c, T& w) {
        if (c >= vc) return;
        std::vector<T> col;
        for (int r = 0; r < vr; ++r) col.push_back(src[r * kC + c]);
        w = ref_fold(op, col);
    });
}

template <class T, class Call>
void col_reduce_all(Rop op, Call call, Vals vals = Vals::Specials) {
    auto src = input<T>(kR * kC, 2, vals);
    for (auto [vr, vc] : kShapes) check_col_reduce<T>(op, call, vr, vc, src);
    // Transposed special rows: column c of the first 4 rows holds row c's specials.
    if constexpr (is_fp<T>) {
        auto sp = special_rows<T>(), tr = src;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 9; ++c) tr[r * kC + c] = sp[c * kC + r];
        check_col_reduce<T>(op, call, 4, 9, tr);
    }
}

TYPED_SUITE(TCOLSUM_Types, ColReduceTypes);
TYPED_TEST(TCOLSUM_Types, ValidRegions) {
    col_reduce_all<TypeParam>(Rop::Sum, [](auto& d, auto& s) { TCOLSUM(d, s); });
}
TYPED_TEST(TCOLSUM_Types, TmpOverloadBothModes) {
    auto src = input<TypeParam>(kR * kC, 6);
    for (bool binary : {false, true})
        check_col_reduce<TypeParam>(Rop::Sum, [binary](auto& d, auto& s) {
            Full<TypeParam> tmp;
            TASSIGN(tmp, 0x8000);
            TCOLSUM(d, s, tmp, binary);
        }, 11, 40, src);
}
TYPED_SUITE(TCOLMAX_Types, ColReduceTypes);
TYPED_TEST(TCOLMAX_Types, ValidRegions) {
    col_reduce_all<TypeParam>(Rop::Max, [](auto& d, auto& s) { TCOLMAX(d, s); });
}
TYPED_SUITE(TCOLMIN_Types, ColReduceTypes);
TYPED_TEST(TCOLMIN_Types, ValidRegions) {
    col_reduce_all<TypeParam>(Rop::Min, [](auto& d, auto& s) { TCOLMIN(d, s); });
}
TYPED_SUITE(TCOLPROD_Types, ColProdTypes);
TYPED_TEST(TCOLPROD_Types, ValidRegions) {
    col_reduce_all<TypeParam>(Rop::Prod, [](auto& d, auto& s) { TCOLPROD(d, s); }, Vals::NearOne);
}

// ------------------------------------------------------------ plain broadcasts

// TROWEXPAND from a DN per-row tile (dn) or an ND tile's first column;
// TCOLEXPAND from a 1 x C tile.
template <class T>
void check_expand(bool rows, bool dn, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc) + (rows ? (dn ? " DN src" : " ND src") : ""));
    auto src = input<T>(kR * kC, 7), sentinel = input<T>(kR * kC, 8, Vals::Plain), out = sentinel;
    auto st = run_vec([&] {
        Full<T> dfull, sfull;
        Dyn<T> d(vr, vc);
        TASSIGN(dfull, 0x4000);
        TASSIGN(d, 0x4000);
        TASSIGN(sfull, 0);
        load(sfull, src, kR, kC);
        load(dfull, sentinel, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (rows && dn) {
            RowVecDN<T> s(vr);
            TASSIGN(s, 0);
            TROWEXPAND(d, s);
        } else if (rows) {
            Dyn<T> s(vr, 1);
            TASSIGN(s, 0);
            TROWEXPAND(d, s);
        } else {
            ColVec<T> s(vc);
            TASSIGN(s, 0);
            TCOLEXPAND(d, s);
        }
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r >= vr || c >= vc) return;
        w = !rows ? src[c] : dn ? src[r] : src[r * kC];  // DN element r sits at byte offset r * sizeof(T)
    });
}

TYPED_SUITE(TROWEXPAND_Types, CopyTypes);
TYPED_TEST(TROWEXPAND_Types, ValidRegions) {
    for (auto [vr, vc] : kShapes) {
        check_expand<TypeParam>(true, true, vr, vc);
        check_expand<TypeParam>(true, false, vr, vc);
    }
}
TYPED_SUITE(TCOLEXPAND_Types, CopyTypes);
TYPED_TEST(TCOLEXPAND_Types, ValidRegions) {
    for (auto [vr, vc] : kShapes) check_expand<TypeParam>(false, false, vr, vc);
}

}  // namespace
