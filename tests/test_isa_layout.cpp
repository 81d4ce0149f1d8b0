// Compare/select, padding, layout and generator instructions
// (docs/isa/layout.md) against scalar references written here: every element
// type of the compiled target, edge valid shapes, untouched elements outside
// the written region, faults and the dispatch record.
// The index TGATHER is in test_isa_layout_gather.cpp.
#include "test_isa_layout_util.hpp"
#include <mutex>

namespace {

// ------------------------------------------------------------ TCMP / TCMPS

enum class CmpForm { Tiles, Scalar, ScalarTile };

template <class T, CmpForm form>
void check_cmp(CmpMode mode, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc) + " mode " + std::to_string(static_cast<int>(mode)));
    auto a = values<T>(kR * kC, 1), b = values<T>(kR * kC, 2);
    const T scalar = a[kC + 1];  // a value the source holds, so EQ has hits
    b[0] = scalar;
    auto sentinel = values<MaskE>(kR * kMaskCols, 3), out = sentinel;
    auto st = run_vec([&] {
        Full<T> fa, fb;
        Dyn<T> da(vr, vc), db(vr, vc);
        MaskFull mfull;
        MaskDyn m(vr, 1);
        TASSIGN(fa, 0);
        TASSIGN(da, 0);
        TASSIGN(fb, 0x4000);
        TASSIGN(db, 0x4000);
        TASSIGN(mfull, 0x8000);
        TASSIGN(m, 0x8000);
        load(fa, a, kR, kC);
        load(fb, b, kR, kC);
        load(mfull, sentinel, kR, kMaskCols);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if constexpr (form == CmpForm::Tiles) TCMP(m, da, db, mode);
        else if constexpr (form == CmpForm::Scalar) TCMPS(m, da, scalar, mode);
        else TCMPS(m, da, fb, mode);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, mfull, kR, kMaskCols);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const CmpMode dm = doc_mode<T>(mode);
    expect_mask(bytes_of(out), bytes_of(sentinel), vr, vc, [&](int r, int c) {
        const T rhs = form == CmpForm::Tiles ? b[r * kC + c] : scalar;
        return ref_cmp(a[r * kC + c], rhs, dm);
    });
}

TYPED_SUITE(TCMP_Types, CmpTypes);
TYPED_TEST(TCMP_Types, EveryModeAndShape) {
    for (auto m : kModes)
        for (auto [vr, vc] : kShapes) check_cmp<TypeParam, CmpForm::Tiles>(m, vr, vc);
}

TYPED_SUITE(TCMPS_Types, CmpsTypes);
TYPED_TEST(TCMPS_Types, ScalarEveryModeAndShape) {
    for (auto m : kModes)
        for (auto [vr, vc] : kShapes) check_cmp<TypeParam, CmpForm::Scalar>(m, vr, vc);
}
TYPED_TEST(TCMPS_Types, TileFormComparesAgainstElementZero) {
    for (auto m : kModes)
        for (auto [vr, vc] : {std::pair{7, 13}, std::pair{16, 64}}) check_cmp<TypeParam, CmpForm::ScalarTile>(m, vr, vc);
}

TEST(TCMP_Semantics, NanComparesUnorderedAndInt32FollowsTarget) {
    // NaN: only NE holds. A2A3 int32 TCMP compares EQ whatever the mode.
    std::vector<float> a(kR * kC, 1.0f), b(kR * kC, 1.0f);
    a[0] = NAN;
    b[1] = NAN;
    a[2] = 2.0f;
    std::vector<uint8_t> got[6];
    for (int k = 0; k < 6; ++k) {
        std::vector<MaskE> out(kR * kMaskCols, 0);
        auto st = run_vec([&] {
            Full<float> fa, fb;
            MaskDyn m(kR, 1);
            MaskFull mf;
            TASSIGN(fa, 0);
            TASSIGN(fb, 0x4000);
            TASSIGN(m, 0x8000);
            TASSIGN(mf, 0x8000);
            load(fa, a, kR, kC);
            load(fb, b, kR, kC);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TCMP(m, fa, fb, kModes[k]);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, mf, kR, kMaskCols);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        got[k] = bytes_of(out);
    }
    // Byte 0 bits: element 0 (NaN vs 1), 1 (1 vs NaN), 2 (2 vs 1), 3.. (1 vs 1).
    EXPECT_EQ(got[0][0], 0xf8);  // EQ
    EXPECT_EQ(got[1][0], 0x07);  // NE
    EXPECT_EQ(got[2][0], 0x00);  // LT
    EXPECT_EQ(got[3][0], 0xf8);  // LE
    EXPECT_EQ(got[4][0], 0x04);  // GT
    EXPECT_EQ(got[5][0], 0xfc);  // GE

    std::vector<int32_t> ia(kR * kC, 1), ib(kR * kC, 1);
    ib[0] = 2;
    std::vector<MaskE> out(kR * kMaskCols, 0);
    auto st = run_vec([&] {
        Full<int32_t> fa, fb;
        MaskFull m;
        TASSIGN(fa, 0);
        TASSIGN(fb, 0x4000);
        TASSIGN(m, 0x8000);
        load(fa, ia, kR, kC);
        load(fb, ib, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCMP(m, fa, fb, CmpMode::LT);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, m, kR, kMaskCols);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(bytes_of(out)[0], PTOSIM_TARGET_A5 ? 0x01 : 0xfe);
}

// ------------------------------------------------------------ TSEL / TSELS

template <class T, bool scalar_form>
void check_sel(int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc));
    auto a = values<T>(kR * kC, 4), b = values<T>(kR * kC, 5), sentinel = values<T>(kR * kC, 6), out = sentinel;
    auto mask = values<uint8_t>(kR * 32, 7);
    for (auto& x : mask) x = static_cast<uint8_t>(x * 0x5bu + 0x3c);
    const T s = from_float<T>(7.0f);
    auto st = run_vec([&] {
        Full<T> fa, fb, fd, tmp;
        Dyn<T> d(vr, vc), da(vr, vc), db(vr, vc);
        ByteMask m;
        TASSIGN(fa, 0);
        TASSIGN(da, 0);
        TASSIGN(fb, 0x4000);
        TASSIGN(db, 0x4000);
        TASSIGN(fd, 0x8000);
        TASSIGN(d, 0x8000);
        TASSIGN(m, 0xC000);
        TASSIGN(tmp, 0x10000);
        load(fa, a, kR, kC);
        load(fb, b, kR, kC);
        load(fd, sentinel, kR, kC);
        load(m, mask, kR, 32);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if constexpr (scalar_form) TSELS(d, m, da, s);
        else TSEL(d, m, da, db, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r >= vr || c >= vc) return;
        const bool bit = (mask[r * 32 + c / 8] >> (c % 8)) & 1;
        w = bit ? a[r * kC + c] : scalar_form ? s : b[r * kC + c];
    });
}

TYPED_SUITE(TSEL_Types, SelTypes);
TYPED_TEST(TSEL_Types, ValidRegions) {
    for (auto [vr, vc] : kShapes) check_sel<TypeParam, false>(vr, vc);
}

TYPED_SUITE(TSELS_Types, SelsTypes);
TYPED_TEST(TSELS_Types, ValidRegions) {
    for (auto [vr, vc] : kShapes) check_sel<TypeParam, true>(vr, vc);
}

TEST(TSEL_Semantics, SelectsByTcmpMask) {
    // TCMP GT then TSEL gives the larger operand wherever src0 > src1. Rows of
    // 256 elements fill a 32-byte mask row exactly, so A5's flat bit stream
    // and TSEL's per-row reads agree.
    constexpr int W = 256, H = 4;
    auto a = values<float>(H * W, 8), b = values<float>(H * W, 9), out(a);
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, H, W> fa, fb, fd, tmp;
        Tile<TileType::Vec, MaskE, H, kMaskCols> m;
        TASSIGN(fa, 0);
        TASSIGN(fb, 0x4000);
        TASSIGN(fd, 0x8000);
        TASSIGN(m, 0xC000);
        TASSIGN(tmp, 0x10000);
        load(fa, a, H, W);
        load(fb, b, H, W);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCMP(m, fa, fb, CmpMode::GT);
        TSEL(fd, m, fa, fb, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, fd, H, W);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < H * W; ++i) ASSERT_TRUE(same(out[i], a[i] > b[i] ? a[i] : b[i])) << i;
}

// ------------------------------------------------------------ TFILLPAD

template <class T, PadValue P>
T ref_pad() {
    if constexpr (P == PadValue::Zero) return from_float<T>(0.0f);
    else if constexpr (is_half<T>) return half_from_bits(P == PadValue::Max ? 0x7c00 : 0xfc00);
    else if constexpr (is_bf16<T>) return bf16_from_bits(P == PadValue::Max ? 0x7f80 : 0xff80);
    else if constexpr (std::is_same_v<T, float>) return P == PadValue::Max ? INFINITY : -INFINITY;
    else return P == PadValue::Max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}

enum class PadForm { Normal, InPlace };

template <class T, PadValue P>
void check_fillpad(PadForm form, int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc) + (form == PadForm::InPlace ? " in place" : ""));
    using Padded = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, kR, kC, SLayout::NoneBox, TileConfig::fractalABSize, P>;
    auto src = values<T>(kR * kC, 10), sentinel = values<T>(kR * kC, 11), out = sentinel;
    auto st = run_vec([&] {
        Full<T> fs, fd;
        Dyn<T> s(vr, vc);
        Padded d;
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        const int da = form == PadForm::InPlace ? 0 : 0x4000;
        TASSIGN(fd, da);
        TASSIGN(d, da);
        if (form == PadForm::Normal) load(fd, sentinel, kR, kC);
        load(fs, src, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (form == PadForm::InPlace) TFILLPAD_INPLACE(d, s);
        else TFILLPAD(d, s);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) { w = r < vr && c < vc ? src[r * kC + c] : ref_pad<T, P>(); });
}

// The Mat-tile form zeroes an Nz L1 tile outside its valid region: the rows
// below it up to the valid width rounded up to a 32-byte block, and every
// block beyond; the valid rows keep their bytes up to that boundary
// (pto-isa npu/a2a3/TFillPad.hpp; its tmatmul system test uses it).
template <class T>
void check_fillpad_mat(int vr, int vc) {
    SCOPED_TRACE(shape(vr, vc));
    constexpr int R = 32, C = 64, c0 = 32 / static_cast<int>(sizeof(T));
    using Nz = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                    TileConfig::fractalABSize, PadValue::Zero>;
    std::vector<uint8_t> before(R * C * sizeof(T)), after(before.size());
    for (size_t i = 0; i < before.size(); ++i) before[i] = static_cast<uint8_t>(0x11 + i % 200);
    auto st = testutil::run_cube([&] {
        Nz m(vr, vc);
        TASSIGN(m, 0x100);
        uint8_t* l1 = ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + 0x100;
        std::memcpy(l1, before.data(), before.size());
        TFILLPAD(m, m);
        std::memcpy(after.data(), l1, after.size());
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const int aligned = (vc + c0 - 1) / c0 * c0;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            // Nz: 16-row x c0-column fractals, column blocks outermost.
            const size_t off = ((static_cast<size_t>(c / c0) * R + r) * c0 + c % c0) * sizeof(T);
            const bool zero = c >= aligned || r >= vr;
            for (size_t b = 0; b < sizeof(T); ++b)
                ASSERT_EQ(after[off + b], zero ? 0 : before[off + b]) << "(" << r << "," << c << ")";
        }
}

TEST(TFILLPAD_Mat, ZeroesOutsideTheValidRegionOfAnNzTile) {
    check_fillpad_mat<half>(20, 10);
    check_fillpad_mat<float>(32, 64);
    check_fillpad_mat<int8_t>(1, 33);
    check_fillpad_mat<float>(7, 8);
}

TYPED_SUITE(TFILLPAD_Types, CopyTypes);
TYPED_TEST(TFILLPAD_Types, EveryPadValue) {
    for (auto [vr, vc] : kShapes) {
        check_fillpad<TypeParam, PadValue::Zero>(PadForm::Normal, vr, vc);
        check_fillpad<TypeParam, PadValue::Min>(PadForm::Normal, vr, vc);
        check_fillpad<TypeParam, PadValue::Max>(PadForm::Normal, vr, vc);
    }
}

TYPED_SUITE(TFILLPAD_INPLACE_Types, CopyTypes);
TYPED_TEST(TFILLPAD_INPLACE_Types, PadsAroundTheValidRegion) {
    for (auto [vr, vc] : kShapes) {
        check_fillpad<TypeParam, PadValue::Min>(PadForm::InPlace, vr, vc);
        check_fillpad<TypeParam, PadValue::Max>(PadForm::InPlace, vr, vc);
    }
}

TEST(TFILLPAD_EXPAND_Semantics, LargerDestination) {
    using Src = Tile<TileType::Vec, int16_t, 8, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using SrcFull = Tile<TileType::Vec, int16_t, 8, 32>;
    using Dst = Tile<TileType::Vec, int16_t, kR, kC, BLayout::RowMajor, kR, kC, SLayout::NoneBox, TileConfig::fractalABSize,
                     PadValue::Max>;
    auto src = values<int16_t>(8 * 32, 12), out = values<int16_t>(kR * kC, 13);
    auto st = run_vec([&] {
        SrcFull fs;
        Src s(5, 17);
        Dst d;
        Full<int16_t> fd;
        TASSIGN(fs, 0);
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(fd, 0x4000);
        load(fs, src, 8, 32);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TFILLPAD_EXPAND(d, s);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, fd, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c)
            ASSERT_EQ(out[r * kC + c], r < 5 && c < 17 ? src[r * 32 + c] : int16_t{32767}) << r << "," << c;
}

// ------------------------------------------------------------ TRESHAPE

TYPED_SUITE(TRESHAPE_Types, CopyTypes);
TYPED_TEST(TRESHAPE_Types, AliasesTheSameBytes) {
    using T = TypeParam;
    using Wide = Tile<TileType::Vec, T, kR / 2, kC * 2>;
    auto src = values<T>(kR * kC, 14), out = values<T>(kR * kC, 15);
    uint64_t addr = 1;
    auto st = run_vec([&] {
        Full<T> s;
        Wide w;
        TASSIGN(s, 0x2000);
        load(s, src, kR, kC);
        TRESHAPE(w, s);
        addr = w.address();
        ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
        store(out, w, kR / 2, kC * 2);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(addr, 0x2000u);
    for (int i = 0; i < kR * kC; ++i) ASSERT_TRUE(same(out[i], src[i])) << i;
}

// ------------------------------------------------------------ TTRANS

TYPED_SUITE(TTRANS_Types, CopyTypes);
TYPED_TEST(TTRANS_Types, ValidRegions) {
    using T = TypeParam;
    using Dst = Tile<TileType::Vec, T, kC, 32>;
    for (auto [vr, vc] : kShapes) {
        SCOPED_TRACE(shape(vr, vc));
        auto src = values<T>(kR * kC, 16), sentinel = values<T>(kC * 32, 17), out = sentinel;
        for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 3);
        auto st = run_vec([&] {
            Full<T> fs, tmp;
            Dyn<T> s(vr, vc);
            Dst d;
            TASSIGN(fs, 0);
            TASSIGN(s, 0);
            TASSIGN(d, 0x4000);
            TASSIGN(tmp, 0xC000);
            load(fs, src, kR, kC);
            load(d, sentinel, kC, 32);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TTRANS(d, s, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, d, kC, 32);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        expect_region(out, sentinel, 32, [&](int i, int j, T& w) {
            if (i < vc && j < vr) w = src[j * kC + i];
        });
    }
}

// ------------------------------------------------------------ TCI

TYPED_SUITE(TCI_Types, CiTypes);
TYPED_TEST(TCI_Types, AscendingDescendingWrapping) {
    using T = TypeParam;
    using Row = Tile<TileType::Vec, T, 4, kC, BLayout::RowMajor, 4, DYNAMIC>;
    using RowFull = Tile<TileType::Vec, T, 4, kC>;
    constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    for (int vc : {1, 13, kC})
        for (T start : {T(0), T(100), static_cast<T>(hi - 5), static_cast<T>(lo + 3)})
            for (bool desc : {false, true}) {
                SCOPED_TRACE("vc " + std::to_string(vc) + " start " + std::to_string(+start) + (desc ? " desc" : " asc"));
                auto sentinel = values<T>(4 * kC, 18), out = sentinel;
                auto st = run_vec([&] {
                    Row d(vc);
                    RowFull f;
                    TASSIGN(d, 0);
                    TASSIGN(f, 0);
                    load(f, sentinel, 4, kC);
                    ISA_SYNC(PIPE_MTE2, PIPE_V);
                    if (desc) TCI<Row, T, 1>(d, start);
                    else TCI<Row, T, 0>(d, start);
                    ISA_SYNC(PIPE_V, PIPE_MTE3);
                    store(out, f, 4, kC);
                });
                ASSERT_TRUE(st.ok()) << st.message;
                expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
                    const uint64_t s = static_cast<uint64_t>(static_cast<int64_t>(start));
                    if (r == 0 && c < vc) w = static_cast<T>(desc ? s - static_cast<uint64_t>(c) : s + static_cast<uint64_t>(c));
                });
            }
}

// ------------------------------------------------------------ TTRI

TYPED_SUITE(TTRI_Types, TriTypes);
TYPED_TEST(TTRI_Types, LowerAndUpperEveryDiagonal) {
    using T = TypeParam;
    for (auto [vr, vc] : kShapes)
        for (int diag : {-3, 0, 2, 70, -20})
            for (int upper : {0, 1}) {
                SCOPED_TRACE(shape(vr, vc) + " diagonal " + std::to_string(diag) + (upper ? " upper" : " lower"));
                auto sentinel = values<T>(kR * kC, 19), out = sentinel;
                auto st = run_vec([&] {
                    Dyn<T> d(vr, vc);
                    Full<T> f;
                    TASSIGN(d, 0);
                    TASSIGN(f, 0);
                    load(f, sentinel, kR, kC);
                    ISA_SYNC(PIPE_MTE2, PIPE_V);
                    if (upper) TTRI<Dyn<T>, 1>(d, diag);
                    else TTRI<Dyn<T>, 0>(d, diag);
                    ISA_SYNC(PIPE_V, PIPE_MTE3);
                    store(out, f, kR, kC);
                });
                ASSERT_TRUE(st.ok()) << st.message;
                expect_region(out, sentinel, kC, [&](int i, int j, T& w) {
                    if (i < vr && j < vc) w = from_float<T>((upper ? j >= i + diag : j <= i + diag) ? 1.0f : 0.0f);
                });
            }
}

// ------------------------------------------------------------ faults

TEST(TCMP_Faults, MaskTooNarrowForTheValidColumns) {
    auto msg = fault_of([] {
        Tile<TileType::Vec, float, 1, 512> a, b;
        Tile<TileType::Vec, MaskE, 1, kMaskCols> m;
        TASSIGN(a, 0);
        TASSIGN(b, 0x4000);
        TASSIGN(m, 0x8000);
        TCMP(m, a, b, CmpMode::EQ);
    });
    const char* want = PTOSIM_TARGET_A5 ? "TCMP: a 1x512 predicate region packs into 64 mask bytes; the mask tile holds 32"
                                        : "TCMP: a 1x512 predicate region needs 1 mask rows of 64 bytes";
    EXPECT_NE(msg.find(want), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_layout.cpp"), std::string::npos) << msg;
}

TEST(TFILLPAD_INPLACE_Faults, OperandsMustShareStorage) {
    auto msg = fault_of([] {
        using P = Tile<TileType::Vec, float, kR, kC, BLayout::RowMajor, kR, kC, SLayout::NoneBox, TileConfig::fractalABSize,
                       PadValue::Zero>;
        Full<float> s;
        P d;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TFILLPAD_INPLACE(d, s);
    });
    EXPECT_NE(msg.find("TFILLPAD_INPLACE: dst and src must be the same storage"), std::string::npos) << msg;
}

TEST(TTRANS_Faults, TransposeMustFitTheDestination) {
    auto msg = fault_of([] {
        Full<float> s, tmp;
        Tile<TileType::Vec, float, 32, 16> d;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(tmp, 0x8000);
        TTRANS(d, s, tmp);
    });
    EXPECT_NE(msg.find("TTRANS: the transpose of a 16x64 source does not fit the 32x16 destination"), std::string::npos)
        << msg;
}

TEST(TRESHAPE_Faults, SourceNeedsAnAddress) {
    auto msg = fault_of([] {
        Full<float> s;
        Tile<TileType::Vec, float, 32, 32> d;
        TRESHAPE(d, s);
    });
    EXPECT_NE(msg.find("TRESHAPE: the source tile has no address"), std::string::npos) << msg;
}

// ------------------------------------------------------------ dispatch record

TEST(TCMP_Record, PipeOperandsAndScratch) {
    std::vector<ptosim::OpRecord> recs;
    std::mutex mu;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        std::lock_guard<std::mutex> lock(mu);
        if (std::string(r.op) != "TLOAD" && std::string(r.op) != "TSTORE") recs.push_back(r);
    });
    auto st = run_vec([] {
        Dyn<float> a(5, 33), b(5, 33), d(5, 33), tmp(16, 64);
        MaskDyn m(5, 1);
        TASSIGN(a, 0);
        TASSIGN(b, 0x4000);
        TASSIGN(m, 0x8000);
        TASSIGN(d, 0xC000);
        TASSIGN(tmp, 0x10000);
        TCMP(m, a, b, CmpMode::GT);
        TSEL(d, m, a, b, tmp);
        Tile<TileType::Vec, float, 32, 32> r;
        TRESHAPE(r, a);
        TTRI<Dyn<float>, 0>(d, 0);
    });
    ptosim::unsubscribe(id);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(recs.size(), 3u);  // TRESHAPE is an alias: no record
    EXPECT_STREQ(recs[0].op, "TCMP");
    EXPECT_EQ(recs[0].pipe, ptosim::Pipe::V);
    EXPECT_STREQ(recs[0].dtype, PTOSIM_TARGET_A5 ? "uint32_t" : "uint8_t");
    EXPECT_EQ(recs[0].elements, 5u * 33u);
    EXPECT_EQ(recs[0].n_reads, 2);
    EXPECT_EQ(recs[0].n_writes, 1);
    EXPECT_STREQ(recs[1].op, "TSEL");
    EXPECT_EQ(recs[1].n_reads, 3);
    // The A2A3 implementation builds the compare mask in tmp; A5 ignores it.
    EXPECT_EQ(recs[1].n_writes, PTOSIM_TARGET_A5 ? 1 : 2);
    EXPECT_STREQ(recs[2].op, "TTRI");
    EXPECT_EQ(recs[2].pipe, ptosim::Pipe::V);
}

}  // namespace
