#include "device_impl.hpp"
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace ptosim {

namespace {
thread_local std::string t_last_error;
}

void set_last_error(std::string msg) { t_last_error = std::move(msg); }
const char* last_error() { return t_last_error.c_str(); }

double default_sync_timeout_s() {
    if (const char* v = std::getenv("PTO_SYNC_TIMEOUT_S")) {
        char* end = nullptr;
        double s = std::strtod(v, &end);
        if (end != v && *end == '\0' && s > 0) return s;
        std::fprintf(stderr, "ptosim: warning: PTO_SYNC_TIMEOUT_S='%s' is not a positive number of seconds; using 60\n", v);
    }
    return 60.0;
}

static const SocProfile& initial_soc() {
    const char* env = std::getenv("PTO_SIM_SOC");
    if (env && *env) {
        if (const SocProfile* p = find_soc(env)) return *p;
        std::string names;
        for (const auto& p : soc_profiles()) names += std::string(names.empty() ? "" : ", ") + p.name;
        std::fprintf(stderr, "ptosim: error: PTO_SIM_SOC='%s' is not a known SoC (known: %s); using Ascend910B2\n", env,
                     names.c_str());
    }
    return *find_soc("Ascend910B2");
}

Device::Device() : soc_(&initial_soc()), impl_(std::make_unique<Impl>()) {
    static char ctrl_block[64] = {};  // kernels may write through the FFTS address
    impl_->ffts_ctrl = reinterpret_cast<uint64_t>(&ctrl_block);
}

Device::~Device() = default;

Device& Device::get() {
    // Leaked on purpose: stream threads may outlive static destruction order.
    static Device* d = new Device();
    return *d;
}

Status Device::select_soc(std::string_view name) {
    const SocProfile* p = find_soc(name);
    if (!p) return {err::kInvalidParam, "unknown SoC '" + std::string(name) + "'"};
    std::lock_guard lk(impl_->mu);
    if (impl_->launched && p != soc_)
        return {err::kInvalidParam, "the simulated SoC cannot change after the first launch"};
    soc_ = p;
    impl_->aic_mem.clear();
    impl_->aiv_mem.clear();
    return {};
}

Stream* Device::default_stream() {
    std::lock_guard lk(impl_->mu);
    if (!impl_->default_stream) {
        impl_->default_stream = new Stream(*this);
        impl_->streams.insert(impl_->default_stream);
    }
    return impl_->default_stream;
}

Stream* Device::create_stream() {
    auto* s = new Stream(*this);
    std::lock_guard lk(impl_->mu);
    impl_->streams.insert(s);
    return s;
}

Status Device::destroy_stream(Stream* s) {
    {
        std::lock_guard lk(impl_->mu);
        if (!impl_->streams.count(s)) return {err::kInvalidParam, "not a stream of this device (already destroyed?)"};
        impl_->streams.erase(s);
        if (s == impl_->default_stream) impl_->default_stream = nullptr;
    }
    delete s;  // drains queued work first
    return {};
}

bool Device::is_stream(const Stream* s) const {
    std::lock_guard lk(impl_->mu);
    return impl_->streams.count(const_cast<Stream*>(s)) != 0;
}

void* Device::allocate(uint64_t bytes, bool device) {
    // 512-byte alignment matches what kernels may assume of device memory.
    void* p = ::operator new(bytes, std::align_val_t(512), std::nothrow);
    if (!p) return nullptr;
    // Fresh device memory reads as zero, as the fresh pages the real driver
    // maps do; pto-isa's system tests compare whole output buffers and rely
    // on it (docs/acl.md). Recycled host heap would leak earlier contents.
    if (device) std::memset(p, 0, bytes);
    std::lock_guard lk(impl_->mu);
    impl_->allocations[reinterpret_cast<uintptr_t>(p)] = {reinterpret_cast<uintptr_t>(p), bytes, device};
    return p;
}

Status Device::release(void* p, bool device) {
    std::lock_guard lk(impl_->mu);
    auto it = impl_->allocations.find(reinterpret_cast<uintptr_t>(p));
    if (it == impl_->allocations.end()) {
        return {err::kInvalidParam, "pointer " + std::to_string(reinterpret_cast<uintptr_t>(p)) +
                                        " was not returned by an allocation, or was already freed"};
    }
    if (it->second.device != device) {
        return {err::kInvalidParam, device ? "pointer was allocated with aclrtMallocHost; free it with aclrtFreeHost"
                                           : "pointer was allocated with aclrtMalloc; free it with aclrtFree"};
    }
    const uint64_t size = it->second.size;
    impl_->allocations.erase(it);
    if (device) {
        ::operator delete(p, std::align_val_t(512));
        return {};
    }
    // CANN's host allocator pools pinned pages: a freed block stays mapped
    // with its contents, and programs written for it read freed host blocks
    // (pto-isa's tscatter test reads its index buffer after aclrtFreeHost).
    // The block is unregistered now, so ACL calls on it report it freed.
    impl_->host_quarantine.emplace_back(p, size);
    impl_->host_quarantine_bytes += size;
    while (impl_->host_quarantine_bytes > Impl::kHostQuarantineBytes && impl_->host_quarantine.size() > 1) {
        auto [q, n] = impl_->host_quarantine.front();
        impl_->host_quarantine.pop_front();
        impl_->host_quarantine_bytes -= n;
        ::operator delete(q, std::align_val_t(512));
    }
    return {};
}

Device::Impl::~Impl() {
    for (auto [q, n] : host_quarantine) ::operator delete(q, std::align_val_t(512));
}

std::optional<Allocation> Device::find(const void* p, uint64_t bytes) const {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::lock_guard lk(impl_->mu);
    auto it = impl_->allocations.upper_bound(a);
    if (it == impl_->allocations.begin()) return std::nullopt;
    --it;
    const Allocation& al = it->second;
    if (a >= al.base && a + bytes <= al.base + al.size) return al;
    return std::nullopt;
}

uint64_t Device::ffts_ctrl_addr() const { return impl_->ffts_ctrl; }

Device::Impl::CoreBuffer::CoreBuffer(CoreBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), mapped_(std::exchange(o.mapped_, 0)) {}

Device::Impl::CoreBuffer& Device::Impl::CoreBuffer::operator=(CoreBuffer&& o) noexcept {
    if (this != &o) {
        this->~CoreBuffer();
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
        mapped_ = std::exchange(o.mapped_, 0);
    }
    return *this;
}

Device::Impl::CoreBuffer::~CoreBuffer() {
    if (data_) munmap(data_, mapped_);
}

void Device::Impl::CoreBuffer::resize(uint64_t bytes) {
    this->~CoreBuffer();
    data_ = nullptr;
    size_ = mapped_ = 0;
    if (bytes == 0) return;
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t mapped = (bytes + page - 1) / page * page;
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::runtime_error("ptosim: cannot map " + std::to_string(bytes) +
                                 " bytes for a simulated core's local buffer (out of memory or address space)");
    data_ = static_cast<uint8_t*>(p);
    size_ = bytes;
    mapped_ = mapped;
}

void Device::Impl::CoreBuffer::clear() {
    // Private anonymous pages read as zero again after MADV_DONTNEED.
    if (data_ && madvise(data_, mapped_, MADV_DONTNEED) != 0) std::memset(data_, 0, size_);
}

Device::Impl::CoreMemory& Device::Impl::memory(const SocProfile& soc, CoreType t, int slot) {
    auto& pool = t == CoreType::AIC ? aic_mem : aiv_mem;
    if (pool.size() <= static_cast<size_t>(slot)) pool.resize(slot + 1);
    CoreMemory& m = pool[slot];
    auto ensure = [&](Space s, uint64_t bytes) {
        auto& v = m.space[static_cast<int>(s)];
        if (v.size() != bytes) v.resize(bytes);
    };
    if (t == CoreType::AIV) {
        ensure(Space::UB, soc.ub);
    } else {
        ensure(Space::L1, soc.l1);
        ensure(Space::L0A, soc.l0a);
        ensure(Space::L0B, soc.l0b);
        ensure(Space::L0C, soc.l0c);
        ensure(Space::BT, soc.bt);
        ensure(Space::FB, soc.fb);
        ensure(Space::L0AMX, soc.l0a / 16);
        ensure(Space::L0BMX, soc.l0b / 16);
        // A5 Cube cores own no UB, but TMOV Acc->Vec writes the Vector cores' UB.
    }
    return m;
}

}  // namespace ptosim

namespace ptosim {

void check_gm(const void* p, uint64_t bytes, const char* what, const SourceLoc& loc) {
    Device& d = Device::get();
    const std::optional<Allocation> start = d.find(p, 1);
    if (!start) {
        // Unregistered memory cannot be checked, unless the span runs into a
        // registered block: then it writes memory it does not own.
        const uintptr_t a = reinterpret_cast<uintptr_t>(p);
        std::lock_guard lk(d.impl().mu);
        auto it = d.impl().allocations.lower_bound(a);
        if (it != d.impl().allocations.end() && it->first < a + bytes) {
            char buf[320];
            std::snprintf(buf, sizeof buf,
                          "%s: GM bytes [%p, %p) start outside every registered allocation and run into the %llu-byte "
                          "allocation at %p; check the offset added to the kernel argument",
                          what, p, static_cast<const void*>(static_cast<const uint8_t*>(p) + bytes),
                          static_cast<unsigned long long>(it->second.size), reinterpret_cast<void*>(it->first));
            fault(loc, buf);
        }
        return;
    }
    if (d.find(p, bytes)) return;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s: GM bytes [%p, %p) run past the end of the %llu-byte allocation at %p (by %llu bytes); check the "
                  "GlobalTensor shape/stride and the offset added to the kernel argument",
                  what, p, static_cast<const void*>(static_cast<const uint8_t*>(p) + bytes),
                  static_cast<unsigned long long>(start->size), reinterpret_cast<void*>(start->base),
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p) + bytes - (start->base + start->size)));
    fault(loc, buf);
}

}  // namespace ptosim
