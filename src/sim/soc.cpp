// SoC profiles. Sources and the reasoning behind each figure: docs/soc-profiles.md.
#include <ptosim/c_api.h>
#include <ptosim/runtime.hpp>
#include "device_impl.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ptosim {

namespace {
constexpr uint64_t KiB = 1024;

// A2A3 (DAV_2201) AI core buffers, identical across the 910B family and 910_93.
constexpr uint64_t kA2UB = 192 * KiB, kA2L1 = 512 * KiB, kA2L0A = 64 * KiB, kA2L0B = 64 * KiB, kA2L0C = 128 * KiB,
                   kA2BT = 1 * KiB, kA2FB = 2 * KiB;
// A5 (DAV_3510) AI core buffers.
constexpr uint64_t kA5UB = 256 * KiB, kA5L1 = 512 * KiB, kA5L0A = 64 * KiB, kA5L0B = 64 * KiB, kA5L0C = 256 * KiB,
                   kA5BT = 4 * KiB, kA5FB = 4 * KiB;

const char* kA2Source = "docs/soc-profiles.md#a2a3";
const char* kA5Source = "docs/soc-profiles.md#a5";
}  // namespace

const std::vector<SocProfile>& soc_profiles() {
    static const std::vector<SocProfile> profiles = {
        {"Ascend910B1", Target::A2A3, 24, 48, kA2UB, kA2L1, kA2L0A, kA2L0B, kA2L0C, kA2BT, kA2FB, 1.85, 1600, kA2Source},
        {"Ascend910B2", Target::A2A3, 24, 48, kA2UB, kA2L1, kA2L0A, kA2L0B, kA2L0C, kA2BT, kA2FB, 1.8, 1600, kA2Source},
        {"Ascend910B3", Target::A2A3, 20, 40, kA2UB, kA2L1, kA2L0A, kA2L0B, kA2L0C, kA2BT, kA2FB, 1.8, 1600, kA2Source},
        {"Ascend910B4", Target::A2A3, 20, 40, kA2UB, kA2L1, kA2L0A, kA2L0B, kA2L0C, kA2BT, kA2FB, 1.5, 800, kA2Source},
        {"Ascend910_93", Target::A2A3, 24, 48, kA2UB, kA2L1, kA2L0A, kA2L0B, kA2L0C, kA2BT, kA2FB, 1.85, 1600, kA2Source},
        {"Ascend950PR", Target::A5, 28, 56, kA5UB, kA5L1, kA5L0A, kA5L0B, kA5L0C, kA5BT, kA5FB, 1.65, 1600, kA5Source},
        {"Ascend950DT", Target::A5, 32, 64, kA5UB, kA5L1, kA5L0A, kA5L0B, kA5L0C, kA5BT, kA5FB, 1.65, 4000, kA5Source},
    };
    return profiles;
}

const std::vector<SocAlias>& soc_aliases() {
    // The profile names themselves are valid CANN names too; these are the
    // other names CANN's tools, pto-isa's scripts and the seed use.
    static const std::vector<SocAlias> aliases = {
        {"Ascend910B", "Ascend910B2"},
        {"Ascend910_9391", "Ascend910_93"},
        {"Ascend910_9392", "Ascend910_93"},
        {"Ascend910_9381", "Ascend910_93"},
        {"Ascend910_9382", "Ascend910_93"},
        {"Ascend910_9372", "Ascend910_93"},
        {"Ascend910_9362", "Ascend910_93"},
        {"Ascend910_9599", "Ascend950PR"},
        {"Ascend950PR_9599", "Ascend950PR"},
        {"Ascend950", "Ascend950PR"},
    };
    return aliases;
}

const SocProfile* find_soc(std::string_view name) {
    for (const auto& p : soc_profiles())
        if (name == p.name) return &p;
    for (const auto& a : soc_aliases())
        if (name == a.cann_name) return find_soc(a.profile);
    return nullptr;
}

namespace {
std::atomic<bool> g_pinned{false};
}

bool soc_pinned() {
    const char* env = std::getenv("PTO_SIM_SOC");
    return (env && *env) || g_pinned.load();
}

void pin_soc() { g_pinned = true; }

}  // namespace ptosim

extern "C" int ptosim_camodel_select(const char* cann_soc_name) {
    using namespace ptosim;
    const SocProfile* p = cann_soc_name ? find_soc(cann_soc_name) : nullptr;
    if (!p) {
        std::fprintf(stderr, "ptosim: error: runtime_camodel for '%s' names no simulated SoC (docs/drop-in.md, SoC names)\n",
                     cann_soc_name ? cann_soc_name : "(null)");
        return err::kInvalidParam;
    }
    pin_soc();
    if (const char* env = std::getenv("PTO_SIM_SOC"); env && *env) {
        const SocProfile* e = find_soc(env);
        if (e && e != p)
            std::fprintf(stderr, "ptosim: warning: PTO_SIM_SOC=%s overrides the SoC of the loaded runtime_camodel (%s)\n",
                         env, cann_soc_name);
        return 0;
    }
    Status s = select_soc(Device::get(), p->name, std::string("chosen by the runtime_camodel library of ") + cann_soc_name);
    if (!s.ok()) {
        std::fprintf(stderr, "ptosim: error: %s\n", s.message.c_str());
        return s.code;
    }
    return 0;
}
