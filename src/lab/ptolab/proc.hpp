// The whole-process layer of hang detection (seed: Hang Detection): the
// limits ptolab run applies and what it says on a timeout. Running the
// command (its own process group, SIGTERM past the limit, SIGKILL after the
// grace period, like coreutils timeout --kill-after but covering every
// process the command started) is src/common's run_with_timeout.
#pragma once
#include "process.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ptolab {

// Exit statuses, shared by the CLI and documented in docs/cli.md.
namespace exit_code {
constexpr int kPass = 0;
constexpr int kFail = 1;
constexpr int kUsage = 2;
constexpr int kInput = 3;  // unreadable, corrupt or mismatched input files; an output file that cannot be written
constexpr int kTimeout = common::kExitTimeout;    // 124, as coreutils timeout
constexpr int kRunError = common::kExitRunError;  // 125: ptolab itself could not run the command
constexpr int kNotExecutable = common::kExitNotExecutable;
constexpr int kNotFound = common::kExitNotFound;
}  // namespace exit_code

struct Limit {
    double seconds;
    std::string source;  // e.g. "PTO_PROCESS_TIMEOUT_S=30", "default for PTO_SIMULATOR=1"
};
// PTO_PROCESS_TIMEOUT_S, else 1800 s when PTO_SIMULATOR=1, else 60 s.
// A malformed value is an error (std::invalid_argument naming the variable).
Limit process_timeout_from_env();
// PTO_PROCESS_KILL_AFTER_S, else 10 s.
Limit kill_after_from_env();
// Parses a positive number of seconds; throws std::invalid_argument naming `what`.
double parse_seconds(const std::string& text, const std::string& what);

struct RunOptions {
    std::vector<std::string> argv;
    Limit timeout{60, "default"};
    Limit kill_after{10, "default"};
    // When set, the child's stdout and stderr go through a pipe to this
    // callback (which may also forward them); otherwise they are inherited.
    std::function<void(std::string_view)> on_output;
};

using RunResult = common::TimedResult;

// common::run_with_timeout with these limits.
RunResult run_with_timeout(const RunOptions& opt);

// The message printed on a timeout: the limit, where it came from, how to raise it.
std::string timeout_message(const RunOptions& opt, const RunResult& r);

}  // namespace ptolab
