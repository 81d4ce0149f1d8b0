// Running other programs, shared by ptocc and the ptolab CLI.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ptolab::common {

// `s` as one shell word: unchanged when it has only characters no shell
// treats specially, else in single quotes.
std::string shell_quote(const std::string& s);
// Always in single quotes, for text that is read back by a shell as a value
// (export NAME='value').
std::string shell_quote_always(const std::string& s);

// The first PATH entry holding an executable `name` that `accept` (if given)
// does not reject; "" when there is none. Empty PATH entries are skipped.
std::string find_on_path(const std::string& name, const std::function<bool(const std::string&)>& accept = {});

// True when both paths name the same file (st_dev and st_ino).
bool same_file(const std::string& a, const std::string& b);

// CANN's bisheng: $ASCEND_HOME_PATH/compiler/ccec_compiler/bin/bisheng, else
// the first bisheng on PATH, skipping the running executable (ptocc
// installed as bisheng must not find itself); "" when there is none.
std::string find_bisheng();

struct Redirect {
    std::string stdout_file;  // empty: inherited
    std::string stderr_file;  // empty: inherited
    bool stderr_to_stdout = false;  // after stdout's redirection
};
// Starts argv (looked up on PATH) without waiting. Returns 0 and sets `pid`,
// or the errno of the failure (e.g. ENOENT) with no process started.
int spawn(const std::vector<std::string>& argv, const Redirect& redirect, pid_t& pid);
// Waits for `pid`: its exit status, or 128 + the signal that ended it.
int wait_exit(pid_t pid);
// spawn and wait_exit; a command that cannot start gives 127.
int run(const std::vector<std::string>& argv, const Redirect& redirect = {});

// Exit statuses of run_with_timeout beyond the command's own, as coreutils
// timeout and POSIX shells use them.
constexpr int kExitTimeout = 124;
constexpr int kExitRunError = 125;       // could not start it (no processes, no memory, ...)
constexpr int kExitNotExecutable = 126;  // found but not executable
constexpr int kExitNotFound = 127;

struct TimedRun {
    std::vector<std::string> argv;  // looked up on PATH
    double timeout_s = 60;          // then SIGTERM to the whole process group
    double kill_after_s = 10;       // then SIGKILL to what is left of it
    // When set, the command's stdout and stderr go through a pipe to this
    // callback; otherwise they are inherited.
    std::function<void(std::string_view)> on_output;
};

struct TimedResult {
    int exit_code = 0;     // the command's status, 128+N for signal N, or kExit*
    bool timed_out = false;
    bool killed = false;   // SIGKILL was needed after the grace period
    int term_signal = 0;   // the signal that ended the command, if one did
    bool survivors = false; // after SIGKILL, a process of the group still ran kill_after_s later
    int spawn_errno = 0;   // why it could not start (exit codes 125-127)
    double elapsed_s = 0;
    std::string error;     // that reason as a sentence
};

// Runs the command in a process group of its own. Past timeout_s the group
// gets SIGTERM; if any process of it is still alive kill_after_s later, the
// group gets SIGKILL. Returns when the command has exited (after a timeout:
// when no process of its group runs any more, or kill_after_s after SIGKILL
// with `survivors` set) and its output has been read. SIGINT, SIGTERM and
// SIGHUP this process receives meanwhile are passed on to the group. Not for
// concurrent use: it owns those three signals' handlers while it runs.
TimedResult run_with_timeout(const TimedRun& run);

}  // namespace ptolab::common
