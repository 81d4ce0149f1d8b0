// Column reductions (TCOLSUM, TCOLMAX, TCOLMIN, TCOLPROD) and the plain
// broadcasts (TROWEXPAND, TCOLEXPAND) (docs/isa/reduce.md) against the scalar
// references of test_isa_reduce_util.hpp: every element type of the compiled
// target, edge valid shapes, untouched elements outside the valid region,
// NaN/Inf/signed zeros.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ column reductions

// The device's isBinary order (pto-isa's include/pto/npu/{a2a3,a5}/TColSum.hpp):
// pairwise sums in T, an odd row folded into partial 0 (A2A3) or into the
// last pair (A5).
template <class T>
T ref_tree_sum(const std::vector<T>& v) {
    auto add = [](T a, T b) { return ref_fold(Rop::Sum, std::vector<T>{a, b}); };
    const int vr = static_cast<int>(v.size());
    std::vector<T> p(std::max(vr / 2, 1));
    int n = vr / 2;
    if (!PTOSIM_TARGET_A5) {
        if (vr == 1) return v[0];
        for (int i = 0; i < n; ++i) p[i] = add(v[2 * i], v[2 * i + 1]);
        if (vr % 2) p[0] = add(p[0], v[vr - 1]);
        for (; n > 1; n /= 2) {
            for (int i = 0; i < n / 2; ++i) p[i] = add(p[2 * i], p[2 * i + 1]);
            if (n % 2) p[0] = add(p[0], p[n - 1]);
        }
        return p[0];
    }
    T acc{};
    for (int j = 0; j < n; ++j) acc = p[j] = add(v[2 * j], v[2 * j + 1]);
    if (vr % 2) acc = p[n > 0 ? n - 1 : 0] = add(v[vr - 1], acc);
    while (n > 1) {
        const bool odd = n % 2;
        n /= 2;
        for (int j = 0; j < n; ++j) acc = p[j] = add(p[2 * j], p[2 * j + 1]);
        if (odd) acc = p[n - 1] = add(p[2 * n], acc);
    }
    return acc;
}

template <class T, class Call, class Ref>
void check_col_reduce(Call call, int vr, int vc, const std::vector<T>& src, Ref ref) {
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
        w = ref(col);
    });
}

template <class T, class Call>
void check_col_reduce(Rop op, Call call, int vr, int vc, const std::vector<T>& src) {
    check_col_reduce<T>(call, vr, vc, src, [op](const std::vector<T>& col) { return ref_fold(op, col); });
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
    using T = TypeParam;
    auto src = input<T>(kR * kC, 6);
    for (bool binary : {false, true})
        for (int vr : {1, 2, 5, 11, 16})
            check_col_reduce<T>([binary](auto& d, auto& s) {
                Full<T> tmp;
                TASSIGN(tmp, 0x8000);
                TCOLSUM(d, s, tmp, binary);
            }, vr, 40, src, [binary](const std::vector<T>& col) {
                return binary ? ref_tree_sum(col) : ref_fold(Rop::Sum, col);
            });
}
// Hand-worked: 2^24 + 2^24 - 2^24 + 1 + 2 in float is 16777218 in row order,
// 16777216 in A2A3's tree and 16777220 in A5's (ties round to even).
TEST(TCOLSUM_Binary, AddsTheRowsInTheTargetsTreeOrder) {
    const float big = 16777216.0f, col[5] = {big, big, -big, 1.0f, 2.0f};
    std::vector<float> src(kR * kC, 0.0f);
    for (int r = 0; r < 5; ++r) src[r * kC] = col[r];
    for (bool binary : {false, true}) {
        const float want = !binary ? 16777218.0f : PTOSIM_TARGET_A5 ? 16777220.0f : 16777216.0f;
        check_col_reduce<float>([binary](auto& d, auto& s) {
            Full<float> tmp;
            TASSIGN(tmp, 0x8000);
            TCOLSUM(d, s, tmp, binary);
        }, 5, 3, src, [want](const std::vector<float>& c) { return c[0] == 16777216.0f ? want : 0.0f; });
    }
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
