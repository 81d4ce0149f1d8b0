// What code written for the real toolchain finds in ptolab's headers: every
// header path of pto-isa's include/pto (tests/pto_isa_header_paths.txt,
// included through the generated pto_isa_headers.inc), the buffer-size macros
// agreeing with the simulated SoCs, the names those headers declare, and the
// builtins bisheng gives kernel code without an include.
#include "pto_isa_headers.inc"
#include "sim_test_util.hpp"
#include <gtest/gtest.h>
#include <type_traits>

using namespace pto;

namespace {

// A kernel that sizes its buffers from PTO_*_SIZE_BYTES must fit the
// simulated core of every SoC of its target.
TEST(HeaderSurface, BufferLimitsMatchEverySocOfTheTarget) {
    int checked = 0;
    for (const ptosim::SocProfile& p : ptosim::soc_profiles()) {
        if (p.target != testutil::compiled_target()) continue;
        ++checked;
        EXPECT_EQ(p.ub, PTO_UBUF_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.l1, PTO_CBUF_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.l0a, PTO_L0A_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.l0b, PTO_L0B_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.l0c, PTO_L0C_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.bt, PTO_BIAS_SIZE_BYTES) << p.name;
        EXPECT_EQ(p.fb, PTO_FBUF_SIZE_BYTES) << p.name;
    }
    EXPECT_GT(checked, 0);
}

TEST(HeaderSurface, ConstantsAndHelpers) {
    static_assert(REPEAT_MAX == 255 && REPEAT_BYTE == 256 && BLOCK_BYTE_SIZE == 32);
    EXPECT_EQ(CeilDivision(10, 4), 3);
    EXPECT_EQ(CeilDivision(7, 0), 0);
    using Row = Tile<TileType::Vec, float, 8, 8>;
    using Nz = Tile<TileType::Mat, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
    static_assert(GetTileLayoutCustom<Row>() == TileLayoutCustom::ND);
    static_assert(GetTileLayoutCustom<Nz>() == TileLayoutCustom::NZ);
    static_assert(std::is_same_v<aclFloat16, uint16_t>);
    // QuantType's values per target, as pto-isa declares it (host code that
    // redeclares the enum links against kernels instantiated on it).
    static_assert(static_cast<int>(QuantType::INT8_SYM) == (PTOSIM_TARGET_A5 ? 1 : 0));
    static_assert(static_cast<int>(QuantType::INT8_ASYM) == (PTOSIM_TARGET_A5 ? 2 : 1));
    constexpr half two = 2;
    constexpr bfloat16_t minus_half = -0.5;
    static_assert(two.bits == 0x4000 && minus_half.bits == 0xbf00);
}

TEST(Builtins, MinMaxTakeMixedOperandTypes) {
    static_assert(std::is_same_v<decltype(min(3, 2.5)), double>);
    EXPECT_EQ(min(3, 2.5), 2.5);
    EXPECT_EQ(max(short(3), 7L), 7L);
    EXPECT_EQ(max(int64_t(-1), int32_t(-4)), -1);
    EXPECT_EQ(min(8u, 5u), 5u);
}

TEST(Builtins, SysCntCountsDispatchedWorkAndDsbIsANoOp) {
    int64_t before = -1, after = -1;
    auto st = testutil::run_vec([&] {
        using T = Tile<TileType::Vec, float, 8, 8>;
        T a;
        TASSIGN(a, 0);
        before = get_sys_cnt();
        TEXPANDS(a, 1.0f);
        TADD(a, a, a);
        dsb(DSB_ALL);
        after = get_sys_cnt();
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_GE(before, 0);
    EXPECT_EQ(after - before, 2) << "TEXPANDS and TADD";
}

// A kernel on ptolab's headers may save, edit and restore CTRL as public
// kernels do around their own instructions.
TEST(Builtins, CtrlIsReadAndWrittenWithItsBitHelpers) {
    uint64_t start = 1, set = 0, restored = 1;
    auto st = testutil::run_vec([&] {
        start = get_ctrl();
        set_ctrl(sbitset1(start, 59));
        set = get_ctrl();
        set_ctrl(sbitset0(set, 59));
        restored = get_ctrl();
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(start, 0u) << "CTRL starts at zero in every launch";
    EXPECT_EQ(set, uint64_t{1} << 59);
    EXPECT_EQ(restored, 0u);
}

TEST(Builtins, TrapStopsTheCoreAtTheCallersLine) {
    int line = 0;
    std::string msg = testutil::fault_of([&] {
        line = __LINE__ + 1;
        trap();
    });
    EXPECT_NE(msg.find("test_header_surface.cpp:" + std::to_string(line)), std::string::npos) << msg;
    EXPECT_NE(msg.find("trap() called by the kernel"), std::string::npos) << msg;
}

TEST(TileScalar, SetValueThenGetValueThroughAVectorInstruction) {
    float got = 0, raw = 0;
    auto st = testutil::run_vec([&] {
        using T = Tile<TileType::Vec, float, 8, 8>;
        T a, b;
        TASSIGN(a, 0);
        TASSIGN(b, 0x100);
        TEXPANDS(a, 1.5f);
        pipe_barrier(PIPE_ALL);
        a.SetValue(9, 4.0f);
        pipe_barrier(PIPE_ALL);
        TADD(b, a, a);
        pipe_barrier(PIPE_ALL);
        got = b.GetValue(9);
        raw = b.GetValue(10);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(got, 8.0f);
    EXPECT_EQ(raw, 3.0f);
}

TEST(TileScalar, AccessPastTheUnifiedBufferFaults) {
    int line = 0;
    std::string msg = testutil::fault_of([&] {
        using T = Tile<TileType::Vec, float, 8, 8>;
        T a;
        TASSIGN(a, PTO_UBUF_SIZE_BYTES - 256);
        line = __LINE__ + 1;
        a.SetValue(64, 1.0f);
    });
    EXPECT_NE(msg.find("test_header_surface.cpp:" + std::to_string(line)), std::string::npos) << msg;
    EXPECT_NE(msg.find("Tile::SetValue"), std::string::npos) << msg;
}

// The raw burst copies and the L1 fill of pto/common/cce_dma.hpp.
TEST(RawDma, FillL1ThenBurstCopyWithGaps) {
    std::vector<uint16_t> out(64, 0xffff);
    auto st = testutil::run_cube([&] {
        auto* l1 = reinterpret_cast<uint16_t*>(uintptr_t{0x100});
        // 2 repeats of 1 block (16 halves) with a 1-block gap: blocks 0 and 2 of 0x100.
        create_cbuf_matrix(l1, (int64_t{1} << 32) | (int64_t{1} << 16) | 2, uint16_t{0x3c00});
        create_cbuf_matrix(l1 + 16, (int64_t{1} << 16) | 1, uint16_t{7});
        uint16_t* mem = reinterpret_cast<uint16_t*>(ptosim::core().mem[static_cast<int>(ptosim::Space::L1)] + 0x100);
        for (int i = 0; i < 48; ++i) out[i] = mem[i];
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < 48; ++i) EXPECT_EQ(out[i], i / 16 == 1 ? 7 : 0x3c00) << i;
}

#if !PTOSIM_TARGET_A5
TEST(RawDma, CbufToGmA2A3) {
    std::vector<uint8_t> gm(256, 0xee);
    auto st = testutil::run_cube([&] {
        uint8_t* l1 = ptosim::core().mem[static_cast<int>(ptosim::Space::L1)];
        for (int i = 0; i < 128; ++i) l1[0x200 + i] = static_cast<uint8_t>(i);
        // 2 bursts of 1 block; the source skips 1 block, the destination 2.
        copy_cbuf_to_gm(gm.data(), reinterpret_cast<uint8_t*>(uintptr_t{0x200}), 0, 2, 1, 1, 2);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int i = 0; i < 256; ++i) {
        const int want = i < 32 ? i : (i >= 96 && i < 128 ? 64 + (i - 96) : 0xee);
        ASSERT_EQ(gm[i], want) << i;
    }
}
#else
// A5's Cube core copies L1 into the UB of each Vector sub-block of its group.
TEST(RawDma, CbufToUbufReachesEachVectorSubBlockA5) {
    std::vector<float> out(2 * 8, -1.0f);
    auto st = testutil::run_mix(
        [&] {
            auto* l1 = reinterpret_cast<uint16_t*>(uintptr_t{0});
            create_cbuf_matrix(l1, (int64_t{1} << 16) | 1, uint16_t{0x4000});  // 16 halves = 8 floats of 2.0000
            copy_cbuf_to_ubuf(reinterpret_cast<void*>(uintptr_t{0x40}), l1, 0, 1, 1, 0, 0);
            copy_cbuf_to_ubuf(reinterpret_cast<void*>(uintptr_t{0x40}), l1, 1, 1, 1, 0, 0);
            set_intra_block(PIPE_MTE1, 0);
            set_intra_block(PIPE_MTE1, 16);
        },
        [&] {
            wait_intra_block(PIPE_MTE1, 0);
            using T = Tile<TileType::Vec, float, 1, 8>;
            T t;
            TASSIGN(t, 0x40);
            const int sub = static_cast<int>(get_subblockid());
            GlobalTensor<float, Shape<1, 1, 1, 1, 8>, Stride<8, 8, 8, 8, 1>> g(out.data() + 8 * sub);
            TSTORE(g, t);
        });
    ASSERT_TRUE(st.ok()) << st.message;
    for (float v : out) EXPECT_EQ(v, 2.00390625f);  // the bits 0x40004000
}
#endif

}  // namespace
