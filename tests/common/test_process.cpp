// src/common: quoting, PATH lookup and spawning with output in files.
#include "process.hpp"
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace ptolab::common;

namespace {

struct TempDir {
    fs::path p;
    TempDir() {
        std::string t = (fs::temp_directory_path() / "common-XXXXXX").string();
        p = mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(p); }
};

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Sets PATH for one test and restores it.
struct PathEnv {
    std::string old;
    explicit PathEnv(const std::string& v) : old(std::getenv("PATH") ? std::getenv("PATH") : "") { setenv("PATH", v.c_str(), 1); }
    ~PathEnv() { setenv("PATH", old.c_str(), 1); }
};

void write_exe(const fs::path& p, const std::string& text) {
    std::ofstream(p) << text;
    chmod(p.c_str(), 0755);
}

TEST(ShellQuote, PlainWordsStayAndTheRestIsSingleQuoted) {
    EXPECT_EQ(shell_quote("-DMEMORY_BASE"), "-DMEMORY_BASE");
    EXPECT_EQ(shell_quote("-Wl,-rpath,/a/b"), "-Wl,-rpath,/a/b");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("a b"), "'a b'");
    EXPECT_EQ(shell_quote("$HOME"), "'$HOME'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote_always("plain"), "'plain'");
    EXPECT_EQ(shell_quote_always("it's"), "'it'\\''s'");
}

TEST(ShellQuote, TheShellReadsBackTheSameWord) {
    TempDir t;
    const std::string word = "a 'b' \"c\" $d `e` \\f\n*";
    ASSERT_EQ(run({"/bin/sh", "-c", "printf %s " + shell_quote(word)}, {(t.p / "o").string(), "", false}), 0);
    EXPECT_EQ(slurp(t.p / "o"), word);
}

TEST(FindOnPath, FirstExecutableAcceptedSkippingDirectoriesAndEmptyEntries) {
    TempDir t;
    for (const char* d : {"a", "b", "c"}) fs::create_directories(t.p / d);
    fs::create_directories(t.p / "a" / "tool");                // a directory of that name
    std::ofstream(t.p / "b" / "tool") << "not executable\n";  // not executable
    write_exe(t.p / "c" / "tool", "#!/bin/sh\n");
    fs::create_directories(t.p / "d");
    write_exe(t.p / "d" / "tool", "#!/bin/sh\n");
    PathEnv env("::" + (t.p / "a").string() + ":" + (t.p / "b").string() + ":" + (t.p / "c").string() + ":" +
                (t.p / "d").string());
    EXPECT_EQ(find_on_path("tool"), (t.p / "c" / "tool").string());
    EXPECT_EQ(find_on_path("tool", [&](const std::string& p) { return p != (t.p / "c" / "tool").string(); }),
              (t.p / "d" / "tool").string());
    EXPECT_EQ(find_on_path("no-such-tool"), "");
}

TEST(Spawn, OutputGoesToTheFilesAndTheStatusComesBack) {
    TempDir t;
    const std::string out = (t.p / "out").string(), err = (t.p / "err").string();
    EXPECT_EQ(run({"/bin/sh", "-c", "echo to-out; echo to-err >&2; exit 3"}, {out, err, false}), 3);
    EXPECT_EQ(slurp(out), "to-out\n");
    EXPECT_EQ(slurp(err), "to-err\n");
    EXPECT_EQ(run({"/bin/sh", "-c", "echo one; echo two >&2"}, {out, "", true}), 0);
    EXPECT_EQ(slurp(out), "one\ntwo\n");
}

TEST(Spawn, SignalDeathIs128PlusTheSignal) {
    EXPECT_EQ(run({"/bin/sh", "-c", "kill -KILL $$"}), 128 + 9);
}

TEST(Spawn, AMissingProgramIsAnErrnoAndNoProcess) {
    pid_t pid = -1;
    EXPECT_EQ(spawn({"/no/such/program"}, {}, pid), ENOENT);
    EXPECT_EQ(spawn({}, {}, pid), EINVAL);
    EXPECT_EQ(run({"/no/such/program"}), 127);
}

}  // namespace
