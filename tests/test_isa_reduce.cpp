// Row/column reductions, broadcasts and partial ops (docs/isa/reduce.md)
// against scalar references written here: every element type of the compiled
// target, edge valid shapes, untouched elements outside the valid region,
// NaN/Inf/signed zeros, faults on bad shapes and the dispatch record.
//
// References follow the documented order: 16-bit floats accumulate in float,
// ascending index, rounded once; integers wrap. Binary half ops use _Float16.
#include "test_isa_ref.hpp"
#include <mutex>

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace {

constexpr int kR = 16, kC = 64;

template <class T>
constexpr int kBlock = static_cast<int>(32 / sizeof(T));

// ------------------------------------------------------------ references

enum class Rop { Sum, Max, Min, Prod };
enum class Bop { Add, Sub, Mul, Div, Max, Min, ExpDif };

template <class T>
float fval(T v) { return static_cast<float>(to_double(v)); }

// max/min: NaN wins; on ties the earlier operand stays (so -0 vs +0 keeps the first).
inline bool takes_max(float cur, float v) { return !std::isnan(cur) && (std::isnan(v) || v > cur); }
inline bool takes_min(float cur, float v) { return !std::isnan(cur) && (std::isnan(v) || v < cur); }

template <class T>
uint64_t wide(T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

template <class T>
T ref_fold(Rop op, const std::vector<T>& v) {
    if constexpr (is_fp<T>) {
        float acc = fval(v[0]);
        for (size_t i = 1; i < v.size(); ++i) {
            const float x = fval(v[i]);
            if (op == Rop::Sum) acc += x;
            else if (op == Rop::Prod) acc *= x;
            else if (op == Rop::Max ? takes_max(acc, x) : takes_min(acc, x)) acc = x;
        }
        return from_float<T>(acc);
    } else {
        uint64_t acc = wide(v[0]);
        T best = v[0];
        for (size_t i = 1; i < v.size(); ++i) {
            if (op == Rop::Sum) acc += wide(v[i]);
            else if (op == Rop::Prod) acc *= wide(v[i]);
            else if (op == Rop::Max ? v[i] > best : v[i] < best) best = v[i];
        }
        return op == Rop::Max || op == Rop::Min ? best : static_cast<T>(acc);
    }
}

template <class T>
T ref_bin(Bop op, T a, T b) {
    if constexpr (is_half<T>) {
        const _Float16 x = f16_from_bits(a.bits), y = f16_from_bits(b.bits);
        switch (op) {
            case Bop::Add: return half_from_bits(f16_bits(x + y));
            case Bop::Sub: return half_from_bits(f16_bits(x - y));
            case Bop::Mul: return half_from_bits(f16_bits(x * y));
            case Bop::Div: return half_from_bits(f16_bits(x / y));
            case Bop::ExpDif: {
                // vsub then vexp on half registers: the difference is a half.
                const _Float16 d = x - y;
                return from_float<T>(std::exp(static_cast<float>(d)));
            }
            default: break;
        }
    }
    if constexpr (is_fp<T>) {
        const float x = fval(a), y = fval(b);
        switch (op) {
            case Bop::Add: return from_float<T>(x + y);
            case Bop::Sub: return from_float<T>(x - y);
            case Bop::Mul: return from_float<T>(x * y);
            case Bop::Div: return from_float<T>(x / y);
            case Bop::Max: return takes_max(x, y) ? b : a;
            case Bop::Min: return takes_min(x, y) ? b : a;
            case Bop::ExpDif: return from_float<T>(std::exp(x - y));
        }
    } else {
        switch (op) {
            case Bop::Add: return static_cast<T>(wide(a) + wide(b));
            case Bop::Sub: return static_cast<T>(wide(a) - wide(b));
            case Bop::Mul: return static_cast<T>(wide(a) * wide(b));
            case Bop::Max: return b > a ? b : a;
            case Bop::Min: return b < a ? b : a;
            default: break;
        }
    }
    return a;
}

// ------------------------------------------------------------ inputs

enum class Vals { Plain, Specials, NearOne };

template <class T>
std::vector<T> input(size_t n, uint64_t salt, Vals kind = Vals::Specials) {
    std::vector<T> v(n);
    testutil::Rng rng;
    rng.s ^= salt * 0x9e3779b97f4a7c15ull;
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 60000.0f, -60000.0f};
            if (kind == Vals::Specials && h % 16 == 0) x = from_float<T>(specials[(h >> 8) % 7]);
            else if (kind == Vals::NearOne) x = from_float<T>(static_cast<float>((h & 1 ? -1 : 1) * rng.uniform(0.5, 2.0)));
            else x = from_float<T>(static_cast<float>(rng.uniform(-100, 100)));
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            const T ends[] = {lo, static_cast<T>(lo + 1), hi, static_cast<T>(hi - 1), T(0), T(1)};
            x = h % 4 == 0 ? ends[(h >> 8) % 6] : static_cast<T>(h >> 11);
        }
    }
    return v;
}

std::string shape(int r, int c) { return std::to_string(r) + "x" + std::to_string(c); }

const std::pair<int, int> kShapes[] = {{1, 1}, {7, 13}, {16, 64}, {3, 64}, {16, 1}, {5, 33}};

template <class T>
using Full = Tile<TileType::Vec, T, kR, kC>;
template <class T>
using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using RowVecDN = Tile<TileType::Vec, T, kR, 1, BLayout::ColMajor, DYNAMIC, 1>;  // one value per row
template <class T>
using RowVecDNBytes = Tile<TileType::Vec, T, 1, kR>;                           // the same bytes, ND
template <class T>
using RowBlock = Tile<TileType::Vec, T, kR, kBlock<T>, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using RowBlockFull = Tile<TileType::Vec, T, kR, kBlock<T>>;
template <class T>
using ColVec = Tile<TileType::Vec, T, 1, kC, BLayout::RowMajor, 1, DYNAMIC>;
template <class T>
using ColVecFull = Tile<TileType::Vec, T, 1, kC>;

// want(i) for elements inside the written region, the sentinel elsewhere.
template <class T, class Want>
void expect_region(const std::vector<T>& out, const std::vector<T>& sentinel, int cols, Want want) {
    for (size_t i = 0; i < out.size(); ++i) {
        const int r = static_cast<int>(i) / cols, c = static_cast<int>(i) % cols;
        T w = sentinel[i];
        want(r, c, w);
        ASSERT_TRUE(same(out[i], w)) << "(" << r << "," << c << ") got " << show(out[i]) << " want " << show(w);
    }
}

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
            w = ref_fold(op, std::vector<T>(src.begin() + row * kC, src.begin() + row * kC + vc));
    });
}

template <class T, class Call>
void row_reduce_all_shapes(Rop op, Call call, Vals vals = Vals::Specials) {
    auto src = input<T>(kR * kC, 1, vals);
    for (auto [vr, vc] : kShapes)
        for (bool dn : {true, false}) check_row_reduce<T>(op, call, vr, vc, dn, src);
}

#if PTOSIM_TARGET_A5
using RowMinMaxTypes = ::testing::Types<half, float, int16_t, int32_t, int8_t, uint8_t>;
using ColReduceTypes = ::testing::Types<half, float, int16_t, int32_t, int8_t, uint8_t, uint16_t, uint32_t, bfloat16_t>;
using ColProdTypes = ::testing::Types<half, float, int16_t, int32_t, bfloat16_t, uint16_t, uint32_t>;
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t, uint16_t, uint32_t, bfloat16_t, int8_t, uint8_t>;
#else
using RowMinMaxTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ColReduceTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ColProdTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t>;
#endif
using FloatTypes = ::testing::Types<half, float>;
using Base4Types = ::testing::Types<half, float, int16_t, int32_t>;
using CopyTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;

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

// Rows built to hit NaN, Inf - Inf, signed zeros and 16-bit overflow that
// only the final rounding produces.
template <class T>
std::vector<T> special_rows() {
    const float rows[][4] = {{1, NAN, 2, 3},           {INFINITY, -INFINITY, 1, 1}, {INFINITY, 5, -7, 1},
                             {-0.0f, 0.0f, -0.0f, 0.0f}, {0.0f, -0.0f, 0.0f, -0.0f}, {60000, 60000, -60000, 1},
                             {NAN, INFINITY, -INFINITY, 0}, {-INFINITY, -1, -2, -3}, {3, 3, 3, 3}};
    std::vector<T> v = input<T>(kR * kC, 5, Vals::Plain);
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 4; ++c) v[r * kC + c] = from_float<T>(rows[r][c]);
    return v;
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

// ------------------------------------------------------------ partial ops

struct PartShape {
    int vr, vc, r0, c0, r1, c1;
};
const PartShape kPartShapes[] = {
    {16, 64, 16, 64, 16, 64}, {7, 13, 7, 13, 7, 13}, {16, 64, 16, 64, 5, 64}, {16, 64, 16, 64, 16, 20},
    {9, 40, 3, 17, 9, 40},    {9, 40, 9, 40, 0, 0},  {1, 1, 1, 1, 1, 1},      {12, 50, 12, 7, 12, 50},
};

// A5 TPARTMAX/TPARTMIN fill dst with the type's lowest/highest value first
// (+-inf for floats), so both sources may be smaller than dst.
const PartShape kA5MinMaxShapes[] = {{16, 64, 10, 64, 16, 50}, {9, 40, 3, 17, 5, 33}, {7, 13, 7, 12, 6, 13}};

template <class T>
T extreme(bool highest) {
    if constexpr (is_half<T>) return half_from_bits(highest ? 0x7c00 : 0xfc00);
    else if constexpr (is_bf16<T>) return bf16_from_bits(highest ? 0x7f80 : 0xff80);
    else if constexpr (std::is_floating_point_v<T>) return highest ? INFINITY : -INFINITY;
    else return highest ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
}

template <class T, class Call>
void check_part(Bop op, Call call, const PartShape& p) {
    SCOPED_TRACE(shape(p.vr, p.vc) + " <- " + shape(p.r0, p.c0) + ", " + shape(p.r1, p.c1));
    auto a = input<T>(kR * kC, 31), b = input<T>(kR * kC, 32), sentinel = input<T>(kR * kC, 33, Vals::Plain);
    auto out = sentinel;
    auto st = run_vec([&] {
        Full<T> afull, bfull, dfull;
        Dyn<T> s0(p.r0, p.c0), s1(p.r1, p.c1), d(p.vr, p.vc);
        TASSIGN(afull, 0);
        TASSIGN(s0, 0);
        TASSIGN(bfull, 0x4000);
        TASSIGN(s1, 0x4000);
        TASSIGN(dfull, 0x8000);
        TASSIGN(d, 0x8000);
        load(afull, a, kR, kC);
        load(bfull, b, kR, kC);
        load(dfull, sentinel, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        call(d, s0, s1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r >= p.vr || c >= p.vc) return;
        const int i = r * kC + c;
        const bool in0 = r < p.r0 && c < p.c0, in1 = r < p.r1 && c < p.c1;
        const bool a5_minmax = PTOSIM_TARGET_A5 && (op == Bop::Max || op == Bop::Min);
        // An empty source makes the A5 max/min return before writing (a5/TPartBinOps.hpp).
        if (a5_minmax && (p.r0 == 0 || p.c0 == 0 || p.r1 == 0 || p.c1 == 0)) return;
        w = in0 && in1 ? ref_bin(op, a[i], b[i]) : in0 ? a[i] : in1 ? b[i] : extreme<T>(op == Bop::Min);
    });
}

#define PART_SUITE(NAME, OP)                                                              \
    TYPED_SUITE(NAME##_Types, ArithTypes);                                                \
    TYPED_TEST(NAME##_Types, SupportedValidPatterns) {                                    \
        for (const PartShape& p : kPartShapes)                                            \
            check_part<TypeParam>(OP, [](auto&... a) { NAME(a...); }, p);                \
    }

PART_SUITE(TPARTADD, Bop::Add)
PART_SUITE(TPARTMUL, Bop::Mul)
PART_SUITE(TPARTMAX, Bop::Max)
PART_SUITE(TPARTMIN, Bop::Min)

#if PTOSIM_TARGET_A5
TYPED_TEST(TPARTMAX_Types, A5BothSourcesSmallerPadWithLowest) {
    for (const PartShape& p : kA5MinMaxShapes) check_part<TypeParam>(Bop::Max, [](auto&... a) { TPARTMAX(a...); }, p);
}
TYPED_TEST(TPARTMIN_Types, A5BothSourcesSmallerPadWithHighest) {
    for (const PartShape& p : kA5MinMaxShapes) check_part<TypeParam>(Bop::Min, [](auto&... a) { TPARTMIN(a...); }, p);
}
#else
TEST(TPARTMAX_Faults, A2A3BothSourcesSmallerThanDestination) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), s1(16, 10), d(16, 64);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TPARTMAX(d, s0, s1);
    });
    EXPECT_NE(msg.find("TPARTMAX: source valid shapes 8x64 and 16x10 do not fit"), std::string::npos) << msg;
}
#endif

TEST(TPARTMAX_Faults, SourceLargerThanDestination) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), s1(16, 10), d(8, 64);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TPARTMAX(d, s0, s1);
    });
    const char* rule = PTOSIM_TARGET_A5 ? "neither source may exceed it" : "one source must match it";
    EXPECT_NE(msg.find("TPARTMAX: source valid shapes 8x64 and 16x10 do not fit the destination's 8x64: " +
                       std::string(rule)),
              std::string::npos)
        << msg;
}

// ------------------------------------------------------------ faults

TEST(TROWSUM_Faults, DestinationValidRowsMustMatch) {
    auto msg = fault_of([] {
        Dyn<float> s(8, 64);
        Full<float> tmp;
        RowVecDN<float> d(7);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x4000);
        TASSIGN(d, 0x8000);
        TROWSUM(d, s, tmp);
    });
    EXPECT_NE(msg.find("TROWSUM: destination valid rows (7) must equal the source's (8)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_reduce.cpp"), std::string::npos) << msg;
}

TEST(TCOLSUM_Faults, DestinationValidColumnsMustMatch) {
    auto msg = fault_of([] {
        Dyn<float> s(8, 64);
        ColVec<float> d(10);
        TASSIGN(s, 0);
        TASSIGN(d, 0x8000);
        TCOLSUM(d, s);
    });
    EXPECT_NE(msg.find("TCOLSUM: destination valid columns (10) must equal the source's (64)"), std::string::npos) << msg;
}

TEST(TPARTADD_Faults, BothSourcesSmallerThanDestination) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), s1(16, 10), d(16, 64);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TPARTADD(d, s0, s1);
    });
    EXPECT_NE(msg.find("TPARTADD: source valid shapes 8x64 and 16x10 do not fit"), std::string::npos) << msg;
}

TEST(TROWEXPANDMUL_Faults, PerRowOperandMustCoverEveryRow) {
    auto msg = fault_of([] {
        Dyn<float> s0(16, 64), d(16, 64);
        RowVecDN<float> s1(4);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TROWEXPANDMUL(d, s0, s1);
    });
    EXPECT_NE(msg.find("TROWEXPANDMUL: src1 (the per-row operand) has valid shape 4x1; it must be 16x1"), std::string::npos)
        << msg;
}

TEST(TCOLEXPANDADD_Faults, PerColumnOperandMustCoverEveryColumn) {
    auto msg = fault_of([] {
        Dyn<int32_t> s0(16, 64), d(16, 64);
        ColVec<int32_t> s1(8);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TCOLEXPANDADD(d, s0, s1);
    });
    EXPECT_NE(msg.find("TCOLEXPANDADD: src1 (the per-column operand) has valid shape 1x8"), std::string::npos) << msg;
}

// ------------------------------------------------------------ dispatch record

TEST(TROWSUM_Record, PipeOperandsAndTmpScratch) {
    std::vector<ptosim::OpRecord> recs;
    std::mutex mu;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        std::lock_guard<std::mutex> lock(mu);
        if (std::string(r.op).rfind("TROW", 0) == 0 || std::string(r.op).rfind("TCOL", 0) == 0) recs.push_back(r);
    });
    auto st = run_vec([] {
        Dyn<half> s(5, 33);
        Full<half> tmp;
        RowVecDN<half> d(5);
        ColVec<half> c(33);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x4000);
        TASSIGN(d, 0x8000);
        TASSIGN(c, 0x9000);
        TROWSUM(d, s, tmp);
        TCOLMAX(c, s);
    });
    ptosim::unsubscribe(id);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(recs.size(), 2u);
    const auto& r = recs[0];
    EXPECT_STREQ(r.op, "TROWSUM");
    EXPECT_EQ(r.pipe, ptosim::Pipe::V);
    EXPECT_STREQ(r.dtype, "half");
    EXPECT_EQ(r.elements, 5u * 33u);
    ASSERT_EQ(r.n_reads, 1);
    EXPECT_EQ(r.reads[0].offset, 0u);
    // The A2A3 implementation overwrites tmp; A5 ignores it.
    ASSERT_EQ(r.n_writes, PTOSIM_TARGET_A5 ? 1 : 2);
    EXPECT_EQ(r.writes[r.n_writes - 1].offset, 0x8000u);
    EXPECT_STREQ(recs[1].op, "TCOLMAX");
    EXPECT_EQ(recs[1].n_writes, 1);
}

}  // namespace
