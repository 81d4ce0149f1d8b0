// src/common: quoting, PATH lookup, spawning with output in files, and
// running under a time limit that covers the whole process group.
#include "process.hpp"
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
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

// Sets ASCEND_HOME_PATH for one test and restores it.
struct HomeEnv {
    std::string old;
    bool had;
    explicit HomeEnv(const std::string& v) : had(std::getenv("ASCEND_HOME_PATH") != nullptr) {
        if (had) old = std::getenv("ASCEND_HOME_PATH");
        setenv("ASCEND_HOME_PATH", v.c_str(), 1);
    }
    ~HomeEnv() {
        if (had) setenv("ASCEND_HOME_PATH", old.c_str(), 1);
        else unsetenv("ASCEND_HOME_PATH");
    }
};

TEST(FindBisheng, CannFirstThenPathNeverThisExecutable) {
    TempDir t;
    const fs::path cann_bin = t.p / "cann" / "compiler" / "ccec_compiler" / "bin";
    fs::create_directories(cann_bin);
    for (const char* d : {"self", "path"}) fs::create_directories(t.p / d);
    fs::create_symlink(fs::read_symlink("/proc/self/exe"), t.p / "self" / "bisheng");  // "ptocc installed as bisheng"
    write_exe(t.p / "path" / "bisheng", "#!/bin/sh\n");
    PathEnv path((t.p / "self").string() + ":" + (t.p / "path").string());
    HomeEnv home((t.p / "cann").string());
    EXPECT_EQ(find_bisheng(), (t.p / "path" / "bisheng").string());  // no bisheng in CANN yet; itself skipped
    write_exe(cann_bin / "bisheng", "#!/bin/sh\n");
    EXPECT_EQ(find_bisheng(), (cann_bin / "bisheng").string());
    fs::remove(cann_bin / "bisheng");
    fs::create_directories(cann_bin / "bisheng");  // a directory is not a compiler
    EXPECT_EQ(find_bisheng(), (t.p / "path" / "bisheng").string());
    PathEnv only_self((t.p / "self").string());
    EXPECT_EQ(find_bisheng(), "");
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

// --- run_with_timeout --------------------------------------------------------

// Whether `pid` still runs: gone, or a zombie nobody reaped (an orphan in a
// container whose PID 1 does not reap), counts as not running.
bool running(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t rp = text.rfind(')');
    return rp != std::string::npos && rp + 2 < text.size() && text[rp + 2] != 'Z' && text[rp + 2] != 'X';
}

// A process that has just been sent SIGKILL may need a moment to go: waits
// up to 20 s, far beyond any scheduling delay.
bool gone_soon(pid_t pid) {
    for (int i = 0; i < 2000 && running(pid); ++i) usleep(10000);
    return !running(pid);
}

pid_t read_pid(const fs::path& p) {
    for (int i = 0; i < 2000 && slurp(p).empty(); ++i) usleep(10000);
    return static_cast<pid_t>(std::atoi(slurp(p).c_str()));
}

TimedRun timed(std::vector<std::string> argv, double timeout_s, double kill_after_s = 10) {
    TimedRun t;
    t.argv = std::move(argv);
    t.timeout_s = timeout_s;
    t.kill_after_s = kill_after_s;
    return t;
}

TEST(RunWithTimeout, StatusAndOutputOfACommandThatFinishes) {
    TimedRun t = timed({"/bin/sh", "-c", "echo out; echo err >&2; exit 7"}, 60);
    std::string out;
    t.on_output = [&](std::string_view s) { out.append(s); };
    const TimedResult r = run_with_timeout(t);
    EXPECT_EQ(r.exit_code, 7);
    EXPECT_FALSE(r.timed_out);
    EXPECT_FALSE(r.killed);
    EXPECT_FALSE(r.survivors);
    EXPECT_EQ(r.term_signal, 0);
    EXPECT_EQ(r.spawn_errno, 0);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(out, "out\nerr\n");
    EXPECT_LT(r.elapsed_s, 50);
}

TEST(RunWithTimeout, SignalDeathIs128PlusTheSignal) {
    const TimedResult r = run_with_timeout(timed({"/bin/sh", "-c", "kill -KILL $$"}, 60));
    EXPECT_EQ(r.exit_code, 128 + SIGKILL);
    EXPECT_EQ(r.term_signal, SIGKILL);
    EXPECT_FALSE(r.timed_out);
}

TEST(RunWithTimeout, PastTheLimitTheChildAndItsGrandchildGetSigterm) {
    TempDir t;
    const fs::path pidfile = t.p / "grandchild";
    const TimedResult r = run_with_timeout(
        timed({"/bin/sh", "-c", "sleep 300 & echo $! > " + pidfile.string() + "; wait"}, 0.5, 30));
    const pid_t grandchild = read_pid(pidfile);
    ASSERT_GT(grandchild, 0);
    EXPECT_EQ(r.exit_code, kExitTimeout);
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(r.killed);  // SIGTERM was enough: no 30 s grace period spent
    EXPECT_FALSE(r.survivors);
    EXPECT_EQ(r.term_signal, SIGTERM);
    EXPECT_FALSE(running(grandchild));  // returned only once the whole group was gone
    EXPECT_GE(r.elapsed_s, 0.5);
    EXPECT_LT(r.elapsed_s, 25);
}

TEST(RunWithTimeout, AGroupIgnoringSigtermIsKilledAfterTheGracePeriod) {
    TempDir t;
    const fs::path pidfile = t.p / "grandchild";
    TimedRun run = timed({"/bin/sh", "-c", "trap '' TERM; sleep 300 & echo $! > " + pidfile.string() + "; wait"},
                         0.5, 0.5);
    std::string out;
    run.on_output = [&](std::string_view s) { out.append(s); };
    const TimedResult r = run_with_timeout(run);
    const pid_t grandchild = read_pid(pidfile);
    ASSERT_GT(grandchild, 0);
    EXPECT_EQ(r.exit_code, kExitTimeout);
    EXPECT_TRUE(r.timed_out);
    EXPECT_TRUE(r.killed);
    EXPECT_FALSE(r.survivors);
    EXPECT_EQ(r.term_signal, SIGKILL);
    EXPECT_TRUE(gone_soon(grandchild));
    EXPECT_EQ(out, "");
    EXPECT_GE(r.elapsed_s, 1.0);
    EXPECT_LT(r.elapsed_s, 25);
}

TEST(RunWithTimeout, AGrandchildIgnoringSigtermOutlivesTheChildAndIsKilled) {
    TempDir t;
    const fs::path pidfile = t.p / "grandchild";
    const TimedResult r = run_with_timeout(timed(
        {"/bin/sh", "-c", "(trap '' TERM; exec sleep 300) & echo $! > " + pidfile.string() + "; wait"}, 0.5, 0.5));
    const pid_t grandchild = read_pid(pidfile);
    ASSERT_GT(grandchild, 0);
    EXPECT_EQ(r.exit_code, kExitTimeout);
    EXPECT_TRUE(r.timed_out);
    EXPECT_TRUE(r.killed);  // the child went on SIGTERM, the group did not
    EXPECT_FALSE(r.survivors);
    EXPECT_EQ(r.term_signal, SIGTERM);
    EXPECT_TRUE(gone_soon(grandchild));
    EXPECT_LT(r.elapsed_s, 25);
}

TEST(RunWithTimeout, AGrandchildHoldingTheOutputDoesNotHoldTheRun) {
    // The command exits at once; its background child keeps the pipe open.
    // Without a timeout nothing is killed: the run ends when the command does.
    TimedRun run = timed({"/bin/sh", "-c", "sleep 300 & echo $!"}, 60);
    std::string out;
    run.on_output = [&](std::string_view s) { out.append(s); };
    const TimedResult r = run_with_timeout(run);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_FALSE(r.timed_out);
    const pid_t grandchild = static_cast<pid_t>(std::atoi(out.c_str()));
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(running(grandchild));
    EXPECT_LT(r.elapsed_s, 50);
    kill(grandchild, SIGKILL);
}

TEST(RunWithTimeout, ASignalToThisProcessIsPassedToTheGroup) {
    TimedRun run = timed({"/bin/sh", "-c", "echo ready; sleep 300"}, 60);
    bool raised = false;
    run.on_output = [&](std::string_view) {
        if (!raised) raise(SIGTERM);  // as if the user stopped the run
        raised = true;
    };
    const TimedResult r = run_with_timeout(run);
    EXPECT_TRUE(raised);
    EXPECT_EQ(r.exit_code, 128 + SIGTERM);
    EXPECT_EQ(r.term_signal, SIGTERM);
    EXPECT_FALSE(r.timed_out);
    struct sigaction now {};
    sigaction(SIGTERM, nullptr, &now);
    EXPECT_EQ(now.sa_handler, SIG_DFL);  // this process's handler is back
}

TEST(RunWithTimeout, ACommandThatCannotStartSaysWhy) {
    TempDir t;
    std::ofstream(t.p / "plain") << "not a program\n";
    const TimedResult missing = run_with_timeout(timed({"/no/such/program"}, 60));
    EXPECT_EQ(missing.exit_code, kExitNotFound);
    EXPECT_EQ(missing.spawn_errno, ENOENT);
    EXPECT_EQ(missing.error, "cannot run '/no/such/program': No such file or directory; check the command name and PATH");
    const TimedResult denied = run_with_timeout(timed({(t.p / "plain").string()}, 60));
    EXPECT_EQ(denied.exit_code, kExitNotExecutable);
    EXPECT_EQ(denied.spawn_errno, EACCES);
    EXPECT_EQ(denied.error, "cannot run '" + (t.p / "plain").string() + "': Permission denied");
    const TimedResult none = run_with_timeout(timed({}, 60));
    EXPECT_EQ(none.exit_code, kExitRunError);
    EXPECT_EQ(none.error, "no command to run");
    EXPECT_FALSE(missing.timed_out || denied.timed_out || none.timed_out);
}

}  // namespace
