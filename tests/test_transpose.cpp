// ptosim::transpose (TTRANS on plain row-major tiles) against the element
// loop, byte for byte: 1-, 2- and 4-byte elements, every shape from 1 x 1 to
// 20 x 40 (blocks of 16 and register blocks of 8 with remainders on both
// sides), strided rows, and destination bytes outside the transpose left as
// they were. 4-byte elements include signalling-NaN patterns: they are moved,
// not computed.
#include <ptosim/transpose.hpp>
#include <gtest/gtest.h>
#include <cstring>
#include <random>
#include <vector>

namespace {

void check_width(int bytes) {
    std::mt19937 rng(0x7a5e0000u + static_cast<unsigned>(bytes));
    for (int rows = 1; rows <= 20; ++rows)
        for (int cols = 1; cols <= 40; ++cols) {
            const size_t src_pitch = static_cast<size_t>(cols) + 3, dst_pitch = static_cast<size_t>(rows) + 5;
            std::vector<uint8_t> src(rows * src_pitch * bytes), got(cols * dst_pitch * bytes, 0xA5);
            for (auto& b : src) b = static_cast<uint8_t>(rng());
            std::vector<uint8_t> want = got;
            for (int j = 0; j < rows; ++j)
                for (int i = 0; i < cols; ++i)
                    std::memcpy(&want[(i * dst_pitch + j) * bytes], &src[(j * src_pitch + i) * bytes], bytes);
            ptosim::transpose(got.data(), src.data(), rows, cols, dst_pitch, src_pitch, bytes);
            ASSERT_EQ(got, want) << bytes << "-byte elements, " << rows << " x " << cols;
        }
}

}  // namespace

TEST(Transpose, FourByteElementsMatchTheElementLoop) { check_width(4); }
TEST(Transpose, TwoByteElementsMatchTheElementLoop) { check_width(2); }
TEST(Transpose, OneByteElementsMatchTheElementLoop) { check_width(1); }
