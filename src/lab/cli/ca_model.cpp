#include "ca_model.hpp"

#include "sim_env.hpp"

#include <ptolab/proc.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptolab::cli {
namespace {

namespace ec = ptolab::exit_code;
namespace fs = std::filesystem;

// What both entry points run: an application on a SoC profile, with the
// profile output folder and a whole-process limit.
struct SimRun {
    const char* tool;  // "msprof op simulator" or "cannsim record", in messages
    std::string soc;   // as given (a profile or a CANN name); empty: the process default
    std::string output;
    std::optional<double> timeout_s;
    std::vector<std::string> app;
};

std::string usage_error(const char* tool, const std::string& what, const char* usage) {
    return std::string(tool) + ": " + what + "\nusage: " + usage;
}

// The root the application sees: ASCEND_HOME_PATH when it is a CANN-shaped
// root (its setenv.bash was sourced), else the build's.
std::string root_for_run() {
    const char* home = std::getenv("ASCEND_HOME_PATH");
    if (home && *home && fs::exists(fs::path(home) / "bin" / "bisheng")) return home;
    return cann_root();
}

int run_on_simulator(const SimRun& r) {
    const std::string root = root_for_run();
    std::vector<Export> env;
    if (!r.soc.empty()) {
        const ptosim::SocProfile* p = ptosim::find_soc(r.soc);
        if (!p) {
            std::cerr << r.tool << ": '" << r.soc << "' is not a SoC ptosim simulates (" << known_socs() << ")\n";
            return ec::kUsage;
        }
        // tools/simulator/<name>/lib exists for every CANN name and profile.
        env = cann_exports(root, r.soc, p);
    } else {
        env = cann_exports(root, "", nullptr);
    }
    const char* choice = std::getenv("PTOLAB_TORCH_NPU");
    const bool force = choice && std::string(choice) == "force-sim";
    // A C++ application needs no torch_npu: with a real one installed, leave
    // it in place and say how to simulate it instead of refusing the run.
    if (auto torch = torch_npu_exports(force, r.tool)) {
        env.insert(env.end(), torch->begin(), torch->end());
    } else {
        std::cerr << r.tool << ": continuing with the installed torch_npu first on the path; set "
                  << "PTOLAB_TORCH_NPU=force-sim to run torch_npu runners on ptosim\n";
        env.push_back({"PTO_SIMULATOR", "1"});
    }
    apply(env);

    ptolab::RunOptions o;
    o.argv = r.app;
    o.timeout = r.timeout_s ? ptolab::Limit{*r.timeout_s, fmt::format("--timeout={:g}", *r.timeout_s)}
                            : ptolab::process_timeout_from_env();
    o.kill_after = ptolab::kill_after_from_env();
    const std::string who = std::string(r.tool) + " (ptosim" + (r.soc.empty() ? "" : ", " + r.soc) + ")";
    try {
        const int status = run_profiled(who, r.output.empty() ? fs::current_path().string() : r.output, o);
        std::cerr << who << ": the application exited with status " << status << "\n";
        return status;
    } catch (const std::invalid_argument& e) {
        std::cerr << e.what() << "\n";
        return ec::kRunError;
    }
}

// Splits a command line as a POSIX shell would (quotes and backslashes; no
// expansion): cannsim's -u "<args>" and msprof's --application="<app args>".
std::vector<std::string> split_words(const std::string& s, const char* tool) {
    std::vector<std::string> out;
    std::string w;
    bool in_word = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\'' || c == '"') {
            size_t k = i + 1;
            for (; k < s.size() && s[k] != c; ++k) {
                // Inside double quotes a backslash escapes only " \ $ and `.
                if (c == '"' && s[k] == '\\' && k + 1 < s.size() && std::string("\"\\$`").find(s[k + 1]) != std::string::npos)
                    ++k;
                w += s[k];
            }
            if (k == s.size()) throw std::invalid_argument(std::string(tool) + ": unmatched " + c + " in '" + s + "'");
            i = k;
            in_word = true;
        } else if (c == '\\' && i + 1 < s.size()) {
            w += s[++i];
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(w);
            w.clear();
            in_word = false;
        } else {
            w += c;
            in_word = true;
        }
    }
    if (in_word) out.push_back(w);
    return out;
}

double parse_timeout(const std::string& v, const char* tool) {
    return ptolab::parse_seconds(v, std::string(tool) + " --timeout");
}

const char* kMsprofUsage =
    "msprof op simulator [--soc-version=<SoC>] [--timeout=<seconds>] [--output=<dir>] <application> [arguments]\n"
    "On this CANN-shaped root msprof runs the application on ptosim (no NPU, no CA model) and writes ptosim's\n"
    "simulated-time summary (summary.txt, summary.json) and trace (trace.json, Chrome/Perfetto) into --output\n"
    "(default: the current directory). See docs/drop-in.md.";

// msprof op options ptosim accepts without a meaning of their own: it
// simulates and summarises every launch of the application.
bool ignored_msprof_option(const std::string& name) {
    static const char* kIgnored[] = {"--kernel-name", "--launch-count", "--launch-skip-before-match", "--aic-metrics",
                                     "--kill", "--mstx", "--mstx-include", "--replay-mode", "--warm-up", "--core-id",
                                     "--dump"};
    for (const char* k : kIgnored)
        if (name == k) return true;
    return false;
}

const char* kCannsimUsage =
    "cannsim record -s <SoC> -o <dir> <application> [-u \"<application arguments>\"]\n"
    "On this CANN-shaped root cannsim runs the application on ptosim with the SoC's profile and writes ptosim's\n"
    "simulated-time summary and trace into -o <dir> (PTO_PROCESS_TIMEOUT_S bounds the run). See docs/drop-in.md.";

}  // namespace

int msprof_main(int argc, char** argv) {
    const char* tool = "msprof op simulator";
    std::vector<std::string> a(argv + 1, argv + argc);
    try {
        if (!a.empty() && (a[0] == "--help" || a[0] == "-h")) {
            std::cout << "usage: " << kMsprofUsage << "\n";
            return ec::kPass;
        }
        if (a.empty() || a[0] != "op")
            throw std::invalid_argument(usage_error("msprof", "only the operator mode `msprof op simulator` runs here "
                                                    "(this CANN root is ptosim's; it profiles no whole application)",
                                                    kMsprofUsage));
        if (a.size() < 2 || a[1] != "simulator")
            throw std::invalid_argument(usage_error("msprof op", "on-board profiling needs an NPU and this machine "
                                                    "runs ptosim only: use `msprof op simulator`", kMsprofUsage));
        SimRun r{tool, "", "", std::nullopt, {}};
        size_t i = 2;
        for (; i < a.size() && a[i].rfind("--", 0) == 0; ++i) {
            const std::string& arg = a[i];
            const size_t eq = arg.find('=');
            const std::string name = arg.substr(0, eq);
            auto value = [&]() -> std::string {
                if (eq != std::string::npos) return arg.substr(eq + 1);
                if (i + 1 >= a.size()) throw std::invalid_argument(usage_error(tool, name + " needs a value", kMsprofUsage));
                return a[++i];
            };
            if (name == "--help") {
                std::cout << "usage: " << kMsprofUsage << "\n";
                return ec::kPass;
            } else if (name == "--soc-version") {
                r.soc = value();
            } else if (name == "--timeout") {
                r.timeout_s = parse_timeout(value(), tool);
            } else if (name == "--output") {
                r.output = value();
            } else if (name == "--application") {
                r.app = split_words(value(), tool);
            } else if (name == "--config") {
                throw std::invalid_argument(usage_error(tool, "--config (an operator binary *.o) is not supported: "
                                                        "ptosim runs applications; pass the program that launches the "
                                                        "kernel", kMsprofUsage));
            } else if (ignored_msprof_option(name)) {
                value();
                std::cerr << tool << ": note: " << name << " has no effect on ptosim (every launch is simulated and "
                          << "summarised)\n";
            } else {
                throw std::invalid_argument(usage_error(tool, "unknown option " + name, kMsprofUsage));
            }
        }
        r.app.insert(r.app.end(), a.begin() + static_cast<std::ptrdiff_t>(i), a.end());
        if (r.app.empty()) throw std::invalid_argument(usage_error(tool, "no application given", kMsprofUsage));
        return run_on_simulator(r);
    } catch (const std::invalid_argument& e) {
        std::cerr << e.what() << "\n";
        return ec::kUsage;
    }
}

int cannsim_main(int argc, char** argv) {
    const char* tool = "cannsim record";
    std::vector<std::string> a(argv + 1, argv + argc);
    try {
        if (!a.empty() && (a[0] == "--help" || a[0] == "-h")) {
            std::cout << "usage: " << kCannsimUsage << "\n";
            return ec::kPass;
        }
        if (a.empty() || a[0] != "record")
            throw std::invalid_argument(usage_error("cannsim", a.empty() ? std::string("no subcommand given")
                                                                         : "unknown subcommand '" + a[0] + "'",
                                                    kCannsimUsage));
        SimRun r{tool, "", "", std::nullopt, {}};
        std::vector<std::string> user;
        for (size_t i = 1; i < a.size(); ++i) {
            auto value = [&]() -> std::string {
                if (i + 1 >= a.size()) throw std::invalid_argument(usage_error(tool, a[i] + " needs a value", kCannsimUsage));
                return a[++i];
            };
            if (a[i] == "-s" || a[i] == "--soc") r.soc = value();
            else if (a[i] == "-o" || a[i] == "--output") r.output = value();
            else if (a[i] == "-u" || a[i] == "--user-args") {
                auto w = split_words(value(), tool);
                user.insert(user.end(), w.begin(), w.end());
            } else if (r.app.empty() && a[i].rfind("-", 0) == 0)
                throw std::invalid_argument(usage_error(tool, "unknown option " + a[i], kCannsimUsage));
            else if (r.app.empty()) r.app.push_back(a[i]);
            else
                throw std::invalid_argument(usage_error(tool, "unexpected argument '" + a[i] + "': the application's "
                                                        "arguments go in -u \"...\"", kCannsimUsage));
        }
        if (r.soc.empty()) throw std::invalid_argument(usage_error(tool, "-s <SoC> is required", kCannsimUsage));
        if (r.app.empty()) throw std::invalid_argument(usage_error(tool, "no application given", kCannsimUsage));
        r.app.insert(r.app.end(), user.begin(), user.end());
        return run_on_simulator(r);
    } catch (const std::invalid_argument& e) {
        std::cerr << e.what() << "\n";
        return ec::kUsage;
    }
}

}  // namespace ptolab::cli
