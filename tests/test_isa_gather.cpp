// Gather/scatter instructions (docs/isa/gather_scatter.md) against scalar
// references written here: every element type of the compiled target, edge
// valid shapes, every out-of-bounds and atomic policy, untouched elements
// outside the written region, and faults naming the offending index.
#include <pto/inst/gather_scatter.hpp>
#include <pto/inst/rearrange.hpp>
#include <ptosim/check.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace {

constexpr int kR = 8, kC = 64;

template <class T>
using Full = Tile<TileType::Vec, T, kR, kC>;
template <class T>
using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using IdxRow = Tile<TileType::Vec, int32_t, 1, kC, BLayout::RowMajor, 1, DYNAMIC>;

using AllTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;

// Checks every element of a rows x cols result: want(i, w) may set the
// expected value of flat element i; unset ones must keep the sentinel.
template <class T, class Want>
void expect_flat(const std::vector<T>& out, const std::vector<T>& sentinel, Want want) {
    for (size_t i = 0; i < out.size(); ++i) {
        T w = sentinel[i];
        want(static_cast<int>(i), w);
        ASSERT_TRUE(same(out[i], w)) << "element " << i << " got " << show(out[i]) << " want " << show(w);
    }
}

const std::pair<int, int> kShapes[] = {{1, 1}, {3, 13}, {kR, kC}, {kR, 1}, {5, 33}, {1, kC}};

// The pipe each instruction names in its faults (docs/isa/gather_scatter.md, "Pipes").
#define PIPE_GATHER (PTOSIM_TARGET_A5 ? "PIPE_V" : "PIPE_MTE2")
#define PIPE_SCATTER_ROW (PTOSIM_TARGET_A5 ? "PIPE_V" : "PIPE_MTE3")
#define PIPE_SCATTER_ELEM (PTOSIM_TARGET_A5 ? "PIPE_V" : "PIPE_S")

std::string shape(int vr, int vc) { return std::to_string(vr) + "x" + std::to_string(vc); }

// ------------------------------------------------------------ TGATHER, mask pattern

// The pattern as the ISA spells it: bits read from the right, the rightmost
// being column 0 of each group.
struct PatternCase {
    MaskPattern p;
    const char* bits;
};
constexpr PatternCase kPatterns[] = {{MaskPattern::P0101, "0101"}, {MaskPattern::P1010, "1010"},
                                     {MaskPattern::P0001, "0001"}, {MaskPattern::P0010, "0010"},
                                     {MaskPattern::P0100, "0100"}, {MaskPattern::P1000, "1000"},
                                     {MaskPattern::P1111, "1111"}};

bool ref_keeps(const char* bits, int c) {
    const int n = static_cast<int>(std::strlen(bits));
    const int period = bits[0] == bits[2] && bits[1] == bits[3] ? 2 : 4;  // "0101"/"1010" repeat every 2
    const int k = c % period;
    return bits[n - 1 - k] == '1';
}

#if PTOSIM_TARGET_A5
using MaskTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
#else
using MaskTypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
#endif

template <class T, MaskPattern P>
void mask_case(const char* bits, int vr, int vc) {
    SCOPED_TRACE(std::string(bits) + " " + shape(vr, vc));
    std::vector<T> src(kR * kC), sentinel(kR * kC), out(kR * kC);
    for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 31), sentinel[i] = pattern<T>(i, 32);
    out = sentinel;
    auto st = run_vec([&] {
        Full<T> fs, d;
        Dyn<T> s(vr, vc);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        load(fs, src, kR, kC);
        load(d, out, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TGATHER<Full<T>, Dyn<T>, P>(d, s);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<T> packed;
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c)
            if (ref_keeps(bits, c)) packed.push_back(src[r * kC + c]);
    expect_flat(out, sentinel, [&](int i, T& w) {
        if (i < static_cast<int>(packed.size())) w = packed[i];
    });
}

template <class T, size_t... I>
void all_patterns(int vr, int vc, std::index_sequence<I...>) {
    (mask_case<T, kPatterns[I].p>(kPatterns[I].bits, vr, vc), ...);
}

TYPED_SUITE(TGATHER_Mask, MaskTypes);
TYPED_TEST(TGATHER_Mask, EveryPatternEveryShape) {
    for (auto [vr, vc] : kShapes) all_patterns<TypeParam>(vr, vc, std::make_index_sequence<std::size(kPatterns)>{});
}

// pto-isa asserts a dst of whole rows in its debug build only: the device
// packs anyway, and ptosim refuses it only in strict mode
// (tests/checkers/test_device_tolerates.cpp has the report).
TEST(TGATHER_Mask_Faults, DstOfPartialRowsFaultsOnlyInStrictMode) {
    auto body = [] {
        Full<float> s;
        Tile<TileType::Vec, float, kR, kC, BLayout::RowMajor, kR, 16> d;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TGATHER<decltype(d), Full<float>, MaskPattern::P0101>(d, s);
    };
    EXPECT_TRUE(run_vec(body).ok());
    ptosim::check::set_strict(true);
    auto msg = fault_of(body);
    ptosim::check::set_strict(false);
    EXPECT_NE(msg.find(": dst.GetValidCol() (16) differs from dst's Cols (64); pto-isa states this rule, but only its "
                       "debug build checks it"),
              std::string::npos)
        << msg;
}

TEST(TGATHER_Mask_Faults, ResultLargerThanDst) {
    auto msg = fault_of([] {
        Full<float> s;
        Tile<TileType::Vec, float, 1, kC> d;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TGATHER<decltype(d), Full<float>, MaskPattern::P0101>(d, s);
    });
    EXPECT_NE(msg.find("TGATHER [PIPE_V]: the pattern keeps 256 elements of src's 8x64 valid region; dst holds 64"),
              std::string::npos)
        << msg;
}

// ------------------------------------------------------------ TGATHER, compare

template <class S, class K, CmpMode M>
void compare_case(int vr, int vc, int offset) {
    SCOPED_TRACE(std::string(type_name<S>()) + (M == CmpMode::GT ? " GT " : " EQ ") + shape(vr, vc));
    using DstT = Tile<TileType::Vec, int32_t, kR, kC>;
    using KT = Tile<TileType::Vec, K, 1, kC>;
    using CT = Tile<TileType::Vec, int32_t, 1, kC>;
    using TmpT = Tile<TileType::Vec, uint8_t, kR, kC>;
    std::vector<S> src(kR * kC);
    std::vector<K> k(kC);
    testutil::Rng rng;
    for (auto& x : src) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<S>) {
            const float sp[] = {NAN, INFINITY, -INFINITY, -0.0f};
            x = h % 9 == 0 ? from_float<S>(sp[(h >> 8) % 4]) : from_float<S>(static_cast<float>(static_cast<int>(h % 9) - 4));
        } else {
            x = static_cast<S>(static_cast<int>(h % 9) - 4);
        }
    }
    for (int i = 0; i < kC; ++i) k[i] = static_cast<K>(i % 5 - 2);
    std::vector<int32_t> sentinel(kR * kC), out, cnt_sentinel(kC), cnt;
    for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = -1000 - static_cast<int32_t>(i);
    for (int i = 0; i < kC; ++i) cnt_sentinel[i] = -7;
    out = sentinel;
    cnt = cnt_sentinel;
    auto st = run_vec([&] {
        Full<S> fs;
        Dyn<S> s(vr, vc);
        KT kt;
        CT ct;
        DstT d;
        TmpT tmp;
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(kt, 0x4000);
        TASSIGN(ct, 0x4800);
        TASSIGN(d, 0x5000);
        TASSIGN(tmp, 0x9000);
        load(fs, src, kR, kC);
        load(kt, k, 1, kC);
        load(ct, cnt, 1, kC);
        load(d, out, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TGATHER<DstT, Dyn<S>, KT, CT, TmpT, M>(d, s, kt, ct, tmp, offset);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, kR, kC);
        store(cnt, ct, 1, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<int32_t> want = sentinel, want_cnt = cnt_sentinel;
    for (int i = 0; i < vr; ++i) {
        const double kv = static_cast<double>(k[i]);
        int n = 0;
        for (int c = 0; c < vc; ++c) {
            const double v = to_double(src[i * kC + c]);
            if (M == CmpMode::GT ? v > kv : v == kv) want[i * kC + n++] = offset + i * kC + c;
        }
        want_cnt[i] = n;
    }
    EXPECT_EQ(out, want);
    EXPECT_EQ(cnt, want_cnt);
}

TEST(TGATHER_Compare, FloatHalfInt32) {
    for (auto [vr, vc] : kShapes) {
        compare_case<float, int32_t, CmpMode::GT>(vr, vc, 0);
        compare_case<float, int32_t, CmpMode::EQ>(vr, vc, 1000);
        compare_case<half, int16_t, CmpMode::GT>(vr, vc, 7);
        compare_case<half, int16_t, CmpMode::EQ>(vr, vc, 0);
        compare_case<int32_t, int32_t, CmpMode::EQ>(vr, vc, -5);
    }
}

// ------------------------------------------------------------ MGATHER / MSCATTER

// The reference remap of an index under an out-of-bounds policy: nullopt
// when nothing is read or written.
enum class Oob { Undefined, Clamp, Wrap, Zero, Skip };
std::optional<uint64_t> ref_slot(int32_t raw, uint64_t cap, Oob p) {
    const uint64_t u = static_cast<uint32_t>(raw);
    if (u < cap) return u;
    if (p == Oob::Clamp) return cap - 1;
    if (p == Oob::Wrap) return u % cap;
    return std::nullopt;
}

constexpr int kTableRows = 10;

template <Coalesce M, GatherOOB G>
constexpr Oob oob_of() {
    return G == GatherOOB::Clamp ? Oob::Clamp : G == GatherOOB::Wrap ? Oob::Wrap : G == GatherOOB::Zero ? Oob::Zero : Oob::Undefined;
}

// Indices for vr x vc positions (Row: vr of them): in range only under the
// Undefined policy, otherwise also negative and past the end.
std::vector<int32_t> make_indices(size_t n, uint64_t cap, bool in_range_only, uint64_t salt) {
    std::vector<int32_t> v(n);
    testutil::Rng rng;
    rng.s ^= salt;
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if (in_range_only || h % 3) x = static_cast<int32_t>(h % cap);
        else x = static_cast<int32_t>(static_cast<int64_t>(h % 9) - 3 + (h & 8 ? static_cast<int64_t>(cap) : 0));
    }
    return v;
}

// Table of kTableRows rows, width w, row stride ld (A2A3 honours the stride).
template <class T>
GmND<T> table_of(std::vector<T>& v, int width, int ld) {
    return GmND<T>(v.data(), Shape<1, 1, 1, DYNAMIC, DYNAMIC>(kTableRows, width), Stride<1, 1, 1, DYNAMIC, 1>(ld));
}

template <class T, Coalesce M, GatherOOB G, bool macro_form = false>
void mgather_case(int vr, int vc, int ld) {
    SCOPED_TRACE(std::string(M == Coalesce::Row ? "Row " : "Elem ") + std::to_string(static_cast<int>(G)) + " " +
                 shape(vr, vc) + " ld " + std::to_string(ld));
    constexpr Oob p = oob_of<M, G>();
    const uint64_t cap = M == Coalesce::Row ? kTableRows : static_cast<uint64_t>(kTableRows) * vc;
    std::vector<T> table(kTableRows * ld), sentinel(kR * kC), out;
    for (size_t i = 0; i < table.size(); ++i) table[i] = pattern<T>(i, 41);
    for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 42);
    out = sentinel;
    const size_t n_idx = M == Coalesce::Row ? kC : kR * kC;
    auto idx = make_indices(n_idx, cap, p == Oob::Undefined, 43 + vr * 100 + vc);
    auto st = run_vec([&] {
        Full<T> fd;
        Dyn<T> d(vr, vc);
        TASSIGN(fd, 0);
        TASSIGN(d, 0);
        load(fd, out, kR, kC);
        auto tab = table_of(table, vc, ld);
        if constexpr (M == Coalesce::Row) {
            IdxRow ix(vr);
            TASSIGN(ix, 0x8000);
            load(ix, idx, 1, kC);
            pipe_barrier(PIPE_ALL);
            if constexpr (macro_form) MGATHER(d, tab, ix);
            else MGATHER<M, G>(d, tab, ix);
        } else {
            Full<int32_t> fi;
            Dyn<int32_t> ix(vr, vc);
            TASSIGN(fi, 0x8000);
            TASSIGN(ix, 0x8000);
            load(fi, idx, kR, kC);
            pipe_barrier(PIPE_ALL);
            MGATHER<M, G>(d, tab, ix);
        }
        pipe_barrier(PIPE_ALL);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_flat(out, sentinel, [&](int i, T& w) {
        const int r = i / kC, c = i % kC;
        if (r >= vr || c >= vc) return;
        if (M == Coalesce::Row) {
            const auto s = ref_slot(idx[r], cap, p);
            w = s ? table[*s * ld + c] : T{};
        } else {
            const auto s = ref_slot(idx[r * kC + c], cap, p);
            w = s ? table[*s] : T{};
        }
    });
}

TYPED_SUITE(MGATHER_Types, AllTypes);
TYPED_TEST(MGATHER_Types, RowAndElemEveryOobPolicy) {
    using T = TypeParam;
    for (auto [vr, vc] : kShapes) {
        mgather_case<T, Coalesce::Row, GatherOOB::Undefined, true>(vr, vc, vc);
        mgather_case<T, Coalesce::Row, GatherOOB::Clamp>(vr, vc, vc);
        mgather_case<T, Coalesce::Row, GatherOOB::Wrap>(vr, vc, vc);
        mgather_case<T, Coalesce::Row, GatherOOB::Zero>(vr, vc, vc);
        if (!PTOSIM_TARGET_A5) mgather_case<T, Coalesce::Row, GatherOOB::Clamp>(vr, vc, kC + 3);  // padded rows
        mgather_case<T, Coalesce::Elem, GatherOOB::Undefined>(vr, vc, vc);
        mgather_case<T, Coalesce::Elem, GatherOOB::Clamp>(vr, vc, vc);
        mgather_case<T, Coalesce::Elem, GatherOOB::Wrap>(vr, vc, vc);
        mgather_case<T, Coalesce::Elem, GatherOOB::Zero>(vr, vc, vc);
    }
}

#if PTOSIM_TARGET_A5
// A5 also takes a Row-mode index tile as one column, [R, 1].
TEST(MGATHER_A5, RowIndexColumn) {
    std::vector<float> table(kTableRows * 16), out(kR * kC, -1.0f);
    for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i);
    std::vector<int32_t> idx = {9, 0, 3, 3, 7, 1, 2, 8};
    auto st = run_vec([&] {
        Full<float> fd;
        Dyn<float> d(kR, 16);
        Tile<TileType::Vec, int32_t, kR, 8, BLayout::ColMajor, kR, 1> ix;
        TASSIGN(fd, 0);
        TASSIGN(d, 0);
        TASSIGN(ix, 0x8000);
        load(fd, out, kR, kC);
        auto g = gm_dn(idx.data(), kR, 1, kR);
        TLOAD(ix, g);
        auto tab = table_of(table, 16, 16);
        pipe_barrier(PIPE_ALL);
        MGATHER<Coalesce::Row>(d, tab, ix);
        pipe_barrier(PIPE_ALL);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c)
            ASSERT_EQ(out[r * kC + c], c < 16 ? static_cast<float>(idx[r] * 16 + c) : -1.0f) << r << "," << c;
}
#endif

#if PTOSIM_TARGET_A5
// Without a mode, A5 (a5/MGather.hpp, a5/MScatter.hpp) indexes element-wise
// when the index tile has the data tile's static shape, and row-wise when it
// has one static column.
TEST(MGATHER_A5, DefaultModeFollowsTheIndexTileShape) {
    std::vector<float> table(kTableRows * 16), out(kR * kC, -1.0f), out_rows(kR * kC, -1.0f);
    for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i) + 0.5f;
    std::vector<int32_t> idx(kR * kC);
    for (int i = 0; i < kR * kC; ++i) idx[i] = (i * 37 + 5) % (kTableRows * 16);
    std::vector<int32_t> ridx = {4, 9, 0, 0, 2, 7, 1, 3};
    auto st = run_vec([&] {
        Full<float> fd;
        Dyn<float> d(2, 16);
        Full<int32_t> fi;
        Dyn<int32_t> ix(2, 16);
        TASSIGN(fd, 0);
        TASSIGN(d, 0);
        TASSIGN(fi, 0x8000);
        TASSIGN(ix, 0x8000);
        load(fd, out, kR, kC);
        load(fi, idx, kR, kC);
        auto tab = table_of(table, 16, 16);
        pipe_barrier(PIPE_ALL);
        MGATHER(d, tab, ix);
        pipe_barrier(PIPE_ALL);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const float w = r < 2 && c < 16 ? static_cast<float>(((r * kC + c) * 37 + 5) % (kTableRows * 16)) + 0.5f : -1.0f;
            ASSERT_EQ(out[r * kC + c], w) << r << "," << c;
        }
    auto st2 = run_vec([&] {
        Full<float> fd;
        Dyn<float> d(kR / 2, 16);
        Tile<TileType::Vec, int32_t, kR, 1, BLayout::ColMajor, DYNAMIC, 1> ix(kR / 2);
        TASSIGN(fd, 0);
        TASSIGN(d, 0);
        TASSIGN(ix, 0x8000);
        load(fd, out_rows, kR, kC);
        auto g = gm_dn(ridx.data(), kR / 2, 1, kR / 2);
        TLOAD(ix, g);
        auto tab = table_of(table, 16, 16);
        pipe_barrier(PIPE_ALL);
        MGATHER(d, tab, ix);
        pipe_barrier(PIPE_ALL);
        store(out_rows, fd, kR, kC);
    });
    ASSERT_TRUE(st2.ok()) << st2.message;
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const float w = r < kR / 2 && c < 16 ? static_cast<float>(ridx[r] * 16 + c) + 0.5f : -1.0f;
            ASSERT_EQ(out_rows[r * kC + c], w) << r << "," << c;
        }
}

TEST(MSCATTER_A5, DefaultModeFollowsTheIndexTileShape) {
    std::vector<int32_t> table(kTableRows * 8, -7), src(kR * kC), idx(kR * kC, 0);
    for (int i = 0; i < kR * kC; ++i) src[i] = 1000 + i;
    // Element (r, c) of the 2x8 source goes to table element 79 - (r * 8 + c).
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 8; ++c) idx[r * kC + c] = 79 - (r * 8 + c);
    auto st = run_vec([&] {
        Full<int32_t> fs, fi;
        Dyn<int32_t> s(2, 8), ix(2, 8);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(fi, 0x8000);
        TASSIGN(ix, 0x8000);
        load(fs, src, kR, kC);
        load(fi, idx, kR, kC);
        auto tab = table_of(table, 8, 8);
        pipe_barrier(PIPE_ALL);
        MSCATTER(tab, s, ix);
        pipe_barrier(PIPE_ALL);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int k = 0; k < kTableRows * 8; ++k) {
        const int j = 79 - k;  // source position stored at table element k
        const int want = j < 16 ? 1000 + (j / 8) * kC + j % 8 : -7;
        ASSERT_EQ(table[k], want) << k;
    }
}
#endif

// Elements the target's atomic ops take (MSCATTER page, "Atomic Type Support").
template <class T>
constexpr bool add_ok = PTOSIM_TARGET_A5
                            ? std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float> ||
                                  is_f16<T>
                            : std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> ||
                                  std::is_same_v<T, float> || is_f16<T>;
template <class T>
constexpr bool minmax_ok = PTOSIM_TARGET_A5 && (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                                                std::is_same_v<T, float>);

template <class T>
T ref_combine(T old, T v, ScatterAtomicOp a) {
    if (a == ScatterAtomicOp::None) return v;
    if constexpr (is_fp<T>) {
        const double x = to_double(old), y = to_double(v);
        if (a == ScatterAtomicOp::Add) return from_float<T>(static_cast<float>(x + y));
        return (a == ScatterAtomicOp::Max ? y > x : y < x) ? v : old;
    } else {
        if (a == ScatterAtomicOp::Add) return static_cast<T>(static_cast<uint64_t>(old) + static_cast<uint64_t>(v));
        return (a == ScatterAtomicOp::Max ? v > old : v < old) ? v : old;
    }
}

template <ScatterOOB S>
constexpr Oob scatter_oob() {
    return S == ScatterOOB::Clamp ? Oob::Clamp : S == ScatterOOB::Wrap ? Oob::Wrap : S == ScatterOOB::Skip ? Oob::Skip : Oob::Undefined;
}

template <class T, Coalesce M, ScatterAtomicOp A, ScatterOOB S, bool macro_form = false>
void mscatter_case(int vr, int vc, int ld) {
    SCOPED_TRACE(std::string(M == Coalesce::Row ? "Row " : "Elem ") + "atomic " + std::to_string(static_cast<int>(A)) +
                 " oob " + std::to_string(static_cast<int>(S)) + " " + shape(vr, vc) + " ld " + std::to_string(ld));
    constexpr Oob p = scatter_oob<S>();
    const uint64_t cap = M == Coalesce::Row ? kTableRows : static_cast<uint64_t>(kTableRows) * vc;
    std::vector<T> table(kTableRows * ld), src(kR * kC);
    for (size_t i = 0; i < table.size(); ++i) table[i] = pattern<T>(i, 51);
    for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 52);
    const auto before = table;
    const size_t n_idx = M == Coalesce::Row ? kC : kR * kC;
    // Few slots, so collisions are common.
    auto idx = make_indices(n_idx, std::min<uint64_t>(cap, M == Coalesce::Row ? cap : 7), p == Oob::Undefined, 53 + vr * 100 + vc);
    if (p != Oob::Undefined)
        for (size_t i = 0; i < idx.size(); i += 5) idx[i] = static_cast<int32_t>(cap + i % 3) - (i % 2 ? 0 : static_cast<int32_t>(cap) + 2);
    auto st = run_vec([&] {
        Full<T> fs;
        Dyn<T> s(vr, vc);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        load(fs, src, kR, kC);
        auto tab = table_of(table, vc, ld);
        if constexpr (M == Coalesce::Row) {
            IdxRow ix(vr);
            TASSIGN(ix, 0x8000);
            load(ix, idx, 1, kC);
            pipe_barrier(PIPE_ALL);
            if constexpr (macro_form) MSCATTER(tab, s, ix);
            else MSCATTER<M, A, S>(tab, s, ix);
        } else {
            Full<int32_t> fi;
            Dyn<int32_t> ix(vr, vc);
            TASSIGN(fi, 0x8000);
            TASSIGN(ix, 0x8000);
            load(fi, idx, kR, kC);
            pipe_barrier(PIPE_ALL);
            MSCATTER<M, A, S>(tab, s, ix);
        }
        pipe_barrier(PIPE_ALL);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<T> want = before;
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < (M == Coalesce::Row ? 1 : vc); ++c) {
            const auto slot = ref_slot(idx[M == Coalesce::Row ? r : r * kC + c], cap, p);
            if (!slot) continue;
            if (M == Coalesce::Row) {
                for (int j = 0; j < vc; ++j) want[*slot * ld + j] = ref_combine(want[*slot * ld + j], src[r * kC + j], A);
            } else {
                want[*slot] = ref_combine(want[*slot], src[r * kC + c], A);
            }
        }
    for (size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(same(table[i], want[i])) << "table[" << i << "] got " << show(table[i]) << " want " << show(want[i]);
}

template <class T, ScatterAtomicOp A>
void mscatter_all(int vr, int vc) {
    mscatter_case<T, Coalesce::Row, A, ScatterOOB::Undefined>(vr, vc, vc);
    mscatter_case<T, Coalesce::Row, A, ScatterOOB::Skip>(vr, vc, vc);
    mscatter_case<T, Coalesce::Row, A, ScatterOOB::Clamp>(vr, vc, vc);
    mscatter_case<T, Coalesce::Row, A, ScatterOOB::Wrap>(vr, vc, vc);
    if (!PTOSIM_TARGET_A5) mscatter_case<T, Coalesce::Row, A, ScatterOOB::Wrap>(vr, vc, kC + 5);
    mscatter_case<T, Coalesce::Elem, A, ScatterOOB::Undefined>(vr, vc, vc);
    mscatter_case<T, Coalesce::Elem, A, ScatterOOB::Skip>(vr, vc, vc);
    mscatter_case<T, Coalesce::Elem, A, ScatterOOB::Clamp>(vr, vc, vc);
    mscatter_case<T, Coalesce::Elem, A, ScatterOOB::Wrap>(vr, vc, vc);
}

TYPED_SUITE(MSCATTER_Types, AllTypes);
TYPED_TEST(MSCATTER_Types, PlainStoreLastWriterWins) {
    for (auto [vr, vc] : kShapes) {
        mscatter_case<TypeParam, Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, true>(vr, vc, vc);
        mscatter_all<TypeParam, ScatterAtomicOp::None>(vr, vc);
    }
}
TYPED_TEST(MSCATTER_Types, AtomicOps) {
    using T = TypeParam;
    for (auto [vr, vc] : kShapes) {
        if constexpr (add_ok<T>) mscatter_all<T, ScatterAtomicOp::Add>(vr, vc);
        if constexpr (minmax_ok<T>) {
            mscatter_all<T, ScatterAtomicOp::Max>(vr, vc);
            mscatter_all<T, ScatterAtomicOp::Min>(vr, vc);
        }
    }
}

#if PTOSIM_TARGET_A5
TEST(MSCATTER_A5, ConflictPoliciesBothKeepTheLastWriter) {
    std::vector<int32_t> table(kTableRows * 8, -1), src(kR * kC);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int32_t>(i);
    std::vector<int32_t> idx(kC, 4);
    auto st = run_vec([&] {
        Full<int32_t> fs;
        Dyn<int32_t> s(kR, 8);
        IdxRow ix(kR);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(ix, 0x8000);
        load(fs, src, kR, kC);
        load(ix, idx, 1, kC);
        auto tab = table_of(table, 8, 8);
        pipe_barrier(PIPE_ALL);
        MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Default>(tab, s, ix);
        idx[0] = 1;
        MSCATTER<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, ScatterConflict::Last>(tab, s, ix);
        pipe_barrier(PIPE_ALL);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kTableRows; ++r)
        for (int c = 0; c < 8; ++c) ASSERT_EQ(table[r * 8 + c], r == 4 ? (kR - 1) * kC + c : -1) << r << "," << c;
}
#endif

// ------------------------------------------------------------ faults

TEST(MGATHER_Faults, RowIndexPastTheTable) {
    std::vector<float> table(kTableRows * 16);
    std::vector<int32_t> idx = {0, 1, kTableRows, 2};
    auto msg = fault_of([&] {
        Dyn<float> d(4, 16);
        IdxRow ix(4);
        TASSIGN(d, 0);
        TASSIGN(ix, 0x8000);
        load(ix, idx, 1, 4);
        auto tab = table_of(table, 16, 16);
        pipe_barrier(PIPE_ALL);
        MGATHER(d, tab, ix);
    });
    EXPECT_NE(msg.find(std::string("MGATHER [") + PIPE_GATHER + "]: index 10 at (2, 0) of the index tile is outside the table's 10 rows"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("test_isa_gather.cpp:"), std::string::npos) << msg;
}

TEST(MSCATTER_Faults, NegativeElemIndex) {
    std::vector<int32_t> table(kTableRows * 8), src(kR * kC), idx(kR * kC, 3);
    idx[1 * kC + 5] = -1;
    auto msg = fault_of([&] {
        Full<int32_t> fs, fi;
        Dyn<int32_t> s(2, 8), ix(2, 8);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(fi, 0x8000);
        TASSIGN(ix, 0x8000);
        load(fs, src, kR, kC);
        load(fi, idx, kR, kC);
        auto tab = table_of(table, 8, 8);
        pipe_barrier(PIPE_ALL);
        MSCATTER(tab, s, ix);  // A2A3's default Row mode rejects an Elem-shaped index tile
    });
    // A5 picks Elem from the index tile's static shape (the data tile's), so -1 is the fault there.
    const std::string first = PTOSIM_TARGET_A5
                                  ? std::string("MSCATTER [") + PIPE_SCATTER_ELEM + "]: index -1 at (1, 5) of the index tile"
                                  : std::string("MSCATTER [") + PIPE_SCATTER_ROW +
                                        "]: Coalesce::Row needs an index tile of valid shape 1x2";
    EXPECT_NE(msg.find(first), std::string::npos) << msg;
    auto msg2 = fault_of([&] {
        Full<int32_t> fs, fi;
        Dyn<int32_t> s(2, 8), ix(2, 8);
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(fi, 0x8000);
        TASSIGN(ix, 0x8000);
        load(fs, src, kR, kC);
        load(fi, idx, kR, kC);
        auto tab = table_of(table, 8, 8);
        pipe_barrier(PIPE_ALL);
        MSCATTER<Coalesce::Elem>(tab, s, ix);
    });
    EXPECT_NE(msg2.find(std::string("MSCATTER [") + PIPE_SCATTER_ELEM + "]: index -1 at (1, 5) of the index tile is outside the table's 80 elements"),
              std::string::npos)
        << msg2;
}

// A table whose shape claims more rows than its registered allocation holds:
// row 4 is inside the table's shape, but its GM span runs past the allocation.
TEST(MSCATTER_Faults, GmSpanPastTheAllocation) {
    auto& dev = ptosim::Device::get();
    auto* mem = static_cast<float*>(dev.allocate(4 * 16 * sizeof(float) + 32, true));
    std::vector<int32_t> idx(kC, 4);
    ptosim::check::set_strict(true);  // the device would write past the block
    auto msg = fault_of([&] {
        Dyn<float> s(2, 16);
        IdxRow ix(2);
        TASSIGN(s, 0);
        TASSIGN(ix, 0x8000);
        load(ix, idx, 1, kC);
        GmND<float> tab(mem, Shape<1, 1, 1, DYNAMIC, DYNAMIC>(kTableRows, 16), Stride<1, 1, 1, DYNAMIC, 1>(16));
        pipe_barrier(PIPE_ALL);
        MSCATTER(tab, s, ix);
    });
    ptosim::check::set_strict(false);
    dev.release(mem, true);
    EXPECT_NE(msg.find(std::string("MSCATTER [") + PIPE_SCATTER_ROW + "] index 4 at (0, 0) at "), std::string::npos) << msg;
    EXPECT_NE(msg.find("past the 288 bytes requested for the allocation"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_gather.cpp:"), std::string::npos) << msg;
}

// ------------------------------------------------------------ TGATHERB

TYPED_SUITE(TGATHERB_Types, AllTypes);
TYPED_TEST(TGATHERB_Types, BlocksFromByteOffsets) {
    using T = TypeParam;
    constexpr int block = 32 / sizeof(T);
    using OffT = Tile<TileType::Vec, uint32_t, kR, kC>;
    constexpr int src_bytes = kR * kC * sizeof(T);
    for (int vr : {1, 3, kR})
        for (int vc : {block, 2 * block, kC}) {
            SCOPED_TRACE(shape(vr, vc));
            std::vector<T> src(kR * kC), sentinel(kR * kC), out;
            for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 61), sentinel[i] = pattern<T>(i, 62);
            out = sentinel;
            std::vector<uint32_t> off(kR * kC);
            testutil::Rng rng;
            for (size_t i = 0; i < off.size(); ++i) {
                const uint64_t h = rng.next();
                off[i] = static_cast<uint32_t>(h % 3 == 0 ? (h >> 8) % (src_bytes - 31) : ((h >> 8) % (src_bytes / 32)) * 32);
            }
            off[0] = src_bytes - 32;
            auto st = run_vec([&] {
                Full<T> s, fd;
                Dyn<T> d(vr, vc);
                OffT o;
                TASSIGN(s, 0);
                TASSIGN(fd, 0x4000);
                TASSIGN(d, 0x4000);
                TASSIGN(o, 0x8000);
                load(s, src, kR, kC);
                load(fd, out, kR, kC);
                load(o, off, kR, kC);
                ISA_SYNC(PIPE_MTE2, PIPE_V);
                TGATHERB(d, s, o);
                ISA_SYNC(PIPE_V, PIPE_MTE3);
                store(out, fd, kR, kC);
            });
            ASSERT_TRUE(st.ok()) << st.message;
            std::vector<uint8_t> want(sentinel.size() * sizeof(T)), src_b(src.size() * sizeof(T)), got(want.size());
            std::memcpy(want.data(), sentinel.data(), want.size());
            std::memcpy(src_b.data(), src.data(), src_b.size());
            std::memcpy(got.data(), out.data(), got.size());
            for (int r = 0; r < vr; ++r)
                for (int b = 0; b < vc / block; ++b)
                    std::memcpy(&want[(r * kC + b * block) * sizeof(T)], &src_b[off[r * kC + b]], 32);
            ASSERT_EQ(got, want);
        }
}

TEST(TGATHERB_Faults, OffsetPastTheSource) {
    std::vector<uint32_t> off(kR * kC, 0);
    off[3] = kR * kC * 4 - 16;
    auto msg = fault_of([&] {
        Full<float> s, d;
        Tile<TileType::Vec, uint32_t, kR, kC> o;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(o, 0x8000);
        load(o, off, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TGATHERB(d, s, o);
    });
    EXPECT_NE(msg.find("TGATHERB [PIPE_V]: byte offset 2032 at (0, 3) reads past src's 2048 bytes"), std::string::npos) << msg;
}

// ------------------------------------------------------------ TSCATTER

template <class T>
using ScatterIndex = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;

TYPED_SUITE(TSCATTER_Types, AllTypes);
TYPED_TEST(TSCATTER_Types, ZeroedThenLastWriterWins) {
    using T = TypeParam;
    using I = ScatterIndex<T>;
    for (auto [vr, vc] : kShapes) {
        SCOPED_TRACE(shape(vr, vc));
        std::vector<T> src(kR * kC), sentinel(kR * kC), out;
        for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 71), sentinel[i] = pattern<T>(i, 72);
        out = sentinel;
        std::vector<I> idx(kR * kC);
        testutil::Rng rng;
        for (auto& x : idx) x = static_cast<I>(rng.next() % (kR * kC / 3));  // many collisions
        auto st = run_vec([&] {
            Full<T> fs, d;
            Dyn<T> s(kR, kC);
            Full<I> fi;
            Dyn<I> ix(vr, vc);
            TASSIGN(fs, 0);
            TASSIGN(s, 0);
            TASSIGN(d, 0x4000);
            TASSIGN(fi, 0x8000);
            TASSIGN(ix, 0x8000);
            load(fs, src, kR, kC);
            load(d, out, kR, kC);
            load(fi, idx, kR, kC);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TSCATTER(d, s, ix);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, d, kR, kC);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        std::vector<T> want(kR * kC, T{});
        for (int r = 0; r < vr; ++r)
            for (int c = 0; c < vc; ++c) want[idx[r * kC + c]] = src[r * kC + c];
        for (size_t i = 0; i < want.size(); ++i)
            ASSERT_TRUE(same(out[i], want[i])) << i << " got " << show(out[i]) << " want " << show(want[i]);
    }
}

TEST(TSCATTER_Faults, IndexPastTheDestination) {
    std::vector<int32_t> idx(kR * kC, 0);
    idx[kC + 2] = kR * kC;
    auto msg = fault_of([&] {
        Full<float> s, d;
        Full<int32_t> ix;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(ix, 0x8000);
        load(ix, idx, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TSCATTER(d, s, ix);
    });
    EXPECT_NE(msg.find("TSCATTER [PIPE_V]: index 512 at (1, 2) is outside dst's 512 elements"), std::string::npos) << msg;
}

// The index tile's valid shape drives the loop and src is read at the same
// (row, column) whatever its own valid shape (a2a3/a5 TScatter.hpp
// TScatterImpl); pto-isa states no rule between the two, so this runs.
TEST(TSCATTER_Shapes, SrcIsReadOverTheIndexTilesValidShape) {
    std::vector<float> src(kC), out(kC, -1.0f);
    std::vector<int32_t> idx(kC);
    for (int c = 0; c < kC; ++c) src[c] = 10.0f + c, idx[c] = kC - 1 - c;
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, 1, kC> whole, d;
        Tile<TileType::Vec, float, 1, kC, BLayout::RowMajor, 1, DYNAMIC> s(4);
        Tile<TileType::Vec, int32_t, 1, kC> ix;
        TASSIGN(whole, 0);
        TASSIGN(s, 0);
        TASSIGN(d, 0x1000);
        TASSIGN(ix, 0x2000);
        load(whole, src, 1, kC);
        load(ix, idx, 1, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TSCATTER(d, s, ix);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, d, 1, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int c = 0; c < kC; ++c) EXPECT_EQ(out[kC - 1 - c], src[c]) << c;
}

TEST(TSCATTER_Faults, IndexShapePastSrcStorage) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, float, 1, 8> s;
        Tile<TileType::Vec, float, 1, 16> d;
        Tile<TileType::Vec, int32_t, 1, 16> ix;
        TASSIGN(s, 0);
        TASSIGN(d, 0x1000);
        TASSIGN(ix, 0x2000);
        TSCATTER(d, s, ix);
    });
    EXPECT_NE(msg.find("TSCATTER [PIPE_V]: the index tile's valid shape 1x16 runs past src's 1x8 storage; the release "
                       "build reads src over the index tile's valid shape"),
              std::string::npos)
        << msg;
}

// ------------------------------------------------------------ TCONCAT

template <class T>
using Wide = Tile<TileType::Vec, T, kR, 2 * kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using WideFull = Tile<TileType::Vec, T, kR, 2 * kC>;

template <class T, bool indexed>
void concat_case(int vr, int vc0, int vc1, int dst_vc, const std::vector<int32_t>& n0, const std::vector<int32_t>& n1) {
    SCOPED_TRACE(std::to_string(vr) + " rows, " + std::to_string(vc0) + " + " + std::to_string(vc1) + " cols");
    std::vector<T> a(kR * kC), b(kR * kC), sentinel(kR * 2 * kC), out;
    for (size_t i = 0; i < a.size(); ++i) a[i] = pattern<T>(i, 81), b[i] = pattern<T>(i, 82);
    for (size_t i = 0; i < sentinel.size(); ++i) sentinel[i] = pattern<T>(i, 83);
    out = sentinel;
    std::vector<int32_t> i0(kR * 8), i1(kR * 8);
    for (int r = 0; r < kR; ++r) i0[r * 8] = n0[r] * 4, i1[r * 8] = n1[r] * 4;  // byte counts of int32 lanes
    auto st = run_vec([&] {
        Full<T> fa, fb;
        Dyn<T> sa(vr, vc0), sb(vr, vc1);
        WideFull<T> fd;
        Wide<T> d(vr, dst_vc);
        Tile<TileType::Vec, int32_t, kR, 8> x0, x1;
        TASSIGN(fa, 0);
        TASSIGN(sa, 0);
        TASSIGN(fb, 0x4000);
        TASSIGN(sb, 0x4000);
        TASSIGN(fd, 0x8000);
        TASSIGN(d, 0x8000);
        TASSIGN(x0, 0x10000);
        TASSIGN(x1, 0x10400);
        load(fa, a, kR, kC);
        load(fb, b, kR, kC);
        load(fd, out, kR, 2 * kC);
        load(x0, i0, kR, 8);
        load(x1, i1, kR, 8);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if constexpr (indexed) TCONCAT(d, sa, sb, x0, x1);
        else TCONCAT(d, sa, sb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, fd, kR, 2 * kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_flat(out, sentinel, [&](int i, T& w) {
        const int r = i / (2 * kC), c = i % (2 * kC);
        if (r >= vr) return;
        int m0 = vc0, m1 = vc1;
        if (indexed) {
            m0 = std::min(n0[r], dst_vc);
            m1 = std::min(n1[r], dst_vc - m0);
        }
        if (c < m0) w = a[r * kC + c];
        else if (c < m0 + m1) w = b[r * kC + c - m0];
    });
}

TYPED_SUITE(TCONCAT_Types, AllTypes);
TYPED_TEST(TCONCAT_Types, BasicForm) {
    const std::vector<int32_t> none(kR, 0);
    const int cases[][3] = {{1, 1, 1}, {3, 13, 20}, {kR, kC, kC}, {5, 32, 33}, {kR, 1, kC}, {2, kC, 0}};
    for (auto& c : cases) concat_case<TypeParam, false>(c[0], c[1], c[2], c[1] + c[2], none, none);
}
TYPED_TEST(TCONCAT_Types, IndexedForm) {
    const std::vector<int32_t> n0 = {0, 1, 5, 64, 13, 64, 2, 40}, n1 = {3, 0, 64, 64, 7, 1, 64, 30};
    concat_case<TypeParam, true>(kR, kC, kC, 2 * kC, n0, n1);
    concat_case<TypeParam, true>(kR, kC, kC, 70, n0, n1);  // dst's valid columns cap the rows
    concat_case<TypeParam, true>(3, kC, kC, 17, n0, n1);
}

TEST(TCONCAT_Faults, TooWideForDst) {
    auto msg = fault_of([] {
        Dyn<float> a(2, 40), b(2, 30), d(2, kC);
        TASSIGN(a, 0);
        TASSIGN(b, 0x4000);
        TASSIGN(d, 0x8000);
        TCONCAT(d, a, b);
    });
    EXPECT_NE(msg.find("TCONCAT [PIPE_V]: 40 + 30 columns exceed dst's 64"), std::string::npos) << msg;
}

// ------------------------------------------------------------ TInterleave / TDeInterleave (A5)

#if PTOSIM_TARGET_A5
TYPED_SUITE(TINTERLEAVE_Types, AllTypes);
TYPED_TEST(TINTERLEAVE_Types, TwoSourceFormsAndRoundTrip) {
    using T = TypeParam;
    for (int vr : {1, 5, kR})
        for (int vc : {2, 14, kC}) {
            SCOPED_TRACE(shape(vr, vc));
            std::vector<T> a(kR * kC), b(kR * kC), sentinel(kR * kC);
            for (size_t i = 0; i < a.size(); ++i) a[i] = pattern<T>(i, 91), b[i] = pattern<T>(i, 92), sentinel[i] = pattern<T>(i, 93);
            std::vector<T> o0 = sentinel, o1 = sentinel, r0 = sentinel, r1 = sentinel;
            auto st = run_vec([&] {
                Full<T> fa, fb, f0, f1, g0, g1;
                Dyn<T> sa(vr, vc), sb(vr, vc), d0(vr, vc), d1(vr, vc), e0(vr, vc), e1(vr, vc);
                TASSIGN(fa, 0), TASSIGN(sa, 0);
                TASSIGN(fb, 0x1000), TASSIGN(sb, 0x1000);
                TASSIGN(f0, 0x2000), TASSIGN(d0, 0x2000);
                TASSIGN(f1, 0x3000), TASSIGN(d1, 0x3000);
                TASSIGN(g0, 0x4000), TASSIGN(e0, 0x4000);
                TASSIGN(g1, 0x5000), TASSIGN(e1, 0x5000);
                load(fa, a, kR, kC);
                load(fb, b, kR, kC);
                load(f0, o0, kR, kC);
                load(f1, o1, kR, kC);
                load(g0, r0, kR, kC);
                load(g1, r1, kR, kC);
                ISA_SYNC(PIPE_MTE2, PIPE_V);
                TInterleave(d1, d0, sb, sa);
                TDEINTERLEAVE(e1, e0, d1, d0);
                ISA_SYNC(PIPE_V, PIPE_MTE3);
                store(o0, f0, kR, kC);
                store(o1, f1, kR, kC);
                store(r0, g0, kR, kC);
                store(r1, g1, kR, kC);
            });
            ASSERT_TRUE(st.ok()) << st.message;
            // The stream a0 b0 a1 b1 ... split in halves.
            auto stream = [&](int r, int q) { return q % 2 ? b[r * kC + q / 2] : a[r * kC + q / 2]; };
            expect_flat(o0, sentinel, [&](int i, T& w) {
                if (i / kC < vr && i % kC < vc) w = stream(i / kC, i % kC);
            });
            expect_flat(o1, sentinel, [&](int i, T& w) {
                if (i / kC < vr && i % kC < vc) w = stream(i / kC, vc + i % kC);
            });
            expect_flat(r0, sentinel, [&](int i, T& w) {
                if (i / kC < vr && i % kC < vc) w = a[i];
            });
            expect_flat(r1, sentinel, [&](int i, T& w) {
                if (i / kC < vr && i % kC < vc) w = b[i];
            });
        }
}

TYPED_TEST(TINTERLEAVE_Types, DeInterleaveSingleSource) {
    using T = TypeParam;
    constexpr int cols = 512 / sizeof(T);
    using Src = Tile<TileType::Vec, T, 4, cols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using SrcFull = Tile<TileType::Vec, T, 4, cols>;
    for (int vr : {1, 4})
        for (int vc : {2, 30, cols}) {
            SCOPED_TRACE(shape(vr, vc));
            std::vector<T> s(4 * cols), sentinel(4 * cols);
            for (size_t i = 0; i < s.size(); ++i) s[i] = pattern<T>(i, 94), sentinel[i] = pattern<T>(i, 95);
            std::vector<T> o0 = sentinel, o1 = sentinel;
            auto st = run_vec([&] {
                SrcFull fs, f0, f1;
                Src src(vr, vc);
                TASSIGN(fs, 0), TASSIGN(src, 0);
                TASSIGN(f0, 0x2000);
                TASSIGN(f1, 0x4000);
                load(fs, s, 4, cols);
                load(f0, o0, 4, cols);
                load(f1, o1, 4, cols);
                ISA_SYNC(PIPE_MTE2, PIPE_V);
                TDeInterleave(f1, f0, src);
                ISA_SYNC(PIPE_V, PIPE_MTE3);
                store(o0, f0, 4, cols);
                store(o1, f1, 4, cols);
            });
            ASSERT_TRUE(st.ok()) << st.message;
            for (int out = 0; out < 2; ++out)
                expect_flat(out ? o1 : o0, sentinel, [&](int i, T& w) {
                    const int r = i / cols, k = i % cols;
                    if (r < vr && k < vc / 2) w = s[r * cols + 2 * k + out];
                });
        }
}

// An odd count is a report (tests/checkers/test_device_tolerates.cpp) except
// where the release build's own loop would run away.
TEST(TDEINTERLEAVE_Faults, OneColumnOfWideElements) {
    auto msg = fault_of([] {
        Dyn<float> a(2, 1), b(2, 1), c(2, 1), d(2, 1);
        TASSIGN(a, 0), TASSIGN(b, 0x1000), TASSIGN(c, 0x2000), TASSIGN(d, 0x3000);
        TDEINTERLEAVE(d, c, b, a);
    });
    EXPECT_NE(msg.find("TDEINTERLEAVE [PIPE_V]: the valid column count is 1; pto-isa's release build then runs its "
                       "tail loop 65535 times past the tiles"),
              std::string::npos)
        << msg;
}
#endif

// ------------------------------------------------------------ TSUBVIEW

template <class T>
void subview_case() {
    SCOPED_TRACE(type_name<T>());
    constexpr int C = 128 / sizeof(T);  // two 64-byte halves per row
    using Src = Tile<TileType::Vec, T, 4, C>;
    using View = Tile<TileType::Vec, T, 4, C, BLayout::RowMajor, 2, C / 2>;
    std::vector<T> src(4 * C);
    for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 99);
    std::vector<std::vector<T>> out(4, std::vector<T>(2 * (C / 2)));
    auto st = run_vec([&] {
        Src s;
        View v[4];
        TASSIGN(s, 0x100);
        load(s, src, 4, C);
        TSUBVIEW(v[0], s, 0, 0);
        TSUBVIEW(v[1], s, 0, C / 2);
        TSUBVIEW(v[2], s, 2, 0);
        TSUBVIEW(v[3], s, 2, C / 2);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        for (int k = 0; k < 4; ++k) store(out[k], v[k], 2, C / 2);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < C / 2; ++j) {
                const T w = src[(2 * (k / 2) + i) * C + (k % 2) * (C / 2) + j];
                ASSERT_TRUE(same(out[k][i * (C / 2) + j], w)) << k << ": (" << i << "," << j << ")";
            }
}

TEST(TSUBVIEW, QuartersViewTheSource) {
    subview_case<int8_t>();
    subview_case<half>();
    subview_case<float>();
    subview_case<uint32_t>();
}

TEST(TSUBVIEW_Faults, OutsideTheValidRegion) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 3, 64> s;
        Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 2, 32> v;
        TASSIGN(s, 0);
        TSUBVIEW(v, s, 2, 0);
    });
    EXPECT_NE(msg.find("TSUBVIEW: a 2x32 view at (2, 0) leaves src's 3x64 valid region"), std::string::npos) << msg;
}

TEST(TSUBVIEW_Faults, UnalignedStart) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, float, 4, 64> s;
        Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 2, 32> v;
        TASSIGN(s, 0);
        TSUBVIEW(v, s, 0, 3);
    });
    EXPECT_NE(msg.find("TSUBVIEW: the view at (0, 3) starts at byte 12, not 32-byte aligned"), std::string::npos) << msg;
}

}  // namespace
