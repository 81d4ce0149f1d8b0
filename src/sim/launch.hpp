// One kernel launch: its simulated cores, the schedulers that run them
// (one cooperative scheduler per host thread) and the cross-core flag state
// they share.
#pragma once
#include <ptosim/check.hpp>
#include <ptosim/runtime.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
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

struct CoreSlot;

// Cores in increasing index order: a sorted vector, as a launch holds at
// most one wave of cores and the scheduler scans them every turn.
class CoreSet {
public:
    void insert(CoreSlot* s);
    void erase(CoreSlot* s);
    bool empty() const { return v_.empty(); }
    std::vector<CoreSlot*>::const_iterator begin() const { return v_.begin(); }
    std::vector<CoreSlot*>::const_iterator end() const { return v_.end(); }

private:
    std::vector<CoreSlot*> v_;
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
    std::string print_text;  // device printf output of a core in a parallel launch, until it is written out
    void* sched = nullptr;  // while the core runs: the context of its host thread's scheduler
    // The same scheduler as ThreadSanitizer's fiber, under ThreadSanitizer. In
    // the slot, not in a thread_local: code on a core's stack may have cached
    // the address of the thread it started on, and a core resumes on any.
    void* tsan_sched = nullptr;
    bool unwind = false;  // resumed only to unwind its stack (the launch ended without it)
    bool yielded = false;  // gave its turn away (yield_core): picked after every other ready core
    // The core's progress clock is core.ops + skew: its issued instructions,
    // plus the time it spent waiting (a wait moves the clock on to the
    // signal's). The scheduler resumes the ready core with the lowest clock.
    uint64_t skew = 0;
};

// A2A3 FFTS flags (16 per core) and A5 intra-block flags (32 per core),
// counted per receiving core (docs/semantics.md, "Cross-core flags").
constexpr int kFftsFlags = 16;
constexpr int kIntraBlockFlags = 32;
// Each counter is 4 bits: it holds at most 15 unconsumed signals.
constexpr uint32_t kFlagCounterMax = 15;

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
    // Set by run_launch before run(): the core types it holds on the
    // device (ExecGate), and whether it started while another launch ran
    // in the background (then it runs the serial schedule).
    void set_device_share(unsigned types, bool overlapping) {
        types_ = types;
        overlapping_ = overlapping;
    }
    // Whether the launch moved to the background (quiet_round).
    bool in_background() const { return background_.load(); }

    const LaunchSpec& spec() const { return spec_; }
    // The device this launch runs on (its FFTS control block, its memory).
    Device& device() const { return dev_; }
    const SocProfile& soc() const { return soc_; }
    int cores_per_group() const { return per_group_; }
    int core_count() const { return groups_ * per_group_; }
    CoreType core_type_of(int index) const;
    std::string core_name(int index) const;
    // Member `member` of the mix group of running core `c` (0: the Cube
    // core, 1 and 2: the Vector sub-blocks), which runs while `c` does.
    Core& group_member(const Core& c, int member);
    // The lowest address of the core's fiber stack (its guard page), for the crash report.
    const void* stack_of(const Core& c) const { return slot_of(c).fiber.stack; }
    // The unfinished cores and what each did last (timeout reports, from any thread).
    std::string progress() const;

    // Cross-core state (the flag counters, SYNCALL barriers, last signals
    // below) is read and written with this lock held; block_until releases
    // it while the core waits. signalled() wakes host threads whose cores
    // wait, after any change that may satisfy a wait.
    std::unique_lock<std::mutex> lock() { return std::unique_lock(mu_); }
    void signalled();
    // Lets every other ready core run before `c` continues (ptosim::yield_core).
    void yield_core(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held);
    // The progress clock of running core `c` (docs/semantics.md, "Which core runs next"):
    // its instruction count plus the time it spent waiting. Only its own host
    // thread reads it while `c` is suspended or running.
    uint64_t clock_of(const Core& c) const { return c.ops + slot_of(c).skew; }
    // A synchronisation point of core `c` (it signalled, or a wait of it was
    // satisfied by a signal stamped `stamp`): its clock moves on to `stamp`
    // if that is later, and the core gives its host thread to a ready core
    // with a lower clock, if there is one. With lock() held as `held`.
    void sync_point(Core& c, std::unique_lock<std::mutex>& held, uint64_t stamp = 0);
    // Suspends core `c` until ready() holds (ptosim::block_until).
    void block_until(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held, const std::function<bool()>& ready,
                     const std::function<std::string()>& describe);

    // ---- Cross-core flags (docs/semantics.md, "Cross-core flags"), with
    // lock() held. The counters are 4 bits: an add that finds one full
    // changes nothing and returns false, and the caller faults.
    //
    // Every signal carries a stamp, the sender's clock when it was made; a
    // wait takes the oldest signal of its counter and returns its stamp.
    //
    // A2A3 FFTS flags, counted per receiving core: one more signal on flag
    // `flag` of core `to`, sent from `site`.
    bool ffts_add(int to, int flag, const SignalSite& site, uint64_t stamp);
    // The signals FFTS flag `flag` of `core` holds; a satisfied wait_flag_dev takes one.
    uint32_t ffts_held(int core, int flag) const;
    uint64_t ffts_take(int core, int flag);
    // FFTS signals that release their receivers only once every member has
    // sent one (modes 0 and 1, and mode 2 from the Vector side). Barrier
    // (mode, key) is created with `members` (core indices) on first use;
    // the same key always comes with the same members. A signal of member
    // core `from` on `flag`:
    struct BarrierArrival {
        intptr_t barrier = 0;   // names the barrier in racecheck's channels
        int member = -1;        // the position of `from` among the members
        bool full = false;      // its pending counter was full: nothing changed
        bool complete = false;  // every member has now signalled: one pending signal of each was taken
        uint64_t stamp = 0;     // when complete: the latest stamp among the signals that completed it
    };
    BarrierArrival ffts_barrier_add(int mode, int key, const std::vector<int>& members, int from, int flag,
                                    const SignalSite& site, uint64_t stamp);
    // A5 intra-block flags, counted per receiving core (as the FFTS flags).
    bool intra_add(int to, int flag, const SignalSite& site, uint64_t stamp);
    uint32_t intra_held(int core, int flag) const;
    uint64_t intra_take(int core, int flag);
    // Hardware-mode SYNCALL barriers by participant kind (a SyncAllCores
    // value): the number of the round now open and how many participants
    // arrived in it. syncall_arrive counts one more arrival and returns true
    // when it was the last of `total`: the next round opens.
    // `stamp` is the arriving core's clock; syncall_released is the latest
    // arrival's stamp of the last round that closed.
    uint64_t syncall_round(int kind) const { return syncall_[kind].round; }
    int syncall_arrived(int kind) const { return syncall_[kind].arrived; }
    bool syncall_arrive(int kind, int total, uint64_t stamp);
    uint64_t syncall_released(int kind) const { return syncall_[kind].released; }
    // The last cross-core signal a core sent, for deadlock reports.
    void note_signal(const Core& from, std::string s);

    // Signals a flag counter still holds, for synccheck's report at kernel
    // end (after run(), or with lock() held).
    struct HeldSignals {
        enum class Counter { Ffts, IntraBlock, FftsBarrier } counter;
        int core;        // the receiving core; for a barrier, the member whose signals wait
        int flag;
        uint32_t count;
        SignalSite last;  // where the last of them came from
        int mode = -1;    // a barrier's FFTS mode
    };
    // By core: FFTS flags, then intra-block flags; then each barrier's
    // pending signals by (mode, key), member and flag.
    std::vector<HeldSignals> held_signals() const;

    // The checkers' state for this launch (src/sim/check.cpp) and the cost
    // model's (src/sim/timing.cpp): set by their begin hooks, null when off.
    check::LaunchState* checker() const { return check_; }
    void set_checker(check::LaunchState* s) { check_ = s; }
    cost::LaunchTiming* timing() const { return timing_; }
    void set_timing(cost::LaunchTiming* t) { timing_ = t; }

    // A kernel fault on core `c`; the lowest-numbered faulting core's is the launch's.
    void fault_from(const Core& c, const KernelFault& f);

    // Findings the device would not stop the kernel for (ptosim::tolerate):
    // one per (kind, site), counted, by the core that met it first. Any
    // host thread of the launch may add; check::end takes them.
    void add_tolerated(int core, check::Report r);
    std::vector<std::pair<int, check::Report>> take_tolerated();

    // A fixed private address the kernel touched first (docs/semantics.md,
    // "Fixed private addresses"): the crash handler mapped its pages and
    // notes them here; take_tolerated turns them into reports. Async-signal-safe.
    void note_private_page(int core, uintptr_t addr, const void* pc);

private:
    // The physical group slot a running core occupies: its Cube or Vector
    // core, or in a mix launch its Cube core and Vector core pair.
    int phys_of(const Core& c) const {
        return c.type == CoreType::AIC || per_group_ == 1 ? c.physical : c.physical / 2;
    }
    CoreSlot& slot_of(const Core& c) const { return *placed_[phys_of(c)].member[c.index % per_group_]; }
    bool group_done(int phys) const {
        for (int m = 0; m < per_group_; ++m)
            if (placed_[phys].member[m]->state != CoreSlot::State::Done) return false;
        return true;
    }
    // Vector cores on a physical group slot: a mix group has two.
    int aiv_per_slot() const { return per_group_ == 3 ? 2 : 1; }
    // Zeroes the local memory of the cores on physical group slots
    // [first, first + count) before the launch runs blocks there.
    void clear_local(int first, int count);
    void yield_from(CoreSlot& s);  // fiber -> scheduler
    Status prepare();
    Status admit(int group, int phys);
    void retire(int phys);
    // The core of `cores` that can run with the lowest progress clock (the
    // lowest-numbered among equals; cores that gave their turn away only
    // when no other can run). Takes `lk` (the
    // launch lock) only to ask a blocked core whether it can continue, and
    // always before it returns null.
    // `round`, when given, is set when the cores left were all polling GM
    // and each gets its turn back: a new round of polls begins.
    CoreSlot* pick(const CoreSet& cores, std::unique_lock<std::mutex>& lk, bool* round = nullptr);
    struct Lane;
    // After a turn of core `s` on `lane`, and at the start of a round of polls.
    void count_turn(Lane& lane, const CoreSlot& s);
    void round_begins(Lane& lane);
    // A whole round in which every core of a lane only polled GM: the
    // launch waits for something outside it, and moves to the background
    // (docs/semantics.md, "Launches on several streams").
    void quiet_round();
    struct Lane;
    Lane& lane_of(int phys) { return lanes_[threads_ > 1 ? phys % threads_ : 0]; }
    bool any_blocked() const;  // with every lane standing still
    // Every admitted, unfinished core in index order, with `what` of each.
    template <class F>
    void each_active(F what) const;
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
    std::vector<int> free_slots_;  // physical group slots free on the serial schedule
    // The cores of the group on each physical group slot, while it runs;
    // written only by the host thread that runs that slot, and a cache line
    // each, so threads running neighbouring slots do not share one.
    struct alignas(64) Placed {
        std::array<std::unique_ptr<CoreSlot>, 3> member;
    };
    std::unique_ptr<Placed[]> placed_;
    // The admitted, unfinished cores of each host thread (one lane on the
    // serial schedule), which only that thread admits, scans and retires: the
    // threads of a parallel launch do not take turns at a shared lock for
    // cores that do not wait for each other. A lane's lock guards its set
    // and its slots in placed_ against progress() from other threads.
    struct alignas(64) Lane {
        mutable std::mutex mu;
        CoreSet active;
        // The lowest core index the lane has not retired (an underestimate
        // while it changes), for writing printf output in core order.
        std::atomic<int> low{0};
        std::atomic<int> admitted{0}, retired{0};  // groups
        bool touched = false;  // a retired core was touched (Core::touched)
        // Turns of the lane's cores that did more than poll GM again, and
        // their count when the last round of polls began: a round that
        // ends with the same count was quiet (quiet_round()).
        uint64_t progress = 0, round_mark = ~uint64_t{0};
    };
    std::unique_ptr<Lane[]> lanes_;
    int lane_count_ = 0;
    mutable std::mutex lanes_mu_;  // guards lanes_ being set against progress()
    // A count summed over the lanes (groups admitted or retired so far).
    int lane_sum(std::atomic<int> Lane::*count) const;
    // The fault of the lowest-numbered core that faulted: the one the serial
    // schedule meets first when cores do not wait for each other.
    std::optional<KernelFault> fault_;
    std::atomic<int> fault_index_{INT_MAX};
    std::string fault_core_;
    CoreType fault_type_ = CoreType::AIV;

    check::LaunchState* check_ = nullptr;
    cost::LaunchTiming* timing_ = nullptr;
    unsigned types_ = 0;        // the core types it holds (ExecGate::kAic | kAiv)
    bool overlapping_ = false;  // started while another launch ran in the background
    bool may_background_ = false;  // not under the checkers
    std::atomic<bool> background_{false};
    std::mutex tolerated_mu_;
    std::vector<std::pair<int, check::Report>> tolerated_;
    struct PrivatePage {
        int core;
        uintptr_t addr;
        const void* pc;
    };
    static constexpr int kPrivatePagesKept = 16;
    std::atomic<int> private_pages_n_{0};
    PrivatePage private_pages_[kPrivatePagesKept] = {};

    alignas(64) std::mutex mu_;
    // Cross-core flag state, with mu_ held. Counters by receiving core index
    // and flag id, and where the last signal on each came from; allocated on
    // first use.
    std::vector<std::array<uint32_t, kFftsFlags>> ffts_;
    std::vector<std::array<SignalSite, kFftsFlags>> ffts_from_;
    std::vector<std::array<uint32_t, kIntraBlockFlags>> intra_;
    std::vector<std::array<SignalSite, kIntraBlockFlags>> intra_from_;
    // The stamps of the signals a counter holds, oldest first (at most
    // kFlagCounterMax), by counter: (0 FFTS / 1 intra-block, core, flag).
    // Only counters that were signalled have one.
    struct Stamps {
        std::array<uint64_t, kFlagCounterMax + 1> t{};
        uint32_t head = 0;
    };
    std::unordered_map<uint64_t, Stamps> stamps_;
    static uint64_t stamp_key(int kind, int core, int flag) {
        return static_cast<uint64_t>(kind) << 56 | static_cast<uint64_t>(core) << 8 | static_cast<uint64_t>(flag);
    }
    void push_stamp(uint64_t key, uint32_t held_before, uint64_t stamp);
    uint64_t pop_stamp(uint64_t key);
    struct FftsBarrier {
        std::vector<int> members;
        std::array<uint64_t, kFftsFlags> latest{};  // the latest stamp among the pending signals, by flag
        std::vector<std::array<uint32_t, kFftsFlags>> pending;  // by member
        std::vector<std::array<SignalSite, kFftsFlags>> pending_from;
    };
    std::map<std::pair<int, int>, FftsBarrier> ffts_barriers_;  // (mode, group or core type)
    struct SyncAllBarrier {
        int arrived = 0;
        uint64_t round = 0;
        uint64_t latest = 0, released = 0;  // stamps: of this round's latest arrival, of the last closed round's
    };
    std::array<SyncAllBarrier, 3> syncall_{};  // AIV, AIC, mix
    // The last cross-core signal each core sent, by sending core index, for
    // deadlock reports (per core, so the report does not depend on how the
    // host threads interleaved).
    std::map<int, std::string> last_signals_;
    // Parallel schedule: host threads with nothing to run sleep on wake_
    // until a signal (generation_ moves) or the end; when every thread is
    // idle or finished, no core can progress (stuck_).
    std::condition_variable wake_;
    uint64_t generation_ = 0;
    int idle_ = 0, finished_ = 0, threads_ = 1;
    int current_idle_ = 0;  // idle threads that saw the latest signal
    bool stuck_ = false;
    Status admit_error_;  // the first failed admission, with mu_ held
    std::atomic<bool> admit_failed_{false};
    std::string deadlock_;
    // Device printf text of each core of a parallel launch, written out in
    // core order once every lower-numbered core finished (as bisheng prints
    // each core's buffer after the kernel), so the output does not depend on
    // the host threads' timing.
    // Finished cores' text waits in prints_ (by core index, with print_mu_
    // held) until every lower-numbered core finished too.
    alignas(64) std::mutex print_mu_;
    std::map<int, std::string> prints_;
    std::atomic<int> prints_waiting_{0};
};

}  // namespace ptosim
