// Cube data path: TMOV Mat->Left/Right/Bias, TEXTRACT, TMATMUL(_ACC/_BIAS),
// TSTORE from Acc with conversion, and on A5 the Cube<->Vector moves.
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/tmatmul.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;
using testutil::run_mix;
using testutil::run_vec;

namespace {

template <class P>
class Matmul : public ::testing::Test {};
using MatmulTypes = ::testing::Types<MM<half, float>, MM<bfloat16_t, float>, MM<float, float>, MM<int8_t, int32_t>>;
TYPED_TEST_SUITE(Matmul, MatmulTypes);

// c(i, j) = init(i, j) + sum_k a(i, k) * b(k, j), a row-major lda, b ldb.
template <class Acc, class T>
std::vector<double> ref_matmul(const std::vector<T>& a, int lda, const std::vector<T>& b, int ldb, int m, int k, int n,
                               int ar0 = 0, int ac0 = 0, int br0 = 0) {
    std::vector<double> c(static_cast<size_t>(m) * n, 0.0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int p = 0; p < k; ++p)
                s += to_double(a[(ar0 + i) * lda + ac0 + p]) * to_double(b[(br0 + p) * ldb + j]);
            c[i * n + j] = s;
        }
    return c;
}

constexpr int kT = 32;

template <class T, int R = kT, int C = kT>
using MatNz = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                   TileConfig::fractalABSize, PadValue::Zero>;

// The sequence most matmul tests run: row-major operands -> L1 Nz -> L0A/L0B
// -> TMATMUL into an Acc of type Acc -> TSTORE into c (row-major m x n, of
// type Out, converting as the fixpipe does).
// before_matmul(l) runs right before TMATMUL (to set the core's MAD mode).
template <class Acc, class In, class Out, class Hook = void (*)(TileLeft<In, kT, kT, DYNAMIC, DYNAMIC>&)>
ptosim::Status matmul_nd(const std::vector<In>& a, const std::vector<In>& b, std::vector<Out>& c, int m, int k,
                         int n, Hook before_matmul = [](TileLeft<In, kT, kT, DYNAMIC, DYNAMIC>&) {}) {
    return run_cube([&] {
        MatNz<In> ma(m, k), mb(k, n);
        TileLeft<In, kT, kT, DYNAMIC, DYNAMIC> l(m, k);
        TileRight<In, kT, kT, DYNAMIC, DYNAMIC> r(k, n);
        TileAcc<Acc, kT, kT, DYNAMIC, DYNAMIC> acc(m, n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x2000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(acc, 0);
        auto ga = gm_nd(const_cast<In*>(a.data()), m, k, k);
        auto gb = gm_nd(const_cast<In*>(b.data()), k, n, n);
        auto gc = gm_nd(c.data(), m, n, n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        before_matmul(l);
        TMATMUL(acc, l, r);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gc, acc);
    });
}

// m x k x n = 17 x 19 x 23 inside 32 x 32 x 32 tiles, plus edge shapes.
TYPED_TEST(Matmul, OddValidShapesWithZeroPadding) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    struct Dims {
        int m, k, n;
    };
    for (Dims d : {Dims{17, 19, 23}, Dims{1, 1, 1}, Dims{32, 32, 32}, Dims{5, 32, 1}, Dims{32, 3, 17}}) {
        SCOPED_TRACE(std::to_string(d.m) + "x" + std::to_string(d.k) + "x" + std::to_string(d.n));
        auto a = operand<T>(d.m, d.k, 1), b = operand<T>(d.k, d.n, 2);
        std::vector<Acc> c(static_cast<size_t>(d.m) * d.n);
        auto st = matmul_nd<Acc>(a, b, c, d.m, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_matmul<Acc>(a, d.k, b, d.n, d.m, d.k, d.n);
        for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(static_cast<double>(c[i]), want[i]) << i;
    }
}

// x rounded to TF32's mantissa (A2A3 e8m11, A5 e8m10) by scaling: the
// reference does not share ptosim's bit arithmetic.
double ref_tf32(float x, bool ties_away) {
    const int mant = PTOSIM_TARGET_A5 ? 10 : 11;
    const double scale = std::ldexp(1.0, mant - std::ilogb(x));
    const double y = static_cast<double>(x) * scale;
    return (ties_away ? std::round(y) : std::nearbyint(y)) / scale;
}

// Tile::SetMadTF32Mode rounds float operands of later TMATMULs to TF32 until
// ResetMadMode (pto-isa's tmatmul system tests, CAST_ROUND and CAST_RINT).
TEST(MatmulFloat, Tf32ModeRoundsOperandsUntilReset) {
    const int m = 1, k = 4, n = 1;
    // Every product and sum is exact in float, so only the operand rounding shows.
    const std::vector<float> a = {1.0f + 0x1p-12f, 3.0f + 0x1p-10f + 0x1p-14f, -1.5f - 0x1p-11f, 2.0f};  // ties: a[0] on A2A3, a[2] on A5
    const std::vector<float> b = {1.0f, 1.0f, 0.5f, 1.0f + 0x1p-12f + 0x1p-14f};
    for (RoundMode mode : {RoundMode::CAST_ROUND, RoundMode::CAST_RINT}) {
        const bool away = mode == RoundMode::CAST_ROUND;
        std::vector<float> tf(1), reset(1);
        auto st = matmul_nd<float>(a, b, tf, m, k, n, [&](auto& l) { l.SetMadTF32Mode(mode); });
        ASSERT_TRUE(st.ok()) << st.message;
        st = matmul_nd<float>(a, b, reset, m, k, n, [&](auto& l) {
            l.SetMadTF32Mode(mode);
            l.ResetMadMode();
        });
        ASSERT_TRUE(st.ok()) << st.message;
        double want_tf = 0, want_plain = 0;
        for (int p = 0; p < k; ++p) {
            want_tf += ref_tf32(a[p], away) * ref_tf32(b[p], away);
            want_plain += static_cast<double>(a[p]) * b[p];
        }
        EXPECT_EQ(tf[0], static_cast<float>(want_tf)) << (away ? "CAST_ROUND" : "CAST_RINT");
        EXPECT_EQ(reset[0], static_cast<float>(want_plain));
        EXPECT_NE(tf[0], reset[0]);
    }
}

TEST(MatmulFloat, Tf32ModeTakesOnlyTheTwoRoundingModes) {
    int line = 0;
    auto st = run_cube([&] {
        TileLeft<float, 16, 16, DYNAMIC, DYNAMIC> l(16, 16);
        line = __LINE__ + 1;
        l.SetMadTF32Mode(RoundMode::CAST_FLOOR);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("test_isa_cube.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("SetMadTF32Mode: the TF32 rounding mode must be RoundMode::CAST_ROUND or RoundMode::CAST_RINT"),
              std::string::npos)
        << st.message;
}

// The tiles' static shapes need not chain, but the valid m x k x n must fit
// each tile's storage.
TEST(MatmulShapes, ValidShapeLargerThanTheAccumulatorFaults) {
    int line = 0;
    auto st = run_cube([&] {
        TileLeft<half, 32, 32, DYNAMIC, DYNAMIC> l(32, 16);
        TileRight<half, 32, 32, DYNAMIC, DYNAMIC> r(16, 16);
        TileAcc<float, 16, 32, DYNAMIC, DYNAMIC> acc(16, 16);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(acc, 0);
        line = __LINE__ + 1;
        TMATMUL(acc, l, r);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("test_isa_cube.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("TMATMUL: m x k x n = 32x16x16 does not fit the tiles (Left 32x32, Right 32x32, Acc 16x32)"),
              std::string::npos)
        << st.message;
}

// cOut = cIn + a*b (4 arguments) leaves cIn alone; c += a*b (3 arguments),
// also with an explicit AccPhase (pto-isa's unit-flag form; same values).
TYPED_TEST(Matmul, AccumulateInPlaceAndIntoAnotherTile) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    const int m = 17, k = 19, n = 23;
    auto a1 = operand<T>(m, k, 3), b1 = operand<T>(k, n, 4), a2 = operand<T>(m, k, 5), b2 = operand<T>(k, n, 6);
    std::vector<Acc> cin(m * n), cin_after(m * n), cout(m * n), cinplace(m * n), cphased(m * n);
    auto st = run_cube([&] {
        MatNz<T> ma1(m, k), mb1(k, n), ma2(m, k), mb2(k, n);
        TileLeft<T, kT, kT, DYNAMIC, DYNAMIC> l1(m, k), l2(m, k);
        TileRight<T, kT, kT, DYNAMIC, DYNAMIC> r1(k, n), r2(k, n);
        TileAcc<Acc, kT, kT, DYNAMIC, DYNAMIC> c1(m, n), c2(m, n);
        TASSIGN(ma1, 0);
        TASSIGN(mb1, 0x1000);
        TASSIGN(ma2, 0x2000);
        TASSIGN(mb2, 0x3000);
        TASSIGN(l1, 0);
        TASSIGN(l2, 0x1000);
        TASSIGN(r1, 0);
        TASSIGN(r2, 0x1000);
        TASSIGN(c1, 0);
        TASSIGN(c2, 0x1000);
        auto ga1 = gm_nd(a1.data(), m, k, k), ga2 = gm_nd(a2.data(), m, k, k);
        auto gb1 = gm_nd(b1.data(), k, n, n), gb2 = gm_nd(b2.data(), k, n, n);
        auto gin = gm_nd(cin.data(), m, n, n), gin2 = gm_nd(cin_after.data(), m, n, n);
        auto gout = gm_nd(cout.data(), m, n, n), gip = gm_nd(cinplace.data(), m, n, n);
        TLOAD(ma1, ga1);
        TLOAD(mb1, gb1);
        TLOAD(ma2, ga2);
        TLOAD(mb2, gb2);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l1, ma1);
        TMOV(r1, mb1);
        TMOV(l2, ma2);
        TMOV(r2, mb2);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TMATMUL(c1, l1, r1);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gin, c1);
        ISA_SYNC(PIPE_FIX, PIPE_M);
        TMATMUL_ACC(c2, c1, l2, r2);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gout, c2);
        TSTORE(gin2, c1);
        ISA_SYNC(PIPE_FIX, PIPE_M);
        TMATMUL_ACC(c1, l2, r2);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gip, c1);
        ISA_SYNC(PIPE_FIX, PIPE_M);
        TMATMUL_ACC<AccPhase::Partial>(c1, l2, r2);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        auto gph = gm_nd(cphased.data(), m, n, n);
        TSTORE(gph, c1);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    auto p1 = ref_matmul<Acc>(a1, k, b1, n, m, k, n), p2 = ref_matmul<Acc>(a2, k, b2, n, m, k, n);
    for (int i = 0; i < m * n; ++i) {
        ASSERT_EQ(static_cast<double>(cin[i]), p1[i]) << i;
        ASSERT_EQ(static_cast<double>(cin_after[i]), p1[i]) << "cIn changed at " << i;
        ASSERT_EQ(static_cast<double>(cout[i]), p1[i] + p2[i]) << i;
        ASSERT_EQ(static_cast<double>(cinplace[i]), p1[i] + p2[i]) << i;
        ASSERT_EQ(static_cast<double>(cphased[i]), p1[i] + 2 * p2[i]) << i;
    }
}

// TMATMUL_BIAS with the bias row moved Mat -> Bias; a Mat bias of type B
// (the accumulator's, or a 16-bit one the move widens to float).
template <class T, class Acc, class B = Acc>
void check_bias_from_l1() {
    const int m = 17, k = 19, n = 23;
    auto a = operand<T>(m, k, 7), b = operand<T>(k, n, 8);
    std::vector<B> bias(kT);
    std::vector<Acc> c(m * n);
    for (int j = 0; j < kT; ++j) bias[j] = static_cast<B>(j * 3 - 40);
    auto st = run_cube([&] {
        MatNz<T> ma(m, k), mb(k, n);
        Tile<TileType::Mat, B, 1, kT, BLayout::RowMajor, 1, DYNAMIC> mbias(n);
        TileLeft<T, kT, kT, DYNAMIC, DYNAMIC> l(m, k);
        TileRight<T, kT, kT, DYNAMIC, DYNAMIC> r(k, n);
        TileBias<Acc, kT, DYNAMIC> tb(n);
        TileAcc<Acc, kT, kT, DYNAMIC, DYNAMIC> acc(m, n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(mbias, 0x2000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(tb, 0);
        TASSIGN(acc, 0);
        auto ga = gm_nd(a.data(), m, k, k);
        auto gb = gm_nd(b.data(), k, n, n);
        auto gbias = gm_nd(bias.data(), 1, n, kT);
        auto gc = gm_nd(c.data(), m, n, n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        TLOAD(mbias, gbias);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        TMOV(tb, mbias);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TMATMUL_BIAS(acc, l, r, tb);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gc, acc);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    auto want = ref_matmul<Acc>(a, k, b, n, m, k, n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            ASSERT_EQ(static_cast<double>(c[i * n + j]), want[i * n + j] + (j * 3 - 40)) << i << "," << j;
}

TYPED_TEST(Matmul, BiasFromL1) { check_bias_from_l1<typename TypeParam::In, typename TypeParam::Acc>(); }

// The bias table loader widens a half bias (both targets) and a bfloat16_t
// one (A5) to the float accumulator, as pto-isa's tmatmul testcase relies on.
TEST(MatmulBias, HalfBiasWidensToFloat) { check_bias_from_l1<half, float, half>(); }
#if PTOSIM_TARGET_A5
TEST(MatmulBias, Bfloat16BiasWidensToFloat) { check_bias_from_l1<half, float, bfloat16_t>(); }
#endif

// A compact Left tile takes its valid region rounded up to whole boxes (16
// rows, 32 bytes of k) from the offset, so a 20 x 30 part at (16, 16) of a
// same-sized 64 x 64 half source fits; L0A bytes outside the 32 x 32 moved
// boxes keep their contents. Expected places follow the target's L0A layout
// (A5 Nz: boxes column-major; A2A3 Zz: boxes row-major), 16 x 16 halves per box.
TEST(CompactExtract, MovesTheValidRegionRoundedUpToBoxes) {
    constexpr int S = 64, VR = 20, VC = 30, R0 = 16, C0 = 16;
    std::vector<half> a(S * S);
    for (int i = 0; i < S * S; ++i) a[i] = half(static_cast<float>(i % 1000));
    std::vector<uint16_t> l0a(S * S);
    auto st = run_cube([&] {
        MatNz<half, S, S> ma(S, S);
        TileLeftCompact<half, S, S, VR, VC> l;
        TASSIGN(ma, 0);
        TASSIGN(l, 0);
        uint8_t* mem = ptosim::core().mem[static_cast<int>(ptosim::Space::L0A)];
        std::memset(mem, 0xAB, S * S * 2);
        auto ga = gm_nd(a.data(), S, S, S);
        TLOAD(ma, ga);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TEXTRACT(l, ma, R0, C0);
        ISA_SYNC(PIPE_MTE1, PIPE_S);
        std::memcpy(l0a.data(), mem, S * S * 2);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<uint16_t> want(S * S, 0xABAB);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            const int box = PTOSIM_TARGET_A5 ? (c / 16) * (S / 16) + r / 16 : (r / 16) * (S / 16) + c / 16;
            want[box * 256 + (r % 16) * 16 + c % 16] = a[(R0 + r) * S + C0 + c].bits;
        }
    for (int i = 0; i < S * S; ++i) ASSERT_EQ(l0a[i], want[i]) << i;
}

// A compact tile may be declared larger than its L0 buffer: only its valid
// region, rounded up to boxes, must fit (pto-isa's textract testcase declares
// 256 x 128 float compact Right tiles in a 64 KiB L0B). The same shape without
// CompactMode is a whole-tile extract, which the source cannot fill.
TEST(CompactExtract, OnlyTheRoundedValidRegionMustFitTheBuffer) {
    constexpr int S = 64, BIG = 512;  // 512 x 128 halves: 128 KiB
    std::vector<half> a(S * S, half(1.0f));
    auto run = [&](auto left) {
        return run_cube([&] {
            MatNz<half, S, S> ma(S, S);
            decltype(left) l;
            TASSIGN(ma, 0);
            TASSIGN(l, 0);
            auto ga = gm_nd(a.data(), S, S, S);
            TLOAD(ma, ga);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TEXTRACT(l, ma, 16, 16);
        });
    };
    auto st = run(TileLeftCompact<half, BIG, 128, 20, 30>{});
    EXPECT_TRUE(st.ok()) << st.message;
    st = run(TileLeft<half, BIG, 128, 20, 30>{});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TEXTRACT: a 512x128 part at (16, 16) runs outside the 64x64 source tile"),
              std::string::npos)
        << st.message;
}

// K slices of a larger L1 tile: A is 48 x 64 in L1, the Left tiles take rows
// 16..47 and columns 0..31 / 32..63; B is 64 x 32 and split by rows. The
// second slice has an odd valid K (k = 45 overall), the rest zero padded.
TYPED_TEST(Matmul, ExtractKSlicesWithOffsets) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    constexpr int AR = 48, K = 64;
    for (int k : {64, 45}) {
        SCOPED_TRACE(k);
        const int m = 32, n = 23, k2 = k - 32;
        auto a = operand<T>(AR, k, 9), b = operand<T>(k, n, 10);
        std::vector<Acc> c(m * n);
        auto st = run_cube([&] {
            MatNz<T, AR, K> ma(AR, k);
            MatNz<T, K, kT> mb(k, n);
            TileLeft<T, kT, kT, DYNAMIC, DYNAMIC> l0(m, 32), l1(m, k2);
            TileRight<T, kT, kT, DYNAMIC, DYNAMIC> r0(32, n), r1(k2, n);
            TileAcc<Acc, kT, kT, DYNAMIC, DYNAMIC> acc(m, n);
            TASSIGN(ma, 0);
            TASSIGN(mb, 0x4000);
            TASSIGN(l0, 0);
            TASSIGN(l1, 0x1000);
            TASSIGN(r0, 0);
            TASSIGN(r1, 0x1000);
            TASSIGN(acc, 0);
            auto ga = gm_nd(a.data(), AR, k, k);
            auto gb = gm_nd(b.data(), k, n, n);
            auto gc = gm_nd(c.data(), m, n, n);
            TLOAD(ma, ga);
            TLOAD(mb, gb);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TEXTRACT(l0, ma, 16, 0);
            TEXTRACT(l1, ma, 16, 32);
            TEXTRACT(r0, mb, 0, 0);
            TEXTRACT(r1, mb, 32, 0);
            ISA_SYNC(PIPE_MTE1, PIPE_M);
            TMATMUL(acc, l0, r0);
            TMATMUL_ACC(acc, acc, l1, r1);
            ISA_SYNC(PIPE_M, PIPE_FIX);
            TSTORE(gc, acc);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_matmul<Acc>(a, k, b, n, m, k, n, 16, 0, 0);
        for (int i = 0; i < m * n; ++i) ASSERT_EQ(static_cast<double>(c[i]), want[i]) << i;
    }
}

TEST(MatmulFloat, RandomValuesWithinTolerance) {
    const int m = 17, k = 19, n = 23;
    testutil::Rng rng;
    std::vector<float> a(m * k), b(k * n), c(m * n);
    for (auto& x : a) x = static_cast<float>(rng.uniform(-2, 2));
    for (auto& x : b) x = static_cast<float>(rng.uniform(-2, 2));
    auto st = matmul_nd<float>(a, b, c, m, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    // float accumulation of 19 products of magnitude <= 4: |error| <= 19 * 2^-24 * 76.
    auto want = ref_matmul<float>(a, k, b, n, m, k, n);
    for (int i = 0; i < m * n; ++i) ASSERT_NEAR(c[i], want[i], 1e-4) << i;
}

// The accumulator stored as half and bfloat16_t rounds to nearest even once.
template <class D>
void check_acc_store_narrowing() {
    const int m = 17, k = 19, n = 23;
    // Multiples of 1/64 up to ~3000: exact in float, rounded in 16 bits.
    std::vector<half> a(m * k), b(k * n);
    testutil::Rng rng;
    for (auto& x : a) x = from_float<half>(static_cast<float>(static_cast<int>(rng.next() % 255) - 127) / 8.0f);
    for (auto& x : b) x = from_float<half>(static_cast<float>(static_cast<int>(rng.next() % 255) - 127) / 8.0f);
    std::vector<D> c(m * n);
    auto st = matmul_nd<float>(a, b, c, m, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    auto want = ref_matmul<float>(a, k, b, n, m, k, n);
    int inexact = 0;
    for (int i = 0; i < m * n; ++i) {
        const D w = from_float<D>(static_cast<float>(want[i]));
        inexact += to_double(w) != want[i];
        ASSERT_TRUE(same(c[i], w)) << i << ": got " << show(c[i]) << " want " << show(w) << " from " << want[i];
    }
    EXPECT_GT(inexact, 0) << "the data should exercise rounding";
}

TEST(AccStore, AsHalf) { check_acc_store_narrowing<half>(); }
TEST(AccStore, AsBfloat16) { check_acc_store_narrowing<bfloat16_t>(); }

// Acc -> NZ global writes the documented NZ order of the float destination (C0 = 8).
TEST(AccStore, FloatToNzGlobal) {
    constexpr int N = 32;
    std::vector<half> a(N * N), eye(N * N);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            a[r * N + c] = from_float<half>(static_cast<float>(r * N + c));
            eye[r * N + c] = from_float<half>(r == c ? 1.0f : 0.0f);
        }
    std::vector<float> out(N * N);
    auto st = run_cube([&] {
        Tile<TileType::Mat, half, N, N, BLayout::ColMajor, N, N, SLayout::RowMajor> ma, mb;
        TileLeft<half, N, N> l;
        TileRight<half, N, N> r;
        TileAcc<float, N, N> acc;
        using GNz = GlobalTensor<float, TileShape2D<float, N, N, Layout::NZ>, BaseShape2D<float, N, N, Layout::NZ>,
                                 Layout::NZ>;
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(acc, 0);
        auto ga = gm_nd(a.data(), N, N, N);
        auto gb = gm_nd(eye.data(), N, N, N);
        GNz gc(out.data());
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TMATMUL(acc, l, r);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gc, acc);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) ASSERT_EQ(out[nz_index<float>(r, c, N)], static_cast<float>(r * N + c)) << r << "," << c;
}

// ---------------------------------------------------------------- A5 only

#if PTOSIM_TARGET_A5

// Computes A (m x 32 half) * I into an Acc tile; the Cube side of the mix tests.
struct Product {
    int m, n;
    std::vector<half> a, eye;
    std::vector<float> want;  // row-major m x n
    Product(int m_, int n_) : m(m_), n(n_), a(m_ * kT), eye(kT * kT), want(m_ * n_) {
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < kT; ++c) a[r * kT + c] = from_float<half>(static_cast<float>((r * 37 + c * 11) % 101 - 50) / 4.0f);
        for (int r = 0; r < kT; ++r)
            for (int c = 0; c < kT; ++c) eye[r * kT + c] = from_float<half>(r == c ? 1.0f : 0.0f);
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < n; ++c) want[r * n + c] = static_cast<float>(to_double(a[r * kT + c]));
    }
    template <class AccT>
    void compute(AccT& acc) {
        MatNz<half> ma(m, kT), mb(kT, n);
        TileLeft<half, kT, kT, DYNAMIC, DYNAMIC> l(m, kT);
        TileRight<half, kT, kT, DYNAMIC, DYNAMIC> r(kT, n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        auto ga = gm_nd(a.data(), m, kT, kT);
        auto gb = gm_nd(eye.data(), kT, n, kT);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TMATMUL(acc, l, r);
        ISA_SYNC(PIPE_M, PIPE_FIX);
    }
};

template <class V, AccToVecMode Mode>
void check_acc_to_vec(int m, int n) {
    Product p(m, n);
    constexpr bool split_m = Mode == AccToVecMode::DualModeSplitM, split_n = Mode == AccToVecMode::DualModeSplitN;
    const int rows = split_m ? m / 2 : m, cols = split_n ? n / 2 : n;
    std::vector<V> out[2] = {std::vector<V>(rows * cols), std::vector<V>(rows * cols)};
    for (auto& o : out)
        for (auto& x : o) x = from_float<V>(-12345.0f);
    constexpr int VR = split_m ? kT / 2 : kT, VC = split_n ? kT / 2 : kT;
    constexpr uint64_t kUb = 0x10000;
    auto st = run_mix(
        [&] {
            TileAcc<float, kT, kT, DYNAMIC, DYNAMIC> acc(m, n);
            TASSIGN(acc, 0);
            p.compute(acc);
            Tile<TileType::Vec, V, VR, VC, BLayout::RowMajor, DYNAMIC, DYNAMIC> v(rows, cols);
            TASSIGN(v, kUb);
            TMOV<decltype(v), decltype(acc), Mode>(v, acc);
            set_intra_block(PIPE_FIX, 0);
            set_intra_block(PIPE_FIX, 16);
        },
        [&] {
            wait_intra_block(PIPE_V, 0);
            const int sub = static_cast<int>(get_subblockid());
            if (Mode == AccToVecMode::SingleModeVec0 && sub != 0) return;
            if (Mode == AccToVecMode::SingleModeVec1 && sub != 1) return;
            Tile<TileType::Vec, V, VR, VC, BLayout::RowMajor, DYNAMIC, DYNAMIC> v(rows, cols);
            TASSIGN(v, kUb);
            auto g = gm_nd(out[sub].data(), rows, cols, cols);
            TSTORE(g, v);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int sub = 0; sub < 2; ++sub) {
        const bool gets = !((Mode == AccToVecMode::SingleModeVec0 && sub != 0) ||
                            (Mode == AccToVecMode::SingleModeVec1 && sub != 1));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const int sr = r + (split_m ? sub * rows : 0), sc = c + (split_n ? sub * cols : 0);
                const V want = gets ? from_float<V>(p.want[sr * n + sc]) : from_float<V>(-12345.0f);
                ASSERT_TRUE(same(out[sub][r * cols + c], want))
                    << "sub " << sub << " (" << r << "," << c << ") got " << show(out[sub][r * cols + c]);
            }
    }
}

TEST(AccToVec, SingleModeVec0) { check_acc_to_vec<float, AccToVecMode::SingleModeVec0>(17, 23); }
TEST(AccToVec, SingleModeVec1) { check_acc_to_vec<float, AccToVecMode::SingleModeVec1>(17, 23); }
TEST(AccToVec, SingleModeVec0Half) { check_acc_to_vec<half, AccToVecMode::SingleModeVec0>(32, 32); }
TEST(AccToVec, DualModeSplitM) { check_acc_to_vec<float, AccToVecMode::DualModeSplitM>(32, 24); }
TEST(AccToVec, DualModeSplitMOddRowsAndHalf) { check_acc_to_vec<half, AccToVecMode::DualModeSplitM>(18, 32); }
TEST(AccToVec, DualModeSplitN) { check_acc_to_vec<float, AccToVecMode::DualModeSplitN>(32, 32); }
TEST(AccToVec, DualModeSplitNBfloat16) { check_acc_to_vec<bfloat16_t, AccToVecMode::DualModeSplitN>(17, 32); }

// Vec -> Mat moves of pto-isa's tmov_ub2l1 shapes: a 32 x 32 half Nz Vec tile
// with one extra row (33 rows) moves whole into a 32 x 32 Mat tile (TMOV) and
// its 16 x 16 part at (16, 16) into a 16 x 16 Mat tile (TEXTRACT); a row-major
// Vec tile moves its bytes unchanged. The Cube copies each L1 tile back to
// UB with copy_cbuf_to_ubuf and the Vector core stores the raw bytes.
TEST(VecToMat, NzPlusOneRowsAndRowMajorBursts) {
    constexpr int N = 32, kBytes = N * N * 2;
    std::vector<half> in(N * N);
    for (int i = 0; i < N * N; ++i) in[i] = from_float<half>(static_cast<float>(i % 1000) - 500.0f);
    std::vector<half> raw(3 * N * N);
    using Nz33 = Tile<TileType::Vec, half, N + 1, N, BLayout::ColMajor, N, N, SLayout::RowMajor>;
    using Mat = Tile<TileType::Mat, half, N, N, BLayout::ColMajor, N, N, SLayout::RowMajor>;
    using Mat16 = Tile<TileType::Mat, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
    using Nd = Tile<TileType::Vec, half, N, N>;
    constexpr uint64_t kL1Whole = 0, kL1Part = 0x1000, kL1Burst = 0x2000, kUbBack = 0x10000;
    auto st = run_mix(
        [&] {
            wait_intra_block(PIPE_MTE1, 0);
            wait_intra_block(PIPE_MTE1, 16);
            copy_cbuf_to_ubuf(reinterpret_cast<void*>(kUbBack), reinterpret_cast<void*>(kL1Whole), 0, 1, kBytes / 32, 0, 0);
            copy_cbuf_to_ubuf(reinterpret_cast<void*>(kUbBack + kBytes), reinterpret_cast<void*>(kL1Part), 0, 1,
                              16 * 16 * 2 / 32, 0, 0);
            copy_cbuf_to_ubuf(reinterpret_cast<void*>(kUbBack + 2 * kBytes), reinterpret_cast<void*>(kL1Burst), 0, 1,
                              kBytes / 32, 0, 0);
            set_intra_block(PIPE_MTE1, 1);
            set_intra_block(PIPE_MTE1, 17);
        },
        [&] {
            const bool first = get_subblockid() == 0;
            if (first) {
                Nd nd;
                Nz33 nz;
                TASSIGN(nd, 0);
                TASSIGN(nz, 0x1000);
                auto g = gm_nd(in.data(), N, N, N);
                TLOAD(nd, g);
                ISA_SYNC(PIPE_MTE2, PIPE_V);
                TMOV(nz, nd);
                ISA_SYNC(PIPE_V, PIPE_MTE3);
                Mat whole_l1;
                Mat16 part_l1;
                Mat burst_l1;
                TASSIGN(whole_l1, kL1Whole);
                TASSIGN(part_l1, kL1Part);
                TASSIGN(burst_l1, kL1Burst);
                TMOV(whole_l1, nz);
                TEXTRACT(part_l1, nz, 16, 16);
                TMOV(burst_l1, nd);
            }
            set_intra_block(PIPE_MTE3, 0);
            wait_intra_block(PIPE_MTE3, 1);
            if (!first) return;
            Tile<TileType::Vec, half, 3, N * N> back;  // the three copies' raw bytes
            TASSIGN(back, kUbBack);
            auto g = gm_nd(raw.data(), 3, N * N, N * N);
            TSTORE(g, back);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    const half* whole = raw.data();
    const half* part = raw.data() + N * N;
    const half* burst = raw.data() + 2 * N * N;
    // Nz with c0 = 16 halves: (r, c) of a tile with R rows is element (c / 16) * R * 16 + r * 16 + c % 16.
    auto nz = [](int rows, int r, int c) { return (c / 16) * rows * 16 + r * 16 + c % 16; };
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) ASSERT_TRUE(same(whole[nz(N, r, c)], in[r * N + c])) << r << "," << c;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) ASSERT_TRUE(same(part[nz(16, r, c)], in[(r + 16) * N + c + 16])) << r << "," << c;
    for (int i = 0; i < N * N; ++i) ASSERT_TRUE(same(burst[i], in[i])) << i;
}

// Cube side of the Vec -> Mat tests: out = ma x mb (mb the identity: ma as
// the Cube reads it from L1), N x N, stored as float.
template <int N, class M>
void multiply_into(float* out, M& ma, M& mb) {
    TileLeft<half, N, N> l;
    TileRight<half, N, N> r;
    TileAcc<float, N, N> acc;
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(acc, 0);
    TMOV(l, ma);
    TMOV(r, mb);
    ISA_SYNC(PIPE_MTE1, PIPE_M);
    TMATMUL(acc, l, r);
    ISA_SYNC(PIPE_M, PIPE_FIX);
    auto go = gm_nd(out, N, N, N);
    TSTORE(go, acc);
}

// Vector sub-blocks TINSERT their UB tiles into the Cube's L1 (sub-block 0
// the top 16 x 32 rows, sub-block 1 a 16 x 16 block at (16, 16)); the Cube
// multiplies the result by the identity to read L1 back.
TEST(VecToMat, TinsertIntoCubeL1) {
    constexpr int N = kT;
    std::vector<half> top(16 * N), bottom(16 * N), zeros(N * N), eye(N * N);
    for (int i = 0; i < 16 * N; ++i) {
        top[i] = from_float<half>(static_cast<float>(i % 97) - 48.0f);
        bottom[i] = from_float<half>(static_cast<float>(i % 89) + 0.5f);
    }
    for (auto& z : zeros) z = from_float<half>(0.0f);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) eye[r * N + c] = from_float<half>(r == c ? 1.0f : 0.0f);
    std::vector<float> out(N * N);
    using M = Tile<TileType::Mat, half, N, N, BLayout::ColMajor, N, N, SLayout::RowMajor>;
    constexpr uint64_t kL1 = 0x8000;
    auto st = run_mix(
        [&] {
            M ma, mb;
            TASSIGN(ma, kL1);
            TASSIGN(mb, 0);
            auto gz = gm_nd(zeros.data(), N, N, N);
            auto ge = gm_nd(eye.data(), N, N, N);
            TLOAD(ma, gz);
            TLOAD(mb, ge);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            set_intra_block(PIPE_MTE2, 0);
            set_intra_block(PIPE_MTE2, 16);
            wait_intra_block(PIPE_MTE1, 1);
            wait_intra_block(PIPE_MTE1, 17);
            multiply_into<N>(out.data(), ma, mb);
        },
        [&] {
            const int sub = static_cast<int>(get_subblockid());
            Tile<TileType::Vec, half, 16, N, BLayout::RowMajor, DYNAMIC, DYNAMIC> v(16, sub == 0 ? N : 16);
            TASSIGN(v, 0x400);
            auto g = gm_nd(sub == 0 ? top.data() : bottom.data(), 16, sub == 0 ? N : 16, N);
            TLOAD(v, g);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE3);
            wait_intra_block(PIPE_MTE3, 0);
            M ma;
            TASSIGN(ma, kL1);
            if (sub == 0) TINSERT(ma, v, 0, 0);
            else TINSERT(ma, v, 16, 16);
            set_intra_block(PIPE_MTE3, 1);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            double want = 0;
            if (r < 16) want = to_double(top[r * N + c]);
            else if (c >= 16) want = to_double(bottom[(r - 16) * N + (c - 16)]);
            ASSERT_EQ(out[r * N + c], want) << r << "," << c;
        }
}

// The seed's A5 add_matmul (v2c) pattern: each Vector sub-block converts its
// half of the rows to an Nz Vec tile and TINSERTs it at row 16 * sub into an
// L1 tile declared Zz; the Cube reads the same L1 bytes through an Nz tile.
// The insert places Nz column blocks of the destination's height whatever
// layout the destination declares, so the Cube sees the rows in order.
TEST(VecToMat, TinsertNzIntoAnyDeclaredLayoutPlacesNz) {
    constexpr int N = kT;
    std::vector<half> in(N * N), eye(N * N);
    for (int i = 0; i < N * N; ++i) in[i] = from_float<half>(static_cast<float>(i % 101) - 50.0f);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) eye[r * N + c] = from_float<half>(r == c ? 1.0f : 0.0f);
    std::vector<float> out(N * N);
    using Nz = Tile<TileType::Mat, half, N, N, BLayout::ColMajor, N, N, SLayout::RowMajor>;
    using Zz = Tile<TileType::Mat, half, N, N, BLayout::RowMajor, N, N, SLayout::RowMajor>;
    constexpr uint64_t kL1 = 0x8000;
    auto st = run_mix(
        [&] {
            Nz ma, mb;
            TASSIGN(ma, kL1);
            TASSIGN(mb, 0);
            auto ge = gm_nd(eye.data(), N, N, N);
            TLOAD(mb, ge);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);  // the move of mb into L0B reads what the load wrote
            wait_intra_block(PIPE_MTE1, 1);
            wait_intra_block(PIPE_MTE1, 17);
            multiply_into<N>(out.data(), ma, mb);
        },
        [&] {
            const int sub = static_cast<int>(get_subblockid());
            Tile<TileType::Vec, half, N / 2, N> nd;
            Tile<TileType::Vec, half, N / 2, N, BLayout::ColMajor, N / 2, N, SLayout::RowMajor> nz;
            TASSIGN(nd, 0);
            TASSIGN(nz, 0x1000);
            auto g = gm_nd(in.data() + sub * (N / 2) * N, N / 2, N, N);
            TLOAD(nd, g);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TMOV(nz, nd);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            Zz insert;
            TASSIGN(insert, kL1);
            TINSERT(insert, nz, static_cast<uint16_t>(sub * (N / 2)), static_cast<uint16_t>(0));
            set_intra_block(PIPE_MTE3, 1);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) ASSERT_EQ(out[r * N + c], to_double(in[r * N + c])) << r << "," << c;
}

// The insert's Nz offsets address whole C0-column blocks: a column offset
// inside a block, or a part past the destination, faults at the call.
TEST(VecToMat, TinsertNzFaultsOffBlockOrOutside) {
    for (auto [r0, c0] : {std::pair{0, 8}, std::pair{32, 0}}) {
        int line = 0;
        auto st = run_mix([] {},
                          [&] {
                              if (get_subblockid() != 0) return;
                              Tile<TileType::Vec, half, 16, 32, BLayout::ColMajor, 16, 32, SLayout::RowMajor> nz;
                              Tile<TileType::Mat, half, 32, 48, BLayout::RowMajor, 32, 48, SLayout::RowMajor> dst;
                              TASSIGN(nz, 0);
                              TASSIGN(dst, 0);
                              line = __LINE__ + 1;
                              TINSERT(dst, nz, static_cast<uint16_t>(r0), static_cast<uint16_t>(c0));
                          });
        ASSERT_FALSE(st.ok()) << r0 << "," << c0;
        EXPECT_NE(st.message.find("test_isa_cube.cpp:" + std::to_string(line)), std::string::npos) << st.message;
        EXPECT_NE(st.message.find("TINSERT Vec->Mat: the source's 16x32 fractal-aligned valid region at (" +
                                  std::to_string(r0) + ", " + std::to_string(c0) +
                                  ") runs outside the 16x32 source or the 32x48 destination, or the column is not a "
                                  "multiple of 16"),
                  std::string::npos)
            << st.message;
    }
}

// An accumulator split between the two Vector cores of a row-major tile
// needs an even count along the split (Nz tiles take whole fractals instead).
TEST(AccToVec, DualModeSplitOfAnOddCountIntoRowMajorFaults) {
    auto st = run_mix(
        [&] {
            TileAcc<float, 32, 32, DYNAMIC, DYNAMIC> acc(17, 32);
            TASSIGN(acc, 0);
            Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC> v(8, 32);
            TASSIGN(v, 0);
            TMOV<decltype(v), decltype(acc), AccToVecMode::DualModeSplitM>(v, acc);
        },
        [] {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("faulted on AIC block 0"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("TMOV Acc->Vec dual mode splits the accumulator in two halves; its valid row count "
                              "must be even"),
              std::string::npos)
        << st.message;
}

#endif

// Vec -> Vec copies the source's valid region; the rest of dst is untouched.
template <class T>
class VecMove : public ::testing::Test {};
using VecMoveTypes = ::testing::Types<half, bfloat16_t, float, int8_t, uint16_t, int32_t>;
TYPED_TEST_SUITE(VecMove, VecMoveTypes);

TYPED_TEST(VecMove, CopiesSourceValidRegion) {
    using T = TypeParam;
    constexpr int R = 16, C = 64;
    for (auto [vr, vc] : {std::pair{1, 1}, std::pair{7, 13}, std::pair{16, 64}}) {
        SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
        std::vector<T> in(R * C), dst(R * C), out(R * C);
        for (int i = 0; i < R * C; ++i) {
            in[i] = pattern<T>(i, 20);
            dst[i] = pattern<T>(i, 21);
        }
        auto st = run_vec([&] {
            Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> s(vr, vc);
            Tile<TileType::Vec, T, R, C> d;
            TASSIGN(s, 0);
            TASSIGN(d, 0x4000);
            auto gi = gm_nd(in.data(), R, C, C);
            auto gd = gm_nd(dst.data(), R, C, C);
            auto go = gm_nd(out.data(), R, C, C);
            Tile<TileType::Vec, T, R, C> sfull;
            TASSIGN(sfull, 0);
            TLOAD(sfull, gi);
            TLOAD(d, gd);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TMOV(d, s);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(go, d);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) {
                const T want = r < vr && c < vc ? in[r * C + c] : dst[r * C + c];
                ASSERT_TRUE(same(out[r * C + c], want)) << r << "," << c;
            }
    }
}

}  // namespace
