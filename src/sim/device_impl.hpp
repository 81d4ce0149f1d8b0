#pragma once
#include <ptosim/runtime.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace ptosim {

// A lock that a waiter can give up on after a while. Not std::timed_mutex:
// its timed wait goes through pthread_mutex_clocklock, which
// ThreadSanitizer does not intercept, so it would lose the order between
// two launches and report the unlock as by a wrong thread.
class ExecGate {
public:
    void lock() {
        std::unique_lock lk(mu_);
        free_.wait(lk, [&] { return !busy_; });
        busy_ = true;
    }
    bool try_lock() {
        std::lock_guard lk(mu_);
        if (busy_) return false;
        busy_ = true;
        return true;
    }
    template <class Rep, class Period>
    bool try_lock_for(const std::chrono::duration<Rep, Period>& d) {
        std::unique_lock lk(mu_);
        if (!free_.wait_for(lk, d, [&] { return !busy_; })) return false;
        busy_ = true;
        return true;
    }
    void unlock() {
        {
            std::lock_guard lk(mu_);
            busy_ = false;
        }
        free_.notify_one();
    }

private:
    std::mutex mu_;
    std::condition_variable free_;
    bool busy_ = false;
};

class Launch;

// What a stream shares with the launch it runs: the abandon flag a timed-out
// synchronisation raises, and the live launch for progress reports.
struct LaunchControl {
    std::atomic<bool> abandon{false};
    std::mutex mu;           // guards live
    Launch* live = nullptr;  // set while the launch holds the device
};

// How the device's SoC was chosen, as a launch for the other target reports
// it: "chosen by PTO_SIM_SOC", "the default SoC: ...", ...
std::string soc_choice(Device& d);
// Device::select_soc, with `choice` saying how for soc_choice. With
// `unless_chosen`, does nothing once anything chose the SoC (PTO_SIM_SOC,
// select_soc). Changes nothing after the first launch but selecting the SoC
// it ran on (docs/soc-profiles.md, "Choosing the SoC").
Status select_soc(Device& d, std::string_view name, std::string choice, bool unless_chosen = false);

// Not ok when PTO_SIM_SOC names no profile: aclInit and every launch fail
// with this message until a SoC is selected explicitly.
Status soc_env_status();

// Why a launch on the default stream (nullptr) has no device context, as
// CANN refuses it without aclInit and aclrtSetDevice ("" when it has one).
std::string default_stream_context_error();

// Why `fn` cannot run in this process because it was forked from one that
// had called aclInit ("" otherwise): docs/acl.md, "Processes".
std::string forked_child_error(const char* fn);

// Runs a launch on the calling thread; `ctl` (may be null) lets another
// thread abandon it or ask for its progress.
Status run_launch(Device& d, const LaunchSpec& spec, LaunchControl* ctl);
// The unfinished cores of the launch `ctl` runs, one line each (identical
// cores grouped), or "" when it does not hold the device yet.
std::string launch_progress(LaunchControl& ctl);

// A device block released by aclrtFree, remembered so that a later kernel
// access is reported as a use after free. Written under Device::Impl::mu,
// read lock-free by the crash handler.
struct FreedBlock {
    std::atomic<uintptr_t> base{0};
    uint64_t size = 0;
    uint64_t extent = 0;  // the bytes its mapping kept reserved (Allocation::extent)
    char where[200] = {};  // who freed it, e.g. "main+0x4f (./app)": for the crash handler, which cannot run addr2line
    const void* caller = nullptr;  // aclrtFree's return address
};

struct Device::Impl {
    mutable std::mutex mu;
    std::map<uintptr_t, Allocation> allocations;  // by base address
    // Freed aclrtMallocHost blocks, released to the C heap oldest first once
    // they exceed kHostQuarantineBytes (docs/acl.md, aclrtFreeHost).
    std::deque<std::pair<void*, uint64_t>> host_quarantine;
    uint64_t host_quarantine_bytes = 0;
    static constexpr uint64_t kHostQuarantineBytes = 256ull << 20;
    // With mu held: whether address a lies in a quarantined host block.
    bool in_host_quarantine(uintptr_t a) const;
    // Freed device blocks keep their address range, inaccessible, so that no
    // later allocation reuses it while a kernel may still hold the pointer;
    // the oldest are unmapped beyond kFreedBlocks (docs/acl.md, aclrtFree).
    static constexpr size_t kFreedBlocks = 4096;
    FreedBlock freed[kFreedBlocks];
    size_t freed_next = 0;
    // Slots [0, freed_used) have ever held a block: lookups of host memory
    // (every TLOAD/TSTORE of unregistered GM) scan only those.
    std::atomic<size_t> freed_used{0};
    ~Impl();
    std::set<Stream*> streams;
    // Streams whose work goes to a capture or task update, mirrored here so
    // that destroy_stream can refuse them under this lock alone: taking a
    // stream's lock under it would invert the stream-then-device order of
    // enqueueing and abandoning.
    std::set<const Stream*> diverted;
    Stream* default_stream = nullptr;
    bool launched = false;
    // How the SoC was chosen (soc_choice), and whether anything chose it:
    // PTO_SIM_SOC, select_soc (runtime_camodel, a kernel library, the C++ API).
    std::string soc_choice;
    bool soc_chosen = false;
    std::set<std::string> wave_warned;
    uint64_t ffts_ctrl = 0;

    // Launches queued or running on streams, with the pointer arguments they
    // were given: aclrtFree of a block one of them uses waits for it.
    struct InFlight {
        std::string kernel;  // empty for host work (an asynchronous copy or memset)
        SourceLoc site;
        std::vector<const void*> gm_args;
        bool abandoned = false;
        std::string what;  // host work: what it is
    };
    std::map<uint64_t, InFlight> inflight;
    uint64_t inflight_next = 1;
    std::condition_variable inflight_done;
    // True on a stream's worker thread, where aclrtFree must not wait: the
    // launch it would wait for may be queued behind the caller, or wait for
    // the cores the caller's launch holds.
    static bool& on_stream_worker();
    uint64_t track(const LaunchSpec& spec);
    uint64_t track_host(std::string what, std::vector<const void*> uses);
    void untrack(uint64_t id);
    void mark_abandoned(uint64_t id);

    // One launch at a time owns each kind of core (docs/acl.md, "Streams"):
    // a launch holds the gate of every core type it runs on (AIC for Cube
    // kernels, AIV for Vector kernels, both for mixed ones; always AIC
    // first), so a Cube launch and a Vector launch from different streams
    // run at the same time, as on the device, and two launches never share
    // a core's buffers. `busy` names the latest launch to take a gate, for
    // the reports of launches waiting behind it.
    ExecGate exec_aic, exec_aiv;
    const LaunchSpec* busy = nullptr;  // guarded by mu

    // The local buffers (UB, L1, L0A, ...) of every physical core of one
    // type, in one anonymous mapping, core after core: clearing zeroes only
    // the pages earlier launches touched (resident, as mincore reports), so
    // it costs what the last kernels touched rather than the buffers' size,
    // and keeps them mapped for the next launch. A launch clears them before its first block runs, and
    // blocks of one launch that follow each other on a core see what the
    // previous one left (docs/semantics.md, "Launches and waves").
    // Inaccessible bytes after each core's local buffers (CoreArena::ensure).
    static constexpr uint64_t kLocalGuardBytes = uint64_t{1} << 20;
    class CoreArena {
    public:
        CoreArena() = default;
        CoreArena(const CoreArena&) = delete;
        CoreArena& operator=(const CoreArena&) = delete;
        ~CoreArena() { reset(); }
        void ensure(const SocProfile& soc, CoreType t);  // maps on first use
        void reset();
        // Zeroes the local memory of cores [first, first + count), the pages
        // earlier launches touched; calls for different cores may run at
        // once (each host thread of a launch clears its own cores).
        void clear(int first, int count) const;
        int core_count() const { return cores_; }
        // A launch whose kernel code reached its cores may have written
        // local memory: the next launch clears the cores it uses. Until
        // then, and after every core was cleared, there is nothing to clear.
        void mark_written() { written_ = true; }
        void mark_cleared() { written_ = false; }
        uint8_t* space(int core, int sp) const { return size_[sp] ? base_ + core * stride_ + offset_[sp] : nullptr; }
        uint64_t size(int sp) const { return size_[sp]; }
        // A Vector core's mask mode and mask outlive the kernel that set them
        // (docs/intrinsics/README.md, "Start state"); a fresh device's hold
        // normal mode and every bit set.
        struct MaskRegs {
            uint64_t mask[2] = {~uint64_t{0}, ~uint64_t{0}};
            bool counter = false;
        };
        MaskRegs& mask_regs(int core) { return masks_[core]; }

    private:
        uint8_t* base_ = nullptr;
        uint64_t mapped_ = 0, stride_ = 0;
        int cores_ = 0;
        uint64_t offset_[kSpaceCount] = {}, size_[kSpaceCount] = {};
        bool written_ = false;  // pages may be nonzero since the last clear of every core
        std::vector<MaskRegs> masks_;
    };
    CoreArena aic_cores, aiv_cores;
    CoreArena& cores(const SocProfile& soc, CoreType t);  // with that type's gate held
};

// The freed device block containing address a, if it is remembered.
const FreedBlock* find_freed(Device& d, uintptr_t a);

}  // namespace ptosim
