#include "device_impl.hpp"
#include <ptosim/peers.hpp>
#include "code_address.hpp"
#include "launch.hpp"
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cinttypes>
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

namespace {
// Written once by the device's constructor, cleared by an explicit select_soc.
std::string g_soc_env_error;
std::atomic<bool> g_soc_env_bad{false};
}  // namespace

Status soc_env_status() {
    if (!g_soc_env_bad.load()) return {};
    return {err::kInvalidParam, g_soc_env_error};
}

// How the SoC was chosen (soc_choice) when nothing chose it.
const char* const kDefaultSocChoice =
    "the default (no PTO_SIM_SOC, runtime_camodel library, Device::select_soc or kernel library chose a SoC "
    "before the first launch)";

static const SocProfile& initial_soc(std::string& choice) {
    const char* env = std::getenv("PTO_SIM_SOC");
    choice = kDefaultSocChoice;
    if (env && *env) {
        if (const SocProfile* p = find_soc(env)) {
            choice = "chosen by PTO_SIM_SOC";
            return *p;
        }
        std::string names;
        for (const auto& p : soc_profiles()) names += std::string(names.empty() ? "" : ", ") + p.name;
        g_soc_env_error = "PTO_SIM_SOC='" + std::string(env) + "' is not a known SoC (known: " + names +
                          "); set it to one of them, or unset it for the default Ascend910B2";
        g_soc_env_bad = true;
        std::fprintf(stderr, "ptosim: error: %s; every launch fails until then\n", g_soc_env_error.c_str());
    }
    return *find_soc("Ascend910B2");
}

Device::Device() : impl_(std::make_unique<Impl>()) {
    soc_ = &initial_soc(impl_->soc_choice);
    impl_->soc_chosen = impl_->soc_choice != kDefaultSocChoice;  // a valid PTO_SIM_SOC
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
    // After the first launch the SoC stays; selecting it again changes nothing.
    auto refused = [&]() -> Status {
        if (impl_->launched && p != soc_)
            return {err::kInvalidParam, "the simulated SoC cannot change after the first launch"};
        return {};
    };
    auto chosen = [&] {
        impl_->soc_chosen = true;
        impl_->soc_choice = "chosen by Device::select_soc";
    };
    {
        std::lock_guard lk(impl_->mu);
        if (Status st = refused(); !st.ok() || impl_->launched) return st;
        if (p == soc_) {
            chosen();
            return {};
        }
    }
    // The core buffers are resized only while no launch runs.
    std::lock_guard ex_aic(impl_->exec_aic);
    std::lock_guard ex_aiv(impl_->exec_aiv);
    std::lock_guard lk(impl_->mu);
    if (Status st = refused(); !st.ok() || impl_->launched) return st;
    soc_ = p;
    chosen();
    g_soc_env_bad = false;
    impl_->aic_cores.reset();
    impl_->aiv_cores.reset();
    return {};
}

std::string soc_choice(Device& d) {
    std::lock_guard lk(d.impl().mu);
    return d.impl().soc_choice;
}

Status select_soc(Device& d, std::string_view name, std::string choice, bool unless_chosen) {
    {
        std::lock_guard lk(d.impl().mu);
        if (unless_chosen && d.impl().soc_chosen) return {};
    }
    Status st = d.select_soc(name);
    if (!st.ok()) return st;
    std::lock_guard lk(d.impl().mu);
    // Not after the first launch: the SoC that launch ran on was chosen before.
    if (!d.impl().launched) d.impl().soc_choice = std::move(choice);
    return st;
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
        // Its work goes to an ACL capture or task update that would be left
        // holding a dead stream (docs/acl.md, "ACL graphs").
        if (impl_->diverted.count(s))
            return {107027, "the stream is capturing (aclmdlRICaptureBegin) or updating a task group; end the "
                            "capture (aclmdlRICaptureEnd) or update (aclmdlRICaptureTaskUpdateEnd) before destroying it"};
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

namespace {
uint64_t page_bytes() {
    static const uint64_t n = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    return n;
}
uint64_t mapped_bytes(uint64_t bytes) { return (bytes + page_bytes() - 1) / page_bytes() * page_bytes(); }
constexpr uint64_t kMaxBlockBytes = 1ull << 47;  // the user address space of x86-64 and AArch64
// The device's HBM is one flat space: a kernel's access past its block lands
// in whatever lies next, and nothing faults. Each simulated device block is
// followed by this much memory of its own, so such an access reads what an
// earlier one left there (zeros at first) and writes there, the same way on
// every run, without reaching another block or the simulator's memory. A
// kernel that splits its rows over more blocks than its buffers hold runs a
// whole share past the end, so the tail grows with the block (address space
// only: the pages are not reserved until touched).
constexpr uint64_t kDeviceTailBytes = 1ull << 20;
uint64_t device_extent(uint64_t bytes) {
    const uint64_t pages = mapped_bytes(bytes);
    return pages + std::max(kDeviceTailBytes, pages);
}

}  // namespace

void* Device::allocate(uint64_t bytes, bool device, uint64_t requested) {
    if (bytes == 0 || bytes > kMaxBlockBytes) return nullptr;
    if (requested == 0 || requested > bytes) requested = bytes;
    void* p = nullptr;
    if (device) {
        // Device blocks are mappings of their own (page-aligned, so 512-byte
        // aligned as kernels may assume): a freed block's range can be made
        // inaccessible without touching host heap data. Fresh pages read as
        // zero, as the fresh pages the real driver maps do; pto-isa's system
        // tests compare whole output buffers and rely on it (docs/acl.md).
        p = mmap(nullptr, device_extent(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
        if (p == MAP_FAILED) return nullptr;
    } else {
        p = ::operator new(bytes, std::align_val_t(512), std::nothrow);
        if (!p) return nullptr;
    }
    std::lock_guard lk(impl_->mu);
    impl_->allocations[reinterpret_cast<uintptr_t>(p)] = {reinterpret_cast<uintptr_t>(p), bytes, device, requested,
                                                          device ? device_extent(bytes) : bytes};
    return p;
}

Status Device::release(void* p, bool device, const void* caller) {
    std::unique_lock lk(impl_->mu);
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
    if (it->second.window_rank >= 0)
        return {err::kInvalidParam, "pointer " + std::to_string(reinterpret_cast<uintptr_t>(p)) + " is rank " +
                                        std::to_string(it->second.window_rank) +
                                        "'s communicator window, which HcclCommDestroy releases, not aclrtFree"};
    if (device) {
        const uintptr_t base = reinterpret_cast<uintptr_t>(p);
        // A launch queued with a pointer into the block still needs it: wait
        // for it, as freeing on hardware after the launch completes would.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(default_sync_timeout_s());
        for (;;) {
            const Impl::InFlight* user = nullptr;
            for (const auto& [id, f] : impl_->inflight)
                for (const void* a : f.gm_args)
                    if (reinterpret_cast<uintptr_t>(a) - base < size) user = &f;
            if (!user) break;
            const std::string who = user->kernel.empty()
                                        ? user->what + ", queued on a stream"
                                        : "kernel '" + user->kernel + "' (launched at " + user->site.str() + ")";
            char head[96];
            std::snprintf(head, sizeof head, "device block %p (%" PRIu64 " bytes) is %s", p, size,
                          user->kernel.empty() ? "used by " : "an argument of ");
            if (user->abandoned)
                return {err::kMemoryFree, head + who +
                                              ", which was abandoned after a stream synchronisation timed out and may "
                                              "still run; the block is not freed"};
            // A kernel may run on any of the launch's host threads, not only
            // on the stream's worker.
            if (Impl::on_stream_worker() || current_core_or_null())
                return {err::kMemoryFree, head + who +
                                              ", which has not finished, and this call runs on a stream (in a kernel "
                                              "or a stream task), where waiting for it could never end; the block "
                                              "is not freed. Free it from host code after synchronising the stream"};
            if (impl_->inflight_done.wait_until(lk, deadline) == std::cv_status::timeout)
                return {err::kMemoryFree, head + who + ", which is still queued or running after " +
                                              std::to_string(default_sync_timeout_s()) +
                                              " s (PTO_SYNC_TIMEOUT_S); the block is not freed. Synchronise the stream "
                                              "before freeing"};
        }
        it = impl_->allocations.find(base);  // another thread may have freed it meanwhile
        if (it == impl_->allocations.end() || it->second.size != size)
            return {err::kInvalidParam, "pointer " + std::to_string(base) + " was freed while this call waited"};
        impl_->allocations.erase(it);
        // The range stays reserved and inaccessible, so that a kernel still
        // holding the pointer faults (and is told which block it was) instead
        // of writing into whatever the heap put there next.
        const uint64_t len = device_extent(size);
        mprotect(p, len, PROT_NONE);
        madvise(p, len, MADV_DONTNEED);
        FreedBlock& slot = impl_->freed[impl_->freed_next];
        impl_->freed_next = (impl_->freed_next + 1) % Impl::kFreedBlocks;
        if (uintptr_t old = slot.base.exchange(0, std::memory_order_acq_rel))
            munmap(reinterpret_cast<void*>(old), slot.extent);
        slot.size = size;
        slot.extent = len;
        char who[160];
        describe_code_address(caller, who, sizeof who);
        std::snprintf(slot.where, sizeof slot.where, "%s", who);
        slot.caller = caller;
        slot.base.store(base, std::memory_order_release);
        if (impl_->freed_used.load(std::memory_order_relaxed) < Impl::kFreedBlocks)
            impl_->freed_used.store(impl_->freed_next == 0 ? Impl::kFreedBlocks : impl_->freed_next,
                                    std::memory_order_release);
        return {};
    }
    impl_->allocations.erase(it);
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

std::optional<Allocation> Device::find_reach(const void* p) const {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::lock_guard lk(impl_->mu);
    auto it = impl_->allocations.upper_bound(a);
    if (it == impl_->allocations.begin()) return std::nullopt;
    --it;
    if (a - it->second.base < it->second.extent()) return it->second;
    return std::nullopt;
}

uint64_t Device::ffts_ctrl_addr() const { return impl_->ffts_ctrl; }

void Device::Impl::CoreArena::reset() {
    if (base_) munmap(base_, mapped_);
    base_ = nullptr;
    mapped_ = stride_ = 0;
    cores_ = 0;
    written_ = false;
    masks_.clear();
    for (int sp = 0; sp < kSpaceCount; ++sp) offset_[sp] = size_[sp] = 0;
}

// aclrtFreeHost keeps a freed host block mapped for a while (CANN pools
// pinned pages): a launch given one is a use after free, not a host buffer.
bool Device::Impl::in_host_quarantine(uintptr_t a) const {
    for (const auto& [p, bytes] : host_quarantine)
        if (a - reinterpret_cast<uintptr_t>(p) < bytes) return true;
    return false;
}

const FreedBlock* find_freed(Device& d, uintptr_t a) {
    const size_t used = d.impl().freed_used.load(std::memory_order_acquire);
    for (size_t i = 0; i < used; ++i) {
        const FreedBlock& f = d.impl().freed[i];
        const uintptr_t b = f.base.load(std::memory_order_acquire);
        if (b && a - b < f.extent) return &f;
    }
    return nullptr;
}

uint64_t Device::Impl::track(const LaunchSpec& spec) {
    std::lock_guard lk(mu);
    const uint64_t id = inflight_next++;
    inflight[id] = {spec.kernel, spec.site, spec.gm_args, false, {}};
    return id;
}

bool& Device::Impl::on_stream_worker() {
    thread_local bool worker = false;
    return worker;
}

uint64_t Device::Impl::track_host(std::string what, std::vector<const void*> uses) {
    std::lock_guard lk(mu);
    const uint64_t id = inflight_next++;
    inflight[id] = {"", {}, std::move(uses), false, std::move(what)};
    return id;
}

void Device::Impl::untrack(uint64_t id) {
    {
        std::lock_guard lk(mu);
        inflight.erase(id);
    }
    inflight_done.notify_all();
}

void Device::Impl::mark_abandoned(uint64_t id) {
    std::lock_guard lk(mu);
    if (auto it = inflight.find(id); it != inflight.end()) it->second.abandoned = true;
}

void Device::Impl::CoreArena::ensure(const SocProfile& soc, CoreType t) {
    if (base_) return;
    uint64_t want[kSpaceCount] = {};
    if (t == CoreType::AIV) {
        want[static_cast<int>(Space::UB)] = soc.ub;
    } else {
        // A5 Cube cores own no UB, but TMOV Acc->Vec writes the Vector cores' UB.
        want[static_cast<int>(Space::L1)] = soc.l1;
        want[static_cast<int>(Space::L0A)] = soc.l0a;
        want[static_cast<int>(Space::L0B)] = soc.l0b;
        want[static_cast<int>(Space::L0C)] = soc.l0c;
        want[static_cast<int>(Space::BT)] = soc.bt;
        want[static_cast<int>(Space::FB)] = soc.fb;
        want[static_cast<int>(Space::L0AMX)] = soc.l0a / 16;
        want[static_cast<int>(Space::L0BMX)] = soc.l0b / 16;
    }
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    uint64_t at = 0;
    for (int sp = 0; sp < kSpaceCount; ++sp) {
        offset_[sp] = at;
        size_[sp] = want[sp];
        at += (want[sp] + page - 1) / page * page;
    }
    const int cores = t == CoreType::AIV ? soc.aiv : soc.aic;
    masks_.assign(cores, MaskRegs{});
    // Each core's buffers are followed by an inaccessible guard: kernel code
    // dereferences local-memory pointers directly (GS-relative, cce/bisheng.hpp),
    // and one past the buffer must fault rather than reach the next core.
    const uint64_t buffers = at;
    at += kLocalGuardBytes;
    stride_ = at;
    mapped_ = stride_ * static_cast<uint64_t>(cores);
    if (mapped_ == 0) return;
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        const uint64_t bytes = mapped_;
        reset();
        throw std::runtime_error("ptosim: cannot map " + std::to_string(bytes) +
                                 " bytes for the simulated cores' local buffers (out of memory or address space)");
    }
    base_ = static_cast<uint8_t*>(p);
    cores_ = cores;
    for (int i = 0; i < cores; ++i) mprotect(base_ + uint64_t(i) * stride_ + buffers, kLocalGuardBytes, PROT_NONE);
}

void Device::Impl::CoreArena::clear(int first, int count) const {
    count = std::min(count, cores_ - first);
    if (!base_ || count <= 0 || !written_) return;
    thread_local std::vector<unsigned char> resident;  // mincore's answer, kept between launches
    uint8_t* from = base_ + static_cast<uint64_t>(first) * stride_;
    const uint64_t bytes = static_cast<uint64_t>(count) * stride_;
    // Only the pages earlier launches touched are resident; the others read
    // as zero already. Zeroing those in place keeps them mapped: giving them
    // back (MADV_DONTNEED) made the next launch take a page fault on every
    // page it touches again, about 40 us for the three 32 KiB tiles of a
    // 64x128 float TADD, twenty times the launch itself. (A page the host
    // swapped out between launches also reads as not resident and keeps its
    // bytes: only a kernel that reads local memory it never wrote could see
    // them, which initcheck reports; hardware keeps the previous kernel's
    // bytes there in any case.)
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    resident.resize((bytes + page - 1) / page);
    if (mincore(from, bytes, resident.data()) != 0) {
        // Private anonymous pages read as zero again after MADV_DONTNEED.
        if (madvise(from, bytes, MADV_DONTNEED) != 0) std::memset(from, 0, bytes);
        return;
    }
    for (size_t i = 0; i < resident.size();) {
        if (!(resident[i] & 1)) {
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < resident.size() && (resident[j] & 1)) ++j;
        std::memset(from + i * page, 0, std::min<uint64_t>((j - i) * page, bytes - i * page));
        i = j;
    }
}

Device::Impl::CoreArena& Device::Impl::cores(const SocProfile& soc, CoreType t) {
    CoreArena& a = t == CoreType::AIC ? aic_cores : aiv_cores;
    a.ensure(soc, t);
    return a;
}

}  // namespace ptosim

namespace ptosim {

namespace {
// Under the remote window transport a checked access to a peer's window
// fetches its bytes for the instruction (peers.cpp, remote_open).
void open_if_remote(const Allocation& in, uintptr_t a, uint64_t bytes, const SourceLoc& loc) {
    if (in.window_rank < 0 || in.window_rank == process_rank() || !remote_windows()) return;
    if (const Core* c = current_core_or_null()) remote_open(*c, a, bytes, in.window_rank, loc);
}
void settle_if_remote() {
    if (!remote_windows()) return;
    if (const Core* c = current_core_or_null()) remote_settle(*c);
}
}  // namespace

void check_gm_bursts(const void* p, uint32_t n, uint64_t pitch, uint64_t len, const char* what, const SourceLoc& loc) {
    if (n == 0) return;
    settle_if_remote();
    const auto* b = static_cast<const uint8_t*>(p);
    if (const std::optional<Allocation> a = Device::get().find_reach(p);
        a && reinterpret_cast<uintptr_t>(b) + uint64_t(n - 1) * pitch + len <= a->base + a->asked()) {
        open_if_remote(*a, reinterpret_cast<uintptr_t>(b), uint64_t(n - 1) * pitch + len, loc);
        return;
    }
    for (uint32_t i = 0; i < n; ++i) check_gm(b + i * pitch, len, what, loc);
}

void check_gm(const void* p, uint64_t bytes, const char* what, const SourceLoc& loc) {
    settle_if_remote();
    Device& d = Device::get();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    const std::optional<Allocation> start = d.find_reach(p);
    if (!start) {
        if (const FreedBlock* f = find_freed(d, a)) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "%s: GM bytes [%p, %p) lie in the %llu-byte device block at %p, which was freed by aclrtFree "
                          "called from ",
                          what, p, static_cast<const void*>(static_cast<const uint8_t*>(p) + bytes),
                          static_cast<unsigned long long>(f->size), reinterpret_cast<void*>(f->base.load()));
            fault(loc, buf + describe_call_site(f->caller) +
                           "; free device memory only after the launches using it finished (synchronise the stream "
                           "first)");
        }
        // An address among the communicator windows but in none of them: a
        // remote address outside the peer's window (docs/many-devices.md).
        if (std::string miss = window_miss(a, bytes); !miss.empty()) fault(loc, std::string(what) + ": " + miss);
        // A span that runs into a registered block writes memory it does not own.
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
        // A device program's GM is memory the device maps: anything else is an
        // address its MMU rejects, an AI core exception at this access
        // (docs/semantics.md, "Faults and reports"). Launches built in C++
        // run kernels on plain host memory on purpose and stay unchecked.
        const Core* c = current_core_or_null();
        if (c && c->launch && c->launch->spec().device_program && !d.impl().in_host_quarantine(a)) {
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          "%s: GM bytes [%p, %p) lie in no device allocation, an address the device does not map: "
                          "host memory (malloc/stack/NumPy) is not device memory: allocate it with aclrtMalloc / "
                          "copy it with aclrtMemcpy",
                          what, p, static_cast<const void*>(static_cast<const uint8_t*>(p) + bytes));
            fault(loc, buf);
        }
        return;
    }
    const uint64_t end = a + bytes, asked_end = start->base + start->asked();
    if (end <= asked_end) {
        open_if_remote(*start, a, bytes, loc);
        return;
    }
    const void* hi = static_cast<const uint8_t*>(p) + bytes;
    char buf[480];
    if (end > start->base + start->extent() && start->window_rank >= 0) {
        std::snprintf(buf, sizeof buf,
                      "%s: GM bytes [%p, %p) run %llu bytes past the end of rank %d's %llu-byte communicator window at "
                      "%p: the remote address is outside the peer's window (HCCL_BUFFSIZE sizes the windows)",
                      what, p, hi, static_cast<unsigned long long>(end - asked_end), start->window_rank,
                      static_cast<unsigned long long>(start->size), reinterpret_cast<void*>(start->base));
        fault(loc, buf);
    }
    if (end > start->base + start->extent()) {
        // Host and registered memory end at their size; a device block's
        // own tail ends kDeviceTailBytes after its pages.
        const bool dev = start->reach != 0;
        std::snprintf(buf, sizeof buf,
                      "%s: GM bytes [%p, %p) run past the end of the %llu-byte allocation at %p (by %llu bytes)%s; check "
                      "the GlobalTensor shape/stride and the offset added to the kernel argument",
                      what, p, hi, static_cast<unsigned long long>(start->asked()), reinterpret_cast<void*>(start->base),
                      static_cast<unsigned long long>(end - asked_end),
                      dev ? ", farther than the memory ptosim keeps after a device block (on the device it would reach "
                            "whatever lies there)"
                          : (start->device ? "" : " (host memory, which ptosim cannot extend)"));
        fault(loc, buf);
    }
    // Past the bytes the program asked for but inside the block's reach:
    // padding CANN added, or HBM beyond the block. The device runs it.
    Tolerated t;
    t.op = what;
    t.kind = "gm-past-allocation";
    std::snprintf(buf, sizeof buf,
                  "%s at %s accesses GM [%p, %p), which runs %llu bytes past the %llu bytes requested for the "
                  "allocation at %p%s",
                  what, loc.str().c_str(), p, hi, static_cast<unsigned long long>(end - asked_end),
                  static_cast<unsigned long long>(start->asked()), reinterpret_cast<void*>(start->base),
                  end <= start->base + start->size ? " (into the padding the allocator adds)"
                                                   : "; ptosim reads and writes memory it keeps after the block, as the "
                                                     "device reads and writes whatever lies there");
    t.message = buf;
    t.fix = "size the allocation for every byte the kernel moves (tail tiles, bursts of whole rows), or shrink the "
            "GlobalTensor shape or the offset at " + loc.str();
    t.buffer = "GM";
    t.lo = a;
    t.hi = end;
    tolerate(loc, std::move(t));
}

}  // namespace ptosim
