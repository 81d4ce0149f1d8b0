// Index-producing reductions and sorting (docs/isa/sort.md, docs/isa/reduce.md):
// TCOLARGMAX/TCOLARGMIN, TPARTARGMAX/TPARTARGMIN, TSORT32 and TMRGSORT
// against scalar references written here, for every element type of the
// compiled target, with ties, NaN/Inf/signed zeros, edge and dynamic valid
// shapes, untouched elements outside the written region, and faults.
#include <pto/inst/reduce.hpp>
#include <pto/inst/sort.hpp>
#include <ptosim/check.hpp>
#include "test_isa_ref.hpp"
#include <ptosim/core.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <numeric>

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace {

constexpr int kR = 16, kC = 64;

std::string shape(int r, int c) { return std::to_string(r) + "x" + std::to_string(c); }

// Values drawn from a small set so that ties are common, with NaN, +-Inf and
// +-0 among them for float types; integers mix both range ends with ties.
template <class T>
std::vector<T> tie_heavy(size_t n, uint64_t salt, bool specials = true) {
    std::vector<T> v(n);
    testutil::Rng rng = testutil::Rng::salted(salt);
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

// A dst narrower than the source's valid columns is pto-isa's debug-only
// rule (a report, test_device_tolerates.cpp); past dst's storage it faults.
TEST(TCOLARGMAX_Faults, DestinationPastItsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s(8, 20), tmp(8, 20);
        Tile<TileType::Vec, uint32_t, 1, 16, BLayout::RowMajor, 1, DYNAMIC> d(16);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x8000);
        TASSIGN(d, 0x10000);
        TCOLARGMAX(d, s, tmp);
    });
    EXPECT_NE(msg.find("TCOLARGMAX: dst's valid shape 1x16 differs from 1x20 (the source's valid columns); "
                       "pto-isa's release build writes dst over 1x20, past its 1x16 storage"),
              std::string::npos)
        << msg;
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

// Outside the rules each target runs its release build, a report
// (tests/checkers/test_device_tolerates.cpp); A5 runs the value tiles'
// regions over the index tiles, which faults past an index tile's storage,
// and an empty source outside the patterns goes through TMOV, not modelled.
#if PTOSIM_TARGET_A5
TEST(TPARTARGMAX_Faults, A5IndexTilePastItsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), s1(8, 64), d(8, 64);
        Dyn<int32_t> i0(8, 64), di(8, 64);
        Tile<TileType::Vec, int32_t, 4, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> i1(4, 64);
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(d, 0x2000);
        TASSIGN(i0, 0x3000);
        TASSIGN(i1, 0x4000);
        TASSIGN(di, 0x5000);
        TPARTARGMAX(d, s0, s1, di, i0, i1);
    });
    EXPECT_NE(msg.find("TPARTARGMAX: src1Idx is run over 8x64, past its 4x64 storage"), std::string::npos) << msg;
}

#endif

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

// ============================================================ sorted structures

using SortTypes = ::testing::Types<half, float>;

// Descending order of the sort instructions: +NaN first, then numbers
// (+0 and -0 equal), -NaN last.
template <class T>
std::pair<int, double> rank(T v) {
    if (is_nan(v)) return {(raw_bits(v) >> (8 * sizeof(T) - 1)) ? 0 : 2, 0.0};
    return {1, num(v)};
}

// One 8-byte (value, index) structure as the hardware lays it out: value
// first, for half two zero bytes, then the index.
struct Entry {
    uint8_t bytes[8];
};
template <class T>
Entry make_entry(T v, uint32_t index) {
    Entry e{};
    std::memcpy(e.bytes, &v, sizeof(T));
    std::memcpy(e.bytes + 4, &index, 4);
    return e;
}
template <class T>
T entry_value(const Entry& e) {
    T v;
    std::memcpy(&v, e.bytes, sizeof(T));
    return v;
}
template <class T>
std::string show_entry(const Entry& e) {
    uint32_t i;
    std::memcpy(&i, e.bytes + 4, 4);
    return show(entry_value<T>(e)) + " idx " + std::to_string(i);
}

template <class T>
std::vector<Entry> entries_of(const std::vector<T>& v) {
    std::vector<Entry> out(v.size() * sizeof(T) / 8);
    std::memcpy(out.data(), v.data(), out.size() * 8);
    return out;
}
template <class T>
std::vector<T> elems_of(const std::vector<Entry>& e) {
    std::vector<T> out(e.size() * 8 / sizeof(T));
    std::memcpy(out.data(), e.data(), e.size() * 8);
    return out;
}

bool same_bytes(const Entry& a, const Entry& b) { return std::memcmp(a.bytes, b.bytes, 8) == 0; }

// Selection sort: repeatedly the first entry of highest rank among those left.
template <class T>
std::vector<Entry> ref_sorted(std::vector<Entry> in) {
    std::vector<Entry> out;
    while (!in.empty()) {
        size_t best = 0;
        for (size_t i = 1; i < in.size(); ++i)
            if (rank(entry_value<T>(in[i])) > rank(entry_value<T>(in[best]))) best = i;
        out.push_back(in[best]);
        in.erase(in.begin() + static_cast<long>(best));
    }
    return out;
}

template <class T>
T neg_nan_pad() {
    if constexpr (is_half<T>) return half_from_bits(0xfe00);
    else return std::bit_cast<float>(0xffc00000u);
}

// ============================================================ TSORT32

constexpr int kSR = 4, kSC = 128;  // src/idx tile; dst rows hold kSC structures
template <class T>
using SortSrc = Tile<TileType::Vec, T, kSR, kSC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using SortSrcFull = Tile<TileType::Vec, T, kSR, kSC>;
using SortIdx = Tile<TileType::Vec, uint32_t, kSR, kSC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using SortIdxFull = Tile<TileType::Vec, uint32_t, kSR, kSC>;
template <class T>
constexpr int kDstCols = kSC * 8 / static_cast<int>(sizeof(T));
template <class T>
using SortDst = Tile<TileType::Vec, T, kSR, kDstCols<T>, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using SortDstFull = Tile<TileType::Vec, T, kSR, kDstCols<T>>;
template <class T>
using SortTmp = Tile<TileType::Vec, T, 1, kSC>;

struct SortCase {
    int rows, cols, idx_rows;
    bool with_tmp;
};

template <class T>
void check_sort32(const SortCase& k, uint64_t salt) {
    SCOPED_TRACE(shape(k.rows, k.cols) + " idx rows " + std::to_string(k.idx_rows) + (k.with_tmp ? " with tmp" : ""));
    auto src = tie_heavy<T>(kSR * kSC, salt);
    std::vector<uint32_t> idx(kSR * kSC);
    testutil::Rng rng;
    rng.s ^= salt;
    for (auto& x : idx) x = static_cast<uint32_t>(rng.next() >> 7);  // not monotonic: ties must follow position
    auto dsent = tie_heavy<T>(kSR * kDstCols<T>, salt + 1, false), out = dsent;
    auto tsent = tie_heavy<T>(kSC, salt + 2, false), tout = tsent;
    auto st = run_vec([&] {
        SortSrcFull<T> sf;
        SortSrc<T> s(k.rows, k.cols);
        SortIdxFull xf;
        SortIdx x(k.idx_rows, k.cols);
        SortDstFull<T> df;
        SortDst<T> d(k.rows, kDstCols<T>);
        SortTmp<T> t;
        TASSIGN(sf, 0x0000);
        TASSIGN(s, 0x0000);
        TASSIGN(xf, 0x1000);
        TASSIGN(x, 0x1000);
        TASSIGN(df, 0x2000);
        TASSIGN(d, 0x2000);
        TASSIGN(t, 0x6000);
        load(sf, src, kSR, kSC);
        load(xf, idx, kSR, kSC);
        load(df, dsent, kSR, kDstCols<T>);
        load(t, tsent, 1, kSC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (k.with_tmp) TSORT32(d, s, x, t);
        else TSORT32(d, s, x);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, df, kSR, kDstCols<T>);
        store(tout, t, 1, kSC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const int blocks = (k.cols + 31) / 32;
    auto got = entries_of(out), sent = entries_of(dsent);
    for (int r = 0; r < kSR; ++r)
        for (int e = 0; e < kSC; ++e) {
            const size_t at = static_cast<size_t>(r) * kSC + e;
            Entry want = sent[at];
            if (r < k.rows && e < blocks * 32) {
                const int b = e / 32, irow = k.idx_rows == 1 ? 0 : r;
                std::vector<Entry> block;
                for (int j = 0; j < 32; ++j) {
                    const int c = b * 32 + j;
                    block.push_back(make_entry<T>(c < k.cols ? src[r * kSC + c] : neg_nan_pad<T>(), idx[irow * kSC + c]));
                }
                want = ref_sorted<T>(block)[e % 32];
            }
            ASSERT_TRUE(same_bytes(got[at], want)) << "row " << r << " structure " << e << ": got "
                                                   << show_entry<T>(got[at]) << " want " << show_entry<T>(want);
        }
    // A padded sort leaves the last row's padded copy in tmp (whole row, short rows).
    for (int c = 0; c < kSC; ++c) {
        T want = tsent[c];
        if (k.with_tmp && k.cols % 32 != 0 && k.rows > 0 && c < blocks * 32)
            want = c < k.cols ? src[(k.rows - 1) * kSC + c] : neg_nan_pad<T>();
        ASSERT_EQ(raw_bits(tout[c]), raw_bits(want)) << "tmp " << c;
    }
}

const SortCase kSortCases[] = {
    {1, 32, 1, false}, {4, 128, 4, false}, {3, 64, 1, false}, {4, 96, 4, true},   // aligned
    {1, 1, 1, true},   {3, 13, 3, true},   {4, 33, 1, true},  {2, 127, 2, true},  // padded tail
    {0, 64, 4, false},
};

TYPED_SUITE(TSORT32_Types, SortTypes);
TYPED_TEST(TSORT32_Types, BlocksTailsBroadcastIdx) {
    uint64_t salt = 60;
    for (const SortCase& k : kSortCases) check_sort32<TypeParam>(k, ++salt);
}

TEST(TSORT32_Layout, LiteralHalfBlock) {
    // 32 half values 31..0 reversed with a tie at the front and a -0/+0 pair.
    std::vector<half> src(kSR * kSC, from_float<half>(0.0f));
    std::vector<uint32_t> idx(kSR * kSC, 0);
    for (int c = 0; c < 32; ++c) {
        src[c] = from_float<half>(static_cast<float>(c));
        idx[c] = 100 + c;
    }
    src[31] = from_float<half>(30.0f);  // ties with column 30, which comes first
    src[0] = from_float<half>(-0.0f);   // the smallest value: last
    std::vector<half> out(kSR * kDstCols<half>, from_float<half>(7.0f));
    auto st = run_vec([&] {
        SortSrcFull<half> s;
        SortIdxFull x;
        SortDstFull<half> d;
        TASSIGN(s, 0x0000);
        TASSIGN(x, 0x1000);
        TASSIGN(d, 0x2000);
        load(s, src, kSR, kSC);
        load(x, idx, kSR, kSC);
        load(d, out, kSR, kDstCols<half>);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        Tile<TileType::Vec, half, 1, kSC, BLayout::RowMajor, 1, DYNAMIC> s1(32);
        Tile<TileType::Vec, uint32_t, 1, kSC> x1;
        Tile<TileType::Vec, half, 1, kDstCols<half>> d1;
        TASSIGN(s1, 0x0000);
        TASSIGN(x1, 0x1000);
        TASSIGN(d1, 0x2000);
        TSORT32(d1, s1, x1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, kSR, kDstCols<half>);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    // Each structure is 4 halves: value, 0x0000, index low, index high.
    const uint32_t want_idx[] = {130, 131, 129};
    const float want_val[] = {30, 30, 29};
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(to_double(out[4 * k]), want_val[k]) << k;
        EXPECT_EQ(out[4 * k + 1].bits, 0u) << k;
        EXPECT_EQ(out[4 * k + 2].bits | (static_cast<uint32_t>(out[4 * k + 3].bits) << 16), want_idx[k]) << k;
    }
    EXPECT_EQ(out[4 * 31].bits, 0x8000u);  // -0 last
    EXPECT_EQ(out[4 * 31 + 2].bits, 100u);
    EXPECT_EQ(out[4 * 32].bits, from_float<half>(7.0f).bits);  // nothing past the block
}

TEST(TSORT32_Faults, UnalignedColumnsNeedTmp) {
    auto msg = fault_of([] {
        SortSrc<float> s(2, 40);
        SortIdx x(2, 40);
        SortDst<float> d(2, kDstCols<float>);
        TASSIGN(s, 0x0000);
        TASSIGN(x, 0x1000);
        TASSIGN(d, 0x2000);
        TSORT32(d, s, x);
    });
    EXPECT_NE(msg.find("TSORT32: src valid columns (40) must be a multiple of 32 without a tmp tile"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sort.cpp"), std::string::npos) << msg;
}

// pto-isa's release code writes the rows' structures at dst's pitch whatever
// dst's width (a debug-only rule, docs/isa/sort.md): it runs, and faults in
// strict mode; a dst whose last row would leave UB still faults.
TEST(TSORT32_Faults, DestinationTooNarrowFaultsOnlyInStrictModeOrPastUb) {
    auto body = [](uint32_t at) {
        return [at] {
            SortSrc<float> s(2, 64);
            SortIdx x(2, 64);
            Tile<TileType::Vec, float, 2, 64> d;
            TASSIGN(s, 0x0000);
            TASSIGN(x, 0x1000);
            TASSIGN(d, at);
            TSORT32(d, s, x);
        };
    };
    EXPECT_TRUE(run_vec(body(0x2000)).ok());
    ptosim::check::set_strict(true);
    auto msg = fault_of(body(0x2000));
    ptosim::check::set_strict(false);
    EXPECT_NE(msg.find("TSORT32 at "), std::string::npos) << msg;
    EXPECT_NE(msg.find(": dst rows hold 64 columns; 2 sorted block(s) of 32 structures need 128"), std::string::npos) << msg;
    // The last row's 512 bytes start 256 bytes into a tile placed 512 bytes before UB's end.
    testutil::select_target_soc();
    const uint32_t ub = static_cast<uint32_t>(ptosim::Device::get().soc().ub);
    msg = fault_of(body(ub - 512));
    EXPECT_NE(msg.find("TSORT32 dst structures"), std::string::npos) << msg;
}

// Rows longer than one UB-to-UB copy pad only their last block, so a
// 32-element tmp suffices; A2A3 measures the row in elements (8160), A5 in
// bytes, so a 2050-column float row is short on A2A3 and long on A5.
TEST(TSORT32_Targets, LongRowTmpSize) {
    std::vector<float> src(2080), out(4160, 5.0f);
    std::vector<uint32_t> idx(2080);
    for (int c = 0; c < 2080; ++c) src[c] = static_cast<float>((c * 7919) % 2053), idx[c] = c;
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, 1, 2080, BLayout::RowMajor, 1, DYNAMIC> s(2050);
        Tile<TileType::Vec, float, 1, 2080> sf;
        Tile<TileType::Vec, uint32_t, 1, 2080> x;
        Tile<TileType::Vec, float, 1, 4160> d;
        Tile<TileType::Vec, float, 1, 32> t;
        TASSIGN(sf, 0x0000);
        TASSIGN(s, 0x0000);
        TASSIGN(x, 0x3000);
        TASSIGN(d, 0x6000);
        TASSIGN(t, 0xb000);
        load(sf, src, 1, 2080);
        load(x, idx, 1, 2080);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TSORT32(d, s, x, t);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, 1, 4160);
    });
    // A2A3's tmp needs the whole padded row (2080 elements): pto-isa's release
    // code pads it past the 32-element tile anyway (a debug-only rule), so
    // the result is the same on both targets.
    ASSERT_TRUE(st.ok()) << st.message;
    // The last block holds columns 2048, 2049 and 30 padded slots.
    auto got = entries_of(out);
    const float a = src[2048], b = src[2049];
    EXPECT_EQ(entry_value<float>(got[2048]), std::max(a, b));
    EXPECT_EQ(entry_value<float>(got[2049]), std::min(a, b));
    EXPECT_EQ(raw_bits(entry_value<float>(got[2050])), 0xffc00000u);
    EXPECT_EQ(raw_bits(entry_value<float>(got[2079])), 0xffc00000u);
}

// ============================================================ TMRGSORT

// A sorted list of n structures with tie-heavy values and distinct indices.
template <class T>
std::vector<Entry> sorted_list(int n, uint64_t salt) {
    auto v = tie_heavy<T>(static_cast<size_t>(n), salt);
    std::vector<Entry> e;
    for (int i = 0; i < n; ++i) e.push_back(make_entry<T>(v[i], static_cast<uint32_t>(salt * 1000 + i)));
    return ref_sorted<T>(e);
}

// All lists' structures in output order: higher rank first, equal ranks by
// list number, then by position. With stop, only up to the structure that
// empties a list (or nothing when a list starts empty). Returns the order and
// the count taken from each list.
template <class T>
std::pair<std::vector<Entry>, std::vector<unsigned>> ref_merge(const std::vector<std::vector<Entry>>& lists, bool stop) {
    struct Tagged {
        Entry e;
        size_t list, pos;
    };
    std::vector<Tagged> all;
    for (size_t l = 0; l < lists.size(); ++l)
        for (size_t p = 0; p < lists[l].size(); ++p) all.push_back({lists[l][p], l, p});
    std::stable_sort(all.begin(), all.end(), [](const Tagged& a, const Tagged& b) {
        const auto ra = rank(entry_value<T>(a.e)), rb = rank(entry_value<T>(b.e));
        if (ra != rb) return ra > rb;
        return a.list < b.list;
    });
    std::vector<unsigned> taken(lists.size(), 0);
    std::vector<Entry> out;
    auto any_empty = [&] {
        for (size_t l = 0; l < lists.size(); ++l)
            if (taken[l] == lists[l].size()) return true;
        return false;
    };
    for (const Tagged& t : all) {
        if (stop && any_empty()) break;
        out.push_back(t.e);
        ++taken[t.list];
    }
    return {out, taken};
}

constexpr int kListCap = 64;    // structures a source tile holds
constexpr int kMergeCap = 256;  // structures tmp and dst hold
template <class T>
constexpr int kPerStruct = 8 / static_cast<int>(sizeof(T));
template <class T>
using ListTile = Tile<TileType::Vec, T, 1, kListCap * kPerStruct<T>, BLayout::RowMajor, 1, DYNAMIC>;
template <class T>
using MergeTile = Tile<TileType::Vec, T, 1, kMergeCap * kPerStruct<T>, BLayout::RowMajor, 1, DYNAMIC>;

template <class T, bool Exhausted, size_t N>
void check_merge(const std::array<int, N>& lens, int dst_structs, uint64_t salt) {
    std::string trace = std::to_string(N) + " lists:";
    for (int n : lens) trace += " " + std::to_string(n);
    SCOPED_TRACE(trace + (Exhausted ? " exhausted" : "") + ", dst " + std::to_string(dst_structs));
    std::vector<std::vector<Entry>> lists;
    std::vector<std::vector<T>> elems;
    for (size_t l = 0; l < N; ++l) {
        lists.push_back(sorted_list<T>(lens[l], salt + l));
        auto full = lists.back();
        full.resize(kListCap, make_entry<T>(from_float<T>(99.0f), 0xdead));  // past the valid columns
        elems.push_back(elems_of<T>(full));
    }
    auto tsent = entries_of(tie_heavy<T>(kMergeCap * kPerStruct<T>, salt + 7, false));
    auto dsent = entries_of(tie_heavy<T>(kMergeCap * kPerStruct<T>, salt + 8, false));
    std::vector<T> tv = elems_of<T>(tsent), dv = elems_of<T>(dsent);
    MrgSortExecutedNumList executed{111, 222, 333, 444};
    auto st = run_vec([&] {
        ListTile<T> s0(lens[0] * kPerStruct<T>), s1(lens[1] * kPerStruct<T>), s2(lens[N > 2 ? 2 : 0] * kPerStruct<T>),
            s3(lens[N > 3 ? 3 : 0] * kPerStruct<T>);
        MergeTile<T> tmp(kMergeCap * kPerStruct<T>), dst(dst_structs * kPerStruct<T>);
        ListTile<T>* srcs[] = {&s0, &s1, &s2, &s3};
        for (size_t l = 0; l < N; ++l) {
            TASSIGN(*srcs[l], 0x1000 * l);
            Tile<TileType::Vec, T, 1, kListCap * kPerStruct<T>> full;
            TASSIGN(full, 0x1000 * l);
            load(full, elems[l], 1, kListCap * kPerStruct<T>);
        }
        Tile<TileType::Vec, T, 1, kMergeCap * kPerStruct<T>> tfull, dfull;
        TASSIGN(tmp, 0x8000);
        TASSIGN(tfull, 0x8000);
        TASSIGN(dst, 0xa000);
        TASSIGN(dfull, 0xa000);
        load(tfull, tv, 1, kMergeCap * kPerStruct<T>);
        load(dfull, dv, 1, kMergeCap * kPerStruct<T>);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        using L = ListTile<T>;
        using M = MergeTile<T>;
        if constexpr (N == 2) TMRGSORT<M, M, L, L, Exhausted>(dst, executed, tmp, s0, s1);
        else if constexpr (N == 3) TMRGSORT<M, M, L, L, L, Exhausted>(dst, executed, tmp, s0, s1, s2);
        else TMRGSORT<M, M, L, L, L, L, Exhausted>(dst, executed, tmp, s0, s1, s2, s3);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(tv, tfull, 1, kMergeCap * kPerStruct<T>);
        store(dv, dfull, 1, kMergeCap * kPerStruct<T>);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    auto [merged, taken] = ref_merge<T>(lists, Exhausted);
    // tmp: the merged structures, then what was there.
    std::vector<Entry> want_tmp = tsent;
    std::copy(merged.begin(), merged.end(), want_tmp.begin());
    auto got_tmp = entries_of(tv), got_dst = entries_of(dv);
    for (int i = 0; i < kMergeCap; ++i)
        ASSERT_TRUE(same_bytes(got_tmp[i], want_tmp[i])) << "tmp " << i << " got " << show_entry<T>(got_tmp[i])
                                                         << " want " << show_entry<T>(want_tmp[i]);
    // dst: tmp's first dst-valid structures (whole 32-byte blocks), the sentinel after.
    const int copied = (dst_structs * 8 + 31) / 32 * 4;
    for (int i = 0; i < kMergeCap; ++i) {
        const Entry& want = i < copied ? want_tmp[i] : dsent[i];
        ASSERT_TRUE(same_bytes(got_dst[i], want)) << "dst " << i << " got " << show_entry<T>(got_dst[i])
                                                  << " want " << show_entry<T>(want);
    }
    const uint16_t got_counts[] = {executed.mrgSortList0, executed.mrgSortList1, executed.mrgSortList2,
                                   executed.mrgSortList3};
    for (size_t l = 0; l < 4; ++l) {
        const unsigned want = !Exhausted ? 111u * (l + 1) : l < N ? taken[l] : 0u;
        EXPECT_EQ(got_counts[l], want) << "executedNumList list " << l;
    }
}

TYPED_SUITE(TMRGSORT_Lists, SortTypes);
TYPED_TEST(TMRGSORT_Lists, TwoThreeFourListsBothModes) {
    using T = TypeParam;
    check_merge<T, false, 2>({32, 32}, 64, 100);
    check_merge<T, false, 2>({17, 5}, 22, 110);
    check_merge<T, false, 2>({0, 9}, 9, 120);
    check_merge<T, false, 3>({64, 1, 30}, 95, 130);
    check_merge<T, false, 4>({16, 16, 16, 16}, 64, 140);
    check_merge<T, false, 4>({3, 50, 0, 27}, 40, 150);  // dst takes a prefix
    check_merge<T, true, 2>({32, 32}, 64, 160);
    check_merge<T, true, 2>({5, 40}, 45, 170);
    check_merge<T, true, 3>({20, 3, 20}, 43, 180);
    check_merge<T, true, 4>({8, 12, 1, 30}, 51, 190);
    check_merge<T, true, 4>({8, 12, 0, 30}, 51, 200);  // an empty list stops at once
    check_merge<T, true, 2>({64, 64}, 128, 210);
}

TEST(TMRGSORT_Lists, TiesTakeTheLowerListFirst) {
    // Every value equal: the output is list 0, then list 1, then list 2.
    std::vector<float> a(kListCap * 2, 0.0f), b(kListCap * 2, 0.0f), c(kListCap * 2, 0.0f), out(kMergeCap * 2, 0.0f);
    for (int i = 0; i < 4; ++i) {
        a[2 * i] = b[2 * i] = c[2 * i] = 1.5f;
        a[2 * i + 1] = std::bit_cast<float>(0x100u + i);
        b[2 * i + 1] = std::bit_cast<float>(0x200u + i);
        c[2 * i + 1] = std::bit_cast<float>(0x300u + i);
    }
    MrgSortExecutedNumList n{};
    auto st = run_vec([&] {
        using L = Tile<TileType::Vec, float, 1, kListCap * 2, BLayout::RowMajor, 1, DYNAMIC>;
        using M = Tile<TileType::Vec, float, 1, kMergeCap * 2, BLayout::RowMajor, 1, DYNAMIC>;
        L s0(8), s1(8), s2(8);
        M tmp(24), dst(24);
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(s2, 0x2000);
        TASSIGN(tmp, 0x8000);
        TASSIGN(dst, 0xa000);
        load(s0, a, 1, 8);
        load(s1, b, 1, 8);
        load(s2, c, 1, 8);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TMRGSORT<M, M, L, L, L, false>(dst, n, tmp, s0, s1, s2);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dst, 1, 24);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const uint32_t want[] = {0x100, 0x101, 0x102, 0x103, 0x200, 0x201, 0x202, 0x203, 0x300, 0x301, 0x302, 0x303};
    for (int i = 0; i < 12; ++i) EXPECT_EQ(std::bit_cast<uint32_t>(out[2 * i + 1]), want[i]) << i;
}

template <class T>
void check_block_merge(uint32_t block_len, int groups, uint64_t salt) {
    SCOPED_TRACE("blockLen " + std::to_string(block_len) + " x" + std::to_string(groups));
    const int per_block = static_cast<int>(block_len) / kPerStruct<T>;
    const int cols = 4 * static_cast<int>(block_len) * groups;
    std::vector<Entry> src;
    for (int b = 0; b < 4 * groups; ++b) {
        auto l = sorted_list<T>(per_block, salt + b);
        src.insert(src.end(), l.begin(), l.end());
    }
    constexpr int kCap = 1024;  // structures
    auto dsent = entries_of(tie_heavy<T>(kCap * kPerStruct<T>, salt + 99, false));
    std::vector<T> sv = elems_of<T>(src), dv = elems_of<T>(dsent);
    sv.resize(kCap * kPerStruct<T>, from_float<T>(3.0f));
    auto st = run_vec([&] {
        Tile<TileType::Vec, T, 1, kCap * kPerStruct<T>, BLayout::RowMajor, 1, DYNAMIC> s(cols), d(cols);
        Tile<TileType::Vec, T, 1, kCap * kPerStruct<T>> sf, df;
        TASSIGN(s, 0x0000);
        TASSIGN(sf, 0x0000);
        TASSIGN(d, 0x2000);
        TASSIGN(df, 0x2000);
        load(sf, sv, 1, kCap * kPerStruct<T>);
        load(df, dv, 1, kCap * kPerStruct<T>);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TMRGSORT(d, s, block_len);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(dv, df, 1, kCap * kPerStruct<T>);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    auto got = entries_of(dv);
    std::vector<Entry> want = dsent;
    for (int g = 0; g < groups; ++g) {
        std::vector<std::vector<Entry>> four;
        for (int b = 0; b < 4; ++b)
            four.emplace_back(src.begin() + (4 * g + b) * per_block, src.begin() + (4 * g + b + 1) * per_block);
        auto merged = ref_merge<T>(four, false).first;
        std::copy(merged.begin(), merged.end(), want.begin() + 4 * g * per_block);
    }
    for (int i = 0; i < kCap; ++i)
        ASSERT_TRUE(same_bytes(got[i], want[i])) << "structure " << i << " got " << show_entry<T>(got[i]) << " want "
                                                 << show_entry<T>(want[i]);
}

TYPED_SUITE(TMRGSORT_Blocks, SortTypes);
TYPED_TEST(TMRGSORT_Blocks, FourBlockGroups) {
    check_block_merge<TypeParam>(64, 1, 300);
    check_block_merge<TypeParam>(64, 3, 310);
    check_block_merge<TypeParam>(128, 2, 320);
    check_block_merge<TypeParam>(256, 1, 330);
}

TEST(TMRGSORT_Faults, BlockLenMultipleOf64) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, float, 1, 512> s, d;
        TASSIGN(s, 0x0000);
        TASSIGN(d, 0x1000);
        TMRGSORT(d, s, 96);
    });
    EXPECT_NE(msg.find("TMRGSORT: blockLen (96) must be a positive multiple of 64"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sort.cpp"), std::string::npos) << msg;
}

TEST(TMRGSORT_Faults, SourceColumnsWholeGroups) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, half, 1, 512, BLayout::RowMajor, 1, DYNAMIC> s(384), d(384);
        TASSIGN(s, 0x0000);
        TASSIGN(d, 0x1000);
        TMRGSORT(d, s, 64);
    });
    EXPECT_NE(msg.find("TMRGSORT: src valid columns (384) must be 1 to 255 times blockLen * 4 (256)"), std::string::npos)
        << msg;
}

TEST(TMRGSORT_Faults, TmpMustHoldTheMergedLists) {
    auto msg = fault_of([] {
        using L = Tile<TileType::Vec, float, 1, 128>;
        using M = Tile<TileType::Vec, float, 1, 192>;
        L s0, s1;
        M tmp, dst;
        MrgSortExecutedNumList n{};
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x1000);
        TASSIGN(tmp, 0x2000);
        TASSIGN(dst, 0x3000);
        TMRGSORT<M, M, L, L, false>(dst, n, tmp, s0, s1);
    });
    EXPECT_NE(msg.find("TMRGSORT: tmp holds 192 columns; merging 128 structures"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_sort.cpp"), std::string::npos) << msg;  // the kernel line, despite <...>(...)
}

TEST(TMRGSORT_Record, FourListsFourReadsTwoWrites) {
    std::vector<ptosim::OpRecord> recs;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        if (std::string(r.op) == "TMRGSORT") recs.push_back(r);
    });
    auto st = run_vec([] {
        using L = Tile<TileType::Vec, float, 1, 64>;
        using M = Tile<TileType::Vec, float, 1, 256>;
        L s0, s1, s2, s3;
        M tmp, dst;
        MrgSortExecutedNumList n{};
        TASSIGN(s0, 0x0000);
        TASSIGN(s1, 0x100);
        TASSIGN(s2, 0x200);
        TASSIGN(s3, 0x300);
        TASSIGN(tmp, 0x400);
        TASSIGN(dst, 0x800);
        TMRGSORT<M, M, L, L, L, L, false>(dst, n, tmp, s0, s1, s2, s3);
    });
    ptosim::unsubscribe(id);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].n_reads, 4);
    EXPECT_EQ(recs[0].n_writes, 2);
    EXPECT_EQ(recs[0].reads[3].offset, 0x300u);
    EXPECT_EQ(recs[0].writes[0].offset, 0x400u);
    EXPECT_EQ(recs[0].writes[1].offset, 0x800u);
    EXPECT_EQ(recs[0].elements, 128u);
}

}  // namespace
