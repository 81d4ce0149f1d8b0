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

    // One local buffer (UB, L1, L0A, ...) of a physical core: an anonymous
    // mapping, so clear() gives pages back (MADV_DONTNEED) and costs what
    // the last kernel touched rather than the buffer's size.
    class CoreBuffer {
    public:
        CoreBuffer() = default;
        CoreBuffer(const CoreBuffer&) = delete;
        CoreBuffer& operator=(const CoreBuffer&) = delete;
        CoreBuffer(CoreBuffer&& o) noexcept;
        CoreBuffer& operator=(CoreBuffer&& o) noexcept;
        ~CoreBuffer();
        void resize(uint64_t bytes);  // zero-filled
        void clear();
        uint8_t* data() const { return data_; }
        uint64_t size() const { return size_; }

    private:
        uint8_t* data_ = nullptr;
        uint64_t size_ = 0, mapped_ = 0;
    };
    // Local buffers of each physical core. A launch clears a core's buffers
    // before its first block runs there, and blocks of one launch that follow
    // each other on a core see what the previous one left
    // (docs/semantics.md, "Core-local memory").
    struct CoreMemory {
        CoreBuffer space[kSpaceCount];
        void clear() {
            for (auto& b : space) b.clear();
        }
    };
    std::vector<CoreMemory> aic_mem, aiv_mem;
    CoreMemory& memory(const SocProfile& soc, CoreType t, int slot);
};

}  // namespace ptosim
