#pragma once
#include <ptosim/runtime.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace ptosim {

struct Device::Impl {
    mutable std::mutex mu;
    std::map<uintptr_t, Allocation> allocations;  // by base address
    // Freed aclrtMallocHost blocks, released to the C heap oldest first once
    // they exceed kHostQuarantineBytes (docs/acl.md, aclrtFreeHost).
    std::deque<std::pair<void*, uint64_t>> host_quarantine;
    uint64_t host_quarantine_bytes = 0;
    static constexpr uint64_t kHostQuarantineBytes = 256ull << 20;
    ~Impl();
    std::set<Stream*> streams;
    Stream* default_stream = nullptr;
    bool launched = false;
    std::set<std::string> wave_warned;
    uint64_t ffts_ctrl = 0;

    // Local buffers of each physical core, kept across launches as on hardware.
    struct CoreMemory {
        std::vector<uint8_t> space[kSpaceCount];
    };
    std::vector<CoreMemory> aic_mem, aiv_mem;
    CoreMemory& memory(const SocProfile& soc, CoreType t, int slot);
};

}  // namespace ptosim
