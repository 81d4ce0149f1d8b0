// The A2A3 compare, select, reduction and broadcast intrinsics end to end
// (compare_kernels.cpp): exact bits for mask modes, strides, tails, NaN,
// tie-breaking and the order of a reduction's additions.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

extern "C" {
void launch_compare_bits(uint8_t*, float*, float*, void*, void*);
void launch_select_register(float*, float*, float*, void*);
void launch_select_ub(float*, float*, float*, uint8_t*, void*);
void launch_reduce_repeat(float*, float*, void*);
void launch_reduce_block(float*, void*, float*, void*);
void launch_reduce_block_f32(float*, float*, void*);
void launch_broadcast(uint32_t*, uint32_t*, void*);
}

namespace {

class CceCompare : public cce_test::AclFixture {};

bool bit(const std::vector<uint8_t>& v, size_t at, size_t i) { return (v[at + i / 8] >> (i % 8) & 1) != 0; }
uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

TEST_F(CceCompare, VcmpvWritesOneBitPerSlotOfEveryRepeatIgnoringTheMask) {
    std::vector<float> a(128), b(128, 3.0f);
    for (int i = 0; i < 128; ++i) a[i] = static_cast<float>(i % 7);
    a[5] = NAN;
    b[70] = NAN;
    std::vector<uint16_t> h(128);
    for (int i = 0; i < 128; ++i) h[i] = half(i * 0.25f - 10.0f).bits;
    h[100] = 0x7e00;  // NaN
    uint8_t* out = device(std::vector<uint8_t>(64, 0xCC));  // the UB past the masks reads back as zero
    launch_compare_bits(out, device(a), device(b), device(h), stream);
    const std::vector<uint8_t> r = back(out, 64);
    for (int i = 0; i < 128; ++i) {
        const bool nan = i == 5 || i == 70;
        EXPECT_EQ(bit(r, 0, i), !nan && i % 7 < 3) << "lt " << i;
        EXPECT_EQ(bit(r, 16, i), nan || i % 7 != 3) << "ne " << i;
        EXPECT_EQ(bit(r, 32, i), i != 100 && i >= 48) << "ge " << i;
    }
    for (int i = 48; i < 64; ++i) EXPECT_EQ(r[i], 0) << i;  // nothing written past the three masks
}

TEST_F(CceCompare, VcmpRewritesOnlyMaskedBitsAndVselMode0ReusesThemEachRepeat) {
    std::vector<float> a(128), b(128, 3.5f);
    for (int i = 0; i < 128; ++i) a[i] = static_cast<float>(i);
    float* out = device(std::vector<float>(256, 0.0f));
    launch_select_register(out, device(a), device(b), stream);
    const std::vector<float> r = back(out, 256);
    for (int i = 0; i < 128; ++i) {
        const int j = i % 64;
        const bool first = j < 8 ? j > 3.5 : j % 8 < 4;  // compared slots, then the loaded 0x0F pattern
        EXPECT_EQ(r[i], first ? a[i] : 3.5f) << i;
        EXPECT_EQ(r[128 + i], r[i]) << "vsel without a mode, slot " << i;
    }
}

TEST_F(CceCompare, VselModes1And2ReadConsecutiveBitsFromUb) {
    std::vector<float> a(128), b(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = 1000.0f + i;
        b[i] = -1000.0f - i;
    }
    std::vector<uint8_t> bits(16);
    for (int k = 0; k < 16; ++k) bits[k] = static_cast<uint8_t>(0x5A ^ (k * 37));
    float* out = device(std::vector<float>(208, 0.0f));
    launch_select_ub(out, device(a), device(b), device(bits), stream);
    const std::vector<float> r = back(out, 208);
    for (int e = 0; e < 100; ++e) {
        EXPECT_EQ(r[e], bit(bits, 0, e) ? a[e] : -7.0f) << "mode 1 " << e;
        EXPECT_EQ(r[104 + e], bit(bits, 0, e) ? a[e] : b[e]) << "mode 2 " << e;
    }
    for (int e = 100; e < 104; ++e) {
        EXPECT_EQ(r[e], 5.0f) << e;  // past the count
        EXPECT_EQ(r[104 + e], 5.0f) << e;
    }
}

TEST_F(CceCompare, RepeatReductionsAddAsATreeAndTakeTheFirstExtreme) {
    std::vector<float> a(128);
    for (int j = 0; j < 64; ++j) a[j] = -static_cast<float>(j % 9);
    a[0] = 1e8f;
    a[1] = 1.0f;
    a[2] = -1e8f;
    a[3] = 1.0f;
    a[40] = 1e8f;  // ties with slot 0
    for (int j = 0; j < 64; ++j) a[64 + j] = static_cast<float>(j < 4 ? j + 1 : j % 5);
    float* out = device(std::vector<float>(16, 0.0f));
    launch_reduce_repeat(out, device(a), stream);
    const std::vector<float> r = back(out, 16);
    // (1e8 + 1) + (-1e8 + 1) rounds each pair to +-1e8 first: 0, where a
    // running sum would give 1.
    EXPECT_EQ(r[0], 0.0f);
    EXPECT_EQ(r[1], -1.0f);  // dstRepeatStride 2: the slot between is not written
    EXPECT_EQ(r[2], 10.0f);
    EXPECT_EQ(r[3], -1.0f);
    EXPECT_EQ(r[4], 1e8f);
    EXPECT_EQ(bits_of(r[5]), 0u);
    EXPECT_EQ(r[6], 4.0f);
    EXPECT_EQ(bits_of(r[7]), 3u);
    EXPECT_EQ(bits_of(r[8]), 2u);  // vcmin ONLY_INDEX: -1e8 at slot 2
    EXPECT_EQ(bits_of(r[9]), 5u);  // the first 0 of repeat 1
    EXPECT_EQ(r[10], 1e8f);
    EXPECT_EQ(r[11], 4.0f);
    EXPECT_EQ(r[12], -1.0f);
}

// Float blocks under a full mask (the rows of pto-isa's TROWMAX/TROWSUM):
// the first extreme wins a tie (-0 against +0 keeps the first one's sign),
// a NaN never wins over a number, a block of NaNs gives its first NaN; the
// sums pair neighbours level by level.
TEST_F(CceCompare, FloatBlockReductionsUnderAFullMask) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> a(128);
    for (int i = 0; i < 128; ++i) a[i] = static_cast<float>((i * 7) % 13) - 6.0f;
    for (int i = 0; i < 8; ++i) a[8 + i] = i % 2 ? 0.0f : -0.0f;  // block 1: -0 first
    for (int i = 0; i < 8; ++i) a[16 + i] = i % 2 ? -0.0f : 0.0f;  // block 2: +0 first
    a[24] = nan;                                                  // block 3: a NaN first, then numbers
    for (int i = 0; i < 8; ++i) a[32 + i] = std::bit_cast<float>(0x7fc00000u + i);  // block 4: NaNs only
    a[40] = 1e8f, a[41] = 1.0f, a[42] = -1e8f, a[43] = 1.0f;      // block 5: the tree's rounding
    a[72] = 1e8f, a[73] = 1.0f, a[74] = -1e8f, a[75] = 1.0f;      // block 9 too, in a NaN-free repeat
    for (int i = 0; i < 8; ++i) a[80 + i] = -0.0f;                // block 10: -0 only
    float* out = device(std::vector<float>(56, -1.0f));
    launch_reduce_block_f32(out, device(a), stream);
    const std::vector<float> r = back(out, 56);
    for (int b = 0; b < 16; ++b) {
        const float* v = &a[8 * b];
        float mx = v[0], mn = v[0];
        for (int k = 1; k < 8; ++k) {
            if (std::isnan(mx) ? !std::isnan(v[k]) : v[k] > mx) mx = v[k];
            if (std::isnan(mn) ? !std::isnan(v[k]) : v[k] < mn) mn = v[k];
        }
        const float sum = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
        EXPECT_EQ(bits_of(r[b]), bits_of(mx)) << b;
        EXPECT_EQ(bits_of(r[16 + b]), bits_of(mn)) << b;
        // A sum with a NaN is a NaN (which payload is the host's choice).
        if (std::isnan(sum)) EXPECT_TRUE(std::isnan(r[32 + b])) << b;
        else EXPECT_EQ(bits_of(r[32 + b]), bits_of(sum)) << b;
    }
    EXPECT_EQ(bits_of(r[1]), bits_of(-0.0f));       // max of -0, +0, ...: the first
    EXPECT_EQ(bits_of(r[2]), bits_of(0.0f));
    EXPECT_FALSE(std::isnan(r[3]));                 // the NaN at slot 0 lost to a number
    EXPECT_EQ(bits_of(r[4]), 0x7fc00000u);          // NaNs only: the first
    EXPECT_EQ(r[5], 1e8f);
    // The second repeat's sums alone (an instruction with no NaN): the same
    // bits as within the first instruction, -0 kept.
    for (int b = 0; b < 8; ++b) EXPECT_EQ(bits_of(r[48 + b]), bits_of(r[40 + b])) << b;
    // ((1e8 + 1) + (-1e8 + 1)) + ((6 + 0) + (-6 + 1)): each of the first two
    // pairs rounds to +-1e8, so 1 where the exact sum is 3.
    EXPECT_EQ(bits_of(r[49]), bits_of(1.0f));
    EXPECT_EQ(bits_of(r[50]), bits_of(-0.0f));
}

TEST_F(CceCompare, BlockAndPairReductions) {
    std::vector<uint16_t> h(128, 0);
    h[0] = half(40000.0f).bits;
    h[1] = half(40000.0f).bits;
    h[2] = half(-32768.0f).bits;
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i);
    float* out = device(std::vector<float>(96, 0.0f));
    launch_reduce_block(out, device(h), device(a), stream);
    const std::vector<float> r = back(out, 96);
    // 40000 + 40000 overflows half: the pair keeps 65504, and 65504 - 32768.
    EXPECT_EQ(bits_of(r[0]) & 0xffffu, half(32736.0f).bits);
    EXPECT_EQ(bits_of(r[0]) >> 16, bits_of(-1.0f) >> 16);  // the upper half of the preset float
    for (int b = 0; b < 8; ++b) {
        EXPECT_EQ(r[8 + b], 64.0f * b + 28.0f) << b;
        EXPECT_EQ(r[16 + b], 8.0f * b) << b;
    }
    for (int k = 0; k < 6; ++k) EXPECT_EQ(r[24 + k], 4.0f * k + 1.0f) << k;
    EXPECT_EQ(r[30], 12.0f);  // slot 12 counted, slot 13 past the count
    EXPECT_EQ(r[31], -1.0f);
    for (int k = 0; k < 64; ++k) EXPECT_EQ(r[32 + k], 4.0f * (k % 32) + 1.0f) << k;  // dstRepeatStride 1 = 128 bytes
}

TEST_F(CceCompare, VbrcbFillsOneBlockPerElementAtItsStrides) {
    std::vector<uint32_t> a(16);
    for (int i = 0; i < 16; ++i) a[i] = 100u + i;
    uint32_t* out = device(std::vector<uint32_t>(256, 0));
    launch_broadcast(out, device(a), stream);
    const std::vector<uint32_t> r = back(out, 256);
    for (int blk = 0; blk < 32; ++blk)
        for (int w = 0; w < 8; ++w) {
            const int rep = blk / 16, in_rep = blk % 16;
            const uint32_t want = in_rep % 2 ? 0xEEEEEEEEu : a[rep * 8 + in_rep / 2];
            EXPECT_EQ(r[blk * 8 + w], want) << blk << "," << w;
        }
}

}  // namespace
