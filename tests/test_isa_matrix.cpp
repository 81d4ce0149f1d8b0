// Matrix instructions beyond plain TMATMUL: TGEMV(_ACC/_BIAS). Every
// expectation comes from a scalar reference written here from the ISA text.
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_cube;

namespace {

template <class A, class C>
struct MM {
    using In = A;
    using Acc = C;
};
template <class P>
class Gemv : public ::testing::Test {};
using GemvTypes = ::testing::Types<MM<half, float>, MM<bfloat16_t, float>, MM<float, float>, MM<int8_t, int32_t>>;
TYPED_TEST_SUITE(Gemv, GemvTypes);

// Small multiples of 1/8 (integers for int8): every product and partial sum
// is exact in the accumulator, so the expected values are exact.
template <class T>
std::vector<T> operand(int rows, int cols, uint64_t salt) {
    std::vector<T> v(static_cast<size_t>(rows) * cols);
    testutil::Rng rng;
    rng.s ^= salt * 0x100000001b3ull;
    for (auto& x : v) {
        const int q = static_cast<int>(rng.next() % 31) - 15;
        if constexpr (std::is_same_v<T, int8_t>) x = static_cast<int8_t>(q * 8 + static_cast<int>(rng.next() % 8));
        else x = from_float<T>(static_cast<float>(q) / 8.0f);
    }
    return v;
}

// y(j) = sum_p x(p) * b(p, j), b row-major with row stride ldb.
template <class T>
std::vector<double> ref_gemv(const std::vector<T>& x, const std::vector<T>& b, int ldb, int k, int n) {
    std::vector<double> y(n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int p = 0; p < k; ++p) y[j] += to_double(x[p]) * to_double(b[static_cast<size_t>(p) * ldb + j]);
    return y;
}

constexpr int kK = 32, kN = 32;

template <class T, int R, int C>
using MatNz = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor,
                   TileConfig::fractalABSize, PadValue::Zero>;

enum class Form { Plain, Acc, Bias };

// x (1 x k) and b (k x n) through L1 into L0A/L0B, then TGEMV / TGEMV_ACC
// (onto init) / TGEMV_BIAS (with bias), result row stored to y.
template <class Acc, class T>
ptosim::Status gemv(Form form, const std::vector<T>& x, const std::vector<T>& b, const std::vector<Acc>& extra,
                    std::vector<Acc>& y, int k, int n) {
    return run_cube([&] {
        MatNz<T, 1, kK> mx(1, k);
        MatNz<T, kK, kN> mb(k, n);
        Tile<TileType::Mat, Acc, 1, kN, BLayout::RowMajor, 1, DYNAMIC> mextra(n);
        TileLeft<T, 1, kK, 1, DYNAMIC> l(k);
        TileRight<T, kK, kN, DYNAMIC, DYNAMIC> r(k, n);
        TileBias<Acc, kN, DYNAMIC> tb(n);
        TileAcc<Acc, 1, kN, 1, DYNAMIC> c0(n), c1(n);
        TASSIGN(mx, 0);
        TASSIGN(mb, 0x1000);
        TASSIGN(mextra, 0x3000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(tb, 0);
        TASSIGN(c0, 0);
        TASSIGN(c1, 0x1000);
        auto gx = gm_nd(const_cast<T*>(x.data()), 1, k, k);
        auto gb = gm_nd(const_cast<T*>(b.data()), k, n, n);
        auto ge = gm_nd(const_cast<Acc*>(extra.data()), 1, n, n);
        auto gy = gm_nd(y.data(), 1, n, n);
        TLOAD(mx, gx);
        TLOAD(mb, gb);
        TLOAD(mextra, ge);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, mx);
        TMOV(r, mb);
        TMOV(tb, mextra);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        if (form == Form::Plain) {
            TGEMV(c1, l, r);
        } else if (form == Form::Bias) {
            TGEMV_BIAS(c1, l, r, tb);
        } else {
            // The accumulator input is the bias row put into c0 by TGEMV_BIAS
            // with a zero vector: c0 = extra, then c1 = c0 + x*b.
            TileLeft<T, 1, kK, 1, DYNAMIC> zl(k);
            TASSIGN(zl, 0x800);
            MatNz<T, 1, kK> mz(1, k);
            TASSIGN(mz, 0x6000);
            std::vector<T> zeros(kK, T(0));
            auto gz = gm_nd(zeros.data(), 1, k, k);
            TLOAD(mz, gz);
            ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
            TMOV(zl, mz);
            ISA_SYNC(PIPE_MTE1, PIPE_M);
            TGEMV_BIAS(c0, zl, r, tb);
            TGEMV_ACC(c1, c0, l, r);
        }
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gy, c1);
    });
}

struct KN {
    int k, n;
};
const KN kShapes[] = {{19, 23}, {1, 1}, {32, 32}, {32, 1}, {1, 32}, {3, 17}};

TYPED_TEST(Gemv, PlainOverValidShapes) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 1), b = operand<T>(d.k, d.n, 2);
        std::vector<Acc> y(d.n), none(d.n);
        auto st = gemv<Acc>(Form::Plain, x, b, none, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j]) << j;
    }
}

TYPED_TEST(Gemv, AccumulateOntoInputTile) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 3), b = operand<T>(d.k, d.n, 4);
        std::vector<Acc> init(d.n), y(d.n);
        for (int j = 0; j < d.n; ++j) init[j] = static_cast<Acc>(5 * j - 61);
        auto st = gemv<Acc>(Form::Acc, x, b, init, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j] + (5 * j - 61)) << j;
    }
}

TYPED_TEST(Gemv, BiasRowAddedOnce) {
    using T = typename TypeParam::In;
    using Acc = typename TypeParam::Acc;
    for (KN d : kShapes) {
        SCOPED_TRACE(std::to_string(d.k) + "x" + std::to_string(d.n));
        auto x = operand<T>(1, d.k, 5), b = operand<T>(d.k, d.n, 6);
        std::vector<Acc> bias(d.n), y(d.n);
        for (int j = 0; j < d.n; ++j) bias[j] = static_cast<Acc>(3 * j - 40);
        auto st = gemv<Acc>(Form::Bias, x, b, bias, y, d.k, d.n);
        ASSERT_TRUE(st.ok()) << st.message;
        auto want = ref_gemv(x, b, d.n, d.k, d.n);
        for (int j = 0; j < d.n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j] + (3 * j - 40)) << j;
    }
}

// Only row 0 of the Left tile takes part, whatever its valid rows say.
TEST(GemvRows, UsesRowZeroOfA16RowLeftTile) {
    constexpr int k = 24, n = 20;
    auto a = operand<half>(16, k, 7), b = operand<half>(k, n, 8);
    std::vector<float> y(n);
    auto st = run_cube([&] {
        MatNz<half, 16, kK> ma(16, k);
        MatNz<half, kK, kN> mb(k, n);
        TileLeft<half, 16, kK, DYNAMIC, DYNAMIC> l(16, k);
        TileRight<half, kK, kN, DYNAMIC, DYNAMIC> r(k, n);
        TileAcc<float, 16, kN, 1, DYNAMIC> c(n);
        TASSIGN(ma, 0);
        TASSIGN(mb, 0x2000);
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(c, 0);
        auto ga = gm_nd(a.data(), 16, k, k);
        auto gb = gm_nd(b.data(), k, n, n);
        auto gy = gm_nd(y.data(), 1, n, n);
        TLOAD(ma, ga);
        TLOAD(mb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_MTE1);
        TMOV(l, ma);
        TMOV(r, mb);
        ISA_SYNC(PIPE_MTE1, PIPE_M);
        TGEMV(c, l, r);
        ISA_SYNC(PIPE_M, PIPE_FIX);
        TSTORE(gy, c);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<half> row0(a.begin(), a.begin() + k);
    auto want = ref_gemv(row0, b, n, k, n);
    for (int j = 0; j < n; ++j) ASSERT_EQ(static_cast<double>(y[j]), want[j]) << j;
}

// float operands: each product is rounded to float, then added to the float
// running sum in ascending k, as TMATMUL does (docs/isa/matrix.md).
TEST(GemvRounding, FloatProductsRoundedAndSummedInAscendingK) {
    constexpr int k = 32, n = 8;
    std::vector<float> x(k), b(k * n), y(n);
    testutil::Rng rng;
    for (auto& v : x) v = static_cast<float>(rng.uniform(-1, 1));
    for (auto& v : b) v = static_cast<float>(rng.uniform(-1, 1)) * (rng.next() % 2 ? 1e6f : 1e-3f);
    std::vector<float> want(n);
    for (int j = 0; j < n; ++j) {
        volatile float s = 0.0f;
        for (int p = 0; p < k; ++p) {
            volatile float prod = x[p] * b[p * n + j];
            s = s + prod;
        }
        want[j] = s;
    }
    std::vector<float> none(n);
    auto st = gemv<float>(Form::Plain, x, b, none, y, k, n);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int j = 0; j < n; ++j) ASSERT_EQ(raw_bits(y[j]), raw_bits(want[j])) << j;
}

TEST(GemvFaults, EmptyRightTileIsRejectedAtTheCallSite) {
    auto st = run_cube([] {
        TileLeft<half, 1, kK> l;
        TileRight<half, kK, kN, DYNAMIC, DYNAMIC> r(0, 4);
        TileAcc<float, 1, kN> c;
        TASSIGN(l, 0);
        TASSIGN(r, 0);
        TASSIGN(c, 0);
        TGEMV(c, l, r);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TGEMV: k (Right valid rows) = 0 must lie in 1..4095"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_isa_matrix.cpp"), std::string::npos) << st.message;
}

}  // namespace
