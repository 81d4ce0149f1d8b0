// Fixpipe quantisation: SET_QUANT_SCALAR / SET_QUANT_VECTOR, TSTORE_FP,
// TMOV_FP, TEXTRACT_FP, TINSERT_FP and the scalar-parameter forms of
// TSTORE / TMOV / TEXTRACT / TINSERT, against a scalar model of the
// parameter word written here from docs/isa/fixpipe.md.
#include <pto/common/cce_fixpipe.hpp>  // pto/inst/fixpipe.hpp and the raw fixpipe intrinsics
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;
using testutil::run_mix;

namespace {

constexpr int kR = 32, kC = 32;

template <class S>
using Acc = TileAcc<S, kR, kC, DYNAMIC, DYNAMIC>;
using FpTile = Tile<TileType::Scaling, uint64_t, 1, kC>;
using FpMat = Tile<TileType::Mat, uint64_t, 1, kC, BLayout::RowMajor, 1, kC>;
template <class D>
using MatNz = Tile<TileType::Mat, D, kR, kC, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                   TileConfig::fractalABSize>;

// ------------------------------------------------------------ the model

// The parameter word: scale in bits [31:0] (only [31:13] count), 9-bit
// offset at 37, signed-8-bit flag at 46.
uint64_t qparam(float scale, unsigned offset = 0, bool sign8 = true) {
    uint32_t b;
    std::memcpy(&b, &scale, 4);
    return b | (static_cast<uint64_t>(offset & 0x1ff) << 37) | (static_cast<uint64_t>(sign8) << 46);
}

float truncated_scale(uint64_t p) {
    uint32_t b = static_cast<uint32_t>(p >> 13) << 13;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

template <class D, class S>
D model(S x, uint64_t p, bool relu) {
    D out{};
    if constexpr (std::is_same_v<D, int16_t>) {
        int64_t v = static_cast<int64_t>(x);
        const unsigned sh = static_cast<unsigned>((p >> 32) & 0xf) + 1;
        v >>= sh;
        if (v > 32767) v = 32767;
        if (v < -32768) v = -32768;
        if (relu && v < 0) v = 0;
        out = static_cast<int16_t>(v);
    } else {
        const float v = static_cast<float>(x) * truncated_scale(p);
        if constexpr (sizeof(D) == 1) {
            const bool sign8 = (p >> 46) & 1;
            const double lo = sign8 ? -128 : 0, hi = sign8 ? 127 : 255;
            double r = 0;
            if (!std::isnan(v)) {
                // Halves round to even, through the int16 step [-256, 255].
                double t = static_cast<double>(v);
                const double fl = std::floor(t), frac = t - fl;
                t = frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0.0) ? fl + 1 : fl;
                t = t < -256 ? -256 : (t > 255 ? 255 : t);
                r = t + static_cast<double>((p >> 37) & 0x1ff);
                r = r < lo ? lo : (r > hi ? hi : r);
            }
            if (relu && r < 0) r = 0;
            const uint8_t byte = static_cast<uint8_t>(static_cast<int>(r));
            std::memcpy(&out, &byte, 1);
        } else {
            float r = v;
            if (std::is_same_v<D, half> && !std::isnan(r)) r = r > 65504.0f ? 65504.0f : (r < -65504.0f ? -65504.0f : r);
            if (relu && r < 0) r = 0;
            if constexpr (std::is_same_v<D, half>) out = half_from_bits(f16_bits(static_cast<_Float16>(r)));
            else if constexpr (std::is_same_v<D, bfloat16_t>) out = bf16_from_bits(bf16_rne(r));
            else out = r;
        }
    }
    return out;
}

template <class T>
uint64_t raw(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T>
std::string show_raw(T v) {
    return std::to_string(to_double(v)) + " (bits 0x" + [&] {
        char b[32];
        std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(raw(v)));
        return std::string(b);
    }() + ")";
}

// Accumulator contents: specials first, then pseudo-random values, with
// ties (x.5 after scaling by 0.5) among the integers.
template <class S>
std::vector<S> acc_values(int m, int n, uint64_t salt) {
    std::vector<S> v(static_cast<size_t>(m) * n);
    testutil::Rng rng = testutil::Rng::salted(salt);
    for (auto& x : v) {
        if constexpr (std::is_same_v<S, float>) x = static_cast<float>(rng.uniform(-400.0, 400.0));
        else x = static_cast<int32_t>(rng.next() % 1601) - 800;
    }
    std::vector<S> specials;
    if constexpr (std::is_same_v<S, float>)
        specials = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity(), 1e-40f, -0.0f, 5.0f, -5.0f, 7.0f, -7.0f, 3e38f,
                    -3e38f, 254.0f, 3072.0f, 131070.0f};
    else
        specials = {INT32_MAX, INT32_MIN, 5, -5, 7, -7, 0, 1, -1, 3072, 131070, 65536 * 3 + 7};
    for (size_t i = 0; i < specials.size() && i < v.size(); ++i) v[i] = specials[i];
    return v;
}

// Nz element offsets, written from the fractal definitions: an Acc tile is
// 16 x 16 fractals stacked down column blocks of 16; a Mat tile of 512-byte
// fractals has 16 rows of 32 bytes per fractal.
size_t acc_offset(int r, int c) { return static_cast<size_t>(c / 16) * kR * 16 + r * 16 + c % 16; }
template <class D>
size_t mat_offset(int r, int c) {
    constexpr int c0 = 32 / sizeof(D);
    return static_cast<size_t>(c / c0) * kR * c0 + r * c0 + c % c0;
}

// Writes acc (row-major m x n) into the calling Cube core's L0C at 0.
template <class S>
void poke_acc(const std::vector<S>& acc, int m, int n) {
    uint8_t* l0c = ptosim::core().mem[static_cast<int>(ptosim::Space::L0C)];
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) std::memcpy(l0c + acc_offset(r, c) * sizeof(S), &acc[r * n + c], sizeof(S));
    // The whole kR x kC accumulator, as a matmul leaves it (its other
    // elements hold zeros, the fresh buffer's).
    testutil::announce_seeded(ptosim::Pipe::FIX, ptosim::Space::L0C, 0, kR * kC * sizeof(S));
}

template <class D>
D peek_mat(int r, int c, uint64_t base) {
    D v;
    std::memcpy(&v, ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + base + mat_offset<D>(r, c) * sizeof(D),
                sizeof(D));
    return v;
}

// GM -> L1 -> FB, as kernels fill the Scaling tile.
constexpr uint64_t kFbAt = 0x100, kFpL1 = 0x10000;
void load_params(FpTile& fp, std::vector<uint64_t>& params) {
    params.resize(kC, 0);
    FpMat staged;
    TASSIGN(staged, kFpL1);
    TASSIGN(fp, kFbAt);
    auto g = gm_nd(params.data(), 1, kC, kC);
    TLOAD(staged, g);
    // The move into FB runs on PIPE_FIX (pto-isa's TMOV to a Scaling tile).
    ISA_SYNC(PIPE_MTE2, PIPE_FIX);
    TMOV(fp, staged);
}

struct Shape2 {
    int m, n;
};
const Shape2 kShapes[] = {{32, 32}, {1, 1}, {1, 32}, {32, 1}, {17, 23}};

// ------------------------------------------------------------ TSTORE forms

template <class S, class D, ReluPreMode relu, bool per_column>
void check_store(const std::vector<uint64_t>& params) {
    for (Shape2 sh : kShapes) {
        const int m = sh.m, n = sh.n;
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + (per_column ? " TSTORE_FP" : " TSTORE scalar"));
        const auto acc = acc_values<S>(m, n, m * 31 + n);
        std::vector<D> out(static_cast<size_t>(m) * n + 1);
        const D sentinel = model<D, S>(S(3), qparam(1.0f), false);
        for (auto& x : out) x = sentinel;
        std::vector<uint64_t> p = params;
        auto st = run_cube([&] {
            Acc<S> a(m, n);
            TASSIGN(a, 0);
            poke_acc(acc, m, n);
            auto g = gm_nd(out.data(), m, n, n);
            if constexpr (per_column) {
                FpTile fp;
                load_params(fp, p);
                TSTORE_FP<Acc<S>, decltype(g), FpTile, AtomicType::AtomicNone, relu>(g, a, fp);
            } else {
                TSTORE<Acc<S>, decltype(g), AtomicType::AtomicNone, relu>(g, a, p[0]);
            }
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < n; ++c) {
                const D want = model<D, S>(acc[r * n + c], per_column ? params[c] : params[0], relu == ReluPreMode::NormalRelu);
                ASSERT_EQ(raw(out[r * n + c]), raw(want))
                    << "(" << r << "," << c << ") from " << to_double(acc[r * n + c]) << " got " << show_raw(out[r * n + c])
                    << " want " << show_raw(want);
            }
        ASSERT_EQ(raw(out.back()), raw(sentinel)) << "wrote past the valid region";
    }
}

// Per-column parameters: scales with dropped low bits, negative and tiny
// scales, offsets; the scalar forms use the first.
template <class D>
std::vector<uint64_t> params_for() {
    const bool sign8 = !std::is_same_v<D, uint8_t>;
    std::vector<uint64_t> p;
    const float scales[] = {0.5f, 1.0f, 1.0f + 0x1p-11f, 0.0078125f, -0.25f, 3.0f, 1e-3f, 1.0f + 0x1p-12f + 0x1p-10f};
    for (int c = 0; c < kC; ++c) {
        const unsigned offset = sizeof(D) == 1 && c % 3 == 1 ? 7u * (c % 5) : 0u;
        p.push_back(std::is_same_v<D, int16_t> ? static_cast<uint64_t>(c % 9) << 32 : qparam(scales[c % 8], offset, sign8));
    }
    return p;
}

template <class S, class D, bool per_column>
void check_store_pair() {
    const auto p = params_for<D>();
    check_store<S, D, ReluPreMode::NoRelu, per_column>(p);
    check_store<S, D, ReluPreMode::NormalRelu, per_column>(p);
    // A scalar parameter that is not the first column's.
    if constexpr (!per_column) check_store<S, D, ReluPreMode::NoRelu, false>({p[2]});
}

TEST(FixpipeStore, ScalarFloatToInt8) { check_store_pair<float, int8_t, false>(); }
TEST(FixpipeStore, ScalarFloatToUint8) { check_store_pair<float, uint8_t, false>(); }
TEST(FixpipeStore, ScalarFloatToHalf) { check_store_pair<float, half, false>(); }
TEST(FixpipeStore, ScalarFloatToBf16) { check_store_pair<float, bfloat16_t, false>(); }
TEST(FixpipeStore, ScalarInt32ToInt8) { check_store_pair<int32_t, int8_t, false>(); }
TEST(FixpipeStore, ScalarInt32ToUint8) { check_store_pair<int32_t, uint8_t, false>(); }
TEST(FixpipeStore, ScalarInt32ToHalf) { check_store_pair<int32_t, half, false>(); }
TEST(FixpipeStore, PerColumnFloatToInt8) { check_store_pair<float, int8_t, true>(); }
TEST(FixpipeStore, PerColumnFloatToUint8) { check_store_pair<float, uint8_t, true>(); }
TEST(FixpipeStore, PerColumnInt32ToInt8) { check_store_pair<int32_t, int8_t, true>(); }
TEST(FixpipeStore, PerColumnInt32ToUint8) { check_store_pair<int32_t, uint8_t, true>(); }
TEST(FixpipeStore, PerColumnInt32ToHalf) { check_store_pair<int32_t, half, true>(); }
#if PTOSIM_TARGET_A5
TEST(FixpipeStore, ScalarFloatToFloat) { check_store_pair<float, float, false>(); }
TEST(FixpipeStore, ScalarInt32ToBf16) { check_store_pair<int32_t, bfloat16_t, false>(); }
TEST(FixpipeStore, PerColumnFloatToHalf) { check_store_pair<float, half, true>(); }
TEST(FixpipeStore, PerColumnFloatToBf16) { check_store_pair<float, bfloat16_t, true>(); }
TEST(FixpipeStore, PerColumnFloatToFloat) { check_store_pair<float, float, true>(); }
TEST(FixpipeStore, PerColumnInt32ToBf16) { check_store_pair<int32_t, bfloat16_t, true>(); }
#else
TEST(FixpipeStore, ScalarInt32ToInt16Shift) { check_store_pair<int32_t, int16_t, false>(); }
TEST(FixpipeStore, PerColumnInt32ToInt16Shift) { check_store_pair<int32_t, int16_t, true>(); }
#endif

// Hand-computed values pin the model itself: ties round away from zero,
// the offset lands after rounding, 13 low scale bits are dropped.
TEST(FixpipeStore, HandComputedInt8AndHalf) {
    std::vector<float> acc = {5.0f, -5.0f, 7.0f, 255.0f, -1000.0f, std::numeric_limits<float>::quiet_NaN()};
    std::vector<int8_t> q(6);
    std::vector<half> h(2);
    auto st = run_cube([&] {
        Acc<float> a(1, 6);
        TASSIGN(a, 0);
        poke_acc(acc, 1, 6);
        auto g = gm_nd(q.data(), 1, 6, 6);
        TSTORE(g, a, qparam(0.5f, 2));
        Acc<float> b(1, 2);
        TASSIGN(b, 0);
        std::vector<float> two = {3072.0f, 1e9f};
        poke_acc(two, 1, 2);
        auto gh = gm_nd(h.data(), 1, 2, 2);
        TSTORE(gh, b, qparam(1.0f + 0x1p-11f));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    // Halves to even, then the offset: 2.5 -> 2, -2.5 -> -2, 3.5 -> 4; 127.5 -> 128 + 2 saturates; -500
    // clamps to -256 (the int16 step) + 2 and saturates; NaN -> 0.
    const int want[] = {4, 0, 6, 127, -128, 0};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(q[i], want[i]) << i;
    EXPECT_EQ(to_double(h[0]), 3072.0);   // 3073.5 with the full scale would round to 3074
    EXPECT_EQ(to_double(h[1]), 65504.0);  // saturates
}

// AtomicAdd adds the converted value to what GM holds.
TEST(FixpipeStore, AtomicAddHalf) {
    std::vector<int32_t> acc = {10, -20, 30};
    std::vector<half> out = {from_float<half>(1.5f), from_float<half>(2.0f), from_float<half>(-4.0f)};
    auto st = run_cube([&] {
        Acc<int32_t> a(1, 3);
        TASSIGN(a, 0);
        poke_acc(acc, 1, 3);
        auto g = gm_nd(out.data(), 1, 3, 3);
        TSTORE<Acc<int32_t>, decltype(g), AtomicType::AtomicAdd>(g, a, qparam(0.25f));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(to_double(out[0]), 4.0);
    EXPECT_EQ(to_double(out[1]), -3.0);
    EXPECT_EQ(to_double(out[2]), 3.5);
}

// int8 has an atomic-add mode too (pto-isa's SetAtomicAdd: set_atomic_s8,
// exercised by its tstore_acc2gm system test).
TEST(FixpipeStore, AtomicAddInt8) {
    std::vector<int32_t> acc = {10, -20, 30};
    std::vector<int8_t> out = {1, 2, -100};
    auto st = run_cube([&] {
        Acc<int32_t> a(1, 3);
        TASSIGN(a, 0);
        poke_acc(acc, 1, 3);
        auto g = gm_nd(out.data(), 1, 3, 3);
        TSTORE<Acc<int32_t>, decltype(g), AtomicType::AtomicAdd>(g, a, qparam(1.0f));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(out, (std::vector<int8_t>{11, -18, -70}));
}

// --------------------------------------------- TMOV / TEXTRACT / TINSERT

enum class Form { Scalar, PerColumn };

// Runs `move` in a Cube kernel with acc (m x n) in L0C and the parameters
// in FB; returns the destination Mat tile (kR x kC at L1 0) as row-major.
template <class S, class D, class Move>
std::vector<D> run_into_mat(const std::vector<S>& acc, int m, int n, std::vector<uint64_t> params, D fill, Move move) {
    std::vector<D> mat(kR * kC);
    auto st = run_cube([&] {
        Acc<S> a(m, n);
        TASSIGN(a, 0);
        poke_acc(acc, m, n);
        FpTile fp;
        load_params(fp, params);
        uint8_t* l1 = ptosim::core().mem[static_cast<int>(ptosim::Space::L1)];
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) std::memcpy(l1 + mat_offset<D>(r, c) * sizeof(D), &fill, sizeof(D));
        move(a, fp, params[0]);
        for (int r = 0; r < kR; ++r)
            for (int c = 0; c < kC; ++c) mat[r * kC + c] = peek_mat<D>(r, c, 0);
    });
    EXPECT_TRUE(st.ok()) << st.message;
    return mat;
}

// dst(dr + i, dc + j) = model(acc(sr + i, sc + j), param of column sc + j)
// inside the rows x cols window, fill elsewhere.
template <class S, class D>
void expect_window(const std::vector<D>& mat, const std::vector<S>& acc, int n, const std::vector<uint64_t>& params,
                   Form form, bool relu, D fill, int rows, int cols, int dr, int dc, int sr, int sc) {
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const bool in = r >= dr && r < dr + rows && c >= dc && c < dc + cols;
            D want = fill;
            if (in) {
                const int ar = sr + r - dr, ac = sc + c - dc;
                want = model<D, S>(acc[ar * n + ac], form == Form::PerColumn ? params[ac] : params[0], relu);
            }
            ASSERT_EQ(raw(mat[r * kC + c]), raw(want)) << "(" << r << "," << c << ") got " << show_raw(mat[r * kC + c])
                                                       << " want " << show_raw(want);
        }
}

// TMOV(_FP) into an Nz L1 tile moves whole fractals (pto-isa's TMovCcToCb):
// every accumulator row and the valid columns rounded up to 32 bytes of the
// destination type, whatever the accumulator holds beyond its valid region.
template <class S, class D, ReluPreMode relu>
void check_tmov(Form form) {
    using Dst = MatNz<D>;
    const D fill = model<D, S>(S(9), qparam(1.0f), false);
    constexpr int block = 32 / sizeof(D);
    for (Shape2 sh : kShapes) {
        const int m = sh.m, n = sh.n;
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
        const auto acc = acc_values<S>(kR, kC, m + 7 * n);  // the whole accumulator storage
        const auto params = params_for<D>();
        auto mat = run_into_mat<S, D>(acc, kR, kC, params, fill, [&](Acc<S>&, FpTile& fp, uint64_t scalar) {
            Acc<S> a(m, n);
            TASSIGN(a, 0);
            Dst d(m, n);
            TASSIGN(d, 0);
            if (form == Form::PerColumn) TMOV_FP<Dst, Acc<S>, FpTile, relu>(d, a, fp);
            else TMOV<Dst, Acc<S>, relu>(d, a, scalar);
        });
        const int cols = std::min((n + block - 1) / block * block, kC);
        expect_window<S, D>(mat, acc, kC, params, form, relu == ReluPreMode::NormalRelu, fill, kR, cols, 0, 0, 0, 0);
    }
}

template <class S, class D>
void check_tmov_pair() {
    for (Form f : {Form::Scalar, Form::PerColumn}) {
        SCOPED_TRACE(f == Form::Scalar ? "scalar" : "per column");
        check_tmov<S, D, ReluPreMode::NoRelu>(f);
        check_tmov<S, D, ReluPreMode::NormalRelu>(f);
    }
}

TEST(FixpipeMove, FloatToInt8) { check_tmov_pair<float, int8_t>(); }
TEST(FixpipeMove, Int32ToInt8) { check_tmov_pair<int32_t, int8_t>(); }
TEST(FixpipeMove, Int32ToUint8) { check_tmov_pair<int32_t, uint8_t>(); }
TEST(FixpipeMove, Int32ToHalf) { check_tmov_pair<int32_t, half>(); }
#if PTOSIM_TARGET_A5
TEST(FixpipeMove, FloatToUint8) { check_tmov_pair<float, uint8_t>(); }
TEST(FixpipeMove, FloatToHalf) { check_tmov_pair<float, half>(); }
TEST(FixpipeMove, FloatToBf16) { check_tmov_pair<float, bfloat16_t>(); }
TEST(FixpipeMove, FloatToFloat) { check_tmov_pair<float, float>(); }
TEST(FixpipeMove, Int32ToBf16) { check_tmov_pair<int32_t, bfloat16_t>(); }
#else
TEST(FixpipeMove, Int32ToInt16Shift) { check_tmov_pair<int32_t, int16_t>(); }
#endif

// TEXTRACT(_FP) takes the destination's valid region from (r0, c0); the
// parameters follow the accumulator column (the FPC address moves by c0).
template <class S, class D>
void check_textract(Form form, int r0, int c0, int rows, int cols) {
    using Dst = MatNz<D>;
    const D fill = model<D, S>(S(9), qparam(1.0f), false);
    const auto acc = acc_values<S>(kR, kC, 99);
    const auto params = params_for<D>();
    auto mat = run_into_mat<S, D>(acc, kR, kC, params, fill, [&](Acc<S>& a, FpTile& fp, uint64_t scalar) {
        Dst d(rows, cols);
        TASSIGN(d, 0);
        if (form == Form::PerColumn) TEXTRACT_FP(d, a, fp, r0, c0);
        else TEXTRACT(d, a, scalar, r0, c0);
    });
    expect_window<S, D>(mat, acc, kC, params, form, false, fill, rows, cols, 0, 0, r0, c0);
}

TEST(FixpipeExtract, FloatToInt8PerColumnFromColumn16) { check_textract<float, int8_t>(Form::PerColumn, 5, 16, 9, 16); }
TEST(FixpipeExtract, Int32ToHalfPerColumn) { check_textract<int32_t, half>(Form::PerColumn, 16, 0, 16, 32); }
TEST(FixpipeExtract, Int32ToInt8ScalarOddWindow) { check_textract<int32_t, int8_t>(Form::Scalar, 3, 7, 1, 13); }
TEST(FixpipeExtract, FloatToInt8ScalarOneElement) { check_textract<float, int8_t>(Form::Scalar, 31, 31, 1, 1); }

// The plain TEXTRACT from an accumulator into L1 (pto-isa's
// TExtractAccToMat): the destination's valid region from (r0, c0), converted
// as TMOV converts (float -> half clamps to ±65504, then rounds to nearest even).
TEST(FixpipeExtract, PlainAccToMatWindowWithCast) {
    const auto acc = acc_values<float>(kR, kC, 41);
    const half fill = from_float<half>(-7.0f);
    auto mat = run_into_mat<float, half>(acc, kR, kC, {qparam(1.0f)}, fill, [&](Acc<float>& a, FpTile&, uint64_t) {
        MatNz<half> d(9, 16);
        TASSIGN(d, 0);
        TEXTRACT(d, a, 5, 16);
    });
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const bool in = r < 9 && c < 16;
            const half want = in ? model<half, float>(acc[(5 + r) * kC + 16 + c], qparam(1.0f), false) : fill;
            ASSERT_EQ(raw(mat[r * kC + c]), raw(want)) << r << "," << c;
        }
}

// Plain TMOV into an Nz L1 tile: whole fractals, as the quantised forms.
TEST(FixpipeMove, PlainAccToNzMatTakesEveryRowAndWholeBlocks) {
    auto acc = acc_values<float>(kR, kC, 43);
    for (int i = 0; i < 16; ++i) acc[i] = 1.5f * i - 7.0f;  // finite: the conversion itself is tested elsewhere
    const half fill = from_float<half>(-7.0f);
    auto mat = run_into_mat<float, half>(acc, kR, kC, {qparam(1.0f)}, fill, [&](Acc<float>&, FpTile&, uint64_t) {
        Acc<float> a(5, 13);
        TASSIGN(a, 0);
        MatNz<half> d(5, 13);
        TASSIGN(d, 0);
        TMOV(d, a);
    });
    for (int r = 0; r < kR; ++r)
        for (int c = 0; c < kC; ++c) {
            const half want = c < 16 ? model<half, float>(acc[r * kC + c], qparam(1.0f), false) : fill;
            ASSERT_EQ(raw(mat[r * kC + c]), raw(want)) << r << "," << c;
        }
}

// TINSERT(_FP) writes the accumulator's valid region at (r0, c0).
template <class S, class D>
void check_tinsert(Form form, int m, int n, int r0, int c0) {
    using Dst = MatNz<D>;
    const D fill = model<D, S>(S(9), qparam(1.0f), false);
    const auto acc = acc_values<S>(m, n, 5);
    const auto params = params_for<D>();
    auto mat = run_into_mat<S, D>(acc, m, n, params, fill, [&](Acc<S>& a, FpTile& fp, uint64_t scalar) {
        Dst d(kR, kC);
        TASSIGN(d, 0);
        if (form == Form::PerColumn) TINSERT_FP(d, a, fp, r0, c0);
        else TINSERT(d, a, scalar, r0, c0);
    });
    expect_window<S, D>(mat, acc, n, params, form, false, fill, m, n, r0, c0, 0, 0);
}

TEST(FixpipeInsert, FloatToInt8PerColumn) { check_tinsert<float, int8_t>(Form::PerColumn, 16, 16, 16, 16); }
TEST(FixpipeInsert, Int32ToUint8PerColumnOddShape) { check_tinsert<int32_t, uint8_t>(Form::PerColumn, 7, 9, 3, 20); }
TEST(FixpipeInsert, Int32ToHalfScalar) { check_tinsert<int32_t, half>(Form::Scalar, 17, 5, 15, 27); }
TEST(FixpipeInsert, FloatToInt8ScalarWhole) { check_tinsert<float, int8_t>(Form::Scalar, 32, 32, 0, 0); }

// ------------------------------------------------------------ registers

TEST(FixpipeRegisters, SetQuantScalarEncodesTheOutputSign) {
    uint64_t i8 = 0, u8 = 0, h = 0, neg_i8 = 0, neg_h = 0;
    auto st = run_cube([&] {
        SET_QUANT_SCALAR<int8_t>(0.5f);
        i8 = ptosim::core().quant_pre;
        SET_QUANT_SCALAR<uint8_t>(0.5f);
        u8 = ptosim::core().quant_pre;
        SET_QUANT_SCALAR<half>(0.5f);
        h = ptosim::core().quant_pre;
        SET_QUANT_SCALAR<int8_t>(-2.0f);
        neg_i8 = ptosim::core().quant_pre;
        SET_QUANT_SCALAR<half>(-2.0f);
        neg_h = ptosim::core().quant_pre;
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(i8, 0x3f000000ull | (1ull << 46));
    EXPECT_EQ(u8, 0x3f000000ull);
    EXPECT_EQ(h, 0x3f000000ull);
    // A negative scale's bits widen as a signed value.
    EXPECT_EQ(neg_h, 0xffffffffc0000000ull);
    EXPECT_EQ(neg_i8, 0xffffffffc0000000ull);
    // The register value is the parameter word the scalar forms take.
    EXPECT_EQ((model<int8_t, float>(100.0f, i8, false)), 50);
    EXPECT_EQ((raw(model<uint8_t, float>(300.0f, u8, false))), 150u);
}

TEST(FixpipeRegisters, InstructionsLoadQuantPreAndFpc) {
    uint64_t after_scalar = 0, after_vector = 0, after_fp = 0, after_extract = 0;
    auto st = run_cube([&] {
        std::vector<uint64_t> p(kC, qparam(1.0f));
        FpTile fp;
        load_params(fp, p);
        SET_QUANT_VECTOR(fp);
        after_vector = ptosim::core().fpc;
        Acc<float> a(16, 32);
        TASSIGN(a, 0);
        poke_acc(std::vector<float>(16 * 32, 1.0f), 16, 32);  // the moves' data does not matter here
        MatNz<int8_t> d(16, 32);
        TASSIGN(d, 0);
        TMOV(d, a, qparam(0.25f, 3));
        after_scalar = ptosim::core().quant_pre;
        TMOV_FP(d, a, fp);
        after_fp = ptosim::core().fpc;
        MatNz<int8_t> e(16, 16);
        TASSIGN(e, 0x800);
        TEXTRACT_FP(e, a, fp, 0, 16);
        after_extract = ptosim::core().fpc;
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(after_vector, (kFbAt >> 7) << 8);
    EXPECT_EQ(after_fp, (kFbAt >> 7) << 8);
    EXPECT_EQ(after_extract, ((kFbAt + 16 * 8) >> 7) << 8);
    EXPECT_EQ(after_scalar, qparam(0.25f, 3));
}

// ------------------------------------------------------------ faults

template <class Body>
std::string cube_fault(Body body) {
    ptosim::Status st = run_cube(body);
    return st.ok() ? "(the kernel did not fail)" : st.message;
}

TEST(FixpipeFaults, FpTileShorterThanTheColumns) {
    const std::string msg = cube_fault([] {
        Acc<float> a(16, 32);
        TASSIGN(a, 0);
        Tile<TileType::Scaling, uint64_t, 1, 16> fp;
        TASSIGN(fp, 0);
        MatNz<int8_t> d(16, 32);
        TASSIGN(d, 0);
        TMOV_FP(d, a, fp);
    });
    EXPECT_NE(msg.find("fp tile holds parameters for 16 columns"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_isa_fixpipe.cpp"), std::string::npos) << msg;
}

TEST(FixpipeFaults, FpcNeeds128ByteAlignment) {
    const std::string msg = cube_fault([] {
        Acc<float> a(16, 16);
        TASSIGN(a, 0);
        FpTile fp;
        TASSIGN(fp, 0);
        MatNz<int8_t> d(16, 16);
        TASSIGN(d, 0);
        TEXTRACT_FP(d, a, fp, 0, 4);
    });
    EXPECT_NE(msg.find("128-byte units"), std::string::npos) << msg;
}

TEST(FixpipeFaults, ExtractOutsideTheAccumulator) {
    const std::string msg = cube_fault([] {
        Acc<int32_t> a(32, 32);
        TASSIGN(a, 0);
        MatNz<int8_t> d(16, 32);
        TASSIGN(d, 0);
        TEXTRACT(d, a, qparam(1.0f), 20, 0);
    });
    EXPECT_NE(msg.find("runs outside the 32x32 accumulator"), std::string::npos) << msg;
}

TEST(FixpipeFaults, InsertOutsideTheDestination) {
    const std::string msg = cube_fault([] {
        Acc<int32_t> a(16, 16);
        TASSIGN(a, 0);
        FpTile fp;
        TASSIGN(fp, 0);
        MatNz<int8_t> d(32, 32);
        TASSIGN(d, 0);
        TINSERT_FP(d, a, fp, 0, 20);
    });
    EXPECT_NE(msg.find("runs outside the 32x32 destination tile"), std::string::npos) << msg;
}

// ------------------------------------------------------------ A5 Acc -> Vec

#if PTOSIM_TARGET_A5
template <AccToVecMode Mode, Form form = Form::PerColumn>
void check_acc_to_vec_quant(int m, int n) {
    constexpr bool split_m = Mode == AccToVecMode::DualModeSplitM, split_n = Mode == AccToVecMode::DualModeSplitN;
    const int rows = split_m ? m / 2 : m, cols = split_n ? n / 2 : n;
    const auto acc = acc_values<float>(m, n, 42);
    auto params = params_for<half>();
    std::vector<half> out[2] = {std::vector<half>(rows * cols, from_float<half>(-7.0f)),
                                std::vector<half>(rows * cols, from_float<half>(-7.0f))};
    constexpr uint64_t kUb = 0x10000;
    using V = Tile<TileType::Vec, half, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    auto st = run_mix(
        [&] {
            Acc<float> a(m, n);
            TASSIGN(a, 0);
            poke_acc(acc, m, n);
            FpTile fp;
            load_params(fp, params);
            V v(rows, cols);
            TASSIGN(v, kUb);
            if constexpr (form == Form::PerColumn) TMOV<V, Acc<float>, FpTile, Mode>(v, a, fp);
            else TMOV<V, Acc<float>, Mode>(v, a, params[0]);
            set_intra_block(PIPE_FIX, 0);
            set_intra_block(PIPE_FIX, 16);
        },
        [&] {
            wait_intra_block(PIPE_V, 0);
            const int sub = static_cast<int>(get_subblockid());
            if (Mode == AccToVecMode::SingleModeVec0 && sub != 0) return;
            V v(rows, cols);
            TASSIGN(v, kUb);
            auto g = gm_nd(out[sub].data(), rows, cols, cols);
            TSTORE(g, v);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int sub = 0; sub < 2; ++sub)
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const int ar = r + (split_m ? sub * rows : 0), ac = c + (split_n ? sub * cols : 0);
                const bool gets = Mode != AccToVecMode::SingleModeVec0 || sub == 0;
                const uint64_t p = form == Form::PerColumn ? params[ac] : params[0];
                const half want = gets ? model<half, float>(acc[ar * n + ac], p, false) : from_float<half>(-7.0f);
                ASSERT_EQ(raw(out[sub][r * cols + c]), raw(want)) << "sub " << sub << " (" << r << "," << c << ")";
            }
}

TEST(FixpipeAccToVec, PerColumnSingleModeVec0) { check_acc_to_vec_quant<AccToVecMode::SingleModeVec0>(17, 23); }
TEST(FixpipeAccToVec, PerColumnDualModeSplitN) { check_acc_to_vec_quant<AccToVecMode::DualModeSplitN>(16, 32); }
TEST(FixpipeAccToVec, PerColumnDualModeSplitM) { check_acc_to_vec_quant<AccToVecMode::DualModeSplitM>(32, 16); }
TEST(FixpipeAccToVec, ScalarDualModeSplitM) {
    check_acc_to_vec_quant<AccToVecMode::DualModeSplitM, Form::Scalar>(18, 23);
}
TEST(FixpipeAccToVec, ScalarSingleModeVec0) {
    check_acc_to_vec_quant<AccToVecMode::SingleModeVec0, Form::Scalar>(1, 1);
}

// Plain TMOV into an Nz Vec tile moves whole fractals (pto-isa's TMovCcToUb):
// every accumulator row, the valid columns rounded up to 16 when the dual
// mode splits rows and to 32 when it splits columns; so an odd valid count
// splits at the fractal boundary. Every accumulator element holds a value;
// the Vector cores read their UB in the Nz layout.
template <AccToVecMode Mode>
void check_acc_to_nz_vec_split(int m, int n) {
    constexpr bool split_m = Mode == AccToVecMode::DualModeSplitM;
    constexpr int VR = split_m ? kR / 2 : kR, VC = split_m ? kC : kC / 2;
    auto acc = acc_values<float>(kR, kC, 77);
    for (int i = 0; i < 16; ++i) acc[i] = 1.5f * i - 7.0f;  // finite: the conversion itself is tested elsewhere
    constexpr uint64_t kUb = 0x8000;
    using V = Tile<TileType::Vec, half, VR, VC, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor, 512>;
    std::vector<half> got[2] = {std::vector<half>(VR * VC), std::vector<half>(VR * VC)};
    auto st = run_mix(
        [&] {
            poke_acc(acc, kR, kC);
            Acc<float> a(m, n);
            TASSIGN(a, 0);
            V v(VR, VC);
            TASSIGN(v, kUb);
            TMOV<V, Acc<float>, Mode>(v, a);
            set_intra_block(PIPE_FIX, 0);
            set_intra_block(PIPE_FIX, 16);
        },
        [&] {
            wait_intra_block(PIPE_V, 0);
            const int sub = static_cast<int>(get_subblockid());
            const uint8_t* ub = ptosim::core().mem[static_cast<int>(ptosim::Space::UB)] + kUb;
            for (int r = 0; r < VR; ++r)
                for (int c = 0; c < VC; ++c)
                    std::memcpy(&got[sub][r * VC + c], ub + ((c / 16) * VR * 16 + r * 16 + c % 16) * sizeof(half),
                                sizeof(half));
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int sub = 0; sub < 2; ++sub)
        for (int r = 0; r < VR; ++r)
            for (int c = 0; c < VC; ++c) {
                const int ar = r + (split_m ? sub * VR : 0), ac = c + (split_m ? 0 : sub * VC);
                const half want = model<half, float>(acc[ar * kC + ac], qparam(1.0f), false);
                ASSERT_EQ(raw(got[sub][r * VC + c]), raw(want)) << "sub " << sub << " (" << r << "," << c << ")";
            }
}

TEST(AccToNzVec, SplitMOddRowCountTakesWholeFractals) { check_acc_to_nz_vec_split<AccToVecMode::DualModeSplitM>(13, 23); }
TEST(AccToNzVec, SplitNOddColumnCountTakesWholeBlocks) { check_acc_to_nz_vec_split<AccToVecMode::DualModeSplitN>(7, 25); }
#endif


// ------------------------------------------------------------ raw intrinsics

// copy_matrix_cc_to_gm(dst, src, sid, N, M, dstStride, srcStride, unitFlag,
// quantPre, reluPre, channelSplit, nz2ndEn) on a 17 x 23 accumulator whose
// fractal columns hold kR rows, into rows dstStride = 29 elements apart.
template <class S, class D>
void check_raw_copy(uint64_t mode, uint8_t relu, const std::vector<uint64_t>& params, bool per_column) {
#if PTOSIM_TARGET_A5
    (void)mode, (void)relu, (void)params, (void)per_column;
    GTEST_SKIP() << "the twelve-argument copy_matrix_cc_to_gm is A2A3's";
#else
    constexpr int m = 17, n = 23, stride = 29;
    const auto acc = acc_values<S>(m, n, 77);
    std::vector<D> out(static_cast<size_t>(m - 1) * stride + n);
    const D sentinel = model<D, S>(S(3), qparam(1.0f), false);
    for (auto& x : out) x = sentinel;
    std::vector<uint64_t> p = params;
    auto st = run_cube([&] {
        poke_acc(acc, m, n);
        if (per_column) {
            FpTile fp;
            load_params(fp, p);
            set_fpc((kFbAt >> 7) << 8);
        } else {
            set_quant_pre(p[0]);
        }
        set_nd_para(1);
        copy_matrix_cc_to_gm(out.data(), reinterpret_cast<__cc__ S*>(uintptr_t{0}), 0, n, m, stride, kR, 0, mode, relu,
                             false, true);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    const bool no_param = mode == NoQuant || mode == F322F16 || mode == F322BF16;
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < stride && r * stride + c < static_cast<int>(out.size()); ++c) {
            const D got = out[r * stride + c];
            if (c >= n) {
                ASSERT_EQ(raw(got), raw(sentinel)) << "wrote the gap at (" << r << "," << c << ")";
                continue;
            }
            const S x = acc[r * n + c];
            D want;
            if (no_param) {
                double v = to_double(x);
                if (relu && v < 0) v = 0;
                if constexpr (std::is_same_v<D, half>) want = half_from_bits(f16_bits(static_cast<_Float16>(v)));
                else if constexpr (std::is_same_v<D, bfloat16_t>) want = bf16_from_bits(bf16_rne(static_cast<float>(v)));
                else want = static_cast<D>(relu && x < 0 ? S(0) : x);
            } else {
                want = model<D, S>(x, per_column ? params[c] : params[0], relu != 0);
            }
            ASSERT_EQ(raw(got), raw(want)) << "(" << r << "," << c << ") from " << to_double(x) << " got "
                                           << show_raw(got) << " want " << show_raw(want);
        }
#endif
}

TEST(FixpipeRaw, NoQuantKeepsTheAccumulator) {
    check_raw_copy<float, float>(NoQuant, 0, {0}, false);
    check_raw_copy<int32_t, int32_t>(NoQuant, 1, {0}, false);
}
TEST(FixpipeRaw, CastsFloatToHalfAndBf16) {
    check_raw_copy<float, half>(F322F16, 0, {0}, false);
    check_raw_copy<float, bfloat16_t>(F322BF16, 1, {0}, false);
}
TEST(FixpipeRaw, ScalarQuantFromQuantPre) {
    check_raw_copy<int32_t, half>(DEQF16, 0, params_for<half>(), false);
    check_raw_copy<float, int8_t>(QF322B8_PRE, 1, params_for<int8_t>(), false);
    check_raw_copy<int32_t, uint8_t>(REQ8, 0, params_for<uint8_t>(), false);
}
TEST(FixpipeRaw, PerColumnQuantFromFpc) {
    check_raw_copy<float, int8_t>(VQF322B8_PRE, 0, params_for<int8_t>(), true);
    check_raw_copy<int32_t, half>(VDEQF16, 1, params_for<half>(), true);
}
// Each form ptosim does not simulate, and each impossible one, names itself
// (A2A3's fixpipe is the CCE layer's, src/sim/cce/fixpipe.cpp).
TEST(FixpipeRaw, UnsimulatedFormsFault) {
#if PTOSIM_TARGET_A5
    GTEST_SKIP() << "the twelve-argument copy_matrix_cc_to_gm is A2A3's";
#else
    struct Case {
        uint64_t quant;
        uint8_t relu;
        bool split, nz2nd;
        uint16_t m, stride;
        const char* want;
    };
    const Case cases[] = {
        {NoQuant, 0, true, true, 16, 16, "channel split writes float NZ results only"},
        {NoQuant, 2, false, true, 16, 16, "ReLU mode 2 is not simulated (0 none, 1 ReLU)"},
        {NoQuant, 0, false, true, 17, 16, "mSize 17 exceeds srcStride 16: the fractal columns of L0C would overlap"},
        {31, 0, false, true, 16, 16, "quantisation mode 31 is not simulated (docs/intrinsics/fixpipe.md)"},
    };
    for (const Case& k : cases) {
        std::vector<float> out(32 * 32);
        auto st = run_cube([&] {
            set_nd_para(1);
            copy_matrix_cc_to_gm(out.data(), reinterpret_cast<__cc__ float*>(uintptr_t{0}), 0, 32, k.m, 32, k.stride, 0,
                                 k.quant, k.relu, k.split, k.nz2nd);
        });
        ASSERT_FALSE(st.ok()) << k.want;
        EXPECT_NE(st.message.find(std::string("copy_matrix_cc_to_gm: ") + k.want), std::string::npos) << st.message;
    }
#endif
}

TEST(FixpipeRaw, AnAccumulatorThatIsNeitherFloatNorInt32Faults) {
#if PTOSIM_TARGET_A5
    GTEST_SKIP() << "the twelve-argument copy_matrix_cc_to_gm is A2A3's";
#else
    std::vector<half> out(16 * 16);
    auto st = run_cube([&] {
        set_nd_para(1);
        copy_matrix_cc_to_gm(out.data(), reinterpret_cast<__cc__ half*>(uintptr_t{0}), 0, 16, 16, 16, 16, 0, NoQuant, 0,
                             false, true);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("copy_matrix_cc_to_gm: L0C holds float or int32 accumulators"), std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("test_isa_fixpipe.cpp"), std::string::npos) << st.message;
#endif
}


// A5 quantises float accumulators straight into e4m3 and HiFloat8: the value
// times the scale, rounded to the format and saturated.
template <class D>
void check_fp8_store(const std::vector<float>& acc, float scale, const std::vector<float>& want) {
#if PTOSIM_TARGET_A5
    const int n = static_cast<int>(acc.size());
    std::vector<D> out(n);
    auto st = run_cube([&] {
        Acc<float> a(1, n);
        TASSIGN(a, 0);
        poke_acc(acc, 1, n);
        auto g = gm_nd(out.data(), 1, n, n);
        TSTORE<Acc<float>, decltype(g), AtomicType::AtomicNone, ReluPreMode::NoRelu>(g, a, qparam(scale));
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(out[i]), want[i]) << i << " from " << acc[i];
#else
    (void)acc, (void)scale, (void)want;
    GTEST_SKIP() << "fp8 fixpipe outputs are A5's";
#endif
}

TEST(FixpipeFp8, Float8E4m3RoundsToNearestEvenAndSaturates) {
    // 2.125 * 0.5 = 1.0625 lies halfway between 1.0 and 1.125: even mantissa 1.0.
    check_fp8_store<float8_e4m3_t>({2.0f, 3.0f, -7.0f, 2.125f, 2.375f, 1000.0f, -1000.0f},
                                   0.5f, {1.0f, 1.5f, -3.5f, 1.0f, 1.25f, 448.0f, -448.0f});
}
TEST(FixpipeFp8, HiFloat8SaturatesAtItsLargestValue) {
    check_fp8_store<hifloat8_t>({2.0f, -3.0f, 1.0e6f, -1.0e6f}, 0.5f, {1.0f, -1.5f, 32768.0f, -32768.0f});
}

}  // namespace
