// One kernel launch: its simulated cores, the schedulers that run them
// (one cooperative scheduler per host thread) and the cross-core flag state
// they share.
#pragma once
#include <ptosim/runtime.hpp>
#include <array>
#include <climits>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptosim {

namespace check {
struct LaunchState;
}
namespace cost {
struct LaunchTiming;
}

// A simulated core's execution context (Boost.Context's fcontext: a switch
// saves registers only, where ucontext's swapcontext also makes a
// sigprocmask system call), on a stack from the launch's pool.
struct Fiber {
    void* ctx = nullptr;  // boost::context::detail::fcontext_t while the core is suspended
    void* stack = nullptr;
};

struct CoreSlot {
    enum class State { Pending, Runnable, Blocked, Done };
    Core core;
    Fiber fiber;
    State state = State::Pending;
    int group = 0;
    std::function<bool()> ready;
    std::function<std::string()> describe;
    SourceLoc wait_loc;
    std::function<void()>* body = nullptr;
    void* sched = nullptr;  // while the core runs: the context of its host thread's scheduler
    bool unwind = false;  // resumed only to unwind its stack (the launch ended without it)
};

// A2A3 FFTS flags (16 per core) and A5 intra-block flags (32 per core),
// counted per receiving core (docs/semantics.md, "Cross-core flags").
constexpr int kFftsFlags = 16;
constexpr int kIntraBlockFlags = 32;

// Where the last signal on a cross-core flag came from, for the checkers'
// report of counters left non-zero at kernel end.
struct SignalSite {
    SourceLoc loc;
    int from = -1;  // sending core index
};

struct LaunchControl;

// block_until for waits on cross-core state: `held` (the launch's lock())
// is released while the core waits and held again when it continues.
void block_until(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe);

// Cores exist only while their block runs: a group's slots (and fiber stacks)
// are created when it is admitted to a free physical core and released when
// the whole group finished, so memory stays bounded by the core count
// whatever the block_dim, and the scheduler scans only the admitted cores.
class Launch {
public:
    Launch(Device& d, const LaunchSpec& spec, LaunchControl* ctl);
    ~Launch();
    Status run();

    const LaunchSpec& spec() const { return spec_; }
    // The device this launch runs on (its FFTS control block, its memory).
    Device& device() const { return dev_; }
    const SocProfile& soc() const { return soc_; }
    int cores_per_group() const { return per_group_; }
    int core_count() const { return groups_ * per_group_; }
    CoreType core_type_of(int index) const;
    std::string core_name(int index) const;
    CoreSlot& slot_of(const Core& c) { return *slots_[c.index]; }
    // The lowest address of the core's fiber stack (its guard page), for the crash report.
    const void* stack_of(const Core& c) const { return slots_[c.index]->fiber.stack; }
    // A member of a running group (the caller's own group always is).
    CoreSlot* group_member(int group, int member) {
        size_t i = static_cast<size_t>(group) * per_group_ + member;
        return i < slots_.size() ? slots_[i].get() : nullptr;
    }
    // Per-core flag counters, allocated on first use.
    std::array<uint32_t, kFftsFlags>& ffts_at(int index) {
        if (ffts.empty()) ffts.assign(core_count(), {});
        return ffts[index];
    }
    std::array<uint32_t, kIntraBlockFlags>& intra_at(int index) {
        if (intra.empty()) intra.assign(core_count(), {});
        return intra[index];
    }
    std::array<SignalSite, kFftsFlags>& ffts_from_at(int index) {
        if (ffts_from.empty()) ffts_from.assign(core_count(), {});
        return ffts_from[index];
    }
    std::array<SignalSite, kIntraBlockFlags>& intra_from_at(int index) {
        if (intra_from.empty()) intra_from.assign(core_count(), {});
        return intra_from[index];
    }
    // The unfinished cores and what each did last (timeout reports, from any thread).
    std::string progress() const;

    // Counters by receiving core index and flag id.
    std::vector<std::array<uint32_t, kFftsFlags>> ffts;
    // FFTS signals that release their receivers only once every member has
    // sent one (modes 0 and 1, and mode 2 from the Vector side).
    struct FftsBarrier {
        std::vector<int> members, receivers;
        std::vector<std::array<uint32_t, kFftsFlags>> pending;  // by member
        std::vector<std::array<SignalSite, kFftsFlags>> pending_from;
    };
    std::map<std::pair<int, int>, FftsBarrier> ffts_barriers;  // (mode, group or core type)
    std::vector<std::array<uint32_t, kIntraBlockFlags>> intra;
    std::vector<std::array<SignalSite, kFftsFlags>> ffts_from;
    std::vector<std::array<SignalSite, kIntraBlockFlags>> intra_from;
    // The checkers' state for this launch (src/sim/check.cpp); null when off.
    check::LaunchState* check = nullptr;
    // The cost model's state for this launch (src/sim/timing.cpp); null when timing is off.
    cost::LaunchTiming* timing = nullptr;
    // Hardware-mode SYNCALL barriers by participant kind (AIV, AIC, mix).
    struct SyncAllBarrier {
        int arrived = 0;
        uint64_t generation = 0;
    };
    std::array<SyncAllBarrier, 3> syncall{};
    // The last cross-core signal each core sent, by sending core index, for
    // deadlock reports (per core, so the report does not depend on how the
    // host threads interleaved).
    std::map<int, std::string> last_signals;
    void note_signal(const Core& from, std::string s);

    // Cross-core state (the flag counters above, SYNCALL barriers, last
    // signals) is read and written with this lock held; block_until releases
    // it while the core waits. signalled() wakes host threads whose cores
    // wait, after any change that may satisfy a wait.
    std::unique_lock<std::mutex> lock() { return std::unique_lock(mu_); }
    void signalled();

    void yield_from(CoreSlot& s);  // fiber -> scheduler
    void fault_from(const CoreSlot& s, const KernelFault& f);

private:
    Status prepare();
    Status admit(int group, int phys);
    void retire(int group);
    CoreSlot* pick(const std::set<int>& cores);
    void resume(CoreSlot& s);
    Status run_serial();
    Status run_parallel(int threads);
    void work(int worker, int threads);
    void flush_prints(bool all);
    std::string deadlock_report() const;
    // (slot, state) pairs as report lines, consecutive cores in one state grouped.
    std::string grouped_lines(const std::vector<std::pair<int, std::string>>& states, const char* sep) const;

    Device& dev_;
    LaunchSpec spec_;
    SocProfile soc_;
    LaunchControl* ctl_;
    int per_group_ = 1;
    int groups_ = 0;
    int capacity_ = 0;
    int next_group_ = 0;  // groups admitted so far
    int64_t groups_done_ = 0;
    std::vector<int> group_slot_;  // physical slot of each admitted group
    std::vector<int> free_slots_;
    // By core index; null before the core's group is admitted and after it finished.
    std::vector<std::unique_ptr<CoreSlot>> slots_;
    std::set<int> active_;  // indices of the admitted, unfinished cores, scanned in order
    mutable std::mutex active_mu_;  // guards slots_/active_ against progress() from other threads
    // The fault of the lowest-numbered core that faulted: the one the serial
    // schedule meets first when cores do not wait for each other.
    std::optional<KernelFault> fault_;
    int fault_index_ = INT_MAX;
    std::string fault_core_;
    CoreType fault_type_ = CoreType::AIV;

    std::mutex mu_;
    // Parallel schedule: host threads with nothing to run sleep on wake_
    // until a signal (generation_ moves) or the end; when every thread is
    // idle or finished, no core can progress (stuck_).
    std::condition_variable wake_;
    uint64_t generation_ = 0;
    int idle_ = 0, finished_ = 0, threads_ = 1;
    int current_idle_ = 0;  // idle threads that saw the latest signal
    bool stuck_ = false;
    Status admit_error_;
    std::string deadlock_;
    // Device printf text of each core of a parallel launch, written out in
    // core order once every lower-numbered core finished (as bisheng prints
    // each core's buffer after the kernel), so the output does not depend on
    // the host threads' timing.
    struct PrintBuffer {
        std::string text;
        bool done = false;
    };
    std::map<int, PrintBuffer> prints_;
    int next_print_ = 0;
};

}  // namespace ptosim
