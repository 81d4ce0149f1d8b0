// The compiler's diagnostics as ptocc prints them: columns of rewritten launch
// lines mapped back to the user's, and every diagnostic caused by the user's
// code leading with the user's file:line:col. Expected texts written by hand.
#include "diagnostics.hpp"
#include "rewrite.hpp"
#include <gtest/gtest.h>

using ptocc::DiagnosticContext;
using ptocc::tidy_diagnostics;

namespace {

const char* kInc = "/opt/ptolab/include";

DiagnosticContext context() {
    DiagnosticContext c;
    c.foreign_dirs = {kInc};
    return c;
}

// Source column of the first byte of `piece`'s last occurrence in the rewritten line 1.
int column_at(const ptocc::RewriteResult& r, const std::string& piece) {
    const std::string head = "#include <ptosim/kernel_launch.hpp>\n#line 1 \"k.cpp\"\n";
    const std::string body = r.text.substr(head.size(), r.text.find('\n', head.size()) - head.size());
    const size_t at = body.rfind(piece);
    EXPECT_NE(at, std::string::npos) << piece;
    return r.columns.at(1).at(at);
}

TEST(RewriteColumns, EveryByteOfALaunchLineMapsToTheUsersColumn) {
    // Columns:        1234567890123456789012345678
    const std::string src = "  k<<<1, nullptr, s>>>(a);\nint x;\n";
    const ptocc::RewriteResult r = ptocc::rewrite_launches(src, "k.cpp");
    ASSERT_EQ(r.columns.size(), 1u);  // line 2 did not move
    EXPECT_EQ(r.columns.at(1).at(0), 1);
    EXPECT_EQ(r.columns.at(1).at(2), 3);                // generated prefix: the kernel name
    EXPECT_EQ(column_at(r, "(static_cast"), 3);         // the kernel call inside the lambda
    EXPECT_EQ(column_at(r, "1, nullptr"), 7);
    EXPECT_EQ(column_at(r, "nullptr"), 10);
    EXPECT_EQ(column_at(r, "s)"), 19);
    EXPECT_EQ(column_at(r, "a)"), 24);
    EXPECT_EQ(column_at(r, ";"), 26);
}

TEST(RewriteColumns, UntouchedSourceHasNoMap) {
    EXPECT_TRUE(ptocc::rewrite_launches("int main() { return 1 << 2; }\n", "k.cpp").columns.empty());
}

TEST(TidyDiagnostics, LaunchColumnsAndCaretAreMappedBack) {
    const std::string src = "void f() {\n    k<<<n, nullptr, s>>>(p, q);\n}\n";
    const ptocc::RewriteResult r = ptocc::rewrite_launches(src, "u.cpp");
    DiagnosticContext c = context();
    c.rewritten["u.cpp"] = ptocc::moved_columns(src, r.text, r.columns);
    // Where GCC puts the error: the '(' after the kernel name in the lambda.
    const std::string line2 = r.text.substr(r.text.find("    ::ptosim"), r.text.find(";\n}") - r.text.find("    ::ptosim"));
    const long col = static_cast<long>(line2.find("(static_cast")) + 1;
    ASSERT_GT(col, 40);
    const std::string in = "u.cpp:2:" + std::to_string(col) + ": error: too many arguments to function 'void k(int*)'\n"
                           "    2 |     k<<<n, nullptr, s>>>(p, q);\n"
                           "      |" + std::string(static_cast<size_t>(col), ' ') + "^\n";
    EXPECT_EQ(tidy_diagnostics(in, c), "u.cpp:2:5: error: too many arguments to function 'void k(int*)'\n"
                                       "    2 |     k<<<n, nullptr, s>>>(p, q);\n"
                                       "      |     ^\n");
}

TEST(TidyDiagnostics, TabsCountAsDisplayColumnsForGccAndBytesForClang) {
    const std::string src = "\tk<<<n, nullptr, s>>>(p);\n";
    const ptocc::RewriteResult r = ptocc::rewrite_launches(src, "u.cpp");
    DiagnosticContext c = context();
    c.rewritten["u.cpp"] = ptocc::moved_columns(src, r.text, r.columns);
    // Output byte 100 is generated text anchored at 'k' (byte 2 of the line).
    EXPECT_EQ(tidy_diagnostics("u.cpp:1:107: error: e\n", c), "u.cpp:1:9: error: e\n");
    c.display_columns = false;
    EXPECT_EQ(tidy_diagnostics("u.cpp:1:100: error: e\n", c), "u.cpp:1:2: error: e\n");
}

TEST(TidyDiagnostics, MacroTokenErrorLeadsWithTheExpansionInTheUsersFile) {
    const std::string in =
        "In file included from /opt/ptolab/include/pto/call_sites.hpp:10,\n"
        "                 from /opt/ptolab/include/pto/pto-inst.hpp:28,\n"
        "                 from k.cpp:1:\n"
        "k.cpp: In function 'void f()':\n"
        "/opt/ptolab/include/pto/call_sites/data_path.hpp:4:20: error: expected initializer before 'TLOAD'\n"
        "    4 | #define TLOAD(...) TLOAD(PTOSIM_HERE, __VA_ARGS__)\n"
        "      |                    ^~~~~\n"
        "k.cpp:13:5: note: in expansion of macro 'TLOAD'\n"
        "   13 |     TLOAD(a, g);\n"
        "      |     ^~~~~\n";
    const std::string out = tidy_diagnostics(in, context());
    EXPECT_EQ(out.substr(0, out.find('\n')), "k.cpp:13:5: error: expected initializer before 'TLOAD'");
    EXPECT_NE(out.find("/opt/ptolab/include/pto/call_sites/data_path.hpp:4:20: note: expected initializer"),
              std::string::npos) << out;
    EXPECT_NE(out.find("In file included from"), std::string::npos) << out;  // still explains the header
}

TEST(TidyDiagnostics, IncludeChainBackToTheFileOfTheErrorIsDropped) {
    const std::string in =
        "In file included from /opt/ptolab/include/pto/call_sites.hpp:10,\n"
        "                 from k.cpp:1:\n"
        "k.cpp: In function 'void f()':\n"
        "k.cpp:13:5: error: expected ',' or ';' before 'TLOAD'\n";
    EXPECT_EQ(tidy_diagnostics(in, context()),
              "k.cpp: In function 'void f()':\n"
              "k.cpp:13:5: error: expected ',' or ';' before 'TLOAD'\n");
}

TEST(TidyDiagnostics, InstantiationErrorLeadsWithTheInnermostUserFrame) {
    const std::string in =
        "/opt/ptolab/include/pto/inst/e.hpp: In instantiation of 'void pto::TADD(...)':\n"
        "k.cpp:9:5:   required from 'void kern<T>() [with T = float]'\n"
        "k.cpp:20:3:   required from here\n"
        "/opt/ptolab/include/pto/inst/e.hpp:134:32: error: static assertion failed: TADD: bad\n"
        "k.cpp:30:1: warning: unused variable 'z'\n";
    const std::string out = tidy_diagnostics(in, context());
    EXPECT_EQ(out,
              "k.cpp:9:5: error: static assertion failed: TADD: bad\n"
              "/opt/ptolab/include/pto/inst/e.hpp: In instantiation of 'void pto::TADD(...)':\n"
              "k.cpp:9:5:   required from 'void kern<T>() [with T = float]'\n"
              "k.cpp:20:3:   required from here\n"
              "/opt/ptolab/include/pto/inst/e.hpp:134:32: note: static assertion failed: TADD: bad\n"
              "k.cpp:30:1: warning: unused variable 'z'\n");
}

TEST(TidyDiagnostics, ErrorsInHeadersWithoutAUserLocationAndOtherTextPassUnchanged) {
    const std::string in =
        "/opt/ptolab/include/pto/x.hpp:3:1: error: oops\n"
        "/usr/bin/ld: cannot find -lfoo: No such file or directory\n"
        "{\"kind\": \"error\", \"locations\": []}\n"
        "compilation terminated.";
    EXPECT_EQ(tidy_diagnostics(in, context()), in);
    EXPECT_EQ(tidy_diagnostics("", context()), "");
}

TEST(TidyDiagnostics, ColouredOutputIsRecognisedAndKeepsItsColours) {
    const std::string in =
        "\x1b[01m\x1b[K/opt/ptolab/include/pto/m.hpp:4:20:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror: \x1b[m\x1b[Kbad\n"
        "\x1b[01m\x1b[Kk.cpp:7:3:\x1b[m\x1b[K \x1b[01;36m\x1b[Knote: \x1b[m\x1b[Kin expansion of macro 'M'\n";
    const std::string out = tidy_diagnostics(in, context());
    EXPECT_EQ(out.substr(0, out.find('\n')), "k.cpp:7:3: error: bad");
    EXPECT_NE(out.find("\x1b[01;31m\x1b[Knote: \x1b[m\x1b[Kbad"), std::string::npos) << out;
}

}  // namespace
