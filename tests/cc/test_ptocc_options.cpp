// ptocc's bisheng command-line model: every row of the seed's flag table,
// each lint, and the arrangement of include directories and macros.
#include "driver.hpp"
#include "options.hpp"
#include <gtest/gtest.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ptocc;

namespace {

struct Parsed {
    Options o;
    std::vector<Diag> diags;
    bool ok = false;
    bool has(Diag::Level l, const std::string& needle) const {
        return std::any_of(diags.begin(), diags.end(),
                           [&](const Diag& d) { return d.level == l && d.text.find(needle) != std::string::npos; });
    }
    int count(Diag::Level l) const {
        return static_cast<int>(std::count_if(diags.begin(), diags.end(), [&](const Diag& d) { return d.level == l; }));
    }
};

Parsed parse(std::vector<std::string> args) {
    Parsed p;
    p.o = parse_args(args, p.diags);
    p.ok = p.count(Diag::Error) == 0 && resolve(p.o, p.diags);
    return p;
}

// The flag-table rows: arch flag -> target, kind, memory macro.
struct Row {
    const char* arch;
    Target target;
    Kind kind;
    const char* memory_macro;
};
class FlagTable : public testing::TestWithParam<Row> {};

TEST_P(FlagTable, RowResolvesWithItsMemoryMacroAndNoDiagnostics) {
    const Row& r = GetParam();
    Parsed p = parse({"-fPIC", "-shared", "-xcce", std::string("--cce-aicore-arch=") + r.arch, r.memory_macro, "k.cpp", "-o", "k.so"});
    ASSERT_TRUE(p.ok);
    EXPECT_TRUE(p.o.device);
    EXPECT_EQ(p.o.target, r.target);
    EXPECT_EQ(p.o.kind, r.kind);
    EXPECT_EQ(p.count(Diag::Warning), 0);
    EXPECT_EQ(p.count(Diag::Error), 0);
}

// bisheng builds a kernel whatever memory macro it defines (pto-isa's A5
// moe_combine passes -DMEMORY_BASE), so the other target's macro warns,
// citing the row, and the build goes on.
TEST_P(FlagTable, RowWithTheOtherTargetsMemoryMacroWarnsCitingTheRow) {
    const Row& r = GetParam();
    const bool a5 = r.target == Target::A5;
    Parsed p = parse({std::string("--cce-aicore-arch=") + r.arch, a5 ? "-DMEMORY_BASE" : "-DREGISTER_BASE", "k.cpp"});
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.count(Diag::Error), 0);
    EXPECT_TRUE(p.has(Diag::Warning, a5 ? "row 'A5 / DAV_3510'" : "row 'A2A3 / DAV_2201'"));
    EXPECT_TRUE(p.has(Diag::Warning, a5 ? "replace -DMEMORY_BASE with -DREGISTER_BASE" : "replace -DREGISTER_BASE with -DMEMORY_BASE"));
    EXPECT_TRUE(p.has(Diag::Warning, "the kernel builds as it would with bisheng: no PTO header reads the macro"));
}

TEST_P(FlagTable, RowWithoutMemoryMacroWarnsWithTheMacroToAdd) {
    const Row& r = GetParam();
    Parsed p = parse({std::string("--cce-aicore-arch=") + r.arch, "k.cpp"});
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.has(Diag::Warning, std::string("no memory macro")));
    EXPECT_TRUE(p.has(Diag::Warning, r.memory_macro));
}

INSTANTIATE_TEST_SUITE_P(
    Seed, FlagTable,
    testing::Values(Row{"dav-c220-vec", Target::A2A3, Kind::Vec, "-DMEMORY_BASE"},
                    Row{"dav-c220-cube", Target::A2A3, Kind::Cube, "-DMEMORY_BASE"},
                    Row{"dav-c220", Target::A2A3, Kind::Mix, "-DMEMORY_BASE"},
                    Row{"dav-c310-vec", Target::A5, Kind::Vec, "-DREGISTER_BASE"},
                    Row{"dav-c310-cube", Target::A5, Kind::Cube, "-DREGISTER_BASE"},
                    Row{"dav-c310", Target::A5, Kind::Mix, "-DREGISTER_BASE"}),
    [](const auto& info) {
        std::string n = info.param.arch;
        std::replace(n.begin(), n.end(), '-', '_');
        return n;
    });

TEST(Lints, NpuArchConflictingWithAicoreArchIsAnErrorNamingBothAndTheRow) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220-vec", "--npu-arch=dav-3510", "-DMEMORY_BASE", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, "--npu-arch=dav-3510"));
    EXPECT_TRUE(p.has(Diag::Error, "row 'A2A3 / DAV_2201'"));
}

TEST(Lints, CoreTypeConflictingWithArchIsAnError) {
    Parsed p = parse({"--cce-aicore-arch=dav-c310-vec", "--cce-soc-core-type=CubeCore", "-DREGISTER_BASE", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, "conflicts with --cce-aicore-arch=dav-c310-vec"));
    EXPECT_TRUE(p.has(Diag::Error, "row 'A5 / DAV_3510'"));
}

TEST(Lints, CoreTypeWithMixArchIsAnErrorSuggestingTheSingleCoreArch) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220", "--cce-soc-core-type=VecCore", "-DMEMORY_BASE", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, "--cce-aicore-arch=dav-c220-vec"));
}

TEST(Lints, TwoDifferentArchFlagsConflict) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220", "--cce-aicore-arch=dav-c310", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, "conflicting --cce-aicore-arch values 'dav-c220' and 'dav-c310'"));
}

TEST(Lints, MatchingNpuArchAndCoreTypeAreAccepted) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220-cube", "--npu-arch=dav-2201", "--cce-soc-core-type=CubeCore",
                      "-DMEMORY_BASE", "k.cpp"});
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.o.kind, Kind::Cube);
}

TEST(Lints, NpuArchWithCoreTypeSelectsTheSingleCoreBuild) {
    Parsed p = parse({"--npu-arch=dav-3510", "--cce-soc-core-type=VecCore", "-DREGISTER_BASE", "k.cpp"});
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.o.target, Target::A5);
    EXPECT_EQ(p.o.kind, Kind::Vec);
}

TEST(Lints, UnknownArchValueNamesTheValidOnes) {
    Parsed p = parse({"--cce-aicore-arch=dav-m200", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, "dav-m200"));
    EXPECT_TRUE(p.has(Diag::Error, "dav-c310-cube"));
}

TEST(Flags, EveryFlagOfTheIssueIsAccepted) {
    Parsed p = parse({"-xcce", "--cce-aicore-arch=dav-c220", "--npu-arch=dav-2201", "-DMEMORY_BASE", "-fPIC", "-shared",
                      "-o", "lib.so", "-I", "inc", "-Iinc2", "-D", "A=1", "-DB", "-U", "C", "-UD", "-O2", "-std=c++17",
                      "-Wall", "-Wno-unused", "-include", "pre.h", "-xc++", "-Xhost-start", "-fno-strict-aliasing",
                      "-Xhost-end", "-mllvm", "-cce-aicore-stack-size=0x8000", "--cce-fatobj-link", "-Wl,-z,now",
                      "-lm", "-l", "dl", "-L/opt", "-L", "/opt2", "-xcce", "k.cpp", "-c"});
    EXPECT_TRUE(p.ok) << (p.diags.empty() ? "" : p.diags[0].text);
    EXPECT_TRUE(p.o.unknown.empty());
    EXPECT_TRUE(p.o.shared);
    EXPECT_TRUE(p.o.compile_only);
    EXPECT_EQ(p.o.output, "lib.so");
    EXPECT_EQ(p.o.host_only, std::vector<std::string>{"-fno-strict-aliasing"});
    EXPECT_EQ(p.o.link, (std::vector<std::string>{"-Wl,-z,now", "-lm", "-ldl", "-L/opt", "-L/opt2"}));
    ASSERT_EQ(p.o.inputs.size(), 1u);
    EXPECT_EQ(p.o.inputs[0].lang, Lang::Cce);  // the last -x before the input wins
    // -mllvm consumed its value; device-only flags are recorded as ignored
    EXPECT_NE(std::find(p.o.ignored.begin(), p.o.ignored.end(), "-mllvm -cce-aicore-stack-size=0x8000"), p.o.ignored.end());
    EXPECT_NE(std::find(p.o.ignored.begin(), p.o.ignored.end(), "--cce-fatobj-link"), p.o.ignored.end());
    int includes = 0;
    for (const CompileFlag& f : p.o.compile) includes += f.type == CompileFlag::Include;
    EXPECT_EQ(includes, 2);
}

TEST(Flags, UnknownFlagIsRecordedByName) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "--frobnicate", "k.cpp"});
    EXPECT_EQ(p.o.unknown, std::vector<std::string>{"--frobnicate"});
}

TEST(Flags, MissingValueIsAnError) {
    Parsed p = parse({"k.cpp", "-o"});
    EXPECT_TRUE(p.has(Diag::Error, "flag '-o' needs a value"));
}

TEST(Flags, UnclosedXhostStartIsAnError) {
    Parsed p = parse({"-Xhost-start", "-g", "k.cpp"});
    EXPECT_TRUE(p.has(Diag::Error, "not closed by '-Xhost-end'"));
}

TEST(Flags, PtoccOwnFlagsAreNotPassedToBisheng) {
    Parsed p = parse({"--toolchain=bisheng", "--dry-run", "-O2", "k.cpp"});
    EXPECT_EQ(p.o.toolchain, Toolchain::Bisheng);
    EXPECT_TRUE(p.o.dry_run);
    EXPECT_EQ(p.o.user_args, (std::vector<std::string>{"-O2", "k.cpp"}));
}

TEST(Flags, IgnoredFlagsEachHaveAReason) {
    for (const IgnoredFlag& f : ignored_flags()) EXPECT_GT(std::string(f.reason).size(), 20u) << f.flag;
}

// ---------------------------------------------------------------- planning

namespace fs = std::filesystem;

struct TempDir {
    fs::path p;
    TempDir() {
        std::string t = (fs::temp_directory_path() / "ptocc-opt-XXXXXX").string();
        p = mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(p); }
};

std::vector<std::string> find_cmd(const Plan& plan, const std::string& needle) {
    for (const Step& s : plan.steps)
        for (const auto& c : s.run)
            if (std::find(c.begin(), c.end(), needle) != c.end()) return c;
    return {};
}

TEST(Plan, MixBuildCompilesBothVariantsWithTheirMacrosAndPtolabHeadersFirst) {
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "void k(int){}\nextern \"C\" void go(void* s){ k<<<1, nullptr, s>>>(1); }\n";
    fs::create_directories(t.p / "cann" / "include" / "pto");
    std::ofstream(t.p / "cann" / "include" / "pto" / "pto-inst.hpp") << "#error wrong header\n";
    Parsed p = parse({"-xcce", "--cce-aicore-arch=dav-c220", "-DMEMORY_BASE", "-std=c++17",
                      "-I" + (t.p / "cann" / "include").string(), "-I" + t.p.string(), (t.p / "k.cpp").string(),
                      "-shared", "-o", (t.p / "k.so").string()});
    ASSERT_TRUE(p.ok);
    Paths paths{"/repo/include", "/repo/build/src/sim", "g++"};
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
    auto cube = find_cmd(plan, "-D__DAV_C220_CUBE__");
    auto vec = find_cmd(plan, "-D__DAV_C220_VEC__");
    ASSERT_FALSE(cube.empty());
    ASSERT_FALSE(vec.empty());
    for (auto* c : {&cube, &vec}) {
        // ptolab's include directory precedes every user -I
        auto ours = std::find(c->begin(), c->end(), "-I/repo/include");
        auto user = std::find(c->begin(), c->end(), "-I" + t.p.string());
        ASSERT_NE(ours, c->end());
        ASSERT_NE(user, c->end());
        EXPECT_LT(ours, user);
        // the directory holding another pto/pto-inst.hpp is demoted behind the system headers
        EXPECT_EQ(std::find(c->begin(), c->end(), "-I" + (t.p / "cann" / "include").string()), c->end());
        auto demoted = std::find(c->begin(), c->end(), (t.p / "cann" / "include").string());
        ASSERT_NE(demoted, c->end());
        EXPECT_EQ(*(demoted - 1), "-idirafter");
        EXPECT_NE(std::find(c->begin(), c->end(), "-std=c++20"), c->end());
        EXPECT_EQ(std::find(c->begin(), c->end(), "-std=c++17"), c->end());
        EXPECT_NE(std::find(c->begin(), c->end(), "-D__CCE_AICORE__=220"), c->end());
        EXPECT_NE(std::find(c->begin(), c->end(), "-D__NPU_ARCH__=2201"), c->end());
    }
    EXPECT_NE(std::find(cube.begin(), cube.end(), "-D__DAV_CUBE__"), cube.end());
    EXPECT_NE(std::find(vec.begin(), vec.end(), "-D__DAV_VEC__"), vec.end());
    EXPECT_NE(std::find(vec.begin(), vec.end(), "-fvisibility=hidden"), vec.end());
    EXPECT_TRUE(p.has(Diag::Note, "raised to -std=c++20"));
    EXPECT_TRUE(p.has(Diag::Note, "-idirafter"));
    auto link = find_cmd(plan, plan.temp_dir + "/linked-k.so");  // linked aside, then published
    ASSERT_FALSE(link.empty());
    EXPECT_NE(std::find(link.begin(), link.end(), "-lptosim"), link.end());
    EXPECT_NE(std::find(link.begin(), link.end(), "-Wl,-rpath,/repo/build/src/sim"), link.end());
}

TEST(Plan, OldLibraryAbiIsDroppedWithANoteInBothSpellings) {
    // CANN's examples build with -D_GLIBCXX_USE_CXX11_ABI=0 (pto-isa's
    // gemm_ar); ptosim's LaunchSpec holds std::string, so a kernel library
    // built so would crash at its first launch.
    for (const std::vector<std::string>& def :
         {std::vector<std::string>{"-D_GLIBCXX_USE_CXX11_ABI=0"}, std::vector<std::string>{"-D", "_GLIBCXX_USE_CXX11_ABI=0"}}) {
        TempDir t;
        std::ofstream(t.p / "k.cpp") << "void k(){}\nvoid go(){ k<<<1, nullptr, nullptr>>>(); }\n";
        std::vector<std::string> args = {"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-DKEEP=1"};
        args.insert(args.end(), def.begin(), def.end());
        args.insert(args.end(), {(t.p / "k.cpp").string(), "-c", "-o", (t.p / "k.o").string()});
        Parsed p = parse(args);
        ASSERT_TRUE(p.ok);
        Paths paths{"/repo/include", "/repo/build/src/sim", "g++"};
        Plan plan;
        ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
        auto c = find_cmd(plan, "-D__DAV_C220_VEC__");
        ASSERT_FALSE(c.empty());
        EXPECT_NE(std::find(c.begin(), c.end(), "-DKEEP=1"), c.end());
        EXPECT_EQ(std::find(c.begin(), c.end(), "-D_GLIBCXX_USE_CXX11_ABI=0"), c.end());
        EXPECT_EQ(std::find(c.begin(), c.end(), "_GLIBCXX_USE_CXX11_ABI=0"), c.end());
        EXPECT_TRUE(p.has(Diag::Note, "-D_GLIBCXX_USE_CXX11_ABI=0 dropped"));
    }
    // Other values of the macro pass.
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "void k(){}\nvoid go(){ k<<<1, nullptr, nullptr>>>(); }\n";
    Parsed p = parse({"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-D_GLIBCXX_USE_CXX11_ABI=1",
                      (t.p / "k.cpp").string(), "-c", "-o", (t.p / "k.o").string()});
    ASSERT_TRUE(p.ok);
    Paths paths{"/repo/include", "/repo/build/src/sim", "g++"};
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
    auto c = find_cmd(plan, "-D__DAV_C220_VEC__");
    EXPECT_NE(std::find(c.begin(), c.end(), "-D_GLIBCXX_USE_CXX11_ABI=1"), c.end());
    EXPECT_FALSE(p.has(Diag::Note, "dropped"));
}

// pto-isa's test CMake links its kernel libraries with -s; ptosim names the
// user's line of a PTO instruction from the library's line tables, so the
// link keeps them (-s and the linker's own strip options), and says so.
TEST(Plan, StripAllIsNotPassedToTheLinkWithANote) {
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "void k(){}\nvoid go(){ k<<<1, nullptr, nullptr>>>(); }\n";
    Parsed p = parse({"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-fPIC", "-s", "-Wl,--strip-debug",
                      "-rdynamic", "-Wl,-z,now", "-shared", (t.p / "k.cpp").string(), "-o",
                      (t.p / "libk.so").string()});
    ASSERT_TRUE(p.ok);
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, Paths{"/repo/include", "/repo/build/src/sim", "g++"}, true, plan, p.diags));
    auto link = find_cmd(plan, plan.temp_dir + "/linked-libk.so");
    ASSERT_FALSE(link.empty());
    EXPECT_EQ(std::find(link.begin(), link.end(), "-s"), link.end());
    EXPECT_EQ(std::find(link.begin(), link.end(), "-Wl,--strip-debug"), link.end());
    EXPECT_NE(std::find(link.begin(), link.end(), "-rdynamic"), link.end());
    EXPECT_NE(std::find(link.begin(), link.end(), "-Wl,-z,now"), link.end());
    for (const std::string strip : {"-s", "-Wl,--strip-debug"})
        EXPECT_TRUE(p.has(Diag::Note, strip + " not passed to the link: ptosim names the user's call of a PTO "
                                              "instruction in faults and checker reports from the library's line "
                                              "tables, which it strips"));
}

TEST(Plan, A5VecBuildHasOneVariantWithA5Macros) {
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "void k(){}\nvoid go(){ k<<<1, nullptr, nullptr>>>(); }\n";
    Parsed p = parse({"--cce-aicore-arch=dav-c310-vec", "-DREGISTER_BASE", (t.p / "k.cpp").string(), "-c", "-o",
                      (t.p / "k.o").string()});
    ASSERT_TRUE(p.ok);
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, Paths{"/i", "/l", "g++"}, true, plan, p.diags));
    int compiles = 0;
    for (const Step& s : plan.steps)
        for (const auto& c : s.run)
            if (std::find(c.begin(), c.end(), "-c") != c.end()) {
                ++compiles;
                EXPECT_NE(std::find(c.begin(), c.end(), "-D__CCE_AICORE__=310"), c.end());
                EXPECT_NE(std::find(c.begin(), c.end(), "-D__NPU_ARCH__=3510"), c.end());
                EXPECT_NE(std::find(c.begin(), c.end(), "-D__DAV_VEC__"), c.end());
                EXPECT_EQ(std::find(c.begin(), c.end(), "-D__DAV_C220_VEC__"), c.end());
            }
    EXPECT_EQ(compiles, 1);
}

TEST(Plan, HostSourceWithLaunchSyntaxAndNoArchIsAnError) {
    TempDir t;
    std::ofstream(t.p / "main.cpp") << "int main(){ k<<<1, nullptr, nullptr>>>(); }\n";
    Parsed p = parse({(t.p / "main.cpp").string(), "-o", (t.p / "main").string()});
    ASSERT_TRUE(p.ok);
    Plan plan;
    EXPECT_FALSE(plan_build(p.o, Paths{"/i", "/l", "g++"}, true, plan, p.diags));
    EXPECT_TRUE(p.has(Diag::Error, "--cce-aicore-arch"));
}

TEST(Plan, ShellQuoteLeavesPlainWordsAndQuotesTheRest) {
    EXPECT_EQ(shell_quote("-DMEMORY_BASE"), "-DMEMORY_BASE");
    EXPECT_EQ(shell_quote("a b"), "'a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

}  // namespace

// ------------------------------------------------- the drop-in flag surface

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string read_text(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

// Every row of the ignored-flag table is accepted by the parser, recorded as
// ignored (with its value when it takes one) and never reaches the compiler.
TEST(IgnoredTable, EveryMatchedRowIsAcceptedAndRecorded) {
    int rows = 0;
    for (const IgnoredFlag& f : ignored_flags()) {
        std::string m = f.match;
        if (m.empty()) continue;
        ++rows;
        std::string word = m.back() == '*' ? m.substr(0, m.size() - 1) + "example" : m;
        std::vector<std::string> args = {"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", word};
        if (f.takes_value) args.push_back("-some-value=1");
        args.push_back("k.cpp");
        Parsed p = parse(args);
        EXPECT_TRUE(p.ok) << word;
        EXPECT_TRUE(p.o.unknown.empty()) << word;
        EXPECT_TRUE(contains(p.o.ignored, f.takes_value ? word + " -some-value=1" : word)) << word;
        for (const CompileFlag& c : p.o.compile) EXPECT_FALSE(contains(c.argv, word)) << word;
        ASSERT_EQ(p.o.inputs.size(), 1u) << word;
    }
    EXPECT_GE(rows, 20);
}

TEST(IgnoredTable, EveryRowIsInDocsPtoccMdWithItsReason) {
    const std::string doc = read_text(fs::path(PTOLAB_SOURCE_DIR) / "docs" / "ptocc.md");
    ASSERT_FALSE(doc.empty());
    for (const IgnoredFlag& f : ignored_flags()) {
        const std::string row = std::string("| `") + f.flag + "` | " + f.reason + " |";
        EXPECT_NE(doc.find(row), std::string::npos) << "missing row:\n" << row;
    }
}

TEST(IgnoredTable, XaicoreBracketDropsTheFlagsInside) {
    Parsed p = parse({"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-Xaicore-start", "-O3", "-DX=1",
                      "-Xaicore-end", "k.cpp"});
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.o.ignored, (std::vector<std::string>{"-Xaicore-start", "-O3", "-DX=1", "-Xaicore-end"}));
    EXPECT_EQ(p.o.compile.size(), 1u);  // -DMEMORY_BASE only
    Parsed q = parse({"-Xaicore-start", "k.cpp"});
    EXPECT_TRUE(q.has(Diag::Error, "'-Xaicore-start' is not closed by '-Xaicore-end'"));
}

// The compile lines of pto-isa's tests/npu/*/src/st CMake projects and the seed's compile.sh.
TEST(PublicBuildLines, PtoIsaKernelCompileLineIsAcceptedWithoutUnknownFlags) {
    Parsed p = parse({"-D_FORTIFY_SOURCE=2", "-O2", "-std=c++17", "-Wno-macro-redefined", "-Wno-ignored-attributes",
                      "-fstack-protector-strong", "-xcce", "-Xhost-start", "-Xhost-end", "-mllvm",
                      "-cce-aicore-stack-size=0x8000", "-mllvm", "-cce-aicore-function-stack-size=0x8000", "-mllvm",
                      "-cce-aicore-record-overflow=true", "-mllvm", "-cce-aicore-addr-transform", "-mllvm",
                      "-cce-aicore-dcci-insert-for-scalar=false", "--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE",
                      "-isystem", "/opt/cann/include", "-I/src/include", "-MD", "-MT", "CMakeFiles/t.dir/k.cpp.o", "-MF",
                      "CMakeFiles/t.dir/k.cpp.o.d", "-o", "CMakeFiles/t.dir/k.cpp.o", "-c", "/src/k.cpp"});
    EXPECT_TRUE(p.ok) << (p.diags.empty() ? "" : p.diags[0].text);
    EXPECT_TRUE(p.o.unknown.empty());
    EXPECT_EQ(p.o.depend, (std::vector<std::string>{"-MD", "-MT", "CMakeFiles/t.dir/k.cpp.o", "-MF",
                                                    "CMakeFiles/t.dir/k.cpp.o.d"}));
    EXPECT_EQ(p.o.dep_file, "CMakeFiles/t.dir/k.cpp.o.d");
    EXPECT_TRUE(contains(p.o.ignored, "-Wno-macro-redefined"));
    int includes = 0;
    for (const CompileFlag& f : p.o.compile) includes += f.type == CompileFlag::Include;
    EXPECT_EQ(includes, 2);  // -isystem and -I
}

TEST(PublicBuildLines, PtoIsaHostAndLinkLinesAreAccepted) {
    Parsed host = parse({"-xc++", "-include", "stdint.h", "-include", "stddef.h", "-O2", "-std=c++17",
                         "-fstack-protector-strong", "-c", "main.cpp", "-o", "main.o"});
    EXPECT_TRUE(host.ok);
    EXPECT_TRUE(host.o.unknown.empty());
    Parsed link = parse({"-s", "-Wl,-z,relro", "-Wl,-z,now", "--cce-fatobj-link", "main.o", "-o", "t", "-L/c/lib64",
                         "-lruntime_camodel", "-lstdc++", "-lascendcl", "-lm", "-ltiling_api", "-lplatform", "-lc_sec",
                         "-ldl", "-lnnopbase", "-lGTest", "-lpthread"});
    EXPECT_TRUE(link.ok);
    EXPECT_TRUE(link.o.unknown.empty());
    EXPECT_TRUE(contains(link.o.link, "-s"));
}

TEST(SocVersion, DerivesTheTargetFromCannSocNames) {
    EXPECT_EQ(soc_version_target("Ascend910B1"), Target::A2A3);
    EXPECT_EQ(soc_version_target("Ascend910B4"), Target::A2A3);
    EXPECT_EQ(soc_version_target("Ascend910_9391"), Target::A2A3);
    EXPECT_EQ(soc_version_target("Ascend910_9599"), Target::A5);
    EXPECT_EQ(soc_version_target("Ascend950PR_9599"), Target::A5);
    EXPECT_EQ(soc_version_target("Ascend310P3"), std::nullopt);
}

TEST(SocVersion, WithCoreTypeSelectsTheBuild) {
    Parsed vec = parse({"--cce-soc-version=Ascend910B4", "--cce-soc-core-type=VecCore", "-DMEMORY_BASE", "k.cpp"});
    ASSERT_TRUE(vec.ok);
    EXPECT_TRUE(vec.o.device);
    EXPECT_EQ(vec.o.target, Target::A2A3);
    EXPECT_EQ(vec.o.kind, Kind::Vec);
    Parsed cube = parse({"--cce-soc-version=Ascend910_9599", "--cce-soc-core-type=CubeCore", "-DREGISTER_BASE", "k.cpp"});
    ASSERT_TRUE(cube.ok);
    EXPECT_EQ(cube.o.target, Target::A5);
    EXPECT_EQ(cube.o.kind, Kind::Cube);
    Parsed mix = parse({"--cce-soc-version=Ascend950PR_9599", "--cce-soc-core-type=Mix", "-DREGISTER_BASE", "k.cpp"});
    ASSERT_TRUE(mix.ok);
    EXPECT_EQ(mix.o.kind, Kind::Mix);
    Parsed bare = parse({"--cce-soc-version=Ascend910B1", "-DMEMORY_BASE", "k.cpp"});
    ASSERT_TRUE(bare.ok);
    EXPECT_EQ(bare.o.kind, Kind::Mix);
}

TEST(SocVersion, ConflictsAndUnknownNamesAreErrors) {
    Parsed c = parse({"--cce-soc-version=Ascend910_9599", "--cce-aicore-arch=dav-c220-vec", "k.cpp"});
    EXPECT_FALSE(c.ok);
    EXPECT_TRUE(c.has(Diag::Error, "--cce-soc-version=Ascend910_9599 is A5 but --cce-aicore-arch=dav-c220-vec is A2A3"));
    Parsed u = parse({"--cce-soc-version=Ascend310P3", "k.cpp"});
    EXPECT_FALSE(u.ok);
    EXPECT_TRUE(u.has(Diag::Error, "--cce-soc-version=Ascend310P3 is not a PTO SoC"));
    Parsed m = parse({"--cce-aicore-arch=dav-c220-vec", "--cce-soc-core-type=Mix", "k.cpp"});
    EXPECT_FALSE(m.ok);
    EXPECT_TRUE(m.has(Diag::Error, "asks for a mix build"));
}

TEST(Plan, DependencyFlagsGoToTheUsersCompileAndNameTheUsersObject) {
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "void k(int){}\nextern \"C\" void go(void* s){ k<<<1, nullptr, s>>>(1); }\n";
    const std::string obj = (t.p / "k.o").string();
    Parsed p = parse({"-xcce", "--cce-aicore-arch=dav-c220", "-DMEMORY_BASE", "-MD", "-c", (t.p / "k.cpp").string(),
                      "-o", obj});
    ASSERT_TRUE(p.ok);
    Paths paths{"/repo/include", "/repo/build/src/sim", "g++"};
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
    auto cube = find_cmd(plan, "-D__DAV_C220_CUBE__");
    auto vec = find_cmd(plan, "-D__DAV_C220_VEC__");
    ASSERT_FALSE(cube.empty());
    ASSERT_FALSE(vec.empty());
    auto md = std::find(cube.begin(), cube.end(), "-MD");
    ASSERT_NE(md, cube.end());
    EXPECT_EQ(std::vector<std::string>(md, md + 5),
              (std::vector<std::string>{"-MD", "-MF", (t.p / "k.d").string(), "-MT", obj}));
    EXPECT_FALSE(contains(vec, "-MD"));  // the second variant writes no depfile
    bool fix = false;
    for (const Step& s : plan.steps) fix |= s.note.find("name " + (t.p / "k.cpp").string() + " instead of") == 0;
    EXPECT_TRUE(fix);
}

TEST(Plan, CannLibraryNamesAreLibptosimAndRuntimeCamodelIsKeptWhenPresent) {
    TempDir t;
    std::ofstream(t.p / "main.cpp") << "int main(){}\n";
    fs::create_directories(t.p / "sim");
    std::ofstream(t.p / "sim" / "libruntime_camodel.so") << "";
    for (bool present : {true, false}) {
        Parsed p = parse({(t.p / "main.cpp").string(), "-o", (t.p / "m").string(), "-L" + (t.p / (present ? "sim" : "none")).string(),
                          "-lruntime_camodel", "-lascendcl", "-lc_sec", "-ltiling_api", "-lGTest", "-lm"});
        ASSERT_TRUE(p.ok);
        Paths paths{"/repo/include", "/repo/build/src/sim", "g++"};
        Plan plan;
        ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
        auto link = find_cmd(plan, plan.temp_dir + "/linked-m");
        ASSERT_FALSE(link.empty());
        EXPECT_FALSE(contains(link, "-lascendcl"));
        EXPECT_FALSE(contains(link, "-lc_sec"));
        EXPECT_FALSE(contains(link, "-ltiling_api"));
        EXPECT_TRUE(contains(link, "-lGTest"));
        EXPECT_TRUE(contains(link, "-lm"));
        EXPECT_TRUE(contains(link, "-lptosim"));
        auto cam = std::find(link.begin(), link.end(), "-lruntime_camodel");
        if (present) {
            ASSERT_NE(cam, link.end());
            EXPECT_EQ(*(cam - 1), "-Wl,--push-state,--no-as-needed");
            EXPECT_EQ(*(cam + 1), "-Wl,--pop-state");
        } else {
            EXPECT_EQ(cam, link.end());
        }
    }
}

TEST(Plan, PtolabsOwnIncludeDirectoryGivenAgainIsDroppedWithoutANote) {
    TempDir t;
    fs::create_directories(t.p / "inc" / "pto");
    std::ofstream(t.p / "inc" / "pto" / "pto-inst.hpp") << "";
    fs::create_directory_symlink(t.p / "inc", t.p / "cann_include");
    std::ofstream(t.p / "k.cpp") << "extern \"C\" void f(){}\n";
    Parsed p = parse({"-xcce", "--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-I" + (t.p / "cann_include").string(),
                      "-c", (t.p / "k.cpp").string(), "-o", (t.p / "k.o").string()});
    ASSERT_TRUE(p.ok);
    Paths paths{(t.p / "inc").string(), "/repo/build/src/sim", "g++"};
    Plan plan;
    ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags));
    auto c = find_cmd(plan, "-D__DAV_C220_VEC__");
    EXPECT_FALSE(contains(c, "-I" + (t.p / "cann_include").string()));
    EXPECT_FALSE(contains(c, (t.p / "cann_include").string()));
    EXPECT_FALSE(p.has(Diag::Note, "-idirafter"));
}

TEST(CannLibraries, TheListHasTheNamesOfThePublicBuildLines) {
    for (const char* n : {"ascendcl", "runtime", "runtime_camodel", "c_sec", "tiling_api", "platform", "nnopbase",
                          "profapi", "register", "ascend_hal", "graph", "ge_runner", "opapi", "error_manager",
                          "acl_op_compiler", "ascendalog", "mmpa"})
        EXPECT_TRUE(is_cann_library(n)) << n;
    EXPECT_FALSE(is_cann_library("GTest"));
    EXPECT_FALSE(is_cann_library("m"));
}

// pto-isa's tquant: its host main.cpp includes pto/common/type.hpp for
// pto::QuantType. With pto-isa's headers chosen, a host translation unit
// searches the user's tree ahead of ptolab's include/ as the kernels do;
// with ptolab's headers, ptolab's include/ stays first.
TEST(Plan, PtoIsaHostTranslationUnitsSearchTheUsersTreeFirst) {
    TempDir t;
    const std::string tree = (t.p / "pto-isa" / "include").string();
    fs::create_directories(t.p / "pto-isa" / "include" / "pto" / "common");
    std::ofstream(t.p / "pto-isa" / "include" / "pto" / "pto-inst.hpp") << "";
    std::ofstream(t.p / "main.cpp") << "#include <pto/common/type.hpp>\nint main() { return 0; }\n";
    for (const char* headers : {"--pto-headers=pto-isa", "--pto-headers=ptolab"}) {
        const bool pto_isa = std::string(headers) == "--pto-headers=pto-isa";
        Parsed p = parse({headers, "-I" + tree, (t.p / "main.cpp").string(), "-o", (t.p / "m").string()});
        ASSERT_TRUE(p.ok) << headers;
        Paths paths{"/repo/include", "/repo/build/src/sim", "g++", "clang++"};
        Plan plan;
        ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags)) << headers;
        auto c = find_cmd(plan, (t.p / "main.cpp").string());
        ASSERT_FALSE(c.empty()) << headers;
        EXPECT_EQ(c[0], "g++");
        auto ours = std::find(c.begin(), c.end(), "-I/repo/include");
        ASSERT_NE(ours, c.end()) << headers;
        if (pto_isa) {
            auto user = std::find(c.begin(), c.end(), "-I" + tree);
            ASSERT_NE(user, c.end());
            EXPECT_LT(user, ours);
            EXPECT_EQ(std::find(c.begin(), c.end(), "-idirafter"), c.end());
            // __fp16, which bisheng's clang has built in (pto-isa's trowprod host test uses it)
            auto forced = std::find(c.begin(), c.end(), "cce/types.hpp");
            ASSERT_NE(forced, c.end());
            EXPECT_EQ(*(forced - 1), "-include");
        } else {
            EXPECT_EQ(ours, c.begin() + 3);  // g++ -std=c++20 -fPIC -I/repo/include
            EXPECT_EQ(std::find(c.begin(), c.end(), "cce/types.hpp"), c.end());
            auto demoted = std::find(c.begin(), c.end(), tree);
            ASSERT_NE(demoted, c.end());
            EXPECT_EQ(*(demoted - 1), "-idirafter");
        }
    }
}

// The executed-pto-isa build compiles kernels with clang, whose x86 backend
// (LLVM 14) cannot lower memset/memcpy/memmove on UB's address space 256:
// the loops that would become them stay loops. ptolab's headers' builds keep
// the builtins.
TEST(Plan, PtoIsaKernelsAreCompiledWithoutTheMemoryBuiltins) {
    TempDir t;
    std::ofstream(t.p / "k.cpp") << "extern \"C\" void f(){}\n";
    for (const char* headers : {"--pto-headers=pto-isa", "--pto-headers=ptolab"}) {
        const bool pto_isa = std::string(headers) == "--pto-headers=pto-isa";
        Parsed p = parse({headers, "-xcce", "--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "-c",
                          (t.p / "k.cpp").string(), "-o", (t.p / "k.o").string()});
        ASSERT_TRUE(p.ok) << headers;
        Paths paths{"/repo/include", "/repo/build/src/sim", "g++", "clang++"};
        Plan plan;
        ASSERT_TRUE(plan_build(p.o, paths, true, plan, p.diags)) << headers;
        auto c = find_cmd(plan, "-D__DAV_C220_VEC__");
        ASSERT_FALSE(c.empty()) << headers;
        EXPECT_EQ(c[0], pto_isa ? "clang++" : "g++");
        for (const char* f : {"-fno-builtin-memset", "-fno-builtin-memcpy", "-fno-builtin-memmove"})
            EXPECT_EQ(std::find(c.begin(), c.end(), f) != c.end(), pto_isa) << headers << " " << f;
    }
}
