#include <ptolab/proc.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace ptolab {

namespace {

std::atomic<int> g_forward_signal{0};

void on_signal(int sig) { g_forward_signal.store(sig); }

// Whether any process of the group still runs. kill(-pgid, 0) also counts
// zombies, and an orphaned descendant stays a zombie for as long as PID 1
// does not reap it (common in containers), so /proc is asked first.
bool group_alive(pid_t pgid) {
    DIR* d = opendir("/proc");
    if (!d) return kill(-pgid, 0) == 0 || errno == EPERM;
    bool alive = false;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE* f = std::fopen(path, "r");
        if (!f) continue;
        char buf[512];
        size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        // Fields after the parenthesised command name: state ppid pgrp ...
        const char* rp = std::strrchr(buf, ')');
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (rp && std::sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid && state != 'Z') {
            alive = true;
            break;
        }
    }
    closedir(d);
    return alive;
}

std::string fmt_seconds(double s) { return fmt::format("{:g} s", s); }

}  // namespace

namespace {
constexpr double kMaxSeconds = 1e9;
}

double parse_seconds(const std::string& text, const std::string& what) {
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !(v > 0) || !std::isfinite(v))
        throw std::invalid_argument(what + "='" + text + "' is not a positive number of seconds; set it to e.g. 120");
    // Past this the deadline would overflow the clock (about 292 years in ns).
    if (v > kMaxSeconds)
        throw std::invalid_argument(what + "='" + text + "' is more than " + fmt::format("{:g}", kMaxSeconds) +
                                    " seconds; set it to e.g. 120");
    return v;
}

Limit process_timeout_from_env() {
    if (const char* v = std::getenv("PTO_PROCESS_TIMEOUT_S"); v && *v)
        return {parse_seconds(v, "PTO_PROCESS_TIMEOUT_S"), std::string("PTO_PROCESS_TIMEOUT_S=") + v};
    const char* sim = std::getenv("PTO_SIMULATOR");
    if (sim && std::string(sim) == "1") return {1800, "default for PTO_SIMULATOR=1"};
    return {60, "default for a real device; 1800 s when PTO_SIMULATOR=1"};
}

Limit kill_after_from_env() {
    if (const char* v = std::getenv("PTO_PROCESS_KILL_AFTER_S"); v && *v)
        return {parse_seconds(v, "PTO_PROCESS_KILL_AFTER_S"), std::string("PTO_PROCESS_KILL_AFTER_S=") + v};
    return {10, "default"};
}

RunResult run_with_timeout(const RunOptions& opt) {
    RunResult r;
    if (opt.argv.empty()) {
        r.exit_code = exit_code::kRunError;
        r.error = "no command given; write it after --, e.g. ptolab run -- python3 run.py";
        return r;
    }
    int out_pipe[2] = {-1, -1};
    int err_pipe[2];  // the child reports a failed exec through this close-on-exec pipe
    if (pipe2(err_pipe, O_CLOEXEC) != 0 || (opt.on_output && pipe2(out_pipe, O_CLOEXEC) != 0)) {
        r.exit_code = exit_code::kRunError;
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    std::vector<char*> argv;
    for (const std::string& a : opt.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        r.exit_code = exit_code::kRunError;
        r.error = std::string("fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (opt.on_output) {
            dup2(out_pipe[1], 1);
            dup2(out_pipe[1], 2);
        }
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execvp(argv[0], argv.data());
        int e = errno;
        (void)!write(err_pipe[1], &e, sizeof e);
        _exit(127);
    }
    // Both sides set the group so the kill below can never miss a child that
    // has not run setpgid yet.
    setpgid(pid, pid);
    close(err_pipe[1]);
    if (opt.on_output) close(out_pipe[1]);
    int exec_errno = 0;
    if (read(err_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
        waitpid(pid, nullptr, 0);
        close(err_pipe[0]);
        if (opt.on_output) close(out_pipe[0]);
        r.exit_code = exec_errno == ENOENT ? exit_code::kNotFound : exit_code::kNotExecutable;
        r.error = fmt::format("cannot run '{}': {}{}", opt.argv[0], std::strerror(exec_errno),
                              exec_errno == ENOENT ? "; check the command name and PATH" : "");
        return r;
    }
    close(err_pipe[0]);

    struct sigaction sa {}, old_int{}, old_term{}, old_hup{};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    g_forward_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);

    using clock = std::chrono::steady_clock;
    const auto deadline = start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(opt.timeout.seconds));
    clock::time_point kill_at{};
    bool reaped = false;
    int status = 0;
    int out_fd = opt.on_output ? out_pipe[0] : -1;
    char buf[65536];
    for (;;) {
        if (!reaped) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) reaped = true;
        }
        const auto now = clock::now();
        if (int sig = g_forward_signal.exchange(0)) kill(-pid, sig);
        if (!r.timed_out && !reaped && now >= deadline) {
            r.timed_out = true;
            kill(-pid, SIGTERM);
            kill_at = now + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(opt.kill_after.seconds));
        }
        if (r.timed_out && !r.killed) {
            // The group outlives the child when a descendant ignores SIGTERM.
            if (reaped && !group_alive(pid)) break;
            if (now >= kill_at) {
                kill(-pid, SIGKILL);
                r.killed = true;
            }
        }
        if (reaped && out_fd < 0 && (!r.timed_out || r.killed)) break;
        if (out_fd >= 0) {
            pollfd p{out_fd, POLLIN, 0};
            if (poll(&p, 1, 20) > 0) {
                ssize_t n = read(out_fd, buf, sizeof buf);
                if (n > 0) {
                    opt.on_output(std::string_view(buf, static_cast<size_t>(n)));
                } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                    close(out_fd);  // every writer is gone
                    out_fd = -1;
                }
            }
            // A grandchild may keep the pipe open after the child exits; stop reading then.
            if (reaped && (!r.timed_out || r.killed) && out_fd >= 0) {
                pollfd q{out_fd, POLLIN, 0};
                if (poll(&q, 1, 0) == 0) {
                    close(out_fd);
                    out_fd = -1;
                }
            }
        } else {
            usleep(10000);
        }
    }
    if (!reaped) waitpid(pid, &status, 0);
    if (out_fd >= 0) close(out_fd);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigaction(SIGHUP, &old_hup, nullptr);

    r.elapsed_s = std::chrono::duration<double>(clock::now() - start).count();
    if (WIFSIGNALED(status)) {
        r.term_signal = WTERMSIG(status);
        r.exit_code = 128 + r.term_signal;
    } else {
        r.exit_code = WEXITSTATUS(status);
    }
    if (r.timed_out) r.exit_code = exit_code::kTimeout;
    return r;
}

std::string timeout_message(const RunOptions& opt, const RunResult& r) {
    std::string cmd;
    for (const std::string& a : opt.argv) cmd += (cmd.empty() ? "" : " ") + a;
    return fmt::format(
        "ptolab run: TIMEOUT: '{}' ran longer than the whole-process limit of {} ({}); its process group was sent "
        "SIGTERM{}. Possible hang in compile, launch, synchronisation or teardown. Raise the limit with "
        "--timeout SECONDS or PTO_PROCESS_TIMEOUT_S=SECONDS (grace period before SIGKILL: {}, "
        "PTO_PROCESS_KILL_AFTER_S). On a real NPU, treat the device as suspect before the next run.",
        cmd, fmt_seconds(opt.timeout.seconds), opt.timeout.source,
        r.killed ? fmt::format(" and, still alive after {}, SIGKILL", fmt_seconds(opt.kill_after.seconds)) : "",
        fmt_seconds(opt.kill_after.seconds));
}

}  // namespace ptolab
