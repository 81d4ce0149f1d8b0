// ptolab: the command-line face of the testing workflow (docs/cli.md).
// Every number it prints comes from ptolab_core, the library the Python
// package binds, so the CLI and ptolab.assert_close never disagree.
#include <ptolab/compare.hpp>
#include <ptosim/check.hpp>
#include <ptosim/runtime.hpp>
#include <ptolab/doctor.hpp>
#include <ptolab/golden.hpp>
#include <ptolab/proc.hpp>
#include <ptolab/vlog.hpp>

#include "ca_model.hpp"
#include "file_write.hpp"
#include "process.hpp"
#include "sim_env.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <map>
#include <sstream>
#include <vector>
#include <unistd.h>

namespace {

namespace ec = ptolab::exit_code;
using namespace ptolab::cli;

const char* kExitCodes =
    "Exit codes: 0 PASS/success, 1 FAIL (comparison failed), 2 usage error, 3 bad input file or unwritable output, "
    "124 timeout (run), 125 could not run the command, 126 not executable, 127 not found; "
    "otherwise run and log pass on the command's own status (128+N for signal N).";

std::string self_dir() {
    std::error_code e;
    auto p = std::filesystem::read_symlink("/proc/self/exe", e);
    return e ? "" : p.parent_path().string();
}

std::string shell_join(const std::vector<std::string>& argv) {
    std::string s;
    for (const std::string& a : argv) {
        bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                       "_-./=:,+@%") == std::string::npos;
        std::string q = a;
        if (!plain) {
            q = "'";
            for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
            q += "'";
        }
        s += (s.empty() ? "" : " ") + q;
    }
    return s;
}

std::string read_text(const std::string& path) {
    if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
    std::error_code e;
    if (std::filesystem::is_directory(path, e))
        throw std::invalid_argument(path + ": is a directory; pass the file inside it");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::invalid_argument(path + ": cannot open: " + std::strerror(errno) + "; check the path");
    try {
        return std::string(std::istreambuf_iterator<char>(f), {});
    } catch (const std::ios_base::failure&) {
        throw std::invalid_argument(path + ": read error: " + std::strerror(errno));
    }
}

// --- compare -------------------------------------------------------------

struct CompareArgs {
    std::string actual, expected, dtype, expected_dtype, shape, result, name, reason;
    std::optional<double> rtol, atol;
    bool equal_nan = false, no_check_dtype = false, json = false;
    int worst = 8;
};

int cmd_compare(const CompareArgs& a) {
    std::optional<ptolab::DType> dt, edt;
    auto dtype_arg = [](const std::string& s, const char* flag) -> std::optional<ptolab::DType> {
        if (s.empty()) return std::nullopt;
        auto d = ptolab::parse_dtype(s);
        if (!d)
            throw CLI::ValidationError(std::string(flag) + " '" + s + "' is not a dtype; use one of " +
                                       ptolab::dtype_choices());
        return d;
    };
    for (const std::string* input : {&a.actual, &a.expected})
        if (!a.result.empty() && ptolab::common::same_file(a.result, *input))
            throw CLI::ValidationError("--result " + a.result + " is the input " + *input +
                                       ": the JSON would replace it; name another file, e.g. result.json");
    dt = dtype_arg(a.dtype, "--dtype");
    edt = a.expected_dtype.empty() ? dt : dtype_arg(a.expected_dtype, "--expected-dtype");
    std::optional<std::vector<int64_t>> shape;
    ptolab::Array act, exp;
    try {
        if (!a.shape.empty()) shape = ptolab::parse_shape(a.shape);
    } catch (const ptolab::GoldenError& e) {
        throw CLI::ValidationError(std::string("--shape: ") + e.what());
    }
    try {
        act = ptolab::read_golden(a.actual, dt, shape);
        exp = ptolab::read_golden(a.expected, edt, shape);
    } catch (const ptolab::GoldenError& e) {
        std::cerr << "ptolab compare: error: " << e.what() << "\n";
        return ec::kInput;
    }
    // Two empty files agree on every element and prove nothing.
    if (ptolab::element_count(act.shape) == 0) {
        std::cerr << "ptolab compare: error: " << a.actual << " holds no elements; an empty output proves nothing: "
                  << "check that the kernel wrote it (and --shape, if given)\n";
        return ec::kInput;
    }
    ptolab::CompareOptions o;
    o.rtol = a.rtol;
    o.atol = a.atol;
    o.equal_nan = a.equal_nan;
    o.worst_count = a.worst;
    o.check_dtype = !a.no_check_dtype;
    const std::string label = a.name.empty() ? a.actual + " vs " + a.expected : a.name;
    ptolab::Report r;
    try {
        r = ptolab::compare(act.view(), exp.view(), o);
    } catch (const ptolab::CompareError& e) {
        std::cerr << "ptolab compare: error: " << a.actual << " vs " << a.expected << ": " << e.what() << "\n";
        return ec::kInput;
    }
    if (!r.default_tolerance) {
        const auto def = ptolab::default_tolerance(r.dtype);
        if (r.rtol > def.rtol || r.atol > def.atol)
            std::cerr << fmt::format("ptolab compare: note: tolerance relaxed from the {} defaults (rtol {:g}, atol {:g}) "
                                     "to rtol {:g}, atol {:g}; reason: {}\n",
                                     ptolab::dtype_name(r.dtype), def.rtol, def.atol, r.rtol, r.atol,
                                     a.reason.empty() ? "NONE GIVEN: record one with --reason" : a.reason);
        if (r.atol >= 1e-2)
            std::cerr << "ptolab compare: warning: atol >= 1e-2 can mark incorrect kernels as PASS (seed: Correctness "
                         "Rules); prefer a documented rtol\n";
    }
    std::string json = ptolab::report_json(r, label);
    if (!a.reason.empty()) {
        auto j = nlohmann::json::parse(json);
        j["tolerance_reason"] = a.reason;
        json = j.dump(2);
    }
    // The verdict is printed even when the result file cannot be written: the
    // comparison happened, only its record is missing.
    std::string write_error;
    if (!a.result.empty()) {
        try {
            ptolab::common::write_file(a.result, json + "\n");
        } catch (const ptolab::common::WriteError& e) {
            write_error = e.what();
        }
    }
    if (a.json) std::cout << json << "\n";
    else std::cout << (r.passed ? ptolab::summary_line(r, label) : ptolab::format_report(r, label)) << "\n";
    if (!write_error.empty()) {
        std::cout.flush();
        std::cerr << "ptolab compare: error: --result: " << write_error << "; the comparison above "
                  << (r.passed ? "passed" : "failed") << " but its JSON was not saved: fix the path and rerun\n";
        return r.passed ? ec::kInput : ec::kFail;
    }
    return r.passed ? ec::kPass : ec::kFail;
}

// --- run -----------------------------------------------------------------

// Seconds for --timeout and --kill-after: a positive number with a message
// that says so (CLI11's PositiveNumber prints the largest double as its bound).
const CLI::Validator kSeconds(
    [](std::string& text) -> std::string {
        try {
            ptolab::parse_seconds(text, "");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what()).substr(1);  // "'<text>' is not a positive number of seconds; ..."
        }
        return "";
    },
    "SECONDS");

struct RunArgs {
    std::vector<std::string> command;
    std::optional<double> timeout, kill_after;
    bool json = false, sim = false, force = false;
    std::optional<int> ranks;
    std::string mpi = "auto";
};

int apply_sim_env(bool force);

ptolab::RunOptions run_options(std::optional<double> timeout, std::optional<double> kill_after) {
    ptolab::RunOptions o;
    o.timeout = timeout ? ptolab::Limit{*timeout, "--timeout"} : ptolab::process_timeout_from_env();
    o.kill_after = kill_after ? ptolab::Limit{*kill_after, "--kill-after"} : ptolab::kill_after_from_env();
    return o;
}

void print_run_json(const ptolab::RunOptions& o, const ptolab::RunResult& r) {
    nlohmann::json j{{"command", o.argv},
                     {"exit_code", r.exit_code},
                     {"timed_out", r.timed_out},
                     {"killed", r.killed},
                     {"survivors", r.survivors},
                     {"signal", r.term_signal},
                     {"elapsed_s", r.elapsed_s},
                     {"timeout_s", o.timeout.seconds},
                     {"timeout_source", o.timeout.source},
                     {"kill_after_s", o.kill_after.seconds}};
    if (!r.error.empty()) j["error"] = r.error;
    std::cerr << j.dump() << "\n";  // stderr keeps the command's stdout unchanged for pipes
}

// An executable on PATH, or "".
std::string on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    size_t at = 0;
    while (at <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', at), dirs.size());
        const std::string cand = (end > at ? dirs.substr(at, end - at) : std::string(".")) + "/" + name;
        if (access(cand.c_str(), X_OK) == 0) return cand;
        at = end + 1;
    }
    return {};
}

// The launcher command of `ptolab run --ranks N` (docs/many-devices.md,
// "Starting ranks"): MPICH's mpirun first (pto-isa's comm tests load
// MPICH), Open MPI's when asked or when it is the only one. Empty with
// `why` when none is installed.
std::vector<std::string> mpi_launcher(const std::string& which, int ranks, std::string& why) {
    std::vector<std::string> out;
    const std::string mpich = on_path("mpirun.mpich"), ompi = on_path("mpirun.openmpi");
    std::string use;
    bool is_ompi = false;
    if (which == "mpich") use = mpich;
    else if (which == "openmpi") use = ompi, is_ompi = true;
    else if (!mpich.empty()) use = mpich;
    else if (!ompi.empty()) use = ompi, is_ompi = true;
    if (use.empty()) {
        why = which == "auto" ? "no MPI launcher: neither mpirun.mpich nor mpirun.openmpi is on PATH "
                                "(scripts/install-deps.sh installs both)"
                              : "mpirun." + which + " is not on PATH (scripts/install-deps.sh installs it)";
        return out;
    }
    out.push_back(use);
    if (is_ompi) {
        if (geteuid() == 0) out.push_back("--allow-run-as-root");
        out.push_back("--oversubscribe");  // more ranks than cores: each rank is one simulated device
    }
    out.push_back("-np");
    out.push_back(std::to_string(ranks));
    return out;
}

int cmd_run(const RunArgs& a) {
    if (a.sim) {
        if (int rc = apply_sim_env(a.force); rc != ec::kPass) return rc;
    }
    ptolab::RunOptions o = run_options(a.timeout, a.kill_after);
    o.argv = a.command;
    if (a.ranks) {
        std::string why;
        std::vector<std::string> launcher = mpi_launcher(a.mpi, *a.ranks, why);
        if (launcher.empty()) {
            std::cerr << "ptolab run: error: --ranks " << *a.ranks << ": " << why << "\n";
            return ec::kUsage;
        }
        launcher.insert(launcher.end(), a.command.begin(), a.command.end());
        o.argv = launcher;
    }
    ptolab::RunResult r = ptolab::run_with_timeout(o);
    if (r.timed_out) std::cerr << ptolab::timeout_message(o, r) << "\n";
    else if (!r.error.empty()) std::cerr << "ptolab run: error: " << r.error << "\n";
    else if (a.ranks && r.exit_code != 0)
        std::cerr << "ptolab run: " << *a.ranks << " ranks under " << o.argv[0] << ": exit status " << r.exit_code
                  << " (a rank failed or was killed; the launcher ended the others; each rank's messages above "
                     "start with its rank)\n";
    if (a.json) print_run_json(o, r);
    return r.exit_code;
}

// --- check ---------------------------------------------------------------

struct CheckArgs {
    std::string tool = "all", log;
    bool strict = false;
    std::vector<std::string> command;
    std::optional<double> timeout, kill_after;
};

// Reports the command's launches wrote to a PTO_SIM_CHECK_LOG, from byte
// `from` on (JSON lines) or all of them (SARIF), as (tool, severity) pairs.
std::vector<std::pair<std::string, std::string>> read_check_log(const std::string& path, std::streamoff from) {
    std::vector<std::pair<std::string, std::string>> out;
    std::ifstream f(path);
    if (!f) return out;
    const bool sarif = path.size() > 6 && path.compare(path.size() - 6, 6, ".sarif") == 0;
    if (sarif) {
        auto j = nlohmann::json::parse(f, nullptr, false);
        if (j.is_discarded()) return out;
        for (auto& run : j.value("runs", nlohmann::json::array()))
            for (auto& r : run.value("results", nlohmann::json::array())) {
                std::string rule = r.value("ruleId", "");
                out.emplace_back(rule.substr(0, rule.find('/')), r.value("level", "error"));
            }
        return out;
    }
    f.seekg(from);
    for (std::string line; std::getline(f, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.is_object()) out.emplace_back(j.value("tool", "?"), j.value("severity", "error"));
    }
    return out;
}

int cmd_check(const CheckArgs& a) {
    if (std::string e = ptosim::check::configure(a.tool); !e.empty()) {
        std::string msg = "--tool " + a.tool + ": " + e.substr(e.find(':') + 2);
        throw CLI::ValidationError(msg);
    }
    ptosim::check::configure("");
    // The reports are counted from the log afterwards: a device or a FIFO
    // cannot be read back (and /dev/full or /dev/zero would never end).
    if (std::error_code e; !a.log.empty() && std::filesystem::exists(a.log, e) &&
                           !std::filesystem::is_regular_file(a.log, e))
        throw CLI::ValidationError("--log " + a.log + " is not a regular file; ptolab check reads the reports back "
                                   "from it: name a file");
    std::string log = a.log;
    bool own_log = false;
    if (log.empty()) {
        char tmpl[] = "/tmp/ptolab-check.XXXXXX";
        int fd = mkstemp(tmpl);
        if (fd < 0) throw std::runtime_error(std::string("cannot create a temporary report log: ") + std::strerror(errno));
        close(fd);
        log = tmpl;
        own_log = true;
    }
    std::streamoff from = 0;
    {
        std::error_code e;
        auto n = std::filesystem::file_size(log, e);
        if (!e) from = static_cast<std::streamoff>(n);
    }
    setenv("PTO_SIM_CHECK", a.tool.c_str(), 1);
    setenv("PTO_SIM_CHECK_LOG", log.c_str(), 1);
    if (a.strict) setenv("PTO_SIM_STRICT", "1", 1);
    ptolab::RunOptions o = run_options(a.timeout, a.kill_after);
    o.argv = a.command;
    ptolab::RunResult r = ptolab::run_with_timeout(o);
    if (r.timed_out) std::cerr << ptolab::timeout_message(o, r) << "\n";
    else if (!r.error.empty()) std::cerr << "ptolab check: error: " << r.error << "\n";
    auto reports = read_check_log(log, from);
    if (own_log) std::remove(log.c_str());
    int errors = 0;
    std::map<std::string, int> by_tool;
    for (auto& [tool, severity] : reports) {
        ++by_tool[tool];
        errors += severity == "error";
    }
    std::string tools;
    for (auto& [t, n] : by_tool) tools += (tools.empty() ? "" : ", ") + std::to_string(n) + " " + t;
    std::cerr << "ptolab check: " << reports.size() << " report(s)" << (tools.empty() ? "" : " (" + tools + ")")
              << ", " << errors << " error(s); " << shell_join(a.command) << " exited with status " << r.exit_code
              << (a.log.empty() ? "" : "; reports in " + a.log) << "\n";
    if (r.exit_code != 0) return r.exit_code;
    return errors ? ec::kFail : ec::kPass;
}

// --- profile -------------------------------------------------------------

struct ProfileArgs {
    std::string output = "ptolab-profile";
    std::vector<std::string> command;
    std::optional<double> timeout, kill_after;
};

int cmd_profile(const ProfileArgs& a) {
    ptolab::RunOptions o = run_options(a.timeout, a.kill_after);
    o.argv = a.command;
    return run_profiled("ptolab profile", a.output, o);
}

// --- doctor --------------------------------------------------------------

int cmd_doctor(bool json, const std::string& python) {
    ptolab::DoctorOptions o;
    o.python = python;
    o.self_exe_dir = self_dir();
    ptolab::DoctorReport r = ptolab::run_doctor(o);
    std::cout << (json ? ptolab::doctor_json(r) : ptolab::doctor_text(r)) << "\n";
    return 0;
}

// --- log -----------------------------------------------------------------

struct LogArgs {
    std::string log = "verification-log.md", title, command, output, result, host, note, python;
    std::optional<int> exit_status;
    std::vector<std::string> run;
    std::optional<double> timeout, kill_after;
    bool json = false;
};

int cmd_log(const LogArgs& a) {
    ptolab::LogEntry e;
    e.title = a.title;
    e.note = a.note;
    std::string output;
    int status = 0;
    if (!a.run.empty()) {
        if (!a.command.empty() || !a.output.empty())
            throw CLI::ValidationError("give either a command after -- (which ptolab runs and records) or "
                                       "--command/--output for a run that already happened, not both");
        ptolab::RunOptions o = run_options(a.timeout, a.kill_after);
        o.argv = a.run;
        o.on_output = [&output](std::string_view s) {
            output.append(s);
            std::fwrite(s.data(), 1, s.size(), stdout);
            std::fflush(stdout);
        };
        ptolab::RunResult r = ptolab::run_with_timeout(o);
        if (r.timed_out) {
            std::cerr << ptolab::timeout_message(o, r) << "\n";
            output += "FAIL timeout: " + ptolab::timeout_message(o, r) + "\n";
        } else if (!r.error.empty()) {
            std::cerr << "ptolab log: error: " << r.error << "\n";
            output += "FAIL could not run: " + r.error + "\n";
        }
        e.command = shell_join(a.run);
        e.exit_status = r.exit_code;
        status = r.exit_code;
    } else {
        if (a.command.empty())
            throw CLI::ValidationError("nothing to log: pass the command to run after --, or --command with "
                                       "--output/--result for a run that already happened");
        e.command = a.command;
        e.exit_status = a.exit_status;
        if (!a.output.empty()) {
            try {
                output = read_text(a.output);
            } catch (const std::invalid_argument& err) {
                std::cerr << "ptolab log: error: --output " << err.what() << "\n";
                return ec::kInput;
            }
        }
    }
    e.result_lines = ptolab::result_lines(output);
    if (!a.result.empty()) {
        try {
            e.result_json = ptolab::normalize_json(read_text(a.result), a.result);
        } catch (const std::invalid_argument& err) {
            std::cerr << "ptolab log: error: --result " << err.what() << "; nothing was written to " << a.log << "\n";
            return ec::kInput;
        }
    }
    if (!a.host.empty()) {
        e.host = a.host;
    } else {
        ptolab::DoctorOptions d;
        d.python = a.python;
        d.self_exe_dir = self_dir();
        e.host = ptolab::doctor_summary(ptolab::run_doctor(d));
    }
    try {
        ptolab::append_entry(a.log, e);
    } catch (const std::exception& err) {
        std::cerr << "ptolab log: error: " << err.what() << "; the log was left as it was\n";
        return ec::kInput;
    }
    const std::string v = ptolab::verdict(e);
    if (a.json) {
        nlohmann::json j{{"log", a.log}, {"verdict", v}, {"command", e.command}, {"result_lines", e.result_lines}};
        if (e.exit_status) j["exit_status"] = *e.exit_status;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cerr << "ptolab log: appended a " << v << " entry to " << a.log << "\n";
    }
    if (!a.run.empty()) return status;
    return v == "FAIL" ? ec::kFail : ec::kPass;
}

// The smoke is reference/reproduce.sh: one script, so that the cookbook runs
// the same way with or without this binary. ptolab smoke finds it in the
// source tree it was built from (or PTOLAB_ROOT) and hands over the process.
int cmd_smoke(bool log, bool list) {
    const char* root_env = std::getenv("PTOLAB_ROOT");
    const std::string root = root_env && *root_env ? root_env : PTOLAB_SOURCE_DIR;
    const std::string script = root + "/reference/reproduce.sh";
    if (access(script.c_str(), X_OK) != 0) {
        std::cerr << "ptolab smoke: " << script << " is missing or not executable; set PTOLAB_ROOT to a ptolab "
                  << "checkout\n";
        return ec::kRunError;
    }
    if (!std::getenv("PTOLAB_BUILD_DIR")) setenv("PTOLAB_BUILD_DIR", PTOLAB_BINARY_DIR, 1);
    std::vector<char*> argv{const_cast<char*>(script.c_str())};
    std::string flag = log ? "--log" : "--list";
    if (log || list) argv.push_back(flag.data());
    argv.push_back(nullptr);
    execv(script.c_str(), argv.data());
    std::cerr << "ptolab smoke: cannot run " << script << ": " << std::strerror(errno) << "\n";
    return ec::kRunError;
}

// The sweep engine is Python (python/ptolab/sweep) so Dask workers and CI
// machines without this binary run the same code; ptolab sweep hands it the
// whole command line. The package comes from the source tree (or
// PTOLAB_ROOT), ahead of anything else on PYTHONPATH; the engine needs none
// of the compiled runtime.
int cmd_sweep(int argc, char** argv) {
    const char* root_env = std::getenv("PTOLAB_ROOT");
    const std::string root = root_env && *root_env ? root_env : PTOLAB_SOURCE_DIR;
    const std::string pkg = root + "/python";
    if (!std::filesystem::exists(pkg + "/ptolab/sweep/__main__.py")) {
        std::cerr << "ptolab sweep: " << pkg << "/ptolab/sweep is missing; set PTOLAB_ROOT to a ptolab checkout\n";
        return ec::kRunError;
    }
    const char* old = std::getenv("PYTHONPATH");
    // The cases get the PYTHONPATH the user had (runcase.py restores it).
    setenv("PTOLAB_SWEEP_CASE_PYTHONPATH", old ? old : "", 1);
    setenv("PYTHONPATH", (old && *old ? pkg + ":" + old : pkg).c_str(), 1);
    setenv("PTOLAB_ROOT", root.c_str(), 1);
    if (!std::getenv("PTOLAB_BUILD_DIR")) setenv("PTOLAB_BUILD_DIR", PTOLAB_BINARY_DIR, 1);
    // NumPy and Dask are Debian's (python3-numpy, python3-distributed): its interpreter, not the first on PATH.
    const char* py_env = std::getenv("PTOLAB_SWEEP_PYTHON");
    const std::string python = py_env && *py_env ? py_env : "/usr/bin/python3";
    std::vector<std::string> args{python, "-m", "ptolab.sweep"};
    for (int i = 2; i < argc; ++i) args.emplace_back(argv[i]);
    std::vector<char*> cargv;
    for (auto& a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(python.c_str(), cargv.data());
    std::cerr << "ptolab sweep: cannot run " << python << ": " << std::strerror(errno)
              << "; install python3 or set PTOLAB_SWEEP_PYTHON\n";
    return ec::kRunError;
}

// ptolab env: the exports of the CANN-shaped root's setenv.bash (docs/drop-in.md).
std::string sh_quote(const std::string& s) { return ptolab::common::shell_quote_always(s); }

int apply_sim_env(bool force) {
    const std::string root = cann_root();
    if (!std::filesystem::exists(root + "/bin/bisheng")) {
        std::cerr << "ptolab run --sim: " << root << "/bin/bisheng is missing; build the cann_root target "
                  << "(cmake --build build --target cann_root) or set PTOLAB_CANN_ROOT\n";
        return ec::kRunError;
    }
    auto torch = torch_npu_exports(force, "ptolab run --sim");
    if (!torch) return ec::kUsage;
    apply(cann_exports(root, "", nullptr));
    apply(*torch);
    return ec::kPass;
}

int cmd_env(bool root_only, const std::string& soc, bool torch_npu, bool force) {
    const std::string root = cann_root();
    if (!std::filesystem::exists(root + "/bin/bisheng")) {
        std::cerr << "ptolab env: " << root << "/bin/bisheng is missing; build the cann_root target "
                  << "(cmake --build build --target cann_root) or set PTOLAB_CANN_ROOT\n";
        return ec::kRunError;
    }
    if (root_only) {
        std::cout << root << "\n";
        return ec::kPass;
    }
    const ptosim::SocProfile* p = nullptr;
    if (!soc.empty() && !(p = ptosim::find_soc(soc))) {
        std::cerr << "ptolab env: --soc " << soc << " is not a known SoC (" << known_socs() << ")\n";
        return ec::kUsage;
    }
    std::vector<Export> all = cann_exports(root, soc, p);
    const size_t cann_count = all.size();
    if (torch_npu) {
        auto torch = torch_npu_exports(force, "ptolab env --torch-npu");
        if (!torch) return ec::kUsage;
        all.insert(all.end(), torch->begin(), torch->end());
    }
    const std::string fallbacks = root + "/python/fallbacks.py";
    for (size_t i = 0; i < all.size(); ++i) {
        const Export& x = all[i];
        std::cout << "export " << x.name << "=" << sh_quote(x.value);
        if (x.append) std::cout << "\"${" << x.name << ":+:$" << x.name << "}\"";
        std::cout << "\n";
        // After the root's own exports, as its setenv.bash does: ptolab's
        // ml_dtypes/en_dtypes and simulated torch_npu where the interpreter
        // has no real one (cmake/cann_python_fallbacks.py).
        if (i + 1 == cann_count && std::filesystem::exists(fallbacks))
            std::cout << "_ptolab_py_exports=\"$(\"$(command -v python3 || echo /usr/bin/python3)\" "
                      << sh_quote(fallbacks) << ")\" && eval \"$_ptolab_py_exports\"; unset _ptolab_py_exports\n";
    }
    return ec::kPass;
}

}  // namespace

int main(int argc, char** argv) {
    // The CANN-shaped root's bin/msprof and bin/cannsim are this program.
    const std::string invoked = std::filesystem::path(argv[0]).filename().string();
    if (invoked == "msprof") return ptolab::cli::msprof_main(argc, argv);
    if (invoked == "cannsim") return ptolab::cli::cannsim_main(argc, argv);
    // Its options are the engine's (argparse); CLI11 below only lists the command.
    if (argc >= 2 && std::string(argv[1]) == "sweep") return cmd_sweep(argc, argv);

    CLI::App app{"ptolab: run, verify and record PTO kernel tests (docs/cli.md)."};
    app.footer(kExitCodes);
    app.require_subcommand(1);
    app.set_version_flag("--version", "ptolab 0.1.0");

    CompareArgs ca;
    auto* compare = app.add_subcommand(
        "compare", "Compare a kernel's output file with a golden file (.npy, or raw .bin with --dtype/--shape), with "
                   "the seed's tolerances (float16 rtol 1e-3, bfloat16 1.6e-2, float32 1.3e-6; atol 1e-5).");
    compare->add_option("actual", ca.actual, "Output file (.npy or raw)")->required();
    compare->add_option("expected", ca.expected, "Golden file (.npy or raw)")->required();
    compare->add_option("--dtype", ca.dtype, "Element type of raw files; for .npy it must agree with the file "
                                             "(bfloat16 may be given for 2-byte raw data)");
    compare->add_option("--expected-dtype", ca.expected_dtype, "Element type of the golden file if it differs");
    compare->add_option("--shape", ca.shape, "Shape of raw files, e.g. 128,256 (default: flat); a .npy may be viewed "
                                             "with another shape of the same size");
    compare->add_option("--rtol", ca.rtol, "Relative tolerance (explicit override of the dtype default)");
    compare->add_option("--atol", ca.atol, "Absolute tolerance (explicit override of 1e-5)");
    compare->add_option("--reason", ca.reason, "Why the tolerance was relaxed; recorded in the JSON result");
    compare->add_flag("--equal-nan", ca.equal_nan, "Treat NaN in both files as equal");
    compare->add_flag("--no-check-dtype", ca.no_check_dtype,
                      "Allow different dtypes; the looser dtype's tolerance applies");
    compare->add_option("--worst", ca.worst, "How many worst elements to list (default 8)")->check(CLI::Range(0, 1000));
    compare->add_option("--name", ca.name, "Label for the PASS/FAIL line (default: the file names)");
    compare->add_option("--result", ca.result, "Also write the JSON result to this file");
    compare->add_flag("--json", ca.json, "Print the JSON result instead of text");
    compare->footer(kExitCodes);

    RunArgs ra;
    auto* run = app.add_subcommand(
        "run", "Run a command under the whole-process timeout: past the limit the whole process group gets SIGTERM, "
               "then SIGKILL after the grace period, and ptolab exits 124. Limit: --timeout, else "
               "PTO_PROCESS_TIMEOUT_S, else 60 s (1800 s when PTO_SIMULATOR=1); grace: --kill-after, else "
               "PTO_PROCESS_KILL_AFTER_S, else 10 s.");
    run->add_option("--timeout", ra.timeout, "Seconds before the process group is terminated")
        ->check(kSeconds);
    run->add_option("--kill-after", ra.kill_after, "Seconds between SIGTERM and SIGKILL")->check(kSeconds);
    run->add_flag("--json", ra.json, "Print a JSON summary (exit code, timeout, elapsed) on stderr at the end");
    run->add_flag("--sim", ra.sim, "Run torch/torch_npu runners on ptosim: the CANN-shaped root's environment (as "
                                   "ptolab env), ptolab's simulated torch_npu first on PYTHONPATH "
                                   "(PTOLAB_TORCH_NPU=sim) and PTO_SIMULATOR=1. Refuses when a real torch_npu is "
                                   "installed. See docs/torch_npu.md");
    run->add_flag("--force", ra.force, "With --sim: simulate even though a real torch_npu is installed");
    run->add_option("--ranks", ra.ranks,
                    "Start the command as N MPI ranks, one simulated device each (mpirun -np N underneath; the "
                    "timeout covers every rank, and a rank that fails or is killed takes the others down). See "
                    "docs/many-devices.md")
        ->check(CLI::Range(1, 1024));
    run->add_option("--mpi", ra.mpi, "With --ranks: the launcher, mpich (mpirun.mpich), openmpi (mpirun.openmpi) or "
                                     "auto (MPICH when installed: pto-isa's comm tests load MPICH)")
        ->check(CLI::IsMember({"auto", "mpich", "openmpi"}));
    run->add_option("command", ra.command, "The command, after --")->required()->expected(-1);
    run->footer(kExitCodes);

    CheckArgs cka;
    auto* check = app.add_subcommand(
        "check", "Run a command with ptosim's checkers on (PTO_SIM_CHECK, msSanitizer's spelling: --tool=sync,race,mem,init "
                 "or all) under the whole-process timeout, then print how many reports its launches made. Exit status: "
                 "the command's when non-zero, else 1 when a checker reported an error, else 0. See docs/checkers.md.");
    check->add_option("--tool", cka.tool, "Comma list of sync, race, mem, init, or all (default all)");
    check->add_option("--log", cka.log, "Also keep the reports: JSON lines appended to this file (SARIF when it ends "
                                        "in .sarif); sets PTO_SIM_CHECK_LOG");
    check->add_flag("--strict", cka.strict,
                    "Fault where the device would not (sets PTO_SIM_STRICT=1): every finding the device tolerates, a "
                    "memcheck report otherwise, stops its launch (docs/semantics.md, \"Faults and reports\")");
    check->add_option("--timeout", cka.timeout, "As ptolab run --timeout")->check(kSeconds);
    check->add_option("--kill-after", cka.kill_after, "As ptolab run --kill-after")->check(kSeconds);
    check->add_option("command", cka.command, "The command, after --")->required()->expected(-1);
    check->footer(kExitCodes);

    ProfileArgs pa;
    auto* profile = app.add_subcommand(
        "profile", "Run a command with ptosim's cost model on (PTO_SIM_PROFILE) under the whole-process timeout, then "
                   "print each launch's simulated time, pipe utilisation, bounding pipe, bytes moved and roofline "
                   "position. The output directory gets summary.json, summary.txt and a Perfetto trace.json. Exit "
                   "status: the command's. See docs/cost-model.md.");
    profile->add_option("--output,-o", pa.output, "Directory for summary.json, summary.txt, trace.json (default "
                                                  "./ptolab-profile; created)");
    profile->add_option("--timeout", pa.timeout, "As ptolab run --timeout")->check(CLI::PositiveNumber);
    profile->add_option("--kill-after", pa.kill_after, "As ptolab run --kill-after")->check(CLI::PositiveNumber);
    profile->add_option("command", pa.command, "The command, after --")->required()->expected(-1);
    profile->footer(kExitCodes);

    bool doctor_json = false;
    std::string doctor_python;
    auto* doctor = app.add_subcommand(
        "doctor", "Report CANN, bisheng, npu-smi, ACL, torch, torch_npu and the simulator's SoC profiles, and which "
                  "row of the seed's host/launch-method matrix applies here. Exits 0 whatever is missing.");
    doctor->add_flag("--json", doctor_json, "Print JSON");
    doctor->add_option("--python", doctor_python, "Interpreter to probe for torch/torch_npu/pyACL (default: "
                                                  "$PTOLAB_PYTHON, else the interpreter the build found with NumPy)");
    doctor->footer(kExitCodes);

    LogArgs la;
    auto* log = app.add_subcommand(
        "log", "Append a verification-log entry (date, host facts, exact command, PASS/FAIL lines, result JSON) to a "
               "Markdown log. Either runs the command given after -- (under the whole-process timeout, output shown "
               "and recorded) or records a finished run from --command/--output/--result.");
    log->add_option("--log", la.log, "Markdown log file (default verification-log.md)");
    log->add_option("--title", la.title, "Entry title (default: the verdict)");
    log->add_option("--command", la.command, "The exact command of a run that already happened");
    log->add_option("--output", la.output, "Its captured output ('-' for stdin); PASS/FAIL lines are taken from it");
    log->add_option("--exit-status", la.exit_status, "Its exit status");
    log->add_option("--result", la.result, "JSON result file written by the runner");
    log->add_option("--note", la.note, "Free text, e.g. why a tolerance was relaxed");
    log->add_option("--host", la.host, "Host facts to record instead of running the doctor's probes");
    log->add_option("--python", la.python, "Interpreter for the doctor's probes");
    log->add_option("--timeout", la.timeout, "As ptolab run --timeout")->check(kSeconds);
    log->add_option("--kill-after", la.kill_after, "As ptolab run --kill-after")->check(kSeconds);
    log->add_flag("--json", la.json, "Print a JSON summary of the entry");
    log->add_option("command", la.run, "Command to run and record, after --")->expected(-1);
    log->footer(kExitCodes);

    bool smoke_log = false, smoke_list = false;
    auto* smoke = app.add_subcommand(
        "smoke", "Run the reference smoke (reference/reproduce.sh): every simulator launch path of the cookbook on "
                 "both targets, each under the whole-process timeout, one PASS/FAIL line per case and a summary; "
                 "real-device paths this host cannot run are listed with the reason. Exit status: the script's.");
    smoke->add_flag("--log", smoke_log, "Record the run in reference/verification-log.md with ptolab log");
    smoke->add_flag("--list", smoke_list, "Print the paths it would run; run nothing");
    smoke->footer(kExitCodes);

    app.add_subcommand("sweep", "Run a sweep of independent cases (pto-isa's system testcases with --conformance, a "
                                "runner's shape grid, commands from a list file; each in its own process) locally, sharded (--shard I/N, slurm, gitlab) or on a Dask cluster, "
                                "with Markdown/JSON/JUnit reports; merge shards (sweep merge). Options: ptolab sweep "
                                "--help. See docs/sweeps.md.");

    bool env_root = false;
    std::string env_soc;
    auto* env = app.add_subcommand(
        "env", "Print the shell exports that make the CANN-shaped root (build/cann, or $PTOLAB_CANN_ROOT) the CANN "
               "toolkit: ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, PATH (bisheng is ptocc), LD_LIBRARY_PATH. Use: "
               "eval \"$(ptolab env)\". See docs/drop-in.md.");
    env->add_flag("--root", env_root, "Print only the root directory");
    env->add_option("--soc", env_soc, "Also select a SoC by its CANN name (Ascend910B4, Ascend910_9599, ...): "
                                      "SOC_VERSION, PTO_SIM_SOC and its tools/simulator/<SoC>/lib");
    bool env_torch_npu = false, env_force = false;
    env->add_flag("--torch-npu", env_torch_npu, "Also put ptolab's simulated torch_npu first on PYTHONPATH "
                                                "(PTOLAB_TORCH_NPU=sim, PTO_SIMULATOR=1; docs/torch_npu.md). Refuses "
                                                "when a real torch_npu is installed");
    env->add_flag("--force", env_force, "With --torch-npu: simulate even though a real torch_npu is installed");
    env->footer(kExitCodes);

    try {
        app.parse(argc, argv);
        if (*env) return cmd_env(env_root, env_soc, env_torch_npu, env_force);
        if (*smoke) return cmd_smoke(smoke_log, smoke_list);
        if (*compare) return cmd_compare(ca);
        if (*run) return cmd_run(ra);
        if (*check) return cmd_check(cka);
        if (*profile) return cmd_profile(pa);
        if (*doctor) return cmd_doctor(doctor_json, doctor_python);
        if (*log) return cmd_log(la);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        std::cerr << "Run 'ptolab --help' or 'ptolab <command> --help' for usage.\n";
        return ec::kUsage;
    } catch (const std::invalid_argument& e) {
        std::cerr << "ptolab: error: " << e.what() << "\n";
        return ec::kUsage;
    } catch (const std::exception& e) {
        std::cerr << "ptolab: internal error: " << e.what() << "\n";
        return ec::kRunError;
    }
    return ec::kUsage;
}
