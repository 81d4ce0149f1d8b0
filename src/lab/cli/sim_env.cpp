#include "sim_env.hpp"

#include <ptolab/doctor.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ptolab::cli {

std::string cann_root() {
    const char* root_env = std::getenv("PTOLAB_CANN_ROOT");
    return root_env && *root_env ? root_env : PTOLAB_BINARY_DIR "/cann";
}

std::vector<Export> cann_exports(const std::string& root, const std::string& soc, const ptosim::SocProfile* p) {
    std::vector<Export> e{{"ASCEND_HOME_PATH", root},
                          {"ASCEND_TOOLKIT_HOME", root},
                          {"ASCEND_OPP_PATH", root + "/opp"},
                          {"PATH", root + "/bin:" + root + "/compiler/ccec_compiler/bin", true},
                          {"LD_LIBRARY_PATH", root + "/lib64:" + root + "/runtime/lib64", true}};
    if (p) {
        e.push_back({"SOC_VERSION", soc});
        e.push_back({"PTO_SIM_SOC", p->name});
        e.push_back({"LD_LIBRARY_PATH", root + "/tools/simulator/" + soc + "/lib", true});
    }
    return e;
}

std::optional<std::vector<Export>> torch_npu_exports(bool force, const char* who) {
    const std::string real = ptolab::find_real_torch_npu();
    if (!real.empty() && !force) {
        std::cerr << who << ": a real torch_npu is installed (" << real << "); refusing to shadow it with ptolab's "
                  << "simulated torch_npu. Run without the simulator to use the NPU, or pass --force to simulate "
                  << "anyway\n";
        return std::nullopt;
    }
    const char* root_env = std::getenv("PTOLAB_ROOT");
    const std::string src = root_env && *root_env ? root_env : PTOLAB_SOURCE_DIR;
    return std::vector<Export>{{"PTOLAB_TORCH_NPU", force ? "force-sim" : "sim"},
                               {"PYTHONPATH", src + "/python/torch_npu_sim:" PTOLAB_BINARY_DIR "/python", true},
                               {"PTO_SIMULATOR", "1"}};
}

void apply(const std::vector<Export>& exports) {
    for (const Export& x : exports) {
        const char* old = std::getenv(x.name.c_str());
        const std::string v = x.append && old && *old ? x.value + ":" + old : x.value;
        setenv(x.name.c_str(), v.c_str(), 1);
    }
}

namespace {

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A multi-rank command leaves each rank's files in <dir>/rank<r>/
// (docs/cost-model.md, "Across ranks"): one trace.json with every rank's
// launches (their process ids already apart, their times on the ranks'
// shared clock) and one summary.txt, rank after rank, go into <dir>.
void merge_ranks(const std::string& dir) {
    namespace fs = std::filesystem;
    std::string events, text, head;
    const std::string marker = "\"traceEvents\":[\n";
    for (int r = 0;; ++r) {
        const fs::path rd = fs::path(dir) / ("rank" + std::to_string(r));
        std::error_code e;
        if (!fs::exists(rd, e)) break;
        const std::string t = slurp(rd / "trace.json");
        const size_t at = t.find(marker), tail = t.rfind("\n]}");
        if (at != std::string::npos && tail != std::string::npos && tail >= at + marker.size()) {
            if (head.empty()) head = t.substr(0, at + marker.size());
            const std::string body = t.substr(at + marker.size(), tail - at - marker.size());
            if (!body.empty()) events += (events.empty() ? "" : ",\n") + body;
        }
        const std::string s = slurp(rd / "summary.txt");
        if (!s.empty()) text += "rank " + std::to_string(r) + " (" + rd.string() + "):\n" + s;
    }
    if (head.empty()) return;
    std::ofstream(fs::path(dir) / "trace.json", std::ios::binary) << head << events << "\n]}\n";
    std::ofstream(fs::path(dir) / "summary.txt", std::ios::binary) << text;
}

}  // namespace

int run_profiled(const std::string& who, const std::string& dir, ptolab::RunOptions o) {
    namespace fs = std::filesystem;
    std::error_code e;
    fs::create_directories(dir, e);
    if (e) throw std::invalid_argument(who + ": cannot create the output directory " + dir + ": " + e.message());
    for (const char* f : {"summary.json", "summary.txt", "trace.json"}) fs::remove(fs::path(dir) / f, e);
    for (int r = 0; fs::exists(fs::path(dir) / ("rank" + std::to_string(r)), e); ++r)
        fs::remove_all(fs::path(dir) / ("rank" + std::to_string(r)), e);
    const std::string abs = fs::absolute(dir).string();
    setenv("PTO_SIM_PROFILE", abs.c_str(), 1);
    const ptolab::RunResult r = ptolab::run_with_timeout(o);
    if (r.timed_out) std::cerr << who << ": " << ptolab::timeout_message(o, r) << "\n";
    else if (!r.error.empty()) std::cerr << who << ": error: " << r.error << "\n";
    merge_ranks(abs);
    if (std::ifstream txt(fs::path(abs) / "summary.txt"); txt) {
        std::cout << txt.rdbuf();
        const bool ranks = fs::exists(fs::path(abs) / "rank0", e);
        std::cerr << who << ": summary in " << abs << (ranks ? "/rank<r>/summary.json (each rank's)" : "/summary.json")
                  << ", trace in " << abs
                  << "/trace.json" << (ranks ? " (every rank's: one process per rank and launch)" : "")
                  << " (open it in ui.perfetto.dev or chrome://tracing); simulated time, see "
                     "docs/cost-model.md\n";
    } else {
        std::cerr << who << ": the command made no simulated launch (nothing in " << abs << ")\n";
    }
    return r.exit_code;
}

std::string known_socs() {
    std::string names;
    for (const auto& s : ptosim::soc_profiles()) names += std::string(names.empty() ? "" : ", ") + s.name;
    for (const auto& a : ptosim::soc_aliases()) names += std::string(", ") + a.cann_name;
    return "known: " + names;
}

}  // namespace ptolab::cli
