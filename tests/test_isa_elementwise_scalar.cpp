// Element-wise tile-scalar instructions and the mixed-type and
// explicit-template-argument forms against the scalar references of
// test_isa_elementwise_util.hpp, every element type of the compiled target.
#include "test_isa_elementwise_util.hpp"

namespace {

// ---------------------------------------------------------------- tile-scalar

EW_SCALAR_TEST(TSUBS, SubT, inputs<T>(Gen::Arith), TSUBS(d, a, s), return r_sub(a, s))
EW_SCALAR_TEST(TDIVS, DivsT, inputs<T>(Gen::Divisor), TDIVS(d, a, s), return r_div(a, s))
EW_SCALAR_TEST(TDIVS_ScalarFirst, DivsT, inputs<T>(Gen::Divisor), TDIVS(d, s, a), return r_div(s, a))
EW_SCALAR_TEST(TMAXS, SubT, inputs<T>(Gen::Arith), TMAXS(d, a, s), return r_max(a, s))
EW_SCALAR_TEST(TMINS, MinT, inputs<T>(Gen::Arith), TMINS(d, a, s), return r_min(a, s))
EW_SCALAR_TEST(TANDS, BitT, inputs<T>(Gen::Arith), TANDS(d, a, s), return wrap<T>(I128(a) & I128(s)))
EW_SCALAR_TEST(TORS, BitT, inputs<T>(Gen::Arith), TORS(d, a, s), return wrap<T>(I128(a) | I128(s)))
EW_SCALAR_TEST(TXORS, BitT, inputs<T>(Gen::Arith), TXORS(d, a, s), return wrap<T>(I128(a) ^ I128(s)))
EW_SCALAR_TEST(TSHLS, ShiftST, inputs<T>(Gen::Arith), TSHLS(d, a, s), return r_shl(a, s))
EW_SCALAR_TEST(TSHRS, ShiftST, inputs<T>(Gen::Arith), TSHRS(d, a, s), return r_shr(a, s))
EW_SCALAR_TEST(TREMS, RemT, inputs<T>(Gen::Arith), TREMS(d, a, s), return r_rem(a, s))
EW_SCALAR_TEST(TFMODS, RemT, inputs<T>(Gen::Arith), TFMODS(d, a, s), return r_fmod(a, s))
EW_SCALAR_TEST(TLRELU, FpT, inputs<T>(Gen::Arith), TLRELU(d, a, s), return r_relu_slope(a, s))
EW_SCALAR_TEST(TADDSC, AddscT, inputs<T>(Gen::Arith), TADDSC(d, a, s, b), return r_add(r_add(a, s), b))
EW_SCALAR_TEST(TSUBSC, AddscT, inputs<T>(Gen::Arith), TSUBSC(d, a, s, b), return r_add(r_sub(a, s), b))
EW_SCALAR_TEST(TEXPANDS, ExpandsT, inputs<T>(Gen::Arith), TEXPANDS(d, s), return s)
EW_SCALAR_TEST(TAXPY, FpT, inputs<T>(Gen::Arith), TAXPY(d, a, s), return r_axpy(s, a, d0))

// TAXPY's mixed form: a half source accumulating into a float destination.
TEST(TAXPY_Types, HalfSourceIntoFloat) {
    for (half s : scalars<half>()) {
        SCOPED_TRACE("scalar " + show(s));
        check<float, half>(inputs<half>(Gen::Arith), [&](auto& d, auto& a, auto&, auto&) { TAXPY(d, a, s); },
                           [&](half a, half, half, float d0) { return rnd<float>(val(r_mul<float>(val(s), val(a))) + val(d0)); });
    }
}

// (1 + 2^-12) * (1 + 2^-12) - 1 keeps the 2^-24 term when TAXPY rounds once
// (A5, as its vaxpy and pto-isa's A5 golden); A2A3 rounds the product first
// and loses it; in half, (1 + 2^-6) * (1 + 2^-6) - 1 keeps its 2^-12 term
// only on A5.
TEST(TAXPY_Types, RoundsOnceOnA5AndTheProductFirstOnA2A3) {
    std::vector<float> a(kR * kC, 0.0f), d(kR * kC, 0.0f), out(kR * kC);
    a[0] = 1.0f + 0x1p-12f;
    d[0] = -1.0f;
    std::vector<half> ah(kR * kC, half(0.0f)), dh(kR * kC, half(0.0f)), outh(kR * kC);
    ah[0] = half(1.0f + 0x1p-6f);
    dh[0] = half(-1.0f);
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kR, kC> ta, td;
        Tile<TileType::Vec, half, kR, kC> tah, tdh;
        TASSIGN(ta, 0);
        TASSIGN(td, 0x1000);
        TASSIGN(tah, 0x2000);
        TASSIGN(tdh, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gd = gm_nd(d.data(), kR, kC, kC);
        auto go = gm_nd(out.data(), kR, kC, kC);
        auto gah = gm_nd(ah.data(), kR, kC, kC);
        auto gdh = gm_nd(dh.data(), kR, kC, kC);
        auto goh = gm_nd(outh.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(td, gd);
        TLOAD(tah, gah);
        TLOAD(tdh, gdh);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TAXPY(td, ta, 1.0f + 0x1p-12f);
        TAXPY(tdh, tah, half(1.0f + 0x1p-6f));
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, td);
        TSTORE(goh, tdh);
    });
    ASSERT_TRUE(st.ok()) << st.message;
#if PTOSIM_TARGET_A5
    EXPECT_EQ(out[0], 0x1p-11f + 0x1p-24f);
    EXPECT_EQ(static_cast<float>(outh[0]), 0x1p-5f + 0x1p-12f);
#else
    EXPECT_EQ(out[0], 0x1p-11f);  // the product 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 first
    EXPECT_EQ(static_cast<float>(outh[0]), 0x1p-5f);  // the product 1 + 2^-5 + 2^-12 rounds to 1 + 2^-5 first
#endif
}

// TAND on floating-point tiles combines the storage bits (pto-isa's TAnd
// checks only the element size; its A2A3 and A5 system tests AND half tiles),
// NaN payloads included (b runs through NaN encodings).
TEST(TAND_Types, FloatingPointTilesAndTheirBits) {
    std::vector<half> a(kR * kC), b(kR * kC), out(kR * kC);
    for (int i = 0; i < kR * kC; ++i) {
        a[i] = half::from_bits(static_cast<uint16_t>(0x3c00 + 37 * i));
        b[i] = half::from_bits(static_cast<uint16_t>(0xfff0 - 11 * i));
    }
    auto st = run_vec([&] {
        Tile<TileType::Vec, half, kR, kC> ta, tb, td;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(td, 0x2000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        auto gd = gm_nd(out.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TAND(td, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gd, td);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < kR * kC; ++i) {
        ASSERT_EQ(out[i].bits, a[i].bits & b[i].bits) << i;
    }
}

// pto-isa's own kernels name the tile types explicitly (TFMOD<Dst, Src0,
// Src1>(...), TSEL<Tile, Mask>(...)); those calls reach the same instruction
// as the deduced ones.
TEST(ExplicitTemplateArguments, TfmodTremAndTdivMatchTheDeducedCall) {
    using T = Tile<TileType::Vec, float, kR, kC>;
    std::vector<float> a(kR * kC), b(kR * kC), f(kR * kC), q(kR * kC), r(kR * kC);
    for (int i = 0; i < kR * kC; ++i) {
        a[i] = static_cast<float>(i % 17) - 8.5f;
        b[i] = static_cast<float>(i % 5) + 1.0f;
    }
    auto st = run_vec([&] {
        T ta, tb, tf, tq;
        TASSIGN(ta, 0);
        TASSIGN(tb, 0x1000);
        TASSIGN(tf, 0x2000);
        TASSIGN(tq, 0x3000);
        auto ga = gm_nd(a.data(), kR, kC, kC);
        auto gb = gm_nd(b.data(), kR, kC, kC);
        auto gf = gm_nd(f.data(), kR, kC, kC);
        auto gq = gm_nd(q.data(), kR, kC, kC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TFMOD<T, T, T>(tf, ta, tb);
        TDIV<DivAlgorithm::HIGH_PRECISION>(tq, ta, tb);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(gf, tf);
        TSTORE(gq, tq);
        ISA_SYNC(PIPE_MTE3, PIPE_V);
        TREM<T, T, T>(tf, ta, tb);  // the older three-operand form, without the scratch tile
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        auto gr = gm_nd(r.data(), kR, kC, kC);
        TSTORE(gr, tf);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < kR * kC; ++i) {
        EXPECT_EQ(f[i], std::fmod(a[i], b[i])) << i;
        EXPECT_EQ(q[i], a[i] / b[i]) << i;
        EXPECT_EQ(r[i], a[i] - std::floor(a[i] / b[i]) * b[i]) << i;  // TREM rounds the quotient down
    }
}

}  // namespace
