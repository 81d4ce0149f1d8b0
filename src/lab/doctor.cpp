#include <ptolab/doctor.hpp>
#include <ptolab/proc.hpp>

#include <acl/acl.h>
#include <ptosim/runtime.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <glob.h>
#include <sys/utsname.h>

namespace fs = std::filesystem;

namespace ptolab {

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> glob_paths(const std::string& pattern) {
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
    globfree(&g);
    return out;
}

bool exists(const std::string& p) {
    std::error_code ec;
    return !p.empty() && fs::exists(p, ec);
}

// Runs a probe under the same whole-process timeout machinery as `ptolab run`,
// so a wedged driver cannot hang the doctor.
RunResult capture(const std::vector<std::string>& argv, double timeout_s, std::string& out) {
    RunOptions o;
    o.argv = argv;
    o.timeout = {timeout_s, "doctor probe limit"};
    o.kill_after = {2, "doctor probe grace"};
    o.on_output = [&out](std::string_view s) { out.append(s); };
    return run_with_timeout(o);
}

// Prints one JSON object; every import is guarded because the point is to
// report what is missing.
const char* kProbe = R"PY(
import json, sys
r = {"python": sys.executable, "version": sys.version.split()[0]}
def attempt(key, fn):
    try:
        r[key] = fn()
    except BaseException as e:
        r[key + "_error"] = "%s: %s" % (type(e).__name__, e)
def numpy_v():
    import numpy
    return numpy.__version__
attempt("numpy", numpy_v)
def torch_v():
    import torch
    return torch.__version__
attempt("torch", torch_v)
def torch_npu_v():
    import torch, torch_npu
    info = {"version": getattr(torch_npu, "__version__", "unknown"), "path": torch_npu.__file__}
    if getattr(torch_npu, "__ptolab_simulated__", False):
        # ptolab's own torch_npu: its device is ptosim, not evidence of an NPU on this host.
        info["simulated"] = "ptolab's torch_npu on ptosim (PTOLAB_TORCH_NPU=sim), simulating " + \
            torch.npu.get_device_properties(0).name
        return info
    if torch.npu.is_available():
        p = torch.npu.get_device_properties(torch.npu.current_device())
        info.update(name=p.name, cube_core_num=getattr(p, "cube_core_num", None),
                    vector_core_num=getattr(p, "vector_core_num", None), count=torch.npu.device_count())
    return info
attempt("torch_npu", torch_npu_v)
def acl_soc():
    import acl
    return acl.get_soc_name()
attempt("acl_soc", acl_soc)
def ptolab_path():
    import ptolab
    return ptolab.__file__
attempt("ptolab", ptolab_path)
print("PTOLAB_PROBE " + json.dumps(r))
)PY";

std::string classify(const std::string& soc) {
    if (soc.find("910B") != std::string::npos || soc.find("910_93") != std::string::npos) return "A2A3";
    if (soc.find("950") != std::string::npos) return "A5";
    return "";
}

}  // namespace

DoctorReport run_doctor(const DoctorOptions& opt) {
    DoctorReport r;
    struct utsname u {};
    if (uname(&u) == 0) r.host = fmt::format("{} {} {}", u.sysname, u.release, u.machine);

    for (const char* v : {"NPU_DEVICE", "PTO_DEVICE_REPEATS", "PTO_SIMULATOR", "PTO_SYNC_TIMEOUT_S",
                          "PTO_PROCESS_TIMEOUT_S", "PTO_PROCESS_KILL_AFTER_S", "PTO_LIB_PATH", "ASCEND_HOME_PATH",
                          "PTO_SIM_SOC", "MSPROF_TIMEOUT"})
        if (const char* val = std::getenv(v)) r.env.emplace_back(v, val);

    // CANN
    const std::string home = env("ASCEND_HOME_PATH");
    Tool cann{"CANN (ASCEND_HOME_PATH)"};
    if (!home.empty() && exists(home)) {
        cann.found = true;
        cann.detail = home;
    } else {
        cann.detail = home.empty() ? "ASCEND_HOME_PATH is not set" : "ASCEND_HOME_PATH=" + home + " does not exist";
        cann.missing = "no real ACL runtime, msprof, cannsim or runtime_camodel; only ptosim paths remain";
    }
    r.tools.push_back(cann);

    Tool setenv{"CANN setenv script"};
    std::vector<std::string> candidates;
    if (!home.empty()) candidates = {home + "/bin/setenv.bash", home + "/set_env.sh", home + "/../set_env.sh"};
    for (auto& p : glob_paths("/usr/local/Ascend/cann*/bin/setenv.bash")) candidates.push_back(p);
    candidates.push_back("/usr/local/Ascend/ascend-toolkit/set_env.sh");
    candidates.push_back("/usr/local/Ascend/ascend-toolkit/latest/bin/setenv.bash");
    for (const auto& c : candidates)
        if (exists(c)) {
            setenv.found = true;
            setenv.detail = "source " + c;
            break;
        }
    if (!setenv.found) {
        setenv.detail = "none of " + std::to_string(candidates.size()) + " usual locations (e.g. "
                        "/usr/local/Ascend/cann-<version>/bin/setenv.bash)";
        setenv.missing = "the CANN environment cannot be set up on this host";
    }
    r.tools.push_back(setenv);

    Tool bisheng{"bisheng"};
    const std::string b = common::find_bisheng();
    bisheng.found = !b.empty();
    bisheng.detail = bisheng.found ? b : "not under $ASCEND_HOME_PATH/compiler/ccec_compiler/bin nor on PATH";
    if (!bisheng.found) bisheng.missing = "no device binaries: kernels build for the simulator only (ptocc)";
    r.tools.push_back(bisheng);

    Tool ptocc{"ptocc"};
    std::string pc;
    if (!opt.self_exe_dir.empty()) {
        for (const char* rel : {"/../cc/ptocc", "/ptocc"}) {
            std::error_code ec;
            fs::path p = fs::weakly_canonical(opt.self_exe_dir + rel, ec);
            if (!ec && exists(p.string())) {
                pc = p.string();
                break;
            }
        }
    }
    if (pc.empty()) pc = common::find_on_path("ptocc");
    ptocc.found = !pc.empty();
    ptocc.detail = ptocc.found ? pc : "not next to ptolab nor on PATH";
    if (!ptocc.found) ptocc.missing = "ptolab.compile_kernel works only with a directory's compile script; build the ptocc target";
    r.tools.push_back(ptocc);

    Tool smi{"npu-smi"};
    std::string smi_path = common::find_on_path("npu-smi");
    for (const char* p : {"/usr/local/sbin/npu-smi", "/usr/local/bin/npu-smi"})
        if (smi_path.empty() && exists(p)) smi_path = p;
    std::string smi_soc;
    if (smi_path.empty()) {
        smi.detail = "not on PATH";
        smi.missing = "no NPU inventory from npu-smi (ACL or torch-npu may still see one)";
    } else {
        std::string out;
        RunResult rr = capture({smi_path, "info"}, 20, out);
        smi.found = rr.exit_code == 0;
        if (smi.found) {
            for (const char* key : {"910B4", "910B3", "910B2", "910B1", "910_93", "910B", "950PR", "950DT", "950"})
                if (out.find(key) != std::string::npos) {
                    smi_soc = std::string("Ascend") + key;
                    break;
                }
            smi.detail = smi_path + (smi_soc.empty() ? " (no 910B/950 device listed)" : " lists " + smi_soc);
        } else {
            smi.detail = fmt::format("{} info failed (status {}){}", smi_path, rr.exit_code,
                                     rr.timed_out ? ", timed out" : "");
            smi.missing = "npu-smi failed; on some A5 systems it does while ACL and torch-npu still work";
        }
    }
    r.tools.push_back(smi);

    // The MPI launchers multi-rank runs use (docs/many-devices.md).
    for (const auto& [name, launcher] : {std::pair<const char*, const char*>{"MPICH", "mpirun.mpich"},
                                         std::pair<const char*, const char*>{"Open MPI", "mpirun.openmpi"}}) {
        Tool mpi{std::string(name) + " (" + launcher + ")"};
        const std::string path = common::find_on_path(launcher);
        if (path.empty()) {
            mpi.detail = "not on PATH";
            mpi.missing = std::string("no multi-rank runs with ") + name +
                          " (ptolab run --ranks, pto-isa's comm tests; scripts/install-deps.sh installs it)";
        } else {
            std::string out;
            RunResult rr = capture({path, "--version"}, 20, out);
            mpi.found = rr.exit_code == 0;
            std::string version;
            // MPICH's hydra: "    Version:   4.0.2"; Open MPI: "mpirun.openmpi (OpenRTE) 4.1.4".
            if (size_t at = out.find("Version:"); at != std::string::npos) {
                size_t b = out.find_first_not_of(" \t", at + 8), e = out.find('\n', at);
                if (b != std::string::npos) version = out.substr(b, e == std::string::npos ? e : e - b);
            } else if (size_t nl = out.find('\n'); nl != std::string::npos && nl > 0) {
                const std::string first = out.substr(0, nl);
                version = first.substr(first.rfind(' ') + 1);
            }
            mpi.detail = path + (version.empty() ? "" : " " + version);
            if (!mpi.found) mpi.missing = std::string(launcher) + " --version failed";
        }
        r.tools.push_back(mpi);
    }

    Tool sim_acl{"ACL SoC name (ptosim)"};
    sim_acl.found = true;
    sim_acl.detail = aclrtGetSocName();
    r.sim_soc = sim_acl.detail;
    r.sim_target = ptosim::Device::get().soc().target == ptosim::Target::A5 ? "A5" : "A2A3";
    r.tools.push_back(sim_acl);

    // Python side
    // The first python3 on PATH may lack NumPy; the interpreter the build
    // found for the package is the better default.
#ifdef PTOLAB_BUILD_PYTHON
    const std::string fallback = PTOLAB_BUILD_PYTHON;
#else
    const std::string fallback = "python3";
#endif
    r.python = !opt.python.empty() ? opt.python : (!env("PTOLAB_PYTHON").empty() ? env("PTOLAB_PYTHON") : fallback);
    nlohmann::json probe;
    std::string probe_err;
    {
        std::string out;
        RunResult rr = capture({r.python, "-c", kProbe}, opt.probe_timeout_s, out);
        size_t pos = out.rfind("PTOLAB_PROBE ");
        if (pos != std::string::npos) {
            try {
                probe = nlohmann::json::parse(out.substr(pos + 13, out.find('\n', pos) - pos - 13));
            } catch (const std::exception& e) {
                probe_err = std::string("unreadable probe output: ") + e.what();
            }
        } else {
            probe_err = rr.error.empty() ? fmt::format("probe exited with status {}{}", rr.exit_code,
                                                       rr.timed_out ? " (timed out)" : "")
                                         : rr.error;
        }
    }
    auto py_tool = [&](const std::string& name, const std::string& key, const std::string& rules_out) {
        Tool t{name};
        if (probe.contains(key)) {
            t.found = true;
            const auto& v = probe[key];
            t.detail = v.is_string() ? v.get<std::string>() : v.dump();
        } else {
            t.detail = probe.contains(key + "_error") ? probe[key + "_error"].get<std::string>()
                                                      : "probe failed: " + probe_err;
            t.missing = rules_out;
        }
        return t;
    };
    Tool py{"python (" + r.python + ")"};
    py.found = probe.contains("version");
    py.detail = py.found ? probe["python"].get<std::string>() + " " + probe["version"].get<std::string>() : probe_err;
    if (!py.found) py.missing = "no Python launch paths (ctypes, pybind); set PTOLAB_PYTHON or --python";
    r.tools.push_back(py);
    r.tools.push_back(py_tool("numpy", "numpy", "the ptolab package cannot run under this interpreter (it keeps tensors in NumPy memory)"));
    r.tools.push_back(py_tool("torch", "torch", "no torch tensors or torch references; NumPy paths still work"));
    r.tools.push_back(py_tool("torch_npu", "torch_npu",
                              "no real-NPU tensors or streams; ptolab uses the simulator (`ptolab run --sim` "
                              "runs torch_npu runners on ptosim with ptolab's simulated torch_npu)"));
    if (probe.contains("torch_npu") && probe["torch_npu"].is_object()) {
        // Which torch_npu a runner would import, in words: a real one with the
        // NPU it sees, or ptolab's simulated one, which is no NPU.
        const auto& info = probe["torch_npu"];
        auto text = [&info](const char* key) {
            return info.contains(key) ? (info[key].is_string() ? info[key].get<std::string>() : info[key].dump())
                                      : std::string("?");
        };
        Tool& t = r.tools.back();
        t.detail = text("version") + " at " + text("path");
        if (info.contains("simulated")) {
            t.name = "torch_npu (simulated)";
            t.detail += ": " + text("simulated") + "; not an NPU";
            t.missing = "no real NPU: " + text("simulated") +
                        "; host-side operators are references, torch.npu.Event times are simulated NPU time from "
                        "ptosim's cost model (docs/torch_npu.md)";
        } else if (info.contains("name")) {
            t.detail += ": " + text("name") + ", " + text("cube_core_num") + " Cube / " + text("vector_core_num") +
                        " Vector cores, " + text("count") + " device(s)";
        } else {
            t.detail += ": no NPU visible (torch.npu.is_available() is False)";
        }
    }
    r.tools.push_back(py_tool("ACL SoC name (pyACL)", "acl_soc", "no real-device SoC from ACL"));
    r.tools.push_back(py_tool("ptolab package", "ptolab", "`import ptolab` fails under this interpreter; put build/python on PYTHONPATH or pip install ./python"));

    // The host SoC: ACL and torch-npu are stronger evidence than npu-smi (seed: Device Discovery).
    if (probe.contains("torch_npu") && probe["torch_npu"].contains("name")) {
        r.host_soc = probe["torch_npu"]["name"].get<std::string>();
        r.host_soc_evidence = "torch.npu.get_device_properties";
    } else if (probe.contains("acl_soc") && probe["acl_soc"].is_string() && !probe["acl_soc"].get<std::string>().empty()) {
        r.host_soc = probe["acl_soc"].get<std::string>();
        r.host_soc_evidence = "acl.get_soc_name()";
    } else if (!smi_soc.empty()) {
        r.host_soc = smi_soc;
        r.host_soc_evidence = "npu-smi info";
    }

    for (const auto& p : ptosim::soc_profiles())
        r.profiles.push_back({p.name, p.target == ptosim::Target::A5 ? "A5" : "A2A3", p.aic, p.aiv,
                              static_cast<unsigned long long>(p.ub)});

    r.matrix = {
        {"Ascend910B (A2A3 hardware)", "direct: ctypes, pybind, ACL on real NPU",
         "CA model only (msprof, cannsim, -lruntime_camodel); never direct or bare ctypes on the 910B NPU (507035)"},
        {"Ascend950 (A5 hardware)", "CA model or cross-compile only", "direct on real NPU; CA model for traces"},
        {"No matching NPU", "CA model for the target arch with tiny inputs", "same"},
        {"CPU-only + CANN simulator", "CA-model paths only", "same"},
    };
    const std::string cls = classify(r.host_soc);
    const bool cann_sim = !home.empty() && (exists(home + "/tools/simulator") ||
                                            !glob_paths(home + "/*/lib64/libruntime_camodel.so").empty() ||
                                            !glob_paths(home + "/tools/simulator/*/lib/libruntime_camodel.so").empty());
    const bool cannsim = !common::find_on_path("cannsim").empty();
    if (cls == "A2A3") {
        r.applicable_row = 0;
        r.why = r.host_soc + " found by " + r.host_soc_evidence;
        r.what_to_do = "run A2A3 kernels on the NPU (5 repeats, under `ptolab run`); A5 kernels only through a CA "
                       "model or ptosim";
    } else if (cls == "A5") {
        r.applicable_row = 1;
        r.why = r.host_soc + " found by " + r.host_soc_evidence;
        r.what_to_do = "run A5 kernels on the NPU; A2A3 kernels through a CA model or ptosim";
    } else if (cann_sim || cannsim) {
        r.applicable_row = 3;
        r.why = std::string("no NPU found (npu-smi, pyACL and torch-npu report none), and a CANN simulator is "
                            "installed (") + (cannsim ? "cannsim on PATH" : "runtime_camodel under ASCEND_HOME_PATH") + ")";
        r.what_to_do = "CA-model paths only, tiny inputs, 1 repeat; ptosim is a faster deterministic alternative; "
                       "claim no real-device performance";
    } else {
        r.applicable_row = 2;
        r.why = "no NPU found (" + std::string(smi_path.empty() ? "no npu-smi" : "npu-smi lists no 910B/950") +
                ", pyACL and torch-npu report none) and no CANN simulator is installed";
        r.what_to_do = "ptosim stands in for the CA model: build with ptocc, launch through ctypes, pybind or the ACL "
                       "shim against libptosim with tiny inputs and 1 repeat (PTO_SIMULATOR=1); results say nothing "
                       "about real-device speed";
    }
    return r;
}

std::string doctor_text(const DoctorReport& r) {
    std::string s = "ptolab doctor\n\nHost: " + r.host + "\n";
    s += "Simulator: ptosim " + r.sim_soc + " (" + r.sim_target + "); PTO_SIM_SOC selects another profile\n\n";
    s += "Tools and packages:\n";
    for (const Tool& t : r.tools) {
        s += fmt::format("  [{}] {:<24} {}\n", t.found ? "ok" : "--", t.name, t.detail);
        if (!t.found && !t.missing.empty()) s += fmt::format("       {:<24} without it: {}\n", "", t.missing);
    }
    if (!r.env.empty()) {
        s += "\nEnvironment:\n";
        for (const auto& [k, v] : r.env) s += "  " + k + "=" + v + "\n";
    }
    s += "\nSimulator SoC profiles:\n";
    for (const auto& p : r.profiles)
        s += fmt::format("  {:<14} {:<5} {:>3} Cube {:>3} Vector  UB {} KiB{}\n", p.name, p.target, p.aic, p.aiv,
                         p.ub / 1024, p.name == r.sim_soc ? "  (selected)" : "");
    s += "\nHost / launch-method matrix (seed):\n";
    s += fmt::format("     {:<28} | {:<48} | {}\n", "Host SoC", "A2A3 kernels", "A5 kernels");
    for (size_t i = 0; i < r.matrix.size(); ++i)
        s += fmt::format("  {} {:<28} | {:<48} | {}\n", static_cast<int>(i) == r.applicable_row ? "=>" : "  ",
                         r.matrix[i].host, r.matrix[i].a2a3, r.matrix[i].a5);
    s += "\nApplies here: " + r.matrix[r.applicable_row].host + "\n  why: " + r.why + "\n  so: " + r.what_to_do + "\n";
    return s;
}

std::string doctor_json(const DoctorReport& r, int indent) {
    nlohmann::json j;
    j["host"] = r.host;
    j["simulator"] = {{"soc", r.sim_soc}, {"target", r.sim_target}};
    j["host_soc"] = r.host_soc.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.host_soc);
    j["host_soc_evidence"] = r.host_soc_evidence;
    nlohmann::json tools = nlohmann::json::array();
    for (const Tool& t : r.tools)
        tools.push_back({{"name", t.name}, {"found", t.found}, {"detail", t.detail}, {"rules_out", t.missing}});
    j["tools"] = tools;
    nlohmann::json profiles = nlohmann::json::array();
    for (const auto& p : r.profiles)
        profiles.push_back({{"name", p.name}, {"target", p.target}, {"cube_cores", p.aic}, {"vector_cores", p.aiv},
                            {"ub_bytes", p.ub}});
    j["soc_profiles"] = profiles;
    nlohmann::json m = nlohmann::json::array();
    for (const auto& row : r.matrix) m.push_back({{"host", row.host}, {"a2a3", row.a2a3}, {"a5", row.a5}});
    j["matrix"] = m;
    j["applies"] = {{"row", r.applicable_row}, {"host", r.matrix[r.applicable_row].host}, {"why", r.why},
                    {"what_to_do", r.what_to_do}};
    nlohmann::json e = nlohmann::json::object();
    for (const auto& [k, v] : r.env) e[k] = v;
    j["environment"] = e;
    return j.dump(indent);
}

std::string doctor_summary(const DoctorReport& r) {
    std::string found, missing;
    for (const Tool& t : r.tools) {
        std::string& dst = t.found ? found : missing;
        dst += (dst.empty() ? "" : ", ") + t.name;
    }
    return fmt::format("{}; NPU: {}; simulator: ptosim {} ({}); launch row: {}; found: {}; missing: {}", r.host,
                       r.host_soc.empty() ? "none" : r.host_soc + " (" + r.host_soc_evidence + ")", r.sim_soc,
                       r.sim_target, r.matrix[r.applicable_row].host, found, missing.empty() ? "nothing" : missing);
}

std::string find_real_torch_npu(const std::string& python) {
#ifdef PTOLAB_BUILD_PYTHON
    const std::string fallback = PTOLAB_BUILD_PYTHON;
#else
    const std::string fallback = "python3";
#endif
    const std::string py = !python.empty() ? python : (!env("PTOLAB_PYTHON").empty() ? env("PTOLAB_PYTHON") : fallback);
    // find_spec only locates the package: importing a real torch_npu could
    // take long or touch a device.
    static const char* kFind = R"PY(
import importlib.machinery, sys
paths = [p for p in sys.path if not p.rstrip("/").endswith("torch_npu_sim")]
spec = importlib.machinery.PathFinder.find_spec("torch_npu", paths)
print("PTOLAB_TORCH_NPU_AT " + ((spec.origin or "") if spec else ""))
)PY";
    std::string out;
    capture({py, "-c", kFind}, 60, out);
    const size_t pos = out.rfind("PTOLAB_TORCH_NPU_AT ");
    if (pos == std::string::npos) return "";
    std::string at = out.substr(pos + 20);
    return at.substr(0, at.find('\n'));
}

}  // namespace ptolab
