// Row reductions (TROWSUM, TROWMAX, TROWMIN, TROWPROD) and row arg reductions
// (TROWARGMAX, TROWARGMIN) (docs/isa/reduce.md) against the scalar references
// of test_isa_reduce_util.hpp: every element type of the compiled target,
// edge valid shapes, untouched elements outside the valid region,
// NaN/Inf/signed zeros.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ row reductions

// dst is a one-column DN tile (dn) or an ND tile with one valid column.
template <class T, class Call>
void check_row_reduce(Rop op, Call call, int vr, int vc, bool dn, std::vector<T> src) {
    SCOPED_TRACE(shape(vr, vc) + (dn ? " DN dst" : " ND dst"));
    const int dc = dn ? kR : kBlock<T>, drows = dn ? 1 : kR;
    auto sentinel = input<T>(static_cast<size_t>(drows) * dc, 99, Vals::Plain), out = sentinel;
    auto st = run_vec([&] {
        Full<T> sfull;
        Dyn<T> s(vr, vc);
        Full<T> tmp;
        TASSIGN(sfull, 0);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        load(sfull, src, kR, kC);
        if (dn) {
            RowVecDN<T> d(vr);
            RowVecDNBytes<T> dbytes;
            TASSIGN(d, 0x4000);
            TASSIGN(dbytes, 0x4000);
            load(dbytes, sentinel, 1, kR);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            call(d, s, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, dbytes, 1, kR);
        } else {
            Tile<TileType::Vec, T, kR, kBlock<T>, BLayout::RowMajor, DYNAMIC, 1> d(vr);
            RowBlockFull<T> dfull;
            TASSIGN(d, 0x4000);
            TASSIGN(dfull, 0x4000);
            load(dfull, sentinel, kR, kBlock<T>);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            call(d, s, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, dfull, kR, kBlock<T>);
        }
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, dc, [&](int r, int c, T& w) {
        const int row = dn ? c : r;
        if ((dn ? r == 0 : c == 0) && row < vr)
            w = ref_row_fold(op, std::vector<T>(src.begin() + row * kC, src.begin() + row * kC + vc));
    });
}

template <class T, class Call>
void row_reduce_all_shapes(Rop op, Call call, Vals vals = Vals::Specials) {
    auto src = input<T>(kR * kC, 1, vals);
    for (auto [vr, vc] : kShapes)
        for (bool dn : {true, false}) check_row_reduce<T>(op, call, vr, vc, dn, src);
}


TYPED_SUITE(TROWSUM_Types, FloatTypes);
TYPED_TEST(TROWSUM_Types, ValidRegions) {
    row_reduce_all_shapes<TypeParam>(Rop::Sum, [](auto& d, auto& s, auto& t) { TROWSUM(d, s, t); });
}
TYPED_SUITE(TROWMAX_Types, RowMinMaxTypes);
TYPED_TEST(TROWMAX_Types, ValidRegions) {
    row_reduce_all_shapes<TypeParam>(Rop::Max, [](auto& d, auto& s, auto& t) { TROWMAX(d, s, t); });
}
TYPED_SUITE(TROWMIN_Types, RowMinMaxTypes);
TYPED_TEST(TROWMIN_Types, ValidRegions) {
    row_reduce_all_shapes<TypeParam>(Rop::Min, [](auto& d, auto& s, auto& t) { TROWMIN(d, s, t); });
}
TYPED_SUITE(TROWPROD_Types, Base4Types);
TYPED_TEST(TROWPROD_Types, ValidRegions) {
    row_reduce_all_shapes<TypeParam>(Rop::Prod, [](auto& d, auto& s, auto& t) { TROWPROD(d, s, t); }, Vals::NearOne);
}

TYPED_SUITE(TROWSUM_Specials, FloatTypes);
TYPED_TEST(TROWSUM_Specials, NanInfZeros) {
    check_row_reduce<TypeParam>(Rop::Sum, [](auto& d, auto& s, auto& t) { TROWSUM(d, s, t); }, 9, 4, true, special_rows<TypeParam>());
}
TYPED_SUITE(TROWMAX_Specials, FloatTypes);
TYPED_TEST(TROWMAX_Specials, NanInfZeros) {
    check_row_reduce<TypeParam>(Rop::Max, [](auto& d, auto& s, auto& t) { TROWMAX(d, s, t); }, 9, 4, true, special_rows<TypeParam>());
}
TYPED_SUITE(TROWMIN_Specials, FloatTypes);
TYPED_TEST(TROWMIN_Specials, NanInfZeros) {
    check_row_reduce<TypeParam>(Rop::Min, [](auto& d, auto& s, auto& t) { TROWMIN(d, s, t); }, 9, 4, true, special_rows<TypeParam>());
}

TEST(TROWMAX_Specials, NegativeZeroTieKeepsFirst) {
    // Spot check without the reference: max(-0, +0, ...) keeps the first -0.
    std::vector<float> src(kR * kC, -1.0f), out(kR, 7.0f);
    src[0] = -0.0f;
    src[1] = 0.0f;
    auto st = run_vec([&] {
        Full<float> s, tmp;
        Tile<TileType::Vec, float, kR, 1, BLayout::ColMajor> d;
        RowVecDNBytes<float> db;
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x4000);
        TASSIGN(db, 0x4000);
        load(s, src, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TROWMAX(d, s, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, db, 1, kR);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_TRUE(out[0] == 0.0f && std::signbit(out[0]));
    EXPECT_EQ(out[1], -1.0f);
}

// ------------------------------------------------------------ arg reductions

template <class T, class D, class Call>
void check_row_arg(bool is_max, Call call, int vr, int vc, const std::vector<T>& src) {
    SCOPED_TRACE(shape(vr, vc));
    std::vector<D> sentinel(kBlock<D> * 2, D(0x5a5a)), out = sentinel;
    auto st = run_vec([&] {
        Full<T> sfull, tmp;
        Dyn<T> s(vr, vc);
        Tile<TileType::Vec, D, kR, 1, BLayout::ColMajor, DYNAMIC, 1> d(vr);
        Tile<TileType::Vec, D, 1, kR> db;
        TASSIGN(sfull, 0);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x4000);
        TASSIGN(db, 0x4000);
        auto srcv = src;
        load(sfull, srcv, kR, kC);
        load(db, sentinel, 1, kR);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        call(d, s, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, db, 1, kR);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kR; ++r) {
        D want = sentinel[r];
        if (r < vr) {
            int best = 0;
            for (int c = 1; c < vc; ++c) {
                const float cur = fval(src[r * kC + best]), v = fval(src[r * kC + c]);
                if (is_max ? takes_max(cur, v) : takes_min(cur, v)) best = c;
            }
            want = static_cast<D>(best);
        }
        ASSERT_EQ(out[r], want) << "row " << r;
    }
}

TYPED_SUITE(TROWARGMAX_Types, FloatTypes);
TYPED_TEST(TROWARGMAX_Types, ValidRegionsBothIndexTypes) {
    auto src = input<TypeParam>(kR * kC, 3);
    auto call = [](auto& d, auto& s, auto& t) { TROWARGMAX(d, s, t); };
    for (auto [vr, vc] : kShapes) {
        check_row_arg<TypeParam, uint32_t>(true, call, vr, vc, src);
        check_row_arg<TypeParam, int32_t>(true, call, vr, vc, src);
    }
    check_row_arg<TypeParam, uint32_t>(true, call, 9, 4, special_rows<TypeParam>());
}
TYPED_SUITE(TROWARGMIN_Types, FloatTypes);
TYPED_TEST(TROWARGMIN_Types, ValidRegionsBothIndexTypes) {
    auto src = input<TypeParam>(kR * kC, 4);
    auto call = [](auto& d, auto& s, auto& t) { TROWARGMIN(d, s, t); };
    for (auto [vr, vc] : kShapes) {
        check_row_arg<TypeParam, uint32_t>(false, call, vr, vc, src);
        check_row_arg<TypeParam, int32_t>(false, call, vr, vc, src);
    }
    check_row_arg<TypeParam, int32_t>(false, call, 9, 4, special_rows<TypeParam>());
}

}  // namespace
