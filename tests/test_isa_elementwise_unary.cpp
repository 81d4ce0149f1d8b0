// Element-wise unary instructions, special values and integer edge cases
// against the scalar references of test_isa_elementwise_util.hpp, every
// element type of the compiled target.
#include "test_isa_elementwise_util.hpp"

namespace {

// ---------------------------------------------------------------- unary

EW_TEST(TABS, AbsT, inputs<T>(Gen::Arith), TABS(d, a),
        if constexpr (is_fp<T>) return rnd<T>(std::fabs(val(a))); else return wrap<T>(a < 0 ? -I128(a) : I128(a)))
EW_TEST(TNEG, NegT, inputs<T>(Gen::Arith), TNEG(d, a),
        if constexpr (is_fp<T>) return rnd<T>(-val(a)); else return wrap<T>(-I128(a)))
EW_TEST(TNOT, NotT, inputs<T>(Gen::Arith), TNOT(d, a), return wrap<T>(~I128(a)))
EW_TEST(TRELU, ReluT, inputs<T>(Gen::Arith), TRELU(d, a), return is_nan(a) || !(val(a) < 0) ? a : T(0))
EW_TEST(TEXP, FpT, inputs<T>(Gen::ExpRange), TEXP(d, a), return r_math<T>(a, [](LD x) { return std::exp(x); }))
EW_TEST(TLOG, FpT, inputs<T>(Gen::Positive), TLOG(d, a), return r_math<T>(a, [](LD x) { return std::log(x); }))
EW_TEST(TSQRT, FpT, inputs<T>(Gen::Positive), TSQRT(d, a), return r_math<T>(a, [](LD x) { return std::sqrt(x); }))
EW_TEST(TRSQRT, FpT, inputs<T>(Gen::Positive), TRSQRT(d, a), return r_rsqrt(a))
EW_TEST(TRECIP, FpT, inputs<T>(Gen::Divisor), TRECIP(d, a), return r_math<T>(a, [](LD x) { return 1 / x; }))

TEST(TRSQRT_Types, ScratchTileFormMatches) {
    check<float, float>(inputs<float>(Gen::Positive), [&](auto& d, auto& a, auto& b, auto&) { TRSQRT(d, a, b); },
                        [](float a, float, float, float) { return r_rsqrt(a); });
}

// 1 + 2^-23 (float) and 1 + 2^-10 (half): their square roots round to 1 in
// the element type, so A5's TRSQRT (vsqrt, then 1 divided by it) gives 1;
// A2A3's single rounding gives 1 - 2^-24 and 1 - 2^-11.
TEST(TRSQRT_Types, A5RoundsTheSquareRootFirst) {
    std::vector<float> a(kR * kC, 1.0f), out(kR * kC);
    std::vector<half> ah(kR * kC, half(1.0f)), outh(kR * kC);
    a[0] = 1.0f + 0x1p-23f;
    ah[0] = half(1.0f + 0x1p-10f);
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> ta, tr;
        Tile<TileType::Vec, half, kR, kC> tah, trh;
        TASSIGN(ta, 0);
        TASSIGN(tr, 0x1000);
        TASSIGN(tah, 0x2000);
        TASSIGN(trh, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gah = gm_nd(ah.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tah, gah);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TRSQRT(tr, ta);
        TRSQRT<RsqrtAlgorithm::HIGH_PRECISION>(trh, tah);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto go = gm_nd(out.data(), kR, kC, kC);
        auto goh = gm_nd(outh.data(), kR, kC, kC);
        TSTORE(go, tr);
        TSTORE(goh, trh);
    });
    ASSERT_TRUE(st.ok()) << st.message;
#if PTOSIM_TARGET_A5
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(static_cast<float>(outh[0]), 1.0f);
#else
    EXPECT_EQ(out[0], 1.0f - 0x1p-24f);
    EXPECT_EQ(static_cast<float>(outh[0]), 1.0f - 0x1p-11f);
#endif
}

// Documented edge values, checked without the reference helpers.
TEST(TEXP_Types, SpecialValues) {
    const float in[] = {0.0f, -0.0f, 1.0f, -INFINITY, INFINITY, 89.0f, -104.0f, NAN};
    std::vector<float> a(kR * kC, 0.0f), lg(kR * kC), ex(kR * kC), rs(kR * kC);
    std::copy(std::begin(in), std::end(in), a.begin());
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> ta, te, tl, tr;
        TASSIGN(ta, 0);
        TASSIGN(te, 0x1000);
        TASSIGN(tl, 0x2000);
        TASSIGN(tr, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        TLOAD(ta, ga);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TEXP(te, ta);
        TLOG(tl, ta);
        TRSQRT(tr, ta);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto ge = gm_nd(ex.data(), kR, kC, kC);
        auto gl = gm_nd(lg.data(), kR, kC, kC);
        auto gr = gm_nd(rs.data(), kR, kC, kC);
        TSTORE(ge, te);
        TSTORE(gl, tl);
        TSTORE(gr, tr);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(ex[0], 1.0f);
    EXPECT_EQ(ex[3], 0.0f);
    EXPECT_EQ(ex[4], INFINITY);
    EXPECT_EQ(ex[5], INFINITY);  // exp(89) overflows float
    EXPECT_EQ(ex[6], 0.0f);      // exp(-104) underflows past the smallest subnormal
    EXPECT_TRUE(std::isnan(ex[7]));
    EXPECT_EQ(lg[0], -INFINITY);
    EXPECT_EQ(lg[1], -INFINITY);
    EXPECT_EQ(lg[2], 0.0f);
    EXPECT_TRUE(std::isnan(lg[3]));
    EXPECT_EQ(rs[0], INFINITY);
    EXPECT_EQ(rs[1], -INFINITY);
    EXPECT_TRUE(std::isnan(rs[3]));
}

// A5's 64-bit integers divide by zero to 0 (pto-isa's A5 TDIV golden).
TEST(TDIV_Types, Int64DivisionByZeroIsZeroOnA5) {
#if PTOSIM_TARGET_A5
    std::vector<int64_t> a(kR * kC, 7), b(kR * kC, 0), q(kR * kC, 5);
    a[1] = INT64_MIN;
    b[1] = -1;
    a[2] = -7;
    b[2] = 3;
    auto st = run_vec([&] {
        Tile<TileType::Vec, int64_t, kR, kC> ta, tb, tq;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x2000);
        TASSIGN(tq, 0x4000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TDIV(tq, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto gq = gm_nd(q.data(), kR, kC, kC);
        TSTORE(gq, tq);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(q[0], 0);  // 7 / 0
    EXPECT_EQ(q[1], INT64_MIN);
    EXPECT_EQ(q[2], -2);  // truncated
#else
    GTEST_SKIP() << "A2A3 TDIV has no integer types";
#endif
}

TEST(TDIV_Types, IntegerEdgeCases) {
#if PTOSIM_TARGET_A5
    std::vector<int32_t> a(kR * kC, 7), b(kR * kC, 0), q(kR * kC), r(kR * kC);
    a[1] = INT32_MIN;
    b[1] = -1;
    a[2] = -7;
    b[2] = 2;
    auto st = run_vec([&] {
        Tile<TileType::Vec, int32_t, kR, kC> ta, tb, tq, tr, tmp;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(tq, 0x2000);
        TASSIGN(tr, 0x3000);
        TASSIGN(tmp, 0x4000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TDIV(tq, ta, tb);
        TREM(tr, ta, tb, tmp);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto gq = gm_nd(q.data(), kR, kC, kC);
        auto gr = gm_nd(r.data(), kR, kC, kC);
        TSTORE(gq, tq);
        TSTORE(gr, tr);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(q[0], -1);  // 7 / 0: all ones
    EXPECT_EQ(r[0], 7);   // 7 rem 0: the dividend
    EXPECT_EQ(q[1], INT32_MIN);
    EXPECT_EQ(r[1], 0);
    EXPECT_EQ(q[2], -3);
    EXPECT_EQ(r[2], 1);  // the divisor's sign
#else
    GTEST_SKIP() << "A2A3 TDIV has no integer types";
#endif
}

}  // namespace
