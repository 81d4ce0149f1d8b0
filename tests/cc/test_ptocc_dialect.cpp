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

TEST(DialectNullComparisons, OperandsAreCheckedThroughIsNull) {
    // pto-isa's own lines (sdma_async_detail_basic.hpp, a5/async/TPutAsync.hpp).
    EXPECT_EQ(rewrite_null_comparisons("    return tmpBuf.addr != nullptr && tmpBuf.size >= sizeof(uint64_t);"),
              "    return !::ptosim_cce::is_null(tmpBuf.addr) && tmpBuf.size >= sizeof(uint64_t);");
    EXPECT_EQ(rewrite_null_comparisons("    if (addr == nullptr || size < sizeof(uint64_t)) {"),
              "    if (::ptosim_cce::is_null(addr) || size < sizeof(uint64_t)) {");
    EXPECT_EQ(rewrite_null_comparisons(
                  "    PTO_ASSERT(ubBuf != nullptr && ubSize > 0, \"TPUT_ASYNC MTE fallback: tmpBuf is invalid\");"),
              "    PTO_ASSERT(!::ptosim_cce::is_null(ubBuf) && ubSize > 0, \"TPUT_ASYNC MTE fallback: tmpBuf is invalid\");");
    EXPECT_EQ(rewrite_null_comparisons("        srcGlobalData.data() != nullptr && dstGlobalData.data() != nullptr,"),
              "        !::ptosim_cce::is_null(srcGlobalData.data()) && !::ptosim_cce::is_null(dstGlobalData.data()),");
    EXPECT_EQ(rewrite_null_comparisons("    session.valid = (workspace != nullptr);"),
              "    session.valid = (!::ptosim_cce::is_null(workspace));");
    EXPECT_EQ(rewrite_null_comparisons("    ok = ctx->bufs[i]==nullptr ? a : b;"),
              "    ok = ::ptosim_cce::is_null(ctx->bufs[i]) ? a : b;");
    EXPECT_EQ(rewrite_null_comparisons("    return ::pto::g_buf == nullptr;"),
              "    return ::ptosim_cce::is_null(::pto::g_buf);");
}

TEST(DialectNullComparisons, OtherComparisonsAreKept) {
    for (const char* line : {
             "    if (base + off == nullptr) {",          // the operand is a sum
             "    if (*p == nullptr) {",                   // a dereference binds tighter
             "    if (!p == nullptr) {",                   // so does a negation
             "    if ((p) == nullptr) {",                  // a parenthesised operand
             "    if (nullptr == p) {",                    // nullptr on the left
             "    p = nullptr;",                           // an assignment
             "    PTO_ASSERT(ok, \"p != nullptr failed\");",  // a literal
             "    f(p); // p != nullptr here",             // a comment
             "    bool b = a == b == nullptr;",            // a chained comparison
             "    if (p == nullptr_t{}) {",                // another name
         })
        EXPECT_EQ(rewrite_null_comparisons(line), line) << line;
}

TEST(DialectStores, EveryHeaderIsCopiedWithItsLinesAndNamesTheOriginal) {
    std::string t = (fs::temp_directory_path() / "ptocc-dialect-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    const fs::path root(t);
    fs::create_directories(root / "pto" / "npu");
    std::ofstream(root / "pto" / "npu" / "Store.hpp") << "#include \"Plain.hpp\"\ntemplate <typename T>\nvoid f(T* d, T v)\n{\n    d[0] = v;\n}\nbool n(int* p) { return p == nullptr; }\n";
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
                             "    ::ptosim_cce::store_to(d[0]) = v;\n}\n"
                             "bool n(int* p) { return ::ptosim_cce::is_null(p); }\n");
    fs::remove_all(root);
}
