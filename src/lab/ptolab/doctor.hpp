// `ptolab doctor`: what this host offers for running PTO kernels (seed:
// Prerequisites, Device Discovery, the host/launch-method matrix). Missing
// tools are facts to report, never failures.
#pragma once
#include <string>
#include <vector>

namespace ptolab {

struct Tool {
    Tool(std::string n = {}) : name(std::move(n)) {}
    std::string name;
    bool found = false;
    std::string detail;    // path, version or the SoC it reported
    std::string missing;   // what its absence rules out (empty when found)
};

struct MatrixRow {
    std::string host, a2a3, a5;
};

struct DoctorReport {
    std::string host;                 // "Linux 6.1.0 x86_64"
    std::vector<Tool> tools;          // CANN, setenv script, bisheng, npu-smi, ACL, torch, torch_npu, ptocc, ...
    std::string host_soc;             // a real NPU's SoC, empty when none was found
    std::string host_soc_evidence;
    std::string sim_soc, sim_target;  // ptosim's profile for this process
    struct Profile {
        std::string name, target;
        int aic, aiv;
        unsigned long long ub;
    };
    std::vector<Profile> profiles;
    std::vector<MatrixRow> matrix;
    int applicable_row = 0;
    std::string why;
    std::string what_to_do;
    std::vector<std::pair<std::string, std::string>> env;  // the seed's variables that are set
    std::string python;  // interpreter used for the torch/ACL probe
};

struct DoctorOptions {
    std::string python;        // empty: $PTOLAB_PYTHON, else python3 on PATH
    double probe_timeout_s = 60;
    std::string self_exe_dir;  // to find ptocc next to ptolab in a build tree
};

DoctorReport run_doctor(const DoctorOptions& opt);
std::string doctor_text(const DoctorReport& r);
std::string doctor_json(const DoctorReport& r, int indent = 2);
// One line of host facts for the verification log.
std::string doctor_summary(const DoctorReport& r);

// Where a torch_npu other than ptolab's simulated one would be imported from
// by `python` (empty: $PTOLAB_PYTHON, else the build's), or "" when none is
// installed. `ptolab run --sim` and `ptolab env --torch-npu` refuse to shadow it.
std::string find_real_torch_npu(const std::string& python = "");

}  // namespace ptolab
