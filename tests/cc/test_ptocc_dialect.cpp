// The translation of a user's pto-isa headers for clang (bisheng_dialect.hpp):
// element assignments wrapped in ::ptosim_cce::store_to, everything else kept.
#include "bisheng_dialect.hpp"
#include <gtest/gtest.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace ptocc;
namespace fs = std::filesystem;

TEST(DialectStores, ElementAssignmentsAreWrapped) {
    EXPECT_EQ(wrap_element_store("                dstPtr[dstOff] = tablePtr[safeIdx];"),
              "                ::ptosim_cce::store_to(dstPtr[dstOff]) = tablePtr[safeIdx];");
    EXPECT_EQ(wrap_element_store("            *dst = MScatterBitsToBf16(MScatterFloatToBf16Bits(sum));"),
              "            ::ptosim_cce::store_to(*dst) = MScatterBitsToBf16(MScatterFloatToBf16Bits(sum));");
    EXPECT_EQ(wrap_element_store("\tdst[i][j] = src[idx[k]]; // both"),
              "\t::ptosim_cce::store_to(dst[i][j]) = src[idx[k]]; // both");
    EXPECT_EQ(wrap_element_store("dstRow[c]= static_cast<T>(0); \\"),
              "::ptosim_cce::store_to(dstRow[c])= static_cast<T>(0); \\");
}

TEST(DialectStores, OtherLinesAreKept) {
    for (const char* line : {
             "    if (dst[i] == src[i]) {",        // a comparison
             "    dst[i] += src[i];",              // a compound assignment
             "    int arr[4] = {0, 1, 2, 3};",     // a declaration
             "    T value = src[i];",              // a declaration
             "    auto [a, b] = pair;",            // a structured binding
             "    [[maybe_unused]] x = 1;",        // an attribute
             "    obj.field[i] = 1;",              // a member's element
             "    return dst[i] = 1;",             // not at the statement's start
             "    * dst = 1;",                     // a continued product, not a dereference
             "    dst = src;",                     // a plain variable
             "    dst[i",                          // unbalanced
             "",
         })
        EXPECT_EQ(wrap_element_store(line), line) << line;
}

TEST(DialectStores, EveryHeaderIsCopiedWithItsLinesAndNamesTheOriginal) {
    std::string t = (fs::temp_directory_path() / "ptocc-dialect-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    const fs::path root(t);
    fs::create_directories(root / "pto" / "npu");
    std::ofstream(root / "pto" / "npu" / "Store.hpp") << "#include \"Plain.hpp\"\ntemplate <typename T>\nvoid f(T* d, T v)\n{\n    d[0] = v;\n}\n";
    std::ofstream(root / "pto" / "npu" / "Plain.hpp") << "int g(int a) { return a; }\n";
    std::ofstream(root / "pto" / "npu" / "notes.md") << "d[0] = v;\n";
    const std::vector<TranslatedHeader> h = translate_dialect(root.string());
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].relative, "pto/npu/Plain.hpp");
    EXPECT_FALSE(h[0].translated);
    EXPECT_EQ(h[0].text, "#line 1 \"" + (root / "pto" / "npu" / "Plain.hpp").string() +
                             "\"\nint g(int a) { return a; }\n");
    EXPECT_EQ(h[1].relative, "pto/npu/Store.hpp");
    EXPECT_TRUE(h[1].translated);
    EXPECT_EQ(h[1].text, "#line 1 \"" + (root / "pto" / "npu" / "Store.hpp").string() +
                             "\"\n#include \"Plain.hpp\"\ntemplate <typename T>\nvoid f(T* d, T v)\n{\n"
                             "    ::ptosim_cce::store_to(d[0]) = v;\n}\n");
    fs::remove_all(root);
}
