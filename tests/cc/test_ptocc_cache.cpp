// ptocc's caches: a compile served from the result cache gives the very
// object the compiler gave, and leaves an output already holding it as it is;
// a changed header, a changed -D flag or a damaged entry makes it compile
// again; the precompiled header is rebuilt when its record does not check
// out; PTOCC_CACHE=0 turns both off; copies of one tree share entries under
// PTOCC_CACHE_BASEDIR.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

const std::string kPtocc = PTOCC_BIN;

struct ShellRun {
    int status;
    std::string output;
};

ShellRun sh(const std::string& cmd) {
    ShellRun r{0, {}};
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
    const int ws = pclose(p);
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
    return r;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void spit(const fs::path& p, const std::string& text) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << text;
}

// A kernel whose tile width comes from a local header and a -D flag.
const char* kKernel = R"(#include <pto/pto-inst.hpp>
#include "width.h"
using namespace pto;

__global__ AICORE void scale(__gm__ float* x) {
    using G = GlobalTensor<float, Shape<1, 1, 1, 8, kWidth * PTOCC_TEST_SCALE>, Stride<1, 1, 1, kWidth * PTOCC_TEST_SCALE, 1>>;
    using V = Tile<TileType::Vec, float, 8, kWidth * PTOCC_TEST_SCALE>;
    G g(x);
    V a;
    TASSIGN(a, 0);
    TLOAD(a, g);
    TADD(a, a, a);
    TSTORE(g, a);
}
)";

class PtoccCache : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::path(PTOCC_OUT) / ("cache-" + std::to_string(getpid()) + "-" +
                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        spit(dir_ / "scale.cpp", kKernel);
        spit(dir_ / "width.h", "#pragma once\nconstexpr int kWidth = 8;\n");
    }
    void TearDown() override {
        if (!HasFailure()) fs::remove_all(dir_);
    }
    // Compiles scale.cpp to scale.o; returns ptocc's -v output.
    std::string compile(const std::string& defines = "-DPTOCC_TEST_SCALE=1", const std::string& env = "") {
        const ShellRun r = sh(env + " PTOCC_CACHE_DIR=" + (dir_ / "cache").string() + " " + kPtocc +
                         " -v -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 " + defines + " " +
                         (dir_ / "scale.cpp").string() + " -o " + (dir_ / "scale.o").string());
        EXPECT_EQ(r.status, 0) << r.output;
        return r.output;
    }
    // Compiles and links scale.cpp into libscale.so; returns ptocc's -v output.
    std::string build_library() {
        const ShellRun r = sh("PTOCC_PCH=0 PTOCC_CACHE_DIR=" + (dir_ / "cache").string() + " " + kPtocc +
                              " -v -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 "
                              "-DPTOCC_TEST_SCALE=1 " + (dir_ / "scale.cpp").string() + " -o " +
                              (dir_ / "libscale.so").string());
        EXPECT_EQ(r.status, 0) << r.output;
        return r.output;
    }
    static bool from_cache(const std::string& out) { return out.find("scale.o from the cache") != std::string::npos; }
    std::string object() const { return slurp(dir_ / "scale.o"); }
    fs::path entry() const {
        for (const auto& e : fs::recursive_directory_iterator(dir_ / "cache" / "results"))
            if (e.path().extension() == ".entry") return e.path();
        return {};
    }
    fs::path dir_;
};

TEST_F(PtoccCache, HitGivesTheCompilersObjectByteForByte) {
    EXPECT_FALSE(from_cache(compile()));
    const std::string first = object();
    ASSERT_FALSE(first.empty());
    fs::remove(dir_ / "scale.o");
    EXPECT_TRUE(from_cache(compile()));
    EXPECT_EQ(object(), first);
    // And the object of a build with both caches off is the same bytes.
    EXPECT_FALSE(from_cache(compile("-DPTOCC_TEST_SCALE=1", "PTOCC_CACHE=0")));
    EXPECT_EQ(object(), first);
}

TEST_F(PtoccCache, ChangedHeaderOfTheKernelCompilesAgain) {
    compile();
    const std::string before = object();
    spit(dir_ / "width.h", "#pragma once\nconstexpr int kWidth = 16;\n");
    const std::string out = compile();
    EXPECT_FALSE(from_cache(out)) << out;
    EXPECT_NE(out.find("width.h changed"), std::string::npos) << out;
    EXPECT_NE(object(), before);
    EXPECT_TRUE(from_cache(compile()));
}

TEST_F(PtoccCache, ChangedDefineCompilesAgain) {
    const std::string no_pch = "PTOCC_PCH=0";  // the result cache alone; quicker
    compile("-DPTOCC_TEST_SCALE=1", no_pch);
    const std::string one = object();
    EXPECT_FALSE(from_cache(compile("-DPTOCC_TEST_SCALE=2", no_pch)));
    EXPECT_NE(object(), one);
    EXPECT_TRUE(from_cache(compile("-DPTOCC_TEST_SCALE=1", no_pch)));
    EXPECT_EQ(object(), one);
}

TEST_F(PtoccCache, DamagedEntryIsDetectedAndRebuilt) {
    setenv("PTOCC_PCH", "0", 1);  // the result cache alone; quicker
    compile();
    const std::string good = object();
    const fs::path e = entry();
    ASSERT_FALSE(e.empty());
    std::string bytes = slurp(e);
    bytes[bytes.size() / 2] ^= 0x5a;  // inside the stored object
    spit(e, bytes);
    const std::string out = compile();
    EXPECT_FALSE(from_cache(out));
    EXPECT_NE(out.find("is damaged"), std::string::npos) << out;
    EXPECT_EQ(object(), good);
    EXPECT_TRUE(from_cache(compile()));
    EXPECT_EQ(object(), good);
    // A truncated entry too.
    bytes = slurp(entry());
    spit(entry(), bytes.substr(0, bytes.size() / 3));
    EXPECT_FALSE(from_cache(compile()));
    EXPECT_EQ(object(), good);
    unsetenv("PTOCC_PCH");
}

TEST_F(PtoccCache, PrecompiledHeaderWithADamagedRecordIsRebuilt) {
    std::string out = compile();
    EXPECT_NE(out.find("built the precompiled header"), std::string::npos) << out;
    fs::remove_all(dir_ / "cache" / "results");
    out = compile();
    EXPECT_EQ(out.find("built the precompiled header"), std::string::npos) << out;  // reused
    fs::path manifest;
    for (const auto& e : fs::recursive_directory_iterator(dir_ / "cache" / "pch"))
        if (e.path().filename() == "manifest") manifest = e.path();
    ASSERT_FALSE(manifest.empty());
    std::string m = slurp(manifest);
    m[20] ^= 1;
    spit(manifest, m);
    fs::remove_all(dir_ / "cache" / "results");
    out = compile();
    EXPECT_NE(out.find("built the precompiled header"), std::string::npos) << out;
}

// One precompiled header per flag set; past PTOCC_PCH_KEEP the least recently
// used goes, never the one just built.
TEST_F(PtoccCache, PrecompiledHeadersPastTheLimitAreEvicted) {
    const auto headers = [&] {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_ / "cache" / "pch"))
            if (e.is_directory()) names.insert(e.path().filename().string());
        return names;
    };
    EXPECT_NE(compile("-DPTOCC_TEST_SCALE=1").find("built the precompiled header"), std::string::npos);
    const std::set<std::string> first = headers();
    ASSERT_EQ(first.size(), 1u);
    EXPECT_NE(compile("-DPTOCC_TEST_SCALE=2", "PTOCC_PCH_KEEP=1").find("built the precompiled header"),
              std::string::npos);
    const std::set<std::string> second = headers();
    ASSERT_EQ(second.size(), 1u);
    EXPECT_NE(*second.begin(), *first.begin());
}

TEST_F(PtoccCache, CodeBeforeThePtoHeadersMeansNoPrecompiledHeader) {
    // A definition ahead of <pto/pto-inst.hpp> could change what it means there.
    spit(dir_ / "scale.cpp", std::string("#define PTO_LOCAL_SETTING 1\n") + kKernel);
    const std::string out = compile();
    EXPECT_NE(out.find("no precompiled header for"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir_ / "cache" / "pch"));
}

// A whole library build: the compile and the link both come from the cache,
// the library is the same bytes with the same permissions, and a changed
// header rebuilds both.
TEST_F(PtoccCache, UnchangedLibraryBuildRunsNeitherCompilerNorLinker) {
    const fs::path lib = dir_ / "libscale.so";
    auto build = [&] { return build_library(); };
    std::string out = build();
    EXPECT_EQ(out.find("libscale.so from the cache"), std::string::npos) << out;
    const std::string first = slurp(lib);
    const auto perms = fs::status(lib).permissions();
    fs::remove(lib);
    out = build();
    EXPECT_NE(out.find("libscale.so from the cache"), std::string::npos) << out;
    EXPECT_EQ(out.find("/usr/bin/ld"), std::string::npos);
    EXPECT_EQ(slurp(lib), first);
    EXPECT_EQ(fs::status(lib).permissions(), perms);
    spit(dir_ / "width.h", "#pragma once\nconstexpr int kWidth = 16;\n");
    out = build();
    EXPECT_EQ(out.find("libscale.so from the cache"), std::string::npos) << out;
    EXPECT_NE(slurp(lib), first);
}

// A hit onto an output that already holds the cached bytes leaves the file
// and its time alone, so that ninja (restat) rebuilds nothing linked against
// it after a header was only touched.
TEST_F(PtoccCache, HitOntoTheSameBytesKeepsTheOutputsTime) {
    const fs::path lib = dir_ / "libscale.so";
    build_library();
    const std::string first = slurp(lib);
    const auto old = fs::last_write_time(lib) - std::chrono::hours(1);
    fs::last_write_time(lib, old);
    std::string out = build_library();
    EXPECT_NE(out.find("libscale.so from the cache"), std::string::npos) << out;
    EXPECT_EQ(slurp(lib), first);
    EXPECT_EQ(fs::last_write_time(lib), old);
    // Other bytes at the output's path are replaced.
    spit(lib, "not a library");
    out = build_library();
    EXPECT_NE(out.find("libscale.so from the cache"), std::string::npos) << out;
    EXPECT_EQ(slurp(lib), first);
}

// Copies of one tree at two places: the second copy's compile is the first's
// entry only when each names its own root as PTOCC_CACHE_BASEDIR, and the
// entry's headers are checked in the copy being built.
class PtoccCacheCopies : public PtoccCache {
protected:
    fs::path copy(const std::string& name) {
        const fs::path root = dir_ / name;
        fs::create_directories(root / "src");
        fs::copy_file(dir_ / "scale.cpp", root / "src" / "scale.cpp");
        fs::copy_file(dir_ / "width.h", root / "src" / "width.h");
        return root;
    }
    std::string compile_in(const fs::path& root, const std::string& base) {
        const ShellRun r = sh("cd " + (root / "src").string() + " && PTOCC_PCH=0 PTOCC_CACHE_BASEDIR=" + base +
                              " PTOCC_CACHE_DIR=" + (dir_ / "cache").string() + " " + kPtocc +
                              " -v -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 -DPTOCC_TEST_SCALE=1 " +
                              (root / "src" / "scale.cpp").string() + " -o " + (root / "scale.o").string());
        EXPECT_EQ(r.status, 0) << r.output;
        return r.output;
    }
};

TEST_F(PtoccCacheCopies, SecondCopyIsServedFromTheFirstsEntry) {
    const fs::path a = copy("tree"), b = copy("tree-2");
    EXPECT_FALSE(from_cache(compile_in(a, a.string())));
    const std::string out = compile_in(b, b.string() + "/");
    EXPECT_TRUE(from_cache(out)) << out;
    EXPECT_EQ(slurp(b / "scale.o"), slurp(a / "scale.o"));
}

// A unit that launches a kernel carries an id of its own (PTOCC_TU_ID), made
// from its paths: relative to the base, so the copies still share the entry.
TEST_F(PtoccCacheCopies, UnitsThatLaunchShareTheirEntryToo) {
    spit(dir_ / "scale.cpp", std::string(kKernel) + "void run(void* stream, __gm__ float* x) { scale<<<1, nullptr, stream>>>(x); }\n");
    const fs::path a = copy("tree"), b = copy("tree-2");
    EXPECT_FALSE(from_cache(compile_in(a, a.string())));
    const std::string out = compile_in(b, b.string());
    EXPECT_TRUE(from_cache(out)) << out;
    EXPECT_EQ(slurp(b / "scale.o"), slurp(a / "scale.o"));
    // Without the base each copy has its own id, and compiles.
    const fs::path c = copy("tree-3");
    EXPECT_FALSE(from_cache(compile_in(c, "")));
}

TEST_F(PtoccCacheCopies, HeadersAreCheckedInTheCopyBeingBuilt) {
    const fs::path a = copy("tree"), b = copy("tree-2");
    compile_in(a, a.string());
    spit(b / "src" / "width.h", "#pragma once\nconstexpr int kWidth = 16;\n");
    const std::string out = compile_in(b, b.string());
    EXPECT_FALSE(from_cache(out)) << out;
    EXPECT_NE(out.find("cache entry for " + (b / "scale.o").string() + " is stale: " +
                       (b / "src" / "width.h").string() + " changed"),
              std::string::npos)
        << out;
    EXPECT_NE(slurp(b / "scale.o"), slurp(a / "scale.o"));
    // One entry per key: the first copy's compile is now the stale one, and
    // it compiles its own header again.
    const std::string before = slurp(a / "scale.o");
    fs::remove(a / "scale.o");
    EXPECT_FALSE(from_cache(compile_in(a, a.string())));
    EXPECT_EQ(slurp(a / "scale.o"), before);
}

TEST_F(PtoccCacheCopies, WithoutABaseCopiesDoNotShare) {
    const fs::path a = copy("tree"), b = copy("tree-2");
    compile_in(a, a.string());
    // The first copy's root is a prefix of the second's path ("tree" of
    // "tree-2") but no directory above it: no path of the second is relative to it.
    EXPECT_FALSE(from_cache(compile_in(b, a.string())));
    const fs::path c = copy("tree-3");
    compile_in(a, "");
    EXPECT_FALSE(from_cache(compile_in(c, "")));
}

TEST_F(PtoccCacheCopies, BaseThatIsNoDirectoryIsRefusedWithAWarning) {
    const fs::path a = copy("tree");
    const std::string out = compile_in(a, (dir_ / "missing").string());
    EXPECT_NE(out.find("ptocc: warning: PTOCC_CACHE_BASEDIR=" + (dir_ / "missing").string() +
                       " is not a directory (or is /); ignored: set it to the root of the tree being built"),
              std::string::npos)
        << out;
}

// Bodies for a kernel whose type ptocc infers (no core-type suffix): one
// that uses only the Vector core's tiles, one only the Cube core's.
const char* kVecBody = R"(#pragma once
__global__ AICORE void body(__gm__ float* x) {
    Tile<TileType::Vec, float, 8, 8> a;
    TASSIGN(a, 0);
    TADD(a, a, a);
}
)";
const char* kCubeBody = R"(#pragma once
__global__ AICORE void body(__gm__ float* x) {
    TileLeft<half, 16, 16> l;
    TileRight<half, 16, 16> r;
    TileAcc<float, 16, 16> c;
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    TMATMUL(c, l, r);
}
)";

// The inferred kernel type is kept like a result: an unchanged kernel is
// not preprocessed again, and a changed header infers again.
TEST_F(PtoccCache, InferredKernelTypeIsKeptUntilAHeaderChanges) {
    spit(dir_ / "kind.cpp", "#include <pto/pto-inst.hpp>\nusing namespace pto;\n#include \"body.h\"\n");
    spit(dir_ / "body.h", kVecBody);
    const fs::path log = dir_ / "cache.log";
    auto build = [&] {
        const ShellRun r = sh("PTOCC_PCH=0 PTOCC_CACHE_LOG=" + log.string() + " PTOCC_CACHE_DIR=" +
                              (dir_ / "cache").string() + " " + kPtocc +
                              " -v -c -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE -O1 " +
                              (dir_ / "kind.cpp").string() + " -o " + (dir_ / "kind.o").string());
        EXPECT_EQ(r.status, 0) << r.output;
        return r.output;
    };
    auto count = [&](const std::string& event) {
        const std::string text = slurp(log);
        size_t n = 0;
        for (size_t at = text.find(event + " "); at != std::string::npos; at = text.find(event + " ", at + 1))
            n += at == 0 || text[at - 1] == '\n';
        return n;
    };
    const std::string vec_note = "kind.cpp: kernel type inferred: Vector-only";
    std::string out = build();
    EXPECT_NE(out.find(vec_note), std::string::npos) << out;
    EXPECT_EQ(count("fact-kept"), 1u);
    EXPECT_EQ(count("fact-hit"), 0u);

    out = build();  // no preprocessor run: the same decision, and its note
    EXPECT_NE(out.find(vec_note), std::string::npos) << out;
    EXPECT_EQ(count("fact-hit"), 1u);

    spit(dir_ / "body.h", kCubeBody);
    out = build();
    EXPECT_NE(out.find("kind.cpp: kernel type inferred: Cube-only"), std::string::npos) << out;
    EXPECT_EQ(count("fact-hit"), 1u);
    EXPECT_EQ(count("fact-kept"), 2u);
}

TEST_F(PtoccCache, OffWithPtoccCacheZero) {
    compile("-DPTOCC_TEST_SCALE=1", "PTOCC_CACHE=0");
    compile("-DPTOCC_TEST_SCALE=1", "PTOCC_CACHE=0");
    EXPECT_FALSE(fs::exists(dir_ / "cache"));
}

}  // namespace

// With pto-isa's headers chosen, ptocc compiles a translated copy of the
// user's tree, kept in the cache under the hash of its content
// (cache/pto-isa/<hash>/): a changed header of the tree makes a new copy and
// compiles again, an unchanged tree hits.
TEST_F(PtoccCache, ChangedHeaderOfAPtoIsaTreeCompilesAgain) {
    const fs::path tree = dir_ / "pto-isa" / "include";
    fs::create_directories(tree / "pto" / "common");
    spit(tree / "pto" / "pto-inst.hpp", "#pragma once\n#include \"common/value.hpp\"\n");
    spit(tree / "pto" / "common" / "value.hpp", "#pragma once\nconstexpr int kValue = 1;\n");
    spit(dir_ / "scale.cpp", "#include <pto/pto-inst.hpp>\n"
                             "__global__ __aicore__ void k(__gm__ int* x) { x[0] = kValue; }\n");
    const std::string tree_flags = "--pto-headers=pto-isa -I" + tree.string();
    const auto copies = [&] {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_ / "cache" / "pto-isa"))
            if (fs::exists(e.path() / ".complete")) names.insert(e.path().filename().string());
        return names;
    };
    std::string out = compile(tree_flags);
    EXPECT_FALSE(from_cache(out)) << out;
    const std::string one = object();
    ASSERT_EQ(copies().size(), 1u);
    EXPECT_EQ(slurp(dir_ / "cache" / "pto-isa" / *copies().begin() / "pto" / "common" / "value.hpp"),
              "#line 1 \"" + (tree / "pto" / "common" / "value.hpp").string() +
                  "\"\n#pragma once\nconstexpr int kValue = 1;\n");
    EXPECT_TRUE(from_cache(compile(tree_flags)));
    spit(tree / "pto" / "common" / "value.hpp", "#pragma once\nconstexpr int kValue = 2;\n");
    out = compile(tree_flags);
    EXPECT_FALSE(from_cache(out)) << out;
    EXPECT_EQ(copies().size(), 2u);
    EXPECT_NE(object(), one);
    EXPECT_TRUE(from_cache(compile(tree_flags)));
}

// The copy's path is the same in every build of the tree, so its headers are
// precompiled once per flag set, as ptolab's are: a changed kernel compiles
// again with the same precompiled header.
TEST_F(PtoccCache, PtoIsaTreeIsPrecompiledOnceForItsBuilds) {
    const fs::path tree = dir_ / "pto-isa" / "include";
    fs::create_directories(tree / "pto");
    spit(tree / "pto" / "pto-inst.hpp", "#pragma once\nconstexpr int kValue = 3;\n");
    const std::string tree_flags = "--pto-headers=pto-isa -I" + tree.string();
    spit(dir_ / "scale.cpp", "#include <pto/pto-inst.hpp>\n"
                             "__global__ __aicore__ void k(__gm__ int* x) { x[0] = kValue; }\n");
    std::string out = compile(tree_flags);
    EXPECT_NE(out.find("built the precompiled header"), std::string::npos) << out;
    spit(dir_ / "scale.cpp", "#include <pto/pto-inst.hpp>\n"
                             "__global__ __aicore__ void k(__gm__ int* x) { x[1] = kValue; }\n");
    out = compile(tree_flags);
    EXPECT_FALSE(from_cache(out)) << out;
    EXPECT_EQ(out.find("built the precompiled header"), std::string::npos) << out;
    EXPECT_NE(out.find("-include " + (dir_ / "cache" / "pch").string()), std::string::npos) << out;
    size_t headers = 0;
    for (const auto& e : fs::directory_iterator(dir_ / "cache" / "pch")) headers += e.is_directory();
    EXPECT_EQ(headers, 1u);
}
