#include "process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

extern char** environ;

namespace ptolab::common {

std::string shell_quote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
                          std::string::npos)
        return s;
    return shell_quote_always(s);
}

std::string shell_quote_always(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += "'\\''";
        else q += c;
    }
    return q + "'";
}

std::string find_on_path(const std::string& name, const std::function<bool(const std::string&)>& accept) {
    const char* path = std::getenv("PATH");
    if (!path) return {};
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) continue;
        const std::string p = dir + "/" + name;
        struct stat st {};
        if (stat(p.c_str(), &st) != 0 || S_ISDIR(st.st_mode) || access(p.c_str(), X_OK) != 0) continue;
        if (accept && !accept(p)) continue;
        return p;
    }
    return {};
}

int spawn(const std::vector<std::string>& argv, const Redirect& r, pid_t& pid) {
    if (argv.empty()) return EINVAL;
    std::vector<char*> cargv;
    for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const int flags = O_WRONLY | O_CREAT | O_TRUNC;
    if (!r.stdout_file.empty()) posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, r.stdout_file.c_str(), flags, 0600);
    if (!r.stderr_file.empty()) posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, r.stderr_file.c_str(), flags, 0600);
    if (r.stderr_to_stdout) posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    const int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

int wait_exit(pid_t pid) {
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
}

int run(const std::vector<std::string>& argv, const Redirect& redirect) {
    pid_t pid = 0;
    if (spawn(argv, redirect, pid) != 0) return 127;
    return wait_exit(pid);
}

}  // namespace ptolab::common
