// securec.h (libc_sec of the CANN-shaped root): results and error codes.
#include <securec.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

TEST(Securec, ErrorCodeValues) {
    EXPECT_EQ(EOK, 0);
    EXPECT_EQ(EINVAL_AND_RESET, 150);
    EXPECT_EQ(ERANGE_AND_RESET, 162);
    EXPECT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(Securec, MemcpyS) {
    char d[8] = "abcdefg";
    EXPECT_EQ(memcpy_s(d, sizeof d, "XYZ", 3), EOK);
    EXPECT_EQ(std::string(d), "XYZdefg");
    EXPECT_EQ(memcpy_s(d, 0, "XYZ", 3), ERANGE);
    EXPECT_EQ(memcpy_s(d, SECUREC_MEM_MAX_LEN + 1, "XYZ", 3), ERANGE);
    EXPECT_EQ(std::string(d), "XYZdefg");  // untouched
    EXPECT_EQ(memcpy_s(nullptr, 8, "XYZ", 3), EINVAL);
    EXPECT_EQ(memcpy_s(d, sizeof d, "0123456789", 9), ERANGE_AND_RESET);
    EXPECT_EQ(std::memcmp(d, "\0\0\0\0\0\0\0\0", 8), 0);
    std::memcpy(d, "abcdefg", 8);
    EXPECT_EQ(memcpy_s(d, sizeof d, nullptr, 3), EINVAL_AND_RESET);
    EXPECT_EQ(d[0], '\0');
    std::memcpy(d, "abcdefg", 8);
    EXPECT_EQ(memcpy_s(d + 1, 7, d, 4), EOVERLAP_AND_RESET);
    EXPECT_EQ(memcpy_s(d, sizeof d, "x", 0), EOK);
}

TEST(Securec, MemmoveSAllowsOverlap) {
    char d[8] = "abcdefg";
    EXPECT_EQ(memmove_s(d + 1, 7, d, 4), EOK);
    EXPECT_EQ(std::string(d), "aabcdfg");
    EXPECT_EQ(memmove_s(d, 4, d + 1, 5), ERANGE_AND_RESET);
    EXPECT_EQ(std::memcmp(d, "\0\0\0\0", 4), 0);
}

TEST(Securec, MemsetS) {
    char d[6] = "abcde";
    EXPECT_EQ(memset_s(d, sizeof d, 'x', 3), EOK);
    EXPECT_EQ(std::string(d), "xxxde");
    EXPECT_EQ(memset_s(d, 4, 'y', 5), ERANGE_AND_RESET);
    EXPECT_EQ(std::string(d, 5), "yyyye");  // the 4 bytes that fit are set
    EXPECT_EQ(memset_s(nullptr, 4, 0, 1), EINVAL);
    EXPECT_EQ(memset_s(d, 0, 0, 1), ERANGE);
}

TEST(Securec, StrcpySAndStrncpyS) {
    char d[6];
    EXPECT_EQ(strcpy_s(d, sizeof d, "hello"), EOK);
    EXPECT_EQ(std::string(d), "hello");
    EXPECT_EQ(strcpy_s(d, sizeof d, "hello!"), ERANGE_AND_RESET);
    EXPECT_EQ(d[0], '\0');
    EXPECT_EQ(strcpy_s(d, sizeof d, nullptr), EINVAL_AND_RESET);
    EXPECT_EQ(strcpy_s(nullptr, 6, "a"), EINVAL);
    EXPECT_EQ(strcpy_s(d, 0, "a"), ERANGE);
    EXPECT_EQ(strncpy_s(d, sizeof d, "hello world", 3), EOK);
    EXPECT_EQ(std::string(d), "hel");
    EXPECT_EQ(strncpy_s(d, sizeof d, "hello world", 6), ERANGE_AND_RESET);
    EXPECT_EQ(d[0], '\0');
    std::strcpy(d, "abcd");
    EXPECT_EQ(strcpy_s(d + 1, 5, d), EOVERLAP_AND_RESET);
}

TEST(Securec, StrcatSAndStrncatS) {
    char d[8] = "ab";
    EXPECT_EQ(strcat_s(d, sizeof d, "cde"), EOK);
    EXPECT_EQ(std::string(d), "abcde");
    EXPECT_EQ(strcat_s(d, sizeof d, "fgh"), ERANGE_AND_RESET);
    EXPECT_EQ(d[0], '\0');
    std::strcpy(d, "ab");
    EXPECT_EQ(strncat_s(d, sizeof d, "cdefghij", 2), EOK);
    EXPECT_EQ(std::string(d), "abcd");
    EXPECT_EQ(strncat_s(d, sizeof d, "efghij", 4), ERANGE_AND_RESET);
    EXPECT_EQ(strcat_s(d, sizeof d, nullptr), EINVAL_AND_RESET);
}

TEST(Securec, SprintfSAndSnprintfS) {
    char d[8];
    EXPECT_EQ(sprintf_s(d, sizeof d, "%d-%s", 42, "ab"), 5);
    EXPECT_EQ(std::string(d), "42-ab");
    EXPECT_EQ(sprintf_s(d, sizeof d, "%s", "12345678"), -1);
    EXPECT_EQ(d[0], '\0');
    EXPECT_EQ(sprintf_s(nullptr, 8, "x"), -1);
    EXPECT_EQ(snprintf_s(d, sizeof d, 3, "%s", "abcdef"), -1);  // truncated to count on purpose
    EXPECT_EQ(std::string(d), "abc");
    EXPECT_EQ(snprintf_s(d, sizeof d, 7, "%s", "abc"), 3);
    EXPECT_EQ(std::string(d), "abc");
    EXPECT_EQ(snprintf_s(d, 4, 7, "%s", "abcdef"), -1);  // destMax too small: cleared
    EXPECT_EQ(d[0], '\0');
}

TEST(Securec, StrtokS) {
    char s[] = "a,b;;c";
    char* ctx = nullptr;
    EXPECT_EQ(std::string(strtok_s(s, ",;", &ctx)), "a");
    EXPECT_EQ(std::string(strtok_s(nullptr, ",;", &ctx)), "b");
    EXPECT_EQ(std::string(strtok_s(nullptr, ",;", &ctx)), "c");
    EXPECT_EQ(strtok_s(nullptr, ",;", &ctx), nullptr);
}

}  // namespace
