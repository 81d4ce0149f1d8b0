// Host programs written for CANN include PTO headers (pto-isa's
// tests/common/test_common.h includes pto/common/type.hpp) next to ACL's,
// without a kernel target: every pto-isa header path compiles there, the
// element types and enums are visible and aclFloat16 is one type. The tile
// instructions are device code and not declared there
// (tests/compile_fail/host_tadd.cpp).
#include "pto_isa_headers.inc"
#include <acl/acl.h>
#include <gtest/gtest.h>
#include <cmath>
#include <type_traits>

static_assert(!PTOSIM_DEVICE, "this translation unit is host code");

namespace {

TEST(HostHeaders, TypesWithoutInstructions) {
    static_assert(std::is_same_v<aclFloat16, uint16_t>);
    static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
    static_assert(std::is_same_v<__fp16, half>);  // pto-isa's trowprod main.cpp instantiates tests with it
    static_assert(static_cast<int>(pto::TileType::Vec) != static_cast<int>(pto::TileType::Mat));
    // Enums host programs name in their test parameters (pto-isa's tgather main.cpp uses MaskPattern).
    static_assert(static_cast<int>(pto::MaskPattern::P1111) == 7);
    static_assert(static_cast<int>(pto::SetFmatrixMode::FMATRIX_B_MANUAL) == 3);
    static_assert(static_cast<int>(pto::TileLayoutCustom::NONE) == 5);
    EXPECT_EQ(float(half(0.5f)), 0.5f);
}

TEST(HostHeaders, AclFloat16Conversions) {
    EXPECT_EQ(aclFloat16ToFloat(0x3c00), 1.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xc000), -2.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x0001), 5.9604644775390625e-08f);  // smallest subnormal
    EXPECT_TRUE(std::isinf(aclFloat16ToFloat(0x7c00)));
    EXPECT_TRUE(std::isnan(aclFloat16ToFloat(0x7e00)));
    EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
    EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(70000.0f), 0x7c00);  // overflow rounds to infinity
    EXPECT_EQ(aclFloatToFloat16(1.0f + 1.0f / 2048), 0x3c00);  // tie rounds to even
    EXPECT_EQ(aclFloatToFloat16(1.0f + 3.0f / 2048), 0x3c02);
}

}  // namespace
