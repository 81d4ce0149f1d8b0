// The planner's pure stages: classify_inputs and plan_jobs, called with
// source text in memory (the paths below need not exist).
#include "driver.hpp"
#include "options.hpp"
#include <gtest/gtest.h>
#include <algorithm>

using namespace ptocc;

namespace {

Options parsed(const std::vector<std::string>& args) {
    std::vector<Diag> diags;
    Options o = parse_args(args, diags);
    EXPECT_TRUE(diags.empty());
    EXPECT_TRUE(resolve(o, diags));
    return o;
}

std::vector<ClassifiedInput> classify(const Options& o, std::vector<Diag>& diags) {
    std::vector<ClassifiedInput> v;
    EXPECT_TRUE(classify_inputs(o, v, diags));
    return v;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const Paths kPaths{"/repo/include", "/repo/lib", "g++"};

TEST(ClassifyInputs, LanguageFromXThenExtensionThenArch) {
    std::vector<Diag> d2;
    Options dev = parsed({"--cce-aicore-arch=dav-c220-vec", "-DMEMORY_BASE", "a.cpp", "b.c", "c.cce", "-xc++", "d.cce",
                          "-xnone", "e.o", "f.so.1", "-xc", "g.a"});
    auto v = classify(dev, d2);
    ASSERT_EQ(v.size(), 7u);
    EXPECT_EQ(v[0].lang, Lang::Cce);  // a device build's .cpp is a kernel source
    EXPECT_EQ(v[1].lang, Lang::C);
    EXPECT_EQ(v[2].lang, Lang::Cce);
    EXPECT_EQ(v[3].lang, Lang::Cxx);  // -xc++ wins over .cce
    EXPECT_TRUE(v[4].link_only);
    EXPECT_TRUE(v[5].link_only);
    EXPECT_FALSE(v[6].link_only);  // under -xc an archive name is a C source
    EXPECT_EQ(v[6].lang, Lang::C);
    EXPECT_EQ(v[0].path, "a.cpp");
}

TEST(ClassifyInputs, HostBuildCppIsHostCode) {
    std::vector<Diag> diags;
    auto v = classify(parsed({"main.cpp", "k.o"}), diags);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].lang, Lang::Cxx);
    EXPECT_FALSE(v[0].link_only);
    EXPECT_EQ(v[1].lang, Lang::Auto);
    EXPECT_TRUE(v[1].link_only);
}

TEST(ClassifyInputs, UsageErrors) {
    struct Case {
        std::vector<std::string> args;
        std::string error;
    };
    for (const Case& c : std::vector<Case>{
             {{"-O2"}, "no input files; usage: ptocc [bisheng flags] kernel.cpp -o libkernel.so"},
             {{"-c", "a.cpp", "b.cpp", "-o", "x.o"},
              "-c with -o takes one source file, but 2 were given; drop -o or compile them one at a time"},
             {{"-c", "a.o"}, "-c needs a source file to compile; object files are linked with -shared"},
             {{"k.cce"}, "k.cce is a kernel source (-xcce or .cce) but no device architecture was given; add "
                         "--cce-aicore-arch=dav-c220-vec|dav-c220-cube|dav-c220|dav-c310-vec|dav-c310-cube|dav-c310"},
         }) {
        std::vector<Diag> diags;
        std::vector<ClassifiedInput> v;
        EXPECT_FALSE(classify_inputs(parsed(c.args), v, diags)) << c.error;
        ASSERT_EQ(diags.size(), 1u) << c.error;
        EXPECT_EQ(diags[0].level, Diag::Error);
        EXPECT_EQ(diags[0].text, c.error);
    }
}

struct Jobs {
    Plan plan;
    std::vector<Diag> diags;
    bool ok = false;
};

Jobs jobs(const std::vector<std::string>& args, const std::vector<std::string>& texts, bool terminal = false) {
    Jobs j;
    Options o = parsed(args);
    std::vector<ClassifiedInput> in;
    EXPECT_TRUE(classify_inputs(o, in, j.diags));
    JobContext ctx{"/tmp/T", texts, terminal};
    j.ok = plan_jobs(o, kPaths, in, ctx, j.plan, j.diags);
    return j;
}

const char* kLaunch = "void k(int){}\nextern \"C\" void go(void* s){ k<<<1, nullptr, s>>>(1); }\n";

TEST(PlanJobs, MixKernelLibraryStepsInOrder) {
    Jobs j = jobs({"-xcce", "--cce-aicore-arch=dav-c220", "-DMEMORY_BASE", "/src/k.cpp", "-shared", "-o", "/out/k.so"},
                  {kLaunch});
    ASSERT_TRUE(j.ok);
    std::vector<std::string> notes;
    std::vector<size_t> commands;
    for (const Step& s : j.plan.steps) {
        notes.push_back(s.note);
        commands.push_back(s.run.size());
    }
    EXPECT_EQ(notes, (std::vector<std::string>{
                         "rewrite 1 launch site(s) of /src/k.cpp into /tmp/T/0-k.ptocc.cpp",
                         "write /tmp/T/0-k.stub.cpp: embeds /tmp/T/0-k.aiv.so (the Vector variant) and registers it at load",
                         "write /tmp/T/variant.map: the variant object exports nothing, its constructors register it",
                         "", "", "", "",
                         "publish /tmp/T/linked-k.so as -o /out/k.so (a temporary file beside it, renamed over it)"}));
    // writes, both variant compiles, the variant link, the stub compile, the final link, its publication
    EXPECT_EQ(commands, (std::vector<size_t>{0, 0, 0, 2, 1, 1, 1, 0}));
    EXPECT_TRUE(j.plan.steps[3].compiles);
    EXPECT_TRUE(j.plan.steps[3].cached);
    const auto& cube = j.plan.steps[3].run[0];
    EXPECT_EQ(std::vector<std::string>(cube.end() - 6, cube.end()),
              (std::vector<std::string>{"-x", "c++", "-c", "/tmp/T/0-k.ptocc.cpp", "-o", "/tmp/T/0-k.aic.o"}));
    EXPECT_TRUE(has(cube, "-iquote"));
    EXPECT_TRUE(has(cube, "/src"));
    const auto& link = j.plan.steps[6].run[0];
    EXPECT_EQ(std::vector<std::string>(link.begin(), link.begin() + 8),
              (std::vector<std::string>{"g++", "-shared", "-fPIC", "-o", "/tmp/T/linked-k.so", "/tmp/T/0-k.aic.o",
                                        "/tmp/T/0-k.stub.o", "-L/repo/lib"}));
    EXPECT_EQ(j.plan.temp_dir, "/tmp/T");
    EXPECT_EQ(j.plan.diagnostics.rewritten.count("/src/k.cpp"), 1u);
}

TEST(PlanJobs, HostProgramIsOneCompileAndOneLinkPublishedWhole) {
    Jobs j = jobs({"/src/main.cpp", "/lib/libk.so", "-o", "/out/main"}, {"int main(){}\n", ""});
    ASSERT_TRUE(j.ok);
    ASSERT_EQ(j.plan.steps.size(), 3u);
    EXPECT_EQ(j.plan.steps[0].run[0],
              (std::vector<std::string>{"g++", "-std=c++20", "-fPIC", "-I/repo/include", "-g1",
                                        "-fno-optimize-sibling-calls", "-x", "c++", "-c", "/src/main.cpp", "-o",
                                        "/tmp/T/0-main.o"}));
    EXPECT_EQ(j.plan.steps[1].run[0],
              (std::vector<std::string>{"g++", "-o", "/tmp/T/linked-main", "/tmp/T/0-main.o", "/lib/libk.so", "-L/repo/lib",
                                        "-Wl,-rpath,/repo/lib", "-lptosim", "-pthread"}));
    EXPECT_EQ(j.plan.steps[2].note, "publish /tmp/T/linked-main as -o /out/main (a temporary file beside it, renamed over it)");
    EXPECT_TRUE(j.plan.steps[2].run.empty());
}

// Line tables unless the command line chose its debug information, and no
// sibling calls: the runtime names calls with template arguments by their
// return address and line (docs/api.md).
TEST(PlanJobs, LineTablesUnlessTheUserChoseAGOption) {
    auto compile = [](std::vector<std::string> args) {
        args.insert(args.end(), {"/src/main.cpp", "-c", "-o", "/out/main.o"});
        Jobs j = jobs(args, {"int main(){}\n"});
        EXPECT_TRUE(j.ok);
        const auto& c = j.plan.steps.at(0).run.at(0);
        return std::vector<std::string>(c.begin() + 4, c.end() - 6);
    };
    const std::string no_sibcalls = "-fno-optimize-sibling-calls";
    EXPECT_EQ(compile({}), (std::vector<std::string>{"-g1", no_sibcalls}));
    EXPECT_EQ(compile({"-O2"}), (std::vector<std::string>{"-g1", "-O2", no_sibcalls}));
    EXPECT_EQ(compile({"-g0"}), (std::vector<std::string>{"-g0", no_sibcalls}));
    EXPECT_EQ(compile({"-O2", "-g"}), (std::vector<std::string>{"-O2", "-g", no_sibcalls}));
}

TEST(PlanJobs, ColourOnlyForATerminalAndOnlyWithoutTheUsersChoice) {
    auto colour = [](const std::vector<std::string>& args, bool terminal) {
        Jobs j = jobs(args, {"int main(){}\n"}, terminal);
        EXPECT_TRUE(j.ok);
        return has(j.plan.steps.at(0).run.at(0), "-fdiagnostics-color=always");
    };
    EXPECT_TRUE(colour({"/src/m.cpp"}, true));
    EXPECT_FALSE(colour({"/src/m.cpp"}, false));
    EXPECT_FALSE(colour({"-fno-diagnostics-color", "/src/m.cpp"}, true));
    EXPECT_FALSE(colour({"-fdiagnostics-color=never", "/src/m.cpp"}, true));
}

TEST(PlanJobs, LaunchSyntaxInHostCodeIsAnErrorFromTheTextGiven) {
    Jobs j = jobs({"/src/main.cpp"}, {kLaunch});
    EXPECT_FALSE(j.ok);
    ASSERT_FALSE(j.diags.empty());
    EXPECT_EQ(j.diags.back().text, "/src/main.cpp: has kernel<<<...>>> launch syntax but is compiled as host code (no "
                                   "--cce-aicore-arch); build it with --cce-aicore-arch=<arch> (and -xcce)");
}

TEST(PlanJobs, CompileOnlyMixKernelMergesVariantsIntoTheUsersObject) {
    Jobs j = jobs({"--cce-aicore-arch=dav-c310", "-DREGISTER_BASE", "-c", "/src/k.cpp", "-o", "/out/k.o"}, {kLaunch});
    ASSERT_TRUE(j.ok);
    const auto& merge = j.plan.steps.back().run.at(0);
    EXPECT_EQ(merge, (std::vector<std::string>{"g++", "-r", "-nostdlib", "-o", "/out/k.o", "/tmp/T/0-k.aic.o",
                                               "/tmp/T/0-k.stub.o"}));
}

}  // namespace
