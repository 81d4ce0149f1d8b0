// The launch rewriter: what it rewrites, what it leaves alone, and that no
// token moves to another line.
#include "rewrite.hpp"
#include <gtest/gtest.h>
#include <algorithm>

using ptocc::has_launch_syntax;
using ptocc::rewrite_launches;

namespace {

// The rewritten body (after the #include and #line lines).
std::string body(const std::string& src, int* launches = nullptr) {
    auto r = rewrite_launches(src, "k.cpp");
    if (launches) *launches = r.launches;
    const std::string head = "#include <ptosim/kernel_launch.hpp>\n#line 1 \"k.cpp\"\n";
    EXPECT_EQ(r.text.compare(0, head.size(), head), 0);
    return r.text.substr(head.size());
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(Rewrite, PlainLaunch) {
    int n = 0;
    std::string out = body("k<<<8, nullptr, s>>>(x, y);\n", &n);
    EXPECT_EQ(n, 1);
    EXPECT_EQ(out,
              "::ptosim::cc::launch<PTOCC_TU_ID, 0u, __LINE__>(\"k\", __FILE__, [](auto&&... ptocc_a) { "
              "k(static_cast<decltype(ptocc_a)&&>(ptocc_a)...); }, ::ptosim::cc::config(8, nullptr, s), x, y);\n");
}

TEST(Rewrite, TemplateArgumentsStayOnTheCallee) {
    std::string out = body("ns::k<float, 16, (4 > 2)><<<n, nullptr, s>>>(p);\n");
    EXPECT_NE(out.find("(\"ns::k<float, 16, (4 > 2)>\""), std::string::npos) << out;
    EXPECT_NE(out.find("ns::k<float, 16, (4 > 2)>(static_cast"), std::string::npos) << out;
    EXPECT_NE(out.find("config(n, nullptr, s), p)"), std::string::npos) << out;
}

// pto-isa's A5 tests build kernel names with a function-like macro.
TEST(Rewrite, KernelNameFromAFunctionLikeMacro) {
    std::string out = body("CONCAT(run, CASE)<half, 16>\n    <<<1, nullptr, s>>>(a, b);\n");
    EXPECT_NE(out.find("(\"CONCAT(run, CASE)<half, 16>\""), std::string::npos) << out;
    EXPECT_NE(out.find("{ CONCAT(run, CASE)<half, 16>(static_cast"), std::string::npos) << out;
    EXPECT_NE(out.find("config(1, nullptr, s), a, b)"), std::string::npos) << out;
    EXPECT_EQ(lines(out), 2);
}

// pto-isa's mgather_gm2l1 pastes the kernel name inside its launch macro.
TEST(Rewrite, KernelNamePastedInAMacroBody) {
    std::string out = body("#define L(NAME) void f(void* s) { run_##NAME<<<1, nullptr, s>>>(a); }\n");
    EXPECT_NE(out.find("(\"run_##NAME\""), std::string::npos) << out;
    EXPECT_NE(out.find("{ run_##NAME(static_cast"), std::string::npos) << out;
    EXPECT_EQ(out.find("run_##::"), std::string::npos) << out;
}

TEST(Rewrite, NestedTemplateArguments) {
    std::string out = body("k<A<B<int>>, 3><<<1, nullptr, s>>>();\n");
    EXPECT_NE(out.find("(\"k<A<B<int>>, 3>\""), std::string::npos) << out;
    EXPECT_NE(out.find("k<A<B<int>>, 3>(static_cast"), std::string::npos) << out;
    EXPECT_NE(out.find("config(1, nullptr, s))"), std::string::npos) << out;
}

TEST(Rewrite, EmptyArgumentList) {
    std::string out = body("k<<<1, nullptr, s>>>();");
    EXPECT_NE(out.find("config(1, nullptr, s))"), std::string::npos) << out;
}

TEST(Rewrite, CommentsStringsAndCharsAreLeftAlone) {
    const std::string src =
        "// k<<<1, nullptr, s>>>(x);\n"
        "/* k<<<1, nullptr, s>>>(x); */\n"
        "const char* a = \"k<<<1, nullptr, s>>>(x)\";\n"
        "const char* b = R\"d(k<<<1, nullptr, s>>>(x) )\" )d\";\n"
        "char c = '<'; char d = '\\'';\n"
        "int e = 1'000 << 2;\n";
    int n = -1;
    EXPECT_EQ(body(src, &n), src);
    EXPECT_EQ(n, 0);
    EXPECT_FALSE(has_launch_syntax(src));
}

TEST(Rewrite, TwoLaunchesOnOneLineGetDistinctSites) {
    int n = 0;
    std::string out = body("a<<<1, nullptr, s>>>(x); b<<<2, nullptr, s>>>(y);\n", &n);
    EXPECT_EQ(n, 2);
    EXPECT_NE(out.find("0u, __LINE__>(\"a\""), std::string::npos);
    EXPECT_NE(out.find("1u, __LINE__>(\"b\""), std::string::npos);
    EXPECT_EQ(lines(out), 1);
}

TEST(Rewrite, LaunchInsideALambda) {
    std::string out = body("auto f = [&](int n) { k<<<n, nullptr, s>>>([](int v) { return v; }(3)); };\n");
    EXPECT_NE(out.find("auto f = [&](int n) { ::ptosim::cc::launch<"), std::string::npos) << out;
    EXPECT_NE(out.find("config(n, nullptr, s), [](int v) { return v; }(3)); };"), std::string::npos) << out;
}

TEST(Rewrite, LaunchInAMacroDefinitionKeepsTheContinuations) {
    const std::string src = "#define RUN(kern, s) \\\n  kern<<<4, nullptr, s>>>( \\\n    x)\nRUN(k, st);\n";
    int n = 0;
    std::string out = body(src, &n);
    EXPECT_EQ(n, 1);
    EXPECT_EQ(lines(out), lines(src));
    EXPECT_NE(out.find("(\"kern\", __FILE__"), std::string::npos) << out;
    EXPECT_NE(out.find("config(4, nullptr, s),  \\\n    x)"), std::string::npos) << out;
}

TEST(Rewrite, MacrosInTheConfigurationAndArgumentsAreKept) {
    std::string out = body("k<<<BLOCKS(n), L2, STREAM>>>(ARG(x, y), __LINE__);\n");
    EXPECT_NE(out.find("config(BLOCKS(n), L2, STREAM), ARG(x, y), __LINE__)"), std::string::npos) << out;
}

TEST(Rewrite, MultiLineLaunchKeepsEveryTokenOnItsLine) {
    const std::string src = "void f() {\n  k<float>\n  <<<\n   n,\n   nullptr, s\n  >>>\n  (a,\n   b);\n}\n";
    std::string out = body(src);
    ASSERT_EQ(lines(out), lines(src));
    auto line_of = [](const std::string& s, const std::string& tok) {
        return std::count(s.begin(), s.begin() + static_cast<long>(s.find(tok)), '\n');
    };
    for (const char* tok : {"   n,", "nullptr, s", "a,", "b)"}) EXPECT_EQ(line_of(out, tok) , line_of(src, tok)) << tok;
}

TEST(Rewrite, ShiftExpressionsAreNotLaunches) {
    const std::string src = "int a = x << 3; int b = y >> 2; std::cout << v;\nbool c = p<q && r>s;\n";
    EXPECT_EQ(body(src), src);
}

TEST(Rewrite, UnterminatedLaunchIsLeftForTheCompilerWithANote) {
    auto r = rewrite_launches("k<<<1, nullptr, s;\n", "k.cpp");
    EXPECT_EQ(r.launches, 0);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].line, 1);
    EXPECT_NE(r.errors[0].message.find(">>>"), std::string::npos);
}

TEST(Rewrite, MemberCalleeIsNotRewritten) {
    auto r = rewrite_launches("obj.k<<<1, nullptr, s>>>(x);\n", "k.cpp");
    EXPECT_EQ(r.launches, 0);
    EXPECT_FALSE(r.errors.empty());
}

TEST(Rewrite, LineDirectiveEscapesTheFileName) {
    auto r = rewrite_launches("", "dir \"x\"\\k.cpp");
    EXPECT_NE(r.text.find("#line 1 \"dir \\\"x\\\"\\\\k.cpp\"\n"), std::string::npos);
}

TEST(Rewrite, LeadingGlobalScopeAndReturn) {
    std::string out = body("void f(){ return ::ns::k<<<1, nullptr, s>>>(x); }");
    EXPECT_NE(out.find("return ::ptosim::cc::launch<"), std::string::npos) << out;
    EXPECT_NE(out.find("(\"::ns::k\""), std::string::npos) << out;
}

}  // namespace

namespace {

std::string asm_body(const std::string& src, int* count = nullptr) {
    auto r = rewrite_launches(src, "k.cpp", true);
    if (count) *count = r.device_asm;
    const std::string head = "#include <ptosim/kernel_launch.hpp>\n#line 1 \"k.cpp\"\n";
    return r.text.substr(head.size());
}

TEST(RewriteDeviceAsm, OutputOperandsBecomeArguments) {
    int n = 0;
    std::string out = asm_body("void f() {\n  uint64_t pc;\n  asm volatile(\"MOV %0, PC\\n\" : \"+l\"(pc));\n}\n", &n);
    EXPECT_EQ(n, 1);
    EXPECT_EQ(out, "void f() {\n  uint64_t pc;\n  ::ptosim::cc::device_asm(__FILE__, __LINE__, \"MOV %0, PC\\n\", pc);\n}\n");
}

TEST(RewriteDeviceAsm, NamedOperandsInputsClobbersAndLinesKept) {
    std::string src = "__asm__ __volatile__(\"A\" \"B\"\n : [x] \"=r\"(v[i]), \"=r\"(w)\n : \"r\"(k) : \"memory\");\nint after;\n";
    std::string out = asm_body(src);
    EXPECT_EQ(out, "::ptosim::cc::device_asm(__FILE__, __LINE__, \"A\" \"B\", v[i], w)\n\n;\nint after;\n");
    EXPECT_EQ(lines(out), lines(src));
}

TEST(RewriteDeviceAsm, InsideAMacroBodyTheLinesStayJoined) {
    std::string src = "#define SPIN asm volatile(\"nop\" \\\n  : : : \"memory\")\nint after;\n";
    std::string out = asm_body(src);
    EXPECT_EQ(out, "#define SPIN ::ptosim::cc::device_asm(__FILE__, __LINE__, \"nop\") \\\n\nint after;\n");
    EXPECT_EQ(lines(out), lines(src));
}

TEST(RewriteDeviceAsm, LeftAloneWithoutTheFlagOrInsideLiteralsAndComments) {
    EXPECT_EQ(body("asm(\"nop\");\n"), "asm(\"nop\");\n");
    int n = 0;
    EXPECT_EQ(asm_body("// asm(\"nop\");\nconst char* s = \"asm(x)\";\n", &n), "// asm(\"nop\");\nconst char* s = \"asm(x)\";\n");
    EXPECT_EQ(n, 0);
    EXPECT_TRUE(ptocc::has_device_asm("x; asm(\"nop\");"));
    EXPECT_FALSE(ptocc::has_device_asm("/* asm */ int asm_count;"));
}

}  // namespace

namespace {

// Kernel definitions record their core type after their closing brace, on
// its line (docs/ptocc.md, "Kernel type"); declarations, templates and
// definitions inside a macro body do not.
TEST(Rewrite, KernelDefinitionsRecordTheirCoreType) {
    const std::string src =
        "extern \"C\" __global__ AICORE void vk(__gm__ int32_t __out__* out,\n"
        "                                     int n) {\n"
        "    out[0] = n;\n"
        "}\n"
        "extern \"C\" __global__ AICORE void declared(__gm__ int32_t* out);\n"
        "template <int N> __global__ AICORE void tk(__gm__ int32_t* out) { out[0] = N; }\n"
        "#define K(name) __global__ AICORE void name(int* o) { \\\n  o[0] = 1; }\n"
        "__global__ __attribute__((noinline)) AICORE void ak(int* o) { if (o) { o[0] = 2; } }\n";
    auto r = rewrite_launches(src, "k.cpp");
    EXPECT_EQ(r.definitions, 2);
    const std::string out = body(src);
    EXPECT_EQ(lines(out), lines(src));
    EXPECT_NE(out.find("    out[0] = n;\n} PTOCC_KERNEL_DEFINITION(ptocc_kernel_definition_"), std::string::npos) << out;
    EXPECT_NE(out.find(", \"vk\")\n"), std::string::npos) << out;
    EXPECT_NE(out.find("o[0] = 2; } } PTOCC_KERNEL_DEFINITION(ptocc_kernel_definition_"), std::string::npos) << out;
    EXPECT_NE(out.find(", \"ak\")\n"), std::string::npos) << out;
    EXPECT_EQ(out.find("\"declared\""), std::string::npos) << out;
    EXPECT_EQ(out.find("\"tk\""), std::string::npos) << out;
    EXPECT_EQ(out.find("\"name\""), std::string::npos) << out;
    EXPECT_TRUE(ptocc::has_kernel_keyword(src));
    EXPECT_FALSE(ptocc::has_kernel_keyword("// __global__\nconst char* s = \"__global__\";\n"));
}

}  // namespace
