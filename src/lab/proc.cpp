#include <ptolab/proc.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ptolab {

namespace {

std::string fmt_seconds(double s) { return fmt::format("{:g} s", s); }

constexpr double kMaxSeconds = 1e9;

}  // namespace

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
    if (opt.argv.empty()) {
        RunResult r;
        r.exit_code = exit_code::kRunError;
        r.error = "no command given; write it after --, e.g. ptolab run -- python3 run.py";
        return r;
    }
    return common::run_with_timeout({opt.argv, opt.timeout.seconds, opt.kill_after.seconds, opt.on_output});
}

std::string timeout_message(const RunOptions& opt, const RunResult& r) {
    std::string cmd;
    for (const std::string& a : opt.argv) cmd += (cmd.empty() ? "" : " ") + a;
    return fmt::format(
        "ptolab run: TIMEOUT: '{}' ran longer than the whole-process limit of {} ({}); its process group was sent "
        "SIGTERM{}{}. Possible hang in compile, launch, synchronisation or teardown. Raise the limit with "
        "--timeout SECONDS or PTO_PROCESS_TIMEOUT_S=SECONDS (grace period before SIGKILL: {}, "
        "PTO_PROCESS_KILL_AFTER_S). On a real NPU, treat the device as suspect before the next run.",
        cmd, fmt_seconds(opt.timeout.seconds), opt.timeout.source,
        r.killed ? fmt::format(" and, still alive after {}, SIGKILL", fmt_seconds(opt.kill_after.seconds)) : "",
        r.survivors ? fmt::format(", yet processes of it were still alive {} later (stuck in the kernel, e.g. in a "
                                  "device driver; ptolab gave up waiting)",
                                  fmt_seconds(opt.kill_after.seconds))
                    : "",
        fmt_seconds(opt.kill_after.seconds));
}

}  // namespace ptolab
