// The A2A3 sort, gather and transpose intrinsics end to end
// (order_kernels.cpp): sort order and ties, merge order, the exhausted stop
// and VMS4_SR, gathers through offsets and bit patterns, transposes.
#include "acl_fixture.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

extern "C" {
void launch_sort32(uint32_t*, float*, uint32_t*, void*);
void launch_merge(uint32_t*, uint32_t*, void*);
void launch_gather(uint32_t*, uint32_t*, uint32_t*, uint32_t*, void*);
void launch_gatherb(uint32_t*, uint32_t*, uint32_t*, void*);
void launch_transpose(uint16_t*, uint32_t*, uint8_t*, uint16_t*, uint32_t*, uint8_t*, void*);
void launch_transpose_past_ub(void*);
void launch_transpose_tiles(uint32_t*, uint16_t*, uint32_t*, uint16_t*, void*);
}

namespace {

class CceOrder : public cce_test::AclFixture {};

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

TEST_F(CceOrder, Vbitsort32LargestFirstTiesInInputOrderNegativeNanLast) {
    std::vector<float> s(64);
    std::vector<uint32_t> idx(64);
    for (int i = 0; i < 32; ++i) s[i] = static_cast<float>(i * 7 % 5);
    s[3] = std::bit_cast<float>(0xffc00000u);  // -NaN, as pto-isa pads a row's tail
    s[20] = INFINITY;
    for (int i = 0; i < 32; ++i) s[32 + i] = static_cast<float>(i);
    for (int i = 0; i < 64; ++i) idx[i] = 100u + i;
    uint32_t* out = device(std::vector<uint32_t>(128, 0));
    launch_sort32(out, device(s), device(idx), stream);
    const std::vector<uint32_t> r = back(out, 128);
    std::vector<int> want = {20};
    for (int v = 4; v >= 0; --v)
        for (int i = 0; i < 32; ++i)
            if (i != 3 && i != 20 && i * 7 % 5 == v) want.push_back(i);
    want.push_back(3);
    for (int k = 31; k >= 0; --k) want.push_back(32 + k);
    for (int k = 0; k < 64; ++k) {
        EXPECT_EQ(r[2 * k], bits_of(s[want[k]])) << k;
        EXPECT_EQ(r[2 * k + 1], idx[want[k]]) << k;
    }
}

TEST_F(CceOrder, Vmrgsort4MergesListsLowerListFirstOnTiesAndStopsWhenOneRunsOut) {
    std::vector<uint32_t> lists(0x300 / 4, 0);
    const std::vector<std::vector<float>> scores = {{9, 5, 1}, {5, 4}, {8, 5, 2, 0}};
    for (int l = 0; l < 3; ++l)
        for (size_t k = 0; k < scores[l].size(); ++k) {
            lists[l * 64 + 2 * k] = bits_of(scores[l][k]);
            lists[l * 64 + 2 * k + 1] = 10u * l + k;
        }
    uint32_t* out = device(std::vector<uint32_t>(66, 0));
    launch_merge(out, device(lists), stream);
    const std::vector<uint32_t> r = back(out, 66);
    const std::vector<std::pair<float, uint32_t>> want = {{9, 0}, {8, 20}, {5, 1}, {5, 10}, {5, 21},
                                                          {4, 11}, {2, 22}, {1, 2}, {0, 23}};
    for (size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(r[2 * k], bits_of(want[k].first)) << k;
        EXPECT_EQ(r[2 * k + 1], want[k].second) << k;
    }
    // Stopping: list 1 runs out with (4, 11), the sixth structure.
    for (size_t k = 0; k < 6; ++k) {
        EXPECT_EQ(r[32 + 2 * k], bits_of(want[k].first)) << k;
        EXPECT_EQ(r[32 + 2 * k + 1], want[k].second) << k;
    }
    for (int w = 44; w < 50; ++w) EXPECT_EQ(r[w], 0xEEEEEEEEu) << w;
    EXPECT_EQ(r[64], 2u | 2u << 16);  // two taken from lists 0 and 1
    EXPECT_EQ(r[65], 2u);             // and two from list 2; list 3 none
}

TEST_F(CceOrder, VgatherAndVreducev2) {
    std::vector<uint32_t> table(64), offs(64), words(128);
    for (int i = 0; i < 64; ++i) {
        table[i] = 1000u + i;
        offs[i] = static_cast<uint32_t>(i * 5 % 64 * 4);
    }
    for (int i = 0; i < 128; ++i) words[i] = 2000u + i;
    uint32_t* out = device(std::vector<uint32_t>(136, 0));
    launch_gather(out, device(table), device(offs), device(words), stream);
    const std::vector<uint32_t> r = back(out, 136);
    for (int j = 0; j < 40; ++j) EXPECT_EQ(r[j], 1000u + j * 5 % 64) << j;
    for (int j = 40; j < 48; ++j) EXPECT_EQ(r[j], 7u) << j;  // past the count
    for (int k = 0; k < 64; ++k) EXPECT_EQ(r[48 + k], 2000u + 2 * k) << k;  // pattern 1: the even elements
    EXPECT_EQ(r[112], 64u);
    const std::vector<uint32_t> kept = {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19};  // 0x000F0FF3 below 20
    EXPECT_EQ(r[113], kept.size());
    for (size_t k = 0; k < kept.size(); ++k) EXPECT_EQ(r[120 + k], 2000u + kept[k]) << k;
    EXPECT_EQ(r[134], 7u);
}

TEST_F(CceOrder, VgatherbCopiesWholeBlocksThroughOffsetsAtItsBlockStride) {
    std::vector<uint32_t> table(64), offs = {7, 0, 3, 3, 5, 1, 2, 6};
    for (int i = 0; i < 64; ++i) table[i] = 500u + i;
    for (uint32_t& f : offs) f *= 32;
    uint32_t* out = device(std::vector<uint32_t>(128, 0));
    launch_gatherb(out, device(table), device(offs), stream);
    const std::vector<uint32_t> r = back(out, 128);
    for (int blk = 0; blk < 16; ++blk)
        for (int w = 0; w < 8; ++w)
            EXPECT_EQ(r[blk * 8 + w], blk % 2 ? 7u : table[offs[blk / 2] / 4 + w]) << blk << "," << w;
}

// docs/intrinsics/transpose.md, "Bounds": the first block outside UB, in
// repeat order, faults naming its side and bytes.
TEST_F(CceOrder, ScatterVnchwconvPastUbFaultsNamingTheFirstBlockOutside) {
    launch_transpose_past_ub(stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("scatter_vnchwconv_b32 dst: bytes [0x303e0, 0x30400) lie outside UB"), std::string::npos) << m;
    EXPECT_NE(m.find("order_kernels.cpp:"), std::string::npos) << m;
}

TEST_F(CceOrder, ScatterVnchwconvTransposesThroughTheVaRegisters) {
    std::vector<uint16_t> m16(256);
    std::vector<uint32_t> m32(128);
    std::vector<uint8_t> m8(512);
    for (int i = 0; i < 256; ++i) m16[i] = static_cast<uint16_t>(i / 16 * 256 + i % 16);
    for (int i = 0; i < 128; ++i) m32[i] = static_cast<uint32_t>(i / 8 * 1000 + i % 8);
    for (int i = 0; i < 512; ++i) m8[i] = static_cast<uint8_t>(i * 13 + 1);
    uint16_t* o16 = device(std::vector<uint16_t>(256, 0));
    uint32_t* o32 = device(std::vector<uint32_t>(128, 0));
    uint8_t* o8 = device(std::vector<uint8_t>(512, 0));
    launch_transpose(o16, o32, o8, device(m16), device(m32), device(m8), stream);
    const std::vector<uint16_t> r16 = back(o16, 256);
    const std::vector<uint32_t> r32 = back(o32, 128);
    const std::vector<uint8_t> r8 = back(o8, 512);
    for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 16; ++k) EXPECT_EQ(r16[j * 16 + k], m16[k * 16 + j]) << j << "," << k;
    // Block j: column j / 2 of rows (j % 2) * 8 .. + 8.
    for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 8; ++k) EXPECT_EQ(r32[j * 8 + k], m32[((j % 2) * 8 + k) * 8 + j / 2]) << j << "," << k;
    for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 32; ++k)
            EXPECT_EQ(r8[j * 32 + k], k < 16 ? 0xEE : m8[(k - 16) * 32 + j]) << j << "," << k;
}

// TTRANS's address lists over several repeats (ptosim::transpose, docs/speed.md)
// give what the block loop gives: destination block j of a repeat is column
// j / 2 (b32; j for b16) of the repeat's 16 source rows, and a repeat that
// lands on an earlier one's blocks overwrites them. Lists of no regular form
// keep the block loop.
TEST_F(CceOrder, TransposeListsOverSeveralRepeatsGiveTheBlockLoopsBytes) {
    std::vector<uint32_t> m32(48 * 16);
    std::vector<uint16_t> m16(32 * 16);
    for (size_t i = 0; i < m32.size(); ++i) m32[i] = 0x10000u + static_cast<uint32_t>(i);
    for (size_t i = 0; i < m16.size(); ++i) m16[i] = static_cast<uint16_t>(0x8000u + i);
    uint32_t* o32 = device(std::vector<uint32_t>(768, 0));
    uint16_t* o16 = device(std::vector<uint16_t>(512, 0));
    launch_transpose_tiles(o32, o16, device(m32), device(m16), stream);
    const std::vector<uint32_t> r32 = back(o32, 768);
    const std::vector<uint16_t> r16 = back(o16, 512);
    for (int q = 0; q < 8; ++q)
        for (int r = 0; r < 48; ++r) EXPECT_EQ(r32[q * 48 + r], m32[r * 16 + q]) << q << "," << r;
    // The block loop's writes, repeat after repeat: repeat rr's row q at
    // word 384 + rr * 64 + q * 16.
    std::vector<uint32_t> want(256, 0);
    for (int rr = 0; rr < 3; ++rr)
        for (int q = 0; q < 8; ++q)
            for (int k = 0; k < 16; ++k) want[rr * 64 + q * 16 + k] = m32[(rr * 16 + k) * 16 + 8 + q];
    for (int i = 0; i < 256; ++i) EXPECT_EQ(r32[384 + i], want[i]) << i;
    for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 8; ++k)
            EXPECT_EQ(r32[640 + j * 8 + k], m32[(15 - ((j % 2) * 8 + k)) * 16 + j / 2]) << j << "," << k;
    for (int q = 0; q < 16; ++q)
        for (int r = 0; r < 32; ++r) EXPECT_EQ(r16[q * 32 + r], m16[r * 16 + q]) << q << "," << r;
}

}  // namespace
