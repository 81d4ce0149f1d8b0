// The environment that makes a process run on ptosim through the CANN-shaped
// root: the exports of its setenv.bash, a SoC's tools/simulator/<SoC>/lib,
// and ptolab's simulated torch_npu. Shared by `ptolab env`, `ptolab run
// --sim` and the root's msprof/cannsim entry points (docs/drop-in.md).
#pragma once
#include <ptolab/proc.hpp>
#include <ptosim/runtime.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ptolab::cli {

// One export: `append` keeps the variable's earlier value after a colon.
struct Export {
    std::string name, value;
    bool append = false;
};

// $PTOLAB_CANN_ROOT, else the build's build/cann.
std::string cann_root();

// setenv.bash's exports; with a profile also SOC_VERSION, PTO_SIM_SOC and the
// SoC's simulator library directory (`soc` is the name as CANN spells it).
std::vector<Export> cann_exports(const std::string& root, const std::string& soc, const ptosim::SocProfile* p);

// The simulated torch_npu first on PYTHONPATH, PTOLAB_TORCH_NPU and
// PTO_SIMULATOR=1. A real torch_npu on the interpreter's path is never
// shadowed silently: without `force` this prints why (prefixed by `who`) on
// stderr and returns nothing.
std::optional<std::vector<Export>> torch_npu_exports(bool force, const char* who);

// Sets the variables in this process (for the command it then runs).
void apply(const std::vector<Export>& exports);

// Runs `o` with PTO_SIM_PROFILE=<dir> (created; an earlier run's summary and
// trace removed first, so a run without launches never shows them as its
// own), then prints summary.txt on stdout and where the outputs are (or that
// no launch was simulated) on stderr, prefixed by `who`. Returns the exit
// status; throws std::invalid_argument when the directory cannot be made.
int run_profiled(const std::string& who, const std::string& dir, ptolab::RunOptions o);

// "known: <profiles and CANN names>", for errors about an unknown SoC.
std::string known_socs();

}  // namespace ptolab::cli
