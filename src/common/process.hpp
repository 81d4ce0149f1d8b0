// Running other programs, shared by ptocc and the ptolab CLI.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
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

}  // namespace ptolab::common
