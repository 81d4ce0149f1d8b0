// src/common/hex.hpp: the one hexadecimal spelling of messages and names.
#include "hex.hpp"
#include <gtest/gtest.h>

#include <cstdint>

namespace {

using namespace ptolab::common;

TEST(Hex, MessagesUse0xAndNoPadding) {
    EXPECT_EQ(hex(0), "0x0");
    EXPECT_EQ(hex(0x1f), "0x1f");
    EXPECT_EQ(hex(UINT64_MAX), "0xffffffffffffffff");
    EXPECT_EQ(hex(reinterpret_cast<const void*>(uintptr_t{0x7f00dead0000})), "0x7f00dead0000");
    EXPECT_EQ(hex(static_cast<const void*>(nullptr)), "0x0");
}

TEST(Hex, IdentifiersAreSixteenDigits) {
    EXPECT_EQ(hex16(0), "0000000000000000");
    EXPECT_EQ(hex16(0x1f), "000000000000001f");
    EXPECT_EQ(hex16(UINT64_MAX), "ffffffffffffffff");
}

}  // namespace
