// ptosim::float_row_fold (TROWSUM/TROWPROD/TROWMAX/TROWMIN on float rows) and
// ptosim::float_col_fold (the TCOL* column reductions) against the
// one-row (one-column)-at-a-time fold of vop::rd's rules, bit for bit (for
// Sum and Prod any NaN where the fold gives a NaN): every
// shape from 1 x 1 to 20 x 40 (rows beyond the eight-row groups, columns
// beyond the 8 x 8 blocks), strided rows, and data with NaNs of distinct
// payloads, signed zeros, infinities and ties. ptosim::float_row_tree_sum
// (A5's TROWSUM) against its scalar definition, NaN payloads included.
#include <ptosim/numerics.hpp>
#include <gtest/gtest.h>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float from_bits(uint32_t u) { return std::bit_cast<float>(u); }

// vop::rd: NaN wins (the first), otherwise only a strictly larger (smaller) value replaces.
float step(ptosim::RowFold op, float acc, float v) {
    switch (op) {
        case ptosim::RowFold::Sum: return acc + v;
        case ptosim::RowFold::Prod: return acc * v;
        case ptosim::RowFold::Max: return !std::isnan(acc) && (std::isnan(v) || v > acc) ? v : acc;
        case ptosim::RowFold::Min: return !std::isnan(acc) && (std::isnan(v) || v < acc) ? v : acc;
    }
    return 0;
}

const char* name(ptosim::RowFold op) {
    switch (op) {
        case ptosim::RowFold::Sum: return "Sum";
        case ptosim::RowFold::Prod: return "Prod";
        case ptosim::RowFold::Max: return "Max";
        case ptosim::RowFold::Min: return "Min";
    }
    return "?";
}

void check(ptosim::RowFold op, bool specials, unsigned seed) {
    std::mt19937 rng(seed);
    const float pool[] = {0.f, -0.f, 1.f, -1.f, INFINITY, -INFINITY, from_bits(0x7fc00001u), from_bits(0xffc00002u),
                          from_bits(0x7f800003u), 3.5f, 3.5f, -2.25f};
    for (int rows = 1; rows <= 20; ++rows)
        for (int cols = 1; cols <= 40; ++cols) {
            const int stride = cols + static_cast<int>(rng() % 9);  // floats per row, padding after the valid ones
            std::vector<float> m(static_cast<size_t>(rows) * stride);
            for (float& x : m) {
                const unsigned pick = rng() % 16;
                x = specials && pick < 3 ? pool[rng() % (sizeof pool / sizeof pool[0])]
                                         : std::ldexp(static_cast<float>(static_cast<int>(rng() % 2001) - 1000), -8);
                if (op == ptosim::RowFold::Prod && !specials) x = 1.0f + x / 4096;  // products stay finite
            }
            std::vector<float> out(rows, from_bits(0x7fbadbadu));
            ptosim::float_row_fold(op, reinterpret_cast<const uint8_t*>(m.data()), stride * sizeof(float), rows, cols,
                                   out.data());
            std::vector<float> col_out(cols, from_bits(0x7fbadbadu));
            ptosim::float_col_fold(op, reinterpret_cast<const uint8_t*>(m.data()), stride * sizeof(float), rows, cols,
                                   col_out.data());
            // Which of two NaNs an add or multiply returns is the host's
            // choice (x86: the first operand); Max/Min choose by the rule.
            const bool arith = op == ptosim::RowFold::Sum || op == ptosim::RowFold::Prod;
            for (int r = 0; r < rows; ++r) {
                float acc = m[static_cast<size_t>(r) * stride];
                for (int c = 1; c < cols; ++c) acc = step(op, acc, m[static_cast<size_t>(r) * stride + c]);
                if (arith && std::isnan(acc) && std::isnan(out[r])) continue;
                ASSERT_EQ(bits(out[r]), bits(acc)) << name(op) << " row " << r << " of " << rows << " x " << cols
                                                   << (specials ? " with special values" : "");
            }
            for (int c = 0; c < cols; ++c) {
                float acc = m[c];
                for (int r = 1; r < rows; ++r) acc = step(op, acc, m[static_cast<size_t>(r) * stride + c]);
                if (arith && std::isnan(acc) && std::isnan(col_out[c])) continue;
                ASSERT_EQ(bits(col_out[c]), bits(acc)) << name(op) << " column " << c << " of " << rows << " x "
                                                       << cols << (specials ? " with special values" : "");
            }
        }
}

TEST(RowFold, RowsAndColumnsMatchTheOneAtATimeFold) {
    for (auto op : {ptosim::RowFold::Sum, ptosim::RowFold::Prod, ptosim::RowFold::Max, ptosim::RowFold::Min}) {
        check(op, false, 1);
        check(op, true, 2);
    }
}

TEST(RowFold, KeepsTheFirstNaNAndTheFirstOfEqualZeros) {
    // Eight rows (the vector path), each its own case.
    const float n1 = from_bits(0x7fc00011u), n2 = from_bits(0xffc00022u);
    const std::vector<std::vector<float>> rows = {
        {1.f, n1, 5.f, n2, 2.f, 0.f, 0.f, 0.f, 9.f},  {-0.f, 0.f, -0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f},
        {0.f, -0.f, 0.f, -0.f, 0.f, 0.f, 0.f, 0.f, 0.f}, {n2, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f},
        {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, n1},    {-INFINITY, -1.f, -2.f, -3.f, -4.f, -5.f, -6.f, -7.f, -8.f},
        {3.f, 3.f, 3.f, 3.f, 3.f, 3.f, 3.f, 3.f, 3.f},   {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f}};
    std::vector<float> m;
    for (const auto& r : rows) m.insert(m.end(), r.begin(), r.end());
    std::vector<float> mx(8), mn(8);
    ptosim::float_row_fold(ptosim::RowFold::Max, reinterpret_cast<const uint8_t*>(m.data()), 9 * sizeof(float), 8, 9, mx.data());
    ptosim::float_row_fold(ptosim::RowFold::Min, reinterpret_cast<const uint8_t*>(m.data()), 9 * sizeof(float), 8, 9, mn.data());
    EXPECT_EQ(bits(mx[0]), bits(n1));
    EXPECT_EQ(bits(mn[0]), bits(n1));
    EXPECT_EQ(bits(mx[1]), bits(-0.f));
    EXPECT_EQ(bits(mn[2]), bits(0.f));
    EXPECT_EQ(bits(mx[3]), bits(n2));
    EXPECT_EQ(bits(mx[4]), bits(n1));
    EXPECT_EQ(mx[5], -1.f);
    EXPECT_EQ(mn[5], -INFINITY);
    EXPECT_EQ(mx[7], 9.f);
}

// A5's TROWSUM order, written out: per 64 columns a binary tree of adjacent
// pairs (past the row's end +0), the parts' sums added in order to +0; two
// NaNs give the first's, quieted.
float tree_row(const float* row, int cols) {
    const auto add = [](float a, float b) {
        const float r = a + b;
        if (r == r) return r;
        return from_bits(bits(std::isnan(a) ? a : std::isnan(b) ? b : r) | 0x00400000u);
    };
    float acc = 0.0f;
    for (int c0 = 0; c0 < cols; c0 += 64) {
        float t[64];
        for (int j = 0; j < 64; ++j) t[j] = c0 + j < cols ? row[c0 + j] : 0.0f;
        for (int n = 64; n > 1; n /= 2)
            for (int i = 0; i < n / 2; ++i) t[i] = add(t[2 * i], t[2 * i + 1]);
        acc = add(acc, t[0]);
    }
    return acc;
}

// Every shape up to 19 rows (the eight-row groups and the rest) and 200
// columns (whole and partial parts and blocks), bit for bit; values whose
// sum depends on the order, and the specials.
TEST(RowTreeSum, MatchesTheTreeOfEachPartAddedInOrder) {
    std::mt19937 rng(7);
    const float pool[] = {0.f, -0.f, INFINITY, -INFINITY, from_bits(0x7fc00001u), from_bits(0xffc00002u),
                          from_bits(0x7f800003u), 1.0e8f, -1.0e8f, 1.f};
    for (const bool specials : {false, true})
        for (int rows = 1; rows <= 19; rows += 3)
            for (int cols = 1; cols <= 200; cols += cols < 20 ? 1 : 7) {
                const int stride = cols + static_cast<int>(rng() % 5);
                std::vector<float> m(static_cast<size_t>(rows) * stride);
                for (float& x : m)
                    x = specials && rng() % 8 == 0 ? pool[rng() % (sizeof pool / sizeof pool[0])]
                                                  : std::ldexp(static_cast<float>(static_cast<int>(rng() % 2001) - 1000), -int(rng() % 30));
                std::vector<float> out(rows, from_bits(0x7fbadbadu));
                ptosim::float_row_tree_sum(reinterpret_cast<const uint8_t*>(m.data()), stride * sizeof(float), rows, cols,
                                           out.data());
                for (int r = 0; r < rows; ++r)
                    ASSERT_EQ(bits(out[r]), bits(tree_row(&m[static_cast<size_t>(r) * stride], cols)))
                        << "row " << r << " of " << rows << " x " << cols << (specials ? " with special values" : "");
            }
    // The order shows: (1e8 + 1) + (-1e8 + 1) is 0 in the tree, 1 in turn;
    // a lone -0 is +0 (the rest of the part is +0).
    const float order[2][4] = {{1.0e8f, 1.f, -1.0e8f, 1.f}, {-0.f, -0.f, -0.f, -0.f}};
    float two[2];
    ptosim::float_row_tree_sum(reinterpret_cast<const uint8_t*>(order), sizeof order[0], 2, 4, two);
    EXPECT_EQ(bits(two[0]), bits(0.f));
    EXPECT_EQ(bits(two[1]), bits(0.f));
}

}  // namespace
