#include "process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::string find_bisheng() {
    auto usable = [](const std::string& p) {
        struct stat st {};
        return stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && access(p.c_str(), X_OK) == 0 &&
               !same_file(p, "/proc/self/exe");
    };
    if (const char* home = std::getenv("ASCEND_HOME_PATH"); home && *home) {
        const std::string p = std::string(home) + "/compiler/ccec_compiler/bin/bisheng";
        if (usable(p)) return p;
    }
    return find_on_path("bisheng", usable);
}

namespace {

// How a child starts: its output in files (`redirect`) or both streams to
// `output_fd`; with `group`, in a process group of its own, SIGINT and
// SIGTERM at their defaults and `mask` as its signal mask.
struct Setup {
    Redirect redirect;
    int output_fd = -1;
    bool group = false;
    const sigset_t* mask = nullptr;
};

int start(const std::vector<std::string>& argv, const Setup& s, pid_t& pid) {
    if (argv.empty()) return EINVAL;
    std::vector<char*> cargv;
    for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const Redirect& r = s.redirect;
    const int flags = O_WRONLY | O_CREAT | O_TRUNC;
    if (!r.stdout_file.empty()) posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, r.stdout_file.c_str(), flags, 0600);
    if (!r.stderr_file.empty()) posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, r.stderr_file.c_str(), flags, 0600);
    if (r.stderr_to_stdout) posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    if (s.output_fd >= 0) {
        posix_spawn_file_actions_adddup2(&fa, s.output_fd, STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&fa, s.output_fd, STDERR_FILENO);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (s.group) {
        // The group exists before posix_spawnp returns, so a kill(-pid)
        // right after cannot miss the child.
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGINT);
        sigaddset(&defaults, SIGTERM);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        short f = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF;
        if (s.mask) {
            posix_spawnattr_setsigmask(&attr, s.mask);
            f |= POSIX_SPAWN_SETSIGMASK;
        }
        posix_spawnattr_setflags(&attr, f);
    }
    const int rc = posix_spawnp(&pid, cargv[0], &fa, &attr, cargv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

}  // namespace

int spawn(const std::vector<std::string>& argv, const Redirect& r, pid_t& pid) { return start(argv, {r}, pid); }

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

namespace {

std::atomic<int> g_forward_signal{0};
void on_signal(int sig) { g_forward_signal.store(sig); }
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

// Catches the forwarded signals for as long as it lives.
struct Forwarding {
    struct sigaction old[3] {};
    Forwarding() {
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        g_forward_signal = 0;
        for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &sa, &old[i]);
    }
    ~Forwarding() {
        for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &old[i], nullptr);
    }
};

// Whether a process of group `pgid` is alive. kill(-pgid, 0) also counts
// zombies, and an orphaned descendant stays a zombie for as long as PID 1
// does not reap it (common in containers), so /proc is asked first.
bool group_alive(pid_t pgid) {
    DIR* d = opendir("/proc");
    if (!d) return kill(-pgid, 0) == 0 || errno == EPERM;
    bool alive = false;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[sizeof e->d_name + 16];
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE* f = std::fopen(path, "r");
        if (!f) continue;
        char buf[512];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        // Fields after the parenthesised command name: state ppid pgrp ...
        const char* rp = std::strrchr(buf, ')');
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (rp && std::sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid && state != 'Z' &&
            state != 'X') {
            alive = true;
            break;
        }
    }
    closedir(d);
    return alive;
}

bool readable(int fd, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, timeout_ms) > 0;
}

}  // namespace

TimedResult run_with_timeout(const TimedRun& run) {
    using clock = std::chrono::steady_clock;
    const auto after = [](clock::time_point t, double s) {
        return t + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s));
    };
    const auto start_time = clock::now();
    TimedResult r;
    const auto finish = [&] {
        r.elapsed_s = std::chrono::duration<double>(clock::now() - start_time).count();
        return r;
    };
    int out_pipe[2] = {-1, -1};
    if (run.on_output && pipe2(out_pipe, O_CLOEXEC) != 0) {
        r.spawn_errno = errno;
        r.exit_code = kExitRunError;
        r.error = std::string("cannot create a pipe for the output: ") + std::strerror(r.spawn_errno);
        return finish();
    }
    // The forwarded signals wait, blocked, until their handlers are in place;
    // the child starts with the mask this thread had.
    sigset_t forwarded, mask;
    sigemptyset(&forwarded);
    for (int sig : kForwarded) sigaddset(&forwarded, sig);
    pthread_sigmask(SIG_BLOCK, &forwarded, &mask);
    pid_t pid = 0;
    const int rc = start(run.argv, {{}, out_pipe[1], true, &mask}, pid);
    if (out_pipe[1] >= 0) close(out_pipe[1]);
    if (rc != 0) {
        pthread_sigmask(SIG_SETMASK, &mask, nullptr);
        if (out_pipe[0] >= 0) close(out_pipe[0]);
        r.spawn_errno = rc;
        r.exit_code = rc == ENOENT ? kExitNotFound : rc == EAGAIN || rc == ENOMEM || rc == EINVAL ? kExitRunError
                                                                                                   : kExitNotExecutable;
        r.error = run.argv.empty() ? std::string("no command to run")
                                   : "cannot run '" + run.argv[0] + "': " + std::strerror(rc) +
                                         (rc == ENOENT ? "; check the command name and PATH" : "");
        return finish();
    }
    Forwarding forwarding;
    pthread_sigmask(SIG_SETMASK, &mask, nullptr);

    const auto deadline = after(start_time, run.timeout_s);
    clock::time_point kill_at{}, give_up_at{};
    bool reaped = false;
    int status = 0;
    int out_fd = out_pipe[0];
    char buf[65536];
    const auto read_some = [&] {
        const ssize_t n = read(out_fd, buf, sizeof buf);
        if (n > 0) {
            run.on_output(std::string_view(buf, static_cast<size_t>(n)));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            close(out_fd);  // every writer is gone
            out_fd = -1;
        }
    };
    for (;;) {
        if (!reaped && waitpid(pid, &status, WNOHANG) == pid) reaped = true;
        const auto now = clock::now();
        if (int sig = g_forward_signal.exchange(0)) kill(-pid, sig);
        if (!r.timed_out && !reaped && now >= deadline) {
            r.timed_out = true;
            kill(-pid, SIGTERM);
            kill_at = after(now, run.kill_after_s);
        }
        // Done: the command exited and, after a timeout, its whole group
        // with it (a descendant may ignore SIGTERM).
        const bool done = reaped && (!r.timed_out || !group_alive(pid));
        if (r.timed_out && !done) {
            if (!r.killed && now >= kill_at) {
                kill(-pid, SIGKILL);
                r.killed = true;
                give_up_at = after(now, run.kill_after_s);
            } else if (r.killed && now >= give_up_at) {
                r.survivors = true;  // e.g. stuck in a device driver
                break;
            }
        }
        // A descendant outside the group may keep the pipe open after the
        // command exits: once it is quiet, stop reading.
        if (done && (out_fd < 0 || !readable(out_fd, 0))) break;
        if (out_fd >= 0) {
            if (readable(out_fd, 20)) read_some();
        } else {
            usleep(10000);
        }
    }
    if (out_fd >= 0) {
        while (out_fd >= 0 && readable(out_fd, 0)) read_some();
        if (out_fd >= 0) close(out_fd);
    }
    if (reaped && WIFSIGNALED(status)) {
        r.term_signal = WTERMSIG(status);
        r.exit_code = 128 + r.term_signal;
    } else if (reaped) {
        r.exit_code = WEXITSTATUS(status);
    }
    if (r.timed_out) r.exit_code = kExitTimeout;
    return finish();
}

}  // namespace ptolab::common
