// The Cube's fractal GEMM path against a plain scalar reference written here:
// operands in fractal layouts, the accumulator Nz; every result bit must match
// the documented numerics (start value, each product rounded to float, added
// in ascending k), including NaN, infinities, subnormals and bfloat16
// products that underflow float.
#include <ptosim/float16.hpp>
#include <ptosim/gemm.hpp>
#include <gtest/gtest.h>
#include <cstring>
#include <random>
#include <vector>

namespace {

using ptosim::GemmLayout;
using ptosim::GemmType;

struct Layout {
    int rows, cols;  // storage
    GemmLayout l;
    size_t offset(int r, int c) const {
        const int br = r / l.inner_rows, bc = c / l.inner_cols, ir = r % l.inner_rows, ic = c % l.inner_cols;
        const size_t block = l.blocks_row_major ? static_cast<size_t>(br) * l.blocks_c + bc
                                                : static_cast<size_t>(bc) * l.blocks_r + br;
        const size_t inner = l.inner_row_major ? ir * l.inner_cols + ic : ic * l.inner_rows + ir;
        return block * l.inner_rows * l.inner_cols + inner;
    }
};

Layout make(int rows, int cols, int ir, int ic, bool brm, bool irm) {
    return {rows, cols, GemmLayout{ir, ic, rows / ir, cols / ic, brm, irm}};
}

uint32_t fbits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float bitsf(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// A value of the operand type, as raw bits, and its exact float value.
struct Elem {
    uint32_t raw;
    float value;
};

Elem random_elem(GemmType t, std::mt19937& rng, bool specials) {
    std::uniform_int_distribution<int> pick(0, 99);
    const int p = pick(rng);
    if (t == GemmType::F16) {
        uint16_t b;
        if (specials && p < 2) b = 0x7c00 | (p ? 0x8000 : 0);       // +-Inf
        else if (specials && p < 3) b = 0x7e01;                       // NaN
        else if (specials && p < 8) b = static_cast<uint16_t>(rng() & 0x83ff);  // subnormal
        else b = static_cast<uint16_t>((rng() & 0x83ff) | (((rng() % 12) + 9) << 10));
        return {b, static_cast<float>(half::from_bits(b))};
    }
    if (t == GemmType::BF16) {
        uint16_t b;
        if (specials && p < 2) b = 0x7f80 | (p ? 0x8000 : 0);
        else if (specials && p < 3) b = 0x7fc1;
        else if (specials && p < 10) b = static_cast<uint16_t>((rng() & 0x807f) | ((rng() % 8 + 1) << 7));  // tiny
        else b = static_cast<uint16_t>((rng() & 0x807f) | (((rng() % 40) + 107) << 7));
        return {b, bitsf(static_cast<uint32_t>(b) << 16)};
    }
    float f = std::uniform_real_distribution<float>(-4.f, 4.f)(rng);
    if (specials && p < 2) f = p ? -INFINITY : INFINITY;
    else if (specials && p < 3) f = NAN;
    else if (specials && p < 10) f = bitsf(fbits(f) & 0x807fffffu) * 3;  // subnormal-ish
    return {fbits(f), f};
}

struct Case {
    GemmType type;
    int m, n, k;
    bool acc, bias, specials;
    bool a_nz;  // Left in Nz (A5) rather than Zz (A2A3)
};

void run_case(const Case& cs, std::mt19937& rng) {
    const size_t es = cs.type == GemmType::F32 ? 4 : 2;
    const int c0 = static_cast<int>(32 / es);  // fractal width of an operand
    auto up = [](int v, int q) { return (v + q - 1) / q * q; };
    const Layout la = make(up(cs.m, 16), up(cs.k, c0), 16, c0, !cs.a_nz, true);
    // Right (Zn): row-major blocks of c0 rows x 16 columns, each column-major.
    const Layout lb = make(up(cs.k, c0), up(cs.n, 16), c0, 16, true, false);
    const int crows = up(cs.m, 16), ccols = up(cs.n, 16);
    std::vector<uint8_t> abuf(static_cast<size_t>(la.rows) * la.cols * es, 0xee), bbuf(static_cast<size_t>(lb.rows) * lb.cols * es, 0xee);
    std::vector<float> av(static_cast<size_t>(cs.m) * cs.k), bv(static_cast<size_t>(cs.k) * cs.n);
    for (int r = 0; r < cs.m; ++r)
        for (int c = 0; c < cs.k; ++c) {
            const Elem e = random_elem(cs.type, rng, cs.specials);
            std::memcpy(abuf.data() + la.offset(r, c) * es, &e.raw, es);
            av[static_cast<size_t>(r) * cs.k + c] = e.value;
        }
    for (int r = 0; r < cs.k; ++r)
        for (int c = 0; c < cs.n; ++c) {
            const Elem e = random_elem(cs.type, rng, cs.specials);
            std::memcpy(bbuf.data() + lb.offset(r, c) * es, &e.raw, es);
            bv[static_cast<size_t>(r) * cs.n + c] = e.value;
        }
    // Nz accumulator: (i, j) at (j / 16) * crows * 16 + i * 16 + j % 16.
    const size_t panel = static_cast<size_t>(crows) * 16;
    auto cat = [&](int i, int j) { return (j / 16) * panel + static_cast<size_t>(i) * 16 + j % 16; };
    std::vector<float> cin(static_cast<size_t>(crows) * ccols), c(cin.size());
    for (float& x : cin) x = std::uniform_real_distribution<float>(-8.f, 8.f)(rng);
    for (size_t i = 0; i < c.size(); ++i) c[i] = bitsf(0x7fc00000u + static_cast<uint32_t>(i));  // sentinel NaNs
    std::vector<float> bias(ccols + 16, 99.f);
    for (int j = 0; j < cs.n; ++j) bias[j] = j % 7 == 3 ? -0.0f : std::uniform_real_distribution<float>(-2.f, 2.f)(rng);
    const std::vector<float> c_before = c;

    ASSERT_TRUE(ptosim::gemm_fractal(cs.type, cs.m, cs.n, cs.k, {abuf.data(), la.l}, {bbuf.data(), lb.l}, c.data(),
                                     cs.acc ? cin.data() : nullptr, panel, cs.bias ? bias.data() : nullptr));
    for (int i = 0; i < crows; ++i)
        for (int j = 0; j < ccols; ++j) {
            const size_t o = cat(i, j);
            if (i >= cs.m || j >= cs.n) {
                ASSERT_EQ(fbits(c[o]), fbits(c_before[o])) << "wrote outside m x n at " << i << "," << j;
                continue;
            }
            volatile float sum = cs.acc ? cin[o] : 0.0f;
            if (cs.bias) sum = sum + bias[j];
            for (int p = 0; p < cs.k; ++p) {
                volatile float prod = av[static_cast<size_t>(i) * cs.k + p] * bv[static_cast<size_t>(p) * cs.n + j];
                sum = sum + prod;
            }
            const float ref = sum;
            if (std::isnan(ref)) ASSERT_TRUE(std::isnan(c[o])) << i << "," << j;
            else ASSERT_EQ(fbits(c[o]), fbits(ref)) << "C(" << i << ", " << j << "): " << c[o] << " vs " << ref;
        }
}

TEST(GemmFractal, MatchesScalarReferenceBitForBit) {
    std::mt19937 rng(1234);
    const int shapes[][3] = {{1, 1, 1},   {16, 16, 16}, {6, 16, 7},   {7, 17, 33},   {13, 40, 19},
                             {64, 64, 64}, {31, 5, 100}, {128, 48, 32}, {1, 256, 128}, {50, 33, 2}};
    for (GemmType t : {GemmType::F16, GemmType::BF16, GemmType::F32})
        for (const auto& s : shapes)
            for (int variant = 0; variant < 4; ++variant) {
                const Case cs{t, s[0], s[1], s[2], (variant & 1) != 0, variant == 2, variant >= 2, variant % 2 == 1};
                SCOPED_TRACE(testing::Message() << "type " << int(t) << " m " << s[0] << " n " << s[1] << " k " << s[2]
                                                << " variant " << variant);
                run_case(cs, rng);
                if (HasFatalFailure()) return;
            }
}

// bfloat16 products below float's normal range round (or flush) before the
// add; a fused multiply-add would keep them and change the sum.
TEST(GemmFractal, Bf16ProductsUnderflowBeforeTheAdd) {
    // a = b = 2^-75: the product 2^-150 is half the smallest float subnormal
    // and rounds (ties to even) to 0, so the sum stays at the start value
    // 2^-149; fused, 2^-149 + 2^-150 would round to 2^-148.
    const uint16_t x = 0x1a00;
    std::vector<uint16_t> a(16 * 16, 0), b(16 * 16, 0);
    a[0] = x;  // A(0, 0), Zz
    b[0] = x;  // B(0, 0), Zn
    std::vector<float> c(16 * 16, 0.f), cin(16 * 16, 0.f);
    cin[0] = bitsf(1);
    const GemmLayout zz{16, 16, 1, 1, true, true}, zn{16, 16, 1, 1, true, false};
    ASSERT_TRUE(ptosim::gemm_fractal(GemmType::BF16, 1, 1, 1, {reinterpret_cast<uint8_t*>(a.data()), zz},
                                     {reinterpret_cast<uint8_t*>(b.data()), zn}, c.data(), cin.data(), 256, nullptr));
    EXPECT_EQ(fbits(c[0]), 1u);
}

}  // namespace
