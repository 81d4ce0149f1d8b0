// libruntime_camodel.so of the CANN-shaped root: one build, copied to
// tools/simulator/<SoC>/lib/. Loading it selects the simulated SoC named by
// the directory it was loaded from, as CANN's per-SoC camodel library selects
// its chip (docs/drop-in.md).
#include <ptosim/c_api.h>

#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace {

std::string soc_of_path(const std::string& lib) {
    // .../tools/simulator/<SoC>/lib/libruntime_camodel.so
    size_t lib_dir = lib.rfind('/');
    if (lib_dir == std::string::npos || lib_dir == 0) return {};
    size_t soc_end = lib.rfind('/', lib_dir - 1);
    if (soc_end == std::string::npos || soc_end == 0) return {};
    size_t soc_begin = lib.rfind('/', soc_end - 1);
    if (soc_begin == std::string::npos) return {};
    return lib.substr(soc_begin + 1, soc_end - soc_begin - 1);
}

__attribute__((constructor)) void select_soc() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&select_soc), &info) || !info.dli_fname) return;
    const std::string soc = soc_of_path(info.dli_fname);
    if (ptosim_camodel_select(soc.c_str()) != 0)
        std::fprintf(stderr, "ptosim: error: %s is not under tools/simulator/<SoC>/lib of a known SoC\n", info.dli_fname);
}

}  // namespace

// CANN's camodel exports a version query; kept so the library is never empty of API.
extern "C" __attribute__((visibility("default"))) const char* ptosim_camodel_soc(void) { return ptosim_soc_name(); }
