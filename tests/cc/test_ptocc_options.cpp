// ptocc's bisheng command-line model: every row of the seed's flag table,
// each lint, and the arrangement of include directories and macros.
#include "driver.hpp"
#include "options.hpp"
#include <gtest/gtest.h>
#include <algorithm>
#include <filesystem>
#include <fstream>

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

TEST_P(FlagTable, RowWithTheOtherTargetsMemoryMacroIsAnErrorCitingTheRow) {
    const Row& r = GetParam();
    const bool a5 = r.target == Target::A5;
    Parsed p = parse({std::string("--cce-aicore-arch=") + r.arch, a5 ? "-DMEMORY_BASE" : "-DREGISTER_BASE", "k.cpp"});
    EXPECT_FALSE(p.ok);
    EXPECT_TRUE(p.has(Diag::Error, a5 ? "row 'A5 / DAV_3510'" : "row 'A2A3 / DAV_2201'"));
    EXPECT_TRUE(p.has(Diag::Error, a5 ? "replace -DMEMORY_BASE with -DREGISTER_BASE" : "replace -DREGISTER_BASE with -DMEMORY_BASE"));
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
    auto link = find_cmd(plan, (t.p / "k.so").string());
    ASSERT_FALSE(link.empty());
    EXPECT_NE(std::find(link.begin(), link.end(), "-lptosim"), link.end());
    EXPECT_NE(std::find(link.begin(), link.end(), "-Wl,-rpath,/repo/build/src/sim"), link.end());
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
