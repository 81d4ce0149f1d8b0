// Index-producing reductions and sorting (docs/isa/sort.md, docs/isa/reduce.md):
// TCOLARGMAX/TCOLARGMIN, TPARTARGMAX/TPARTARGMIN, TSORT32 and TMRGSORT
// against scalar references written here, for every element type of the
// compiled target, with ties, NaN/Inf/signed zeros, edge and dynamic valid
// shapes, untouched elements outside the written region, and faults.
#include "test_isa_ref.hpp"
#include <ptosim/core.hpp>
#include <algorithm>
#include <map>
#include <numeric>

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace {

constexpr int kR = 16, kC = 64;

#define TYPED_SUITE(SUITE, TYPES)            \
    template <class T>                       \
    class SUITE : public ::testing::Test {}; \
    TYPED_TEST_SUITE(SUITE, TYPES)

std::string shape(int r, int c) { return std::to_string(r) + "x" + std::to_string(c); }

template <class Tl, class T>
void load(Tl& t, std::vector<T>& v, int rows, int cols) {
    auto g = gm_nd(v.data(), rows, cols, cols);
    TLOAD(t, g);
}
template <class Tl, class T>
void store(std::vector<T>& v, Tl& t, int rows, int cols) {
    auto g = gm_nd(v.data(), rows, cols, cols);
    TSTORE(g, t);
}

// Values drawn from a small set so that ties are common, with NaN, +-Inf and
// +-0 among them for float types; integers mix both range ends with ties.
template <class T>
std::vector<T> tie_heavy(size_t n, uint64_t salt, bool specials = true) {
    std::vector<T> v(n);
    testutil::Rng rng;
    rng.s ^= salt * 0x9e3779b97f4a7c15ull;
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float sp[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
            if (specials && h % 13 == 0) x = from_float<T>(sp[(h >> 8) % 6]);
            else x = from_float<T>(static_cast<float>(static_cast<int>((h >> 12) % 9) - 4) * 0.75f);
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            const T picks[] = {lo, hi, T(0), T(1), T(2), static_cast<T>(hi - 1)};
            x = h % 3 == 0 ? static_cast<T>(h >> 20) : picks[(h >> 8) % 6];
        }
    }
    return v;
}

template <class T>
double num(T v) { return to_double(v); }

const std::pair<int, int> kShapes[] = {{1, 1}, {7, 13}, {16, 64}, {3, 64}, {16, 1}, {5, 33}, {1, 64}};

template <class T>
using Full = Tile<TileType::Vec, T, kR, kC>;
template <class T>
using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

// ============================================================ TCOLARGMAX / TCOLARGMIN

#if PTOSIM_TARGET_A5
using ColArgTypes = ::testing::Types<half, float, uint16_t, uint32_t, int8_t, uint8_t, int16_t, int32_t>;
#else
using ColArgTypes = ::testing::Types<half, float, uint16_t, uint32_t>;
#endif

// The first row holding the column's extreme; a NaN beats any number and the
// first NaN stays (the rule TROWARGMAX follows).
template <class T>
int ref_col_arg(bool is_max, const std::vector<T>& src, int vr, int c) {
    int best = 0;
    for (int r = 1; r < vr; ++r) {
        const T cur = src[best * kC + c], v = src[r * kC + c];
        if (is_nan(cur)) break;
        if (is_nan(v) || (is_max ? num(v) > num(cur) : num(v) < num(cur))) best = r;
    }
    return best;
}

template <class T, class D>
void check_col_arg(bool is_max, int vr, int vc, const std::vector<T>& src) {
    SCOPED_TRACE(shape(vr, vc) + (std::is_same_v<D, int32_t> ? " int32 dst" : " uint32 dst"));
    std::vector<D> sentinel(kC), out;
    for (int c = 0; c < kC; ++c) sentinel[c] = static_cast<D>(0x5a5a0000 + c);
    out = sentinel;
    auto st = run_vec([&] {
        Full<T> sfull, tmp;
        Dyn<T> s(vr, vc);
        Tile<TileType::Vec, D, 1, kC, BLayout::RowMajor, 1, DYNAMIC> d(vc);
        Tile<TileType::Vec, D, 1, kC> dfull;
        TASSIGN(sfull, 0);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x10000);
        TASSIGN(dfull, 0x10000);
        auto srcv = src;
        load(sfull, srcv, kR, kC);
        load(dfull, sentinel, 1, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (is_max) TCOLARGMAX(d, s, tmp);
        else TCOLARGMIN(d, s, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, 1, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int c = 0; c < kC; ++c) {
        const D want = c < vc ? static_cast<D>(ref_col_arg(is_max, src, vr, c)) : sentinel[c];
        ASSERT_EQ(out[c], want) << "column " << c;
    }
}

TYPED_SUITE(TCOLARGMAX_Types, ColArgTypes);
TYPED_TEST(TCOLARGMAX_Types, TiesSpecialsAndValidShapes) {
    auto src = tie_heavy<TypeParam>(kR * kC, 11);
    for (auto [vr, vc] : kShapes) {
        check_col_arg<TypeParam, uint32_t>(true, vr, vc, src);
        check_col_arg<TypeParam, int32_t>(true, vr, vc, src);
    }
}
TYPED_SUITE(TCOLARGMIN_Types, ColArgTypes);
TYPED_TEST(TCOLARGMIN_Types, TiesSpecialsAndValidShapes) {
    auto src = tie_heavy<TypeParam>(kR * kC, 12);
    for (auto [vr, vc] : kShapes) {
        check_col_arg<TypeParam, uint32_t>(false, vr, vc, src);
        check_col_arg<TypeParam, int32_t>(false, vr, vc, src);
    }
}

// Hand-written columns, checked against literal indices rather than the reference.
TEST(TCOLARGMAX_Specials, LiteralColumns) {
    const float col[][5] = {
        {1, 3, 3, 2, 0},                        // tie: first 3 -> 1
        {-0.0f, 0.0f, -0.0f, 0.0f, -0.0f},      // +-0 tie -> 0
        {1, NAN, 5, NAN, 9},                    // first NaN -> 1
        {-INFINITY, -INFINITY, -5, -INFINITY, -6},  // -> 2
        {INFINITY, 1, INFINITY, 2, 3},          // -> 0
    };
    const uint32_t want_max[] = {1, 0, 1, 2, 0}, want_min[] = {4, 0, 1, 0, 1};
    std::vector<float> src(kR * kC, 0.0f);
    for (int c = 0; c < 5; ++c)
        for (int r = 0; r < 5; ++r) src[r * kC + c] = col[c][r];
    for (bool is_max : {true, false}) {
        std::vector<uint32_t> out(kC, 77);
        auto st = run_vec([&] {
            Full<float> sfull, tmp;
            Dyn<float> s(5, 5);
            Tile<TileType::Vec, uint32_t, 1, kC, BLayout::RowMajor, 1, DYNAMIC> d(5);
            Tile<TileType::Vec, uint32_t, 1, kC> dfull;
            TASSIGN(sfull, 0);
            TASSIGN(s, 0);
            TASSIGN(tmp, 0x8000);
            TASSIGN(d, 0x10000);
            TASSIGN(dfull, 0x10000);
            load(sfull, src, kR, kC);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            if (is_max) TCOLARGMAX(d, s, tmp);
            else TCOLARGMIN(d, s, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, dfull, 1, kC);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int c = 0; c < 5; ++c) EXPECT_EQ(out[c], is_max ? want_max[c] : want_min[c]) << "column " << c;
    }
}

TEST(TCOLARGMAX_Faults, DestinationMustBeOneRowOfSourceColumns) {
    auto msg = fault_of([] {
        Dyn<float> s(8, 20), tmp(8, 20);
        Tile<TileType::Vec, uint32_t, 1, kC, BLayout::RowMajor, 1, DYNAMIC> d(19);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x10000);
        TCOLARGMAX(d, s, tmp);
    });
    EXPECT_NE(msg.find("TCOLARGMAX: destination valid shape 1x19 must be 1x20"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sort.cpp"), std::string::npos) << msg;
}

TEST(TCOLARGMIN_Faults, EmptySource) {
    auto msg = fault_of([] {
        Dyn<half> s(0, 20), tmp;
        Tile<TileType::Vec, int32_t, 1, kC, BLayout::RowMajor, 1, DYNAMIC> d(20);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x10000);
        TCOLARGMIN(d, s, tmp);
    });
    EXPECT_NE(msg.find("TCOLARGMIN: source valid shape 0x20 is empty"), std::string::npos) << msg;
}

// ============================================================ TPARTARGMAX / TPARTARGMIN

struct PartShape {
    int vr, vc, r0, c0, r1, c1;
};
const PartShape kPartShapes[] = {
    {16, 64, 16, 64, 16, 64}, {7, 13, 7, 13, 7, 13}, {16, 64, 16, 64, 5, 64}, {16, 64, 3, 64, 16, 64},
    {16, 64, 16, 64, 16, 20}, {9, 40, 3, 17, 9, 40}, {9, 40, 9, 40, 0, 0},   {1, 1, 1, 1, 1, 1},
    {12, 50, 12, 7, 12, 50},  {1, 33, 1, 33, 1, 1},
};

template <class V, class I>
void check_part_arg(bool is_max, const PartShape& p) {
    SCOPED_TRACE(shape(p.vr, p.vc) + " <- " + shape(p.r0, p.c0) + ", " + shape(p.r1, p.c1));
    auto a = tie_heavy<V>(kR * kC, 41), b = tie_heavy<V>(kR * kC, 42), vsent = tie_heavy<V>(kR * kC, 43, false);
    std::vector<I> ia(kR * kC), ib(kR * kC), isent(kR * kC);
    for (int i = 0; i < kR * kC; ++i) {
        ia[i] = static_cast<I>(1000 + i);
        ib[i] = static_cast<I>(-1 - i);
        isent[i] = static_cast<I>(0x2a2a + i);
    }
    auto vout = vsent;
    auto iout = isent;
    auto st = run_vec([&] {
        Full<V> af, bf, df;
        Full<I> iaf, ibf, idf;
        Dyn<V> s0(p.r0, p.c0), s1(p.r1, p.c1), d(p.vr, p.vc);
        Dyn<I> i0(p.r0, p.c0), i1(p.r1, p.c1), di(p.vr, p.vc);
        TASSIGN(af, 0x0000);
        TASSIGN(s0, 0x0000);
        TASSIGN(bf, 0x1000 * sizeof(V));
        TASSIGN(s1, 0x1000 * sizeof(V));
        TASSIGN(df, 0x2000 * sizeof(V));
        TASSIGN(d, 0x2000 * sizeof(V));
        TASSIGN(iaf, 0xc000);
        TASSIGN(i0, 0xc000);
        TASSIGN(ibf, 0x10000);
        TASSIGN(i1, 0x10000);
        TASSIGN(idf, 0x14000);
        TASSIGN(di, 0x14000);
        load(af, a, kR, kC);
        load(bf, b, kR, kC);
        load(df, vsent, kR, kC);
        load(iaf, ia, kR, kC);
        load(ibf, ib, kR, kC);
        load(idf, isent, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (is_max) TPARTARGMAX(d, s0, s1, di, i0, i1);
        else TPARTARGMIN(d, s0, s1, di, i0, i1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(vout, df, kR, kC);
        store(iout, idf, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const int i = r * kC + c;
            V wv = vsent[i];
            I wi = isent[i];
            if (r < p.vr && c < p.vc) {
                const bool in0 = r < p.r0 && c < p.c0, in1 = r < p.r1 && c < p.c1;
                // src0 only on a strict IEEE win: equal values and NaN take src1.
                const bool take0 = in0 && (!in1 || (is_max ? num(a[i]) > num(b[i]) : num(a[i]) < num(b[i])));
                wv = take0 ? a[i] : b[i];
                wi = take0 ? ia[i] : ib[i];
            }
            ASSERT_TRUE(same(vout[i], wv)) << "(" << r << "," << c << ") value " << show(vout[i]) << " want " << show(wv);
            ASSERT_EQ(iout[i], wi) << "(" << r << "," << c << ") index";
        }
}

template <class V>
struct IndexTypes;
template <>
struct IndexTypes<half> {
    using signed_t = int16_t;
    using unsigned_t = uint16_t;
};
template <>
struct IndexTypes<float> {
    using signed_t = int32_t;
    using unsigned_t = uint32_t;
};

using PartArgTypes = ::testing::Types<half, float>;
TYPED_SUITE(TPARTARGMAX_Types, PartArgTypes);
TYPED_TEST(TPARTARGMAX_Types, SupportedValidPatternsBothIndexTypes) {
    for (const PartShape& p : kPartShapes) {
        check_part_arg<TypeParam, typename IndexTypes<TypeParam>::signed_t>(true, p);
        check_part_arg<TypeParam, typename IndexTypes<TypeParam>::unsigned_t>(true, p);
    }
}
TYPED_SUITE(TPARTARGMIN_Types, PartArgTypes);
TYPED_TEST(TPARTARGMIN_Types, SupportedValidPatternsBothIndexTypes) {
    for (const PartShape& p : kPartShapes) {
        check_part_arg<TypeParam, typename IndexTypes<TypeParam>::signed_t>(false, p);
        check_part_arg<TypeParam, typename IndexTypes<TypeParam>::unsigned_t>(false, p);
    }
}

TEST(TPARTARGMAX_Specials, LiteralPairs) {
    // src0 vs src1 per column: tie, NaN on either side, -0 vs +0, Inf.
    const float a[] = {2, NAN, 1, -0.0f, INFINITY, 3}, b[] = {2, 1, NAN, 0.0f, 5, INFINITY};
    const int32_t want_max[] = {1, 1, 1, 1, 0, 1}, want_min[] = {1, 1, 1, 1, 1, 0};
    for (bool is_max : {true, false}) {
        std::vector<float> va(kC, 0.0f), vb(kC, 0.0f), vo(kC, 0.0f);
        std::vector<int32_t> i0(kC, 0), i1(kC, 1), io(kC, -9);
        for (int c = 0; c < 6; ++c) va[c] = a[c], vb[c] = b[c];
        auto st = run_vec([&] {
            Tile<TileType::Vec, float, 1, kC, BLayout::RowMajor, 1, DYNAMIC> s0(6), s1(6), d(6);
            Tile<TileType::Vec, int32_t, 1, kC, BLayout::RowMajor, 1, DYNAMIC> x0(6), x1(6), xd(6);
            TASSIGN(s0, 0x000);
            TASSIGN(s1, 0x100);
            TASSIGN(d, 0x200);
            TASSIGN(x0, 0x300);
            TASSIGN(x1, 0x400);
            TASSIGN(xd, 0x500);
            load(s0, va, 1, 6);
            load(s1, vb, 1, 6);
            load(x0, i0, 1, 6);
            load(x1, i1, 1, 6);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            if (is_max) TPARTARGMAX(d, s0, s1, xd, x0, x1);
            else TPARTARGMIN(d, s0, s1, xd, x0, x1);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(vo, d, 1, 6);
            store(io, xd, 1, 6);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int c = 0; c < 6; ++c) {
            EXPECT_EQ(io[c], is_max ? want_max[c] : want_min[c]) << "column " << c;
            const float w = io[c] == 0 ? a[c] : b[c];
            EXPECT_TRUE(std::isnan(w) ? std::isnan(vo[c]) : std::memcmp(&vo[c], &w, 4) == 0) << "column " << c;
        }
    }
}

TEST(TPARTARGMAX_Faults, IndexValidShapeMustMatchValues) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), s1(8, 64), d(8, 64);
        Dyn<int32_t> i0(8, 64), i1(7, 64), di(8, 64);
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(d, 0x2000);
        TASSIGN(i0, 0x3000);
        TASSIGN(i1, 0x4000);
        TASSIGN(di, 0x5000);
        TPARTARGMAX(d, s0, s1, di, i0, i1);
    });
    EXPECT_NE(msg.find("TPARTARGMAX: src1Idx valid shape 7x64 must equal src1Val's 8x64"), std::string::npos) << msg;
}

TEST(TPARTARGMIN_Faults, BothSourcesSmallerThanDestination) {
    auto msg = fault_of([] {
        Dyn<half> s0(8, 64), s1(16, 10), d(16, 64);
        Dyn<int16_t> i0(8, 64), i1(16, 10), di(16, 64);
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(d, 0x2000);
        TASSIGN(i0, 0x3000);
        TASSIGN(i1, 0x4000);
        TASSIGN(di, 0x5000);
        TPARTARGMIN(d, s0, s1, di, i0, i1);
    });
    EXPECT_NE(msg.find("TPARTARGMIN: source valid shapes 8x64 and 16x10 do not fit"), std::string::npos) << msg;
}

TEST(TPARTARGMAX_Record, ReadsFourTilesWritesTwo) {
    std::vector<ptosim::OpRecord> recs;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        if (std::string(r.op) == "TPARTARGMAX") recs.push_back(r);
    });
    auto st = run_vec([] {
        Full<float> s0, s1, d;
        Full<uint32_t> i0, i1, di;
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(d, 0x2000);
        TASSIGN(i0, 0x3000);
        TASSIGN(i1, 0x4000);
        TASSIGN(di, 0x5000);
        TPARTARGMAX(d, s0, s1, di, i0, i1);
    });
    ptosim::unsubscribe(id);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].n_reads, 4);
    EXPECT_EQ(recs[0].n_writes, 2);
    EXPECT_EQ(recs[0].reads[3].offset, 0x4000u);
    EXPECT_EQ(recs[0].writes[1].offset, 0x5000u);
    EXPECT_EQ(recs[0].pipe, ptosim::Pipe::V);
}

}  // namespace
