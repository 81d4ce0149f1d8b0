// Many devices (docs/many-devices.md): the ranks of a multi-rank program as
// this process's simulator sees them — its rank, the communicator windows
// libhccl mapped, the lock word atomic updates share across processes, and
// waits on memory another rank writes.
#include <ptosim/peers.hpp>

#include <ptosim/core.hpp>

#include "device_impl.hpp"
#include "launch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

namespace ptosim {
namespace {

std::atomic<int> g_rank{0}, g_ranks{1};

struct WindowInfo {
    uint64_t bytes;
    int rank;
    const char* kind;
};
std::mutex g_win_mu;
std::map<uintptr_t, WindowInfo> g_windows;  // by base
uintptr_t g_span_lo = 0, g_span_hi = 0;
// The same windows in a fixed table the crash handler reads without a lock.
struct FixedWindow {
    uintptr_t lo, hi;
    int rank;
    const char* kind;
};
FixedWindow g_fixed[128];
std::atomic<int> g_fixed_n{0};
void refresh_fixed() {  // under g_win_mu
    g_fixed_n.store(0);
    int n = 0;
    for (auto& [b, w] : g_windows)
        if (n < static_cast<int>(std::size(g_fixed))) g_fixed[n++] = {b, b + w.bytes, w.rank, w.kind};
    g_fixed_n.store(n);
}

std::atomic<uint32_t*> g_shared_word{nullptr};

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What a core does between two unsatisfied checks, by how long it has been
// checking (`waited` seconds). A TWAIT (`wait`) cannot end before another
// rank writes: after the first millisecond it gives the host CPU away, and
// after 50 ms it sleeps (100 us, 1 ms past a second). A poll (a dcci before
// a read, TTEST) may sit in a loop with a bound ("TTEST up to N times"),
// which must stay about as fast as on a device: it runs flat out for half a
// second, then gives the CPU away, and sleeps (1 ms) only after 5 s.
void back_off(double waited, bool wait) {
    const double yield_after = wait ? 1e-3 : 0.5, sleep_after = wait ? 50e-3 : 5.0;
    if (waited < yield_after) return;
    if (waited < sleep_after) {
        sched_yield();
        return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(wait && waited < 1.0 ? 100 : 1000));
}

// ---- the ranks' board (see peers.hpp)
struct Slot {
    uint32_t pid;
    uint32_t state;    // kRunning or kLeft; 0: never joined
    uint32_t waiting;  // cores of this rank waiting on another rank
    uint32_t cores;    // cores of the launch they belong to
    uint64_t seq;      // bumped at every change of this slot
    double since;      // when the first waiting core began (steady clock, s)
    uint32_t host;     // a hash of the host's name: pids are only checked on this rank's host
    char what[220];    // what that core waits on, and where
};
static_assert(sizeof(Slot) == 256);
constexpr uint32_t kRunning = 1, kLeft = 2, kDeadlocked = 3;  // kDeadlocked: reported a deadlock and stopped
std::atomic<Slot*> g_board{nullptr};
int g_board_ranks = 0;
std::mutex g_board_mu;  // this process's updates of its own slot

Slot* my_slot() {
    Slot* b = g_board.load();
    return b ? b + process_rank() : nullptr;
}

std::atomic<const RemoteOps*> g_ops{nullptr};

// A slot changed: under the remote transport the peers' boards hear of it.
void bump(Slot* s) {
    __atomic_add_fetch(&s->seq, 1, __ATOMIC_RELEASE);
    if (const RemoteOps* o = g_ops.load()) o->push_slot(s, sizeof(Slot));
}

uint32_t host_hash() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    uint32_t h = 2166136261u;  // FNV-1a
    for (const char* p = name; *p; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 16777619u;
    return h | 1;  // never 0, the value of a slot no rank wrote
}

std::atomic<int> g_running_cores{0};

// One waiting unit of this rank begins (what != null) or ends waiting on
// the board; `cores`: the units of this rank that could still act.
void board_mark(const std::string* what, uint32_t cores) {
    std::lock_guard lk(g_board_mu);
    Slot* s = my_slot();
    if (!s) return;
    if (what) {
        if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == kDeadlocked) {
            s->waiting = 0;
            __atomic_store_n(&s->state, kRunning, __ATOMIC_RELEASE);
        }
        if (s->waiting++ == 0) {
            s->since = now_s();
            std::snprintf(s->what, sizeof s->what, "%s", what->c_str());
        }
        s->cores = cores;
    } else if (s->waiting > 0) {
        --s->waiting;
    }
    bump(s);
}

// A core of this rank begins (what != null) or ends waiting.
void board_wait(const Core& c, const std::string* what) {
    const int running = g_running_cores.load();
    board_mark(what, running > 0 ? static_cast<uint32_t>(running)
                                 : c.launch ? static_cast<uint32_t>(c.launch->core_count()) : 1);
}

struct BoardView {
    std::string others;   // one line per rank
    std::string problem;  // a peer gone, or "" 
    bool all_stuck = true;
    uint64_t seq_sum = 0;
};

BoardView read_board() {
    BoardView v;
    Slot* b = g_board.load();
    if (!b) {
        v.all_stuck = false;
        return v;
    }
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    for (int r = 0; r < g_board_ranks; ++r) {
        Slot& s = b[r];
        const uint32_t state = __atomic_load_n(&s.state, __ATOMIC_ACQUIRE);
        const uint32_t waiting = __atomic_load_n(&s.waiting, __ATOMIC_ACQUIRE);
        v.seq_sum += __atomic_load_n(&s.seq, __ATOMIC_ACQUIRE);
        char line[400];
        if (state == kLeft) {
            std::snprintf(line, sizeof line, "rank %d: left the communicator", r);
        } else if (state == kDeadlocked) {
            std::snprintf(line, sizeof line, "rank %d: reported this deadlock and stopped; it waited on: %s", r, s.what);
        } else if (state == kRunning && s.pid && r != process_rank() && s.host == host_hash() &&
                   kill(static_cast<pid_t>(s.pid), 0) != 0 && errno == ESRCH) {
            std::snprintf(line, sizeof line, "rank %d: its process (pid %u) is gone without leaving the communicator "
                          "(killed or crashed)", r, s.pid);
            if (v.problem.empty()) v.problem = line;
            v.all_stuck = false;
        } else if (waiting > 0) {
            std::snprintf(line, sizeof line, "rank %d: %u of %u cores waiting for %.1f s; the first: %s", r, waiting,
                          s.cores, now - s.since, s.what);
            if (waiting < s.cores) v.all_stuck = false;
        } else {
            std::snprintf(line, sizeof line, "rank %d: running", r);
            v.all_stuck = false;
        }
        v.others += std::string("\n  ") + line;
    }
    return v;
}

double deadlock_after_s() {
    if (const char* v = std::getenv("PTO_COMM_DEADLOCK_S"); v && *v) {
        char* end = nullptr;
        const double t = std::strtod(v, &end);
        if (end != v && *end == '\0' && t > 0) return t;
    }
    return 2.0;
}

// While a core of this rank waits: faults when a peer is gone, or when
// every rank's every core has waited with nothing changing for
// deadlock_after_s(). `quiet_since`/`last_seq` carry the quiet period.
void check_board(const SourceLoc& loc, const std::string& mine, double& quiet_since, uint64_t& last_seq, double now) {
    if (!g_board.load()) return;
    BoardView v = read_board();
    if (!v.problem.empty())
        fault(loc, "a peer is gone while this rank waits (" + mine + "): " + v.problem + ". Ranks:" + v.others);
    if (!v.all_stuck || v.seq_sum != last_seq) {
        last_seq = v.seq_sum;
        quiet_since = now;
        return;
    }
    if (now - quiet_since >= deadlock_after_s()) {
        // Stay stuck on the board, so the ranks that have not looked yet
        // find the same deadlock rather than a rank that moved on.
        if (Slot* me = my_slot()) {
            __atomic_store_n(&me->state, kDeadlocked, __ATOMIC_RELEASE);
            bump(me);
        }
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", deadlock_after_s());
        fault(loc, "deadlock across ranks: every core of every rank waits on another rank, and nothing changed for " +
                       std::string(secs) + " s (PTO_COMM_DEADLOCK_S). This rank: " + mine + ". Ranks:" + v.others);
    }
}

std::string core_and_rank(const Core& c) {
    std::string s = "rank " + std::to_string(process_rank()) + " of " + std::to_string(process_ranks()) + ", " +
                    c.name();
    return s;
}

}  // namespace

void note_running_cores(int delta) {
    g_running_cores.fetch_add(delta);
    // A launch that starts or ends beside waiting cores changes what they wait with.
    std::lock_guard lk(g_board_mu);
    if (Slot* s = my_slot(); s && s->waiting > 0) {
        const int running = g_running_cores.load();
        if (running > 0) s->cores = static_cast<uint32_t>(running);
        bump(s);
    }
}

void set_process_rank(int rank, int ranks) {
    g_rank.store(rank);
    g_ranks.store(ranks);
}
int process_rank() { return g_rank.load(); }
int process_ranks() { return g_ranks.load(); }
std::string rank_prefix() {
    return g_ranks.load() > 1 ? "rank " + std::to_string(g_rank.load()) + ": " : std::string();
}

void register_window(void* base, uint64_t bytes, int rank, const char* kind) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(base);
    {
        std::lock_guard lk(g_win_mu);
        g_windows[b] = {bytes, rank, kind};
        refresh_fixed();
    }
    Device& d = Device::get();
    std::lock_guard lk(d.impl().mu);
    Allocation a{b, bytes, true, bytes, bytes};
    a.window_rank = rank;
    d.impl().allocations[b] = a;
}

void unregister_window(void* base) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(base);
    {
        std::lock_guard lk(g_win_mu);
        g_windows.erase(b);
        refresh_fixed();
    }
    Device& d = Device::get();
    std::lock_guard lk(d.impl().mu);
    auto it = d.impl().allocations.find(b);
    if (it != d.impl().allocations.end() && it->second.window_rank >= 0) d.impl().allocations.erase(it);
}

// The span again, read without the lock by the cost model's test of every
// GM access (remote_peer): nothing to look up while no window is mapped.
std::atomic<uintptr_t> g_fast_lo{0}, g_fast_hi{0};

void set_window_span(uintptr_t lo, uintptr_t hi) {
    std::lock_guard lk(g_win_mu);
    g_span_lo = lo;
    g_span_hi = hi;
    g_fast_lo.store(lo);
    g_fast_hi.store(hi);
}
void clear_window_span() { set_window_span(0, 0); }

bool in_window_span(uintptr_t a) {
    const uintptr_t hi = g_fast_hi.load(std::memory_order_relaxed);
    return hi != 0 && a < hi && a >= g_fast_lo.load(std::memory_order_relaxed);
}

int remote_peer(uintptr_t a) {
    if (!in_window_span(a)) return -1;
    const int r = window_rank(a);
    return r == process_rank() ? -1 : r;
}

// ---- time stamps (see peers.hpp): open addressing over 16-byte entries,
// a word's address (| 1, never 0) and the bits of its latest time (a
// positive double: its bits order as the values do), both updated with
// compare-and-swap so that ranks never take a lock for them.
struct StampEntry {
    uint64_t key;
    uint64_t bits;
};
std::atomic<StampEntry*> g_stamps{nullptr};
std::atomic<uint64_t> g_stamp_n{0};
constexpr int kStampProbes = 16;

uint64_t stamp_hash(uint64_t key, uint64_t n) { return ((key >> 2) * 0x9E3779B97F4A7C15ull >> 17) % n; }

void set_time_stamps(void* base, uint64_t bytes) {
    g_stamp_n.store(base ? bytes / sizeof(StampEntry) : 0);
    g_stamps.store(static_cast<StampEntry*>(base));
}
bool time_stamps() { return g_stamps.load(std::memory_order_relaxed) != nullptr; }

void post_stamp(uintptr_t a, uint64_t bytes, double us) {
    StampEntry* t = g_stamps.load(std::memory_order_acquire);
    const uint64_t n = g_stamp_n.load(std::memory_order_relaxed);
    if (!t || n == 0 || bytes == 0 || bytes > 64 || !(us >= 0)) return;
    uint64_t bits;
    std::memcpy(&bits, &us, sizeof bits);
    for (uintptr_t w = a & ~uintptr_t{3}; w < a + bytes; w += 4) {
        const uint64_t key = static_cast<uint64_t>(w) | 1;
        const uint64_t h = stamp_hash(key, n);
        for (int i = 0; i < kStampProbes; ++i) {
            StampEntry& e = t[(h + static_cast<uint64_t>(i)) % n];
            uint64_t k = __atomic_load_n(&e.key, __ATOMIC_ACQUIRE);
            if (k == 0) {
                uint64_t zero = 0;
                if (__atomic_compare_exchange_n(&e.key, &zero, key, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) k = key;
                else k = zero;
            }
            if (k != key) continue;
            uint64_t old = __atomic_load_n(&e.bits, __ATOMIC_ACQUIRE);
            while (old < bits &&
                   !__atomic_compare_exchange_n(&e.bits, &old, bits, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            }
            break;
        }
    }
}

double read_stamp(uintptr_t a, uint64_t bytes) {
    StampEntry* t = g_stamps.load(std::memory_order_acquire);
    const uint64_t n = g_stamp_n.load(std::memory_order_relaxed);
    if (!t || n == 0) return -1;
    uint64_t best = 0;
    int words = 0;
    for (uintptr_t w = a & ~uintptr_t{3}; w < a + std::max<uint64_t>(bytes, 1) && words < 64; w += 4, ++words) {
        const uint64_t key = static_cast<uint64_t>(w) | 1;
        const uint64_t h = stamp_hash(key, n);
        for (int i = 0; i < kStampProbes; ++i) {
            const StampEntry& e = t[(h + static_cast<uint64_t>(i)) % n];
            const uint64_t k = __atomic_load_n(&e.key, __ATOMIC_ACQUIRE);
            if (k == 0) break;
            if (k != key) continue;
            best = std::max(best, __atomic_load_n(&e.bits, __ATOMIC_ACQUIRE));
            break;
        }
    }
    if (best == 0) return -1;
    double us;
    std::memcpy(&us, &best, sizeof us);
    return us;
}

int window_rank(uintptr_t a) {
    std::lock_guard lk(g_win_mu);
    auto it = g_windows.upper_bound(a);
    if (it == g_windows.begin()) return -1;
    --it;
    return a - it->first < it->second.bytes ? it->second.rank : -1;
}

std::string window_miss(uintptr_t a, uint64_t bytes) {
    std::lock_guard lk(g_win_mu);
    if (a < g_span_lo || a >= g_span_hi || g_windows.empty()) return {};
    // The window at or below a: the access ran past its end.
    auto it = g_windows.upper_bound(a);
    if (it == g_windows.begin()) it = g_windows.end();
    else --it;
    char buf[400];
    if (it != g_windows.end()) {
        const uint64_t past = a - it->first >= it->second.bytes ? a - (it->first + it->second.bytes) : 0;
        std::snprintf(buf, sizeof buf,
                      "GM bytes [0x%" PRIxPTR ", 0x%" PRIxPTR ") lie outside every communicator window, %" PRIu64
                      " bytes past the end of rank %d's %s [0x%" PRIxPTR ", 0x%" PRIxPTR ") (%" PRIu64
                      " bytes, HCCL_BUFFSIZE): the remote address is outside the peer's window",
                      a, a + bytes, past, it->second.rank, it->second.kind, it->first, it->first + it->second.bytes,
                      it->second.bytes);
    } else {
        std::snprintf(buf, sizeof buf,
                      "GM bytes [0x%" PRIxPTR ", 0x%" PRIxPTR ") lie before the first communicator window (rank %d's %s at "
                      "0x%" PRIxPTR "): the remote address is outside every peer's window",
                      a, a + bytes, g_windows.begin()->second.rank, g_windows.begin()->second.kind,
                      g_windows.begin()->first);
    }
    return buf;
}

void set_rank_board(void* base, uint64_t bytes, int rank, int ranks) {
    if (!base || ranks <= 0 || bytes < sizeof(Slot) * static_cast<uint64_t>(ranks)) return;
    auto* b = static_cast<Slot*>(base);
    g_board_ranks = ranks;
    Slot& s = b[rank];
    s.pid = static_cast<uint32_t>(getpid());
    s.host = host_hash();
    s.waiting = 0;
    __atomic_store_n(&s.state, kRunning, __ATOMIC_RELEASE);
    bump(&s);
    g_board.store(b);
    static bool hooked = false;
    if (!hooked) {
        hooked = true;
        std::atexit([] { leave_rank_board(); });
    }
}

void leave_rank_board() {
    Slot* s = my_slot();
    if (!s) return;
    __atomic_store_n(&s->state, kLeft, __ATOMIC_RELEASE);
    bump(s);
    g_board.store(nullptr);
}

// ---- the remote window transport (see peers.hpp)
namespace {
// A peer's bytes [a, a + n) open for one instruction of a core: fetched into
// the private pages at their address, `snap` the bytes as fetched. `tag` is
// the core's op count at the opening.
struct OpenRange {
    uintptr_t a;
    uint64_t n;
    int rank;
    uint64_t tag;
    std::vector<uint8_t> snap;
};
std::recursive_mutex g_remote_mu;
std::map<const Core*, std::vector<OpenRange>> g_open;
std::map<uintptr_t, int> g_page_refs;  // open ranges per page
const uintptr_t kPage = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));

void pages(uintptr_t a, uint64_t n, int delta) {
    for (uintptr_t p = a & ~(kPage - 1); p < a + n; p += kPage) {
        int& refs = g_page_refs[p];
        if (delta > 0 && refs++ == 0) mprotect(reinterpret_cast<void*>(p), kPage, PROT_READ | PROT_WRITE);
        if (delta < 0 && --refs == 0) {
            mprotect(reinterpret_cast<void*>(p), kPage, PROT_NONE);
            g_page_refs.erase(p);
        }
    }
}

[[noreturn]] void transport_failed(const SourceLoc& loc, const char* what, int rank, uintptr_t a, uint64_t n) {
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "the remote window transport could not %s rank %d's window bytes [0x%" PRIxPTR ", 0x%" PRIxPTR
                  ") (rank %d of %d): MPI reported an error",
                  what, rank, a, a + n, process_rank(), process_ranks());
    fault(loc, buf);
}

// The bytes the instruction changed go to the peer: runs of bytes that
// differ from the snapshot (a read changes none), so bytes it did not write
// are never written back over the peer's.
void write_back(const OpenRange& r, const SourceLoc& loc) {
    const RemoteOps* o = g_ops.load();
    const auto* now = reinterpret_cast<const uint8_t*>(r.a);
    for (uint64_t i = 0; i < r.n;) {
        if (now[i] == r.snap[i]) {
            ++i;
            continue;
        }
        uint64_t j = i + 1;
        while (j < r.n && now[j] != r.snap[j]) ++j;
        if (o && !o->put(r.rank, r.a + i, now + i, j - i)) transport_failed(loc, "write", r.rank, r.a + i, j - i);
        i = j;
    }
}

void fetch(OpenRange& r, const SourceLoc& loc) {
    const RemoteOps* o = g_ops.load();
    if (o && !o->get(r.rank, r.a, reinterpret_cast<void*>(r.a), r.n)) transport_failed(loc, "read", r.rank, r.a, r.n);
    r.snap.assign(reinterpret_cast<const uint8_t*>(r.a), reinterpret_cast<const uint8_t*>(r.a) + r.n);
}

void close_range(const OpenRange& r, const SourceLoc& loc) {
    write_back(r, loc);
    pages(r.a, r.n, -1);
}

// The core's open ranges written back and fetched again: what an atomic
// update reads once it holds the lock, what a wait sees of a peer's signal.
void refresh_open(const Core& c) {
    std::lock_guard lk(g_remote_mu);
    auto it = g_open.find(&c);
    if (it == g_open.end()) return;
    for (OpenRange& r : it->second) {
        write_back(r, c.last_loc);
        fetch(r, c.last_loc);
    }
}

// dispatch() of the core's next record: the ranges opened by earlier
// instructions are over (an instruction checks its GM, moves it and then
// dispatches, or dispatches first; either way its ranges are older than
// the op count before the last).
void on_dispatch(const Core& c) {
    std::lock_guard lk(g_remote_mu);
    auto it = g_open.find(&c);
    if (it == g_open.end()) return;
    auto& v = it->second;
    for (size_t i = 0; i < v.size();) {
        if (v[i].tag + 1 < c.ops) {
            close_range(v[i], c.last_loc);
            v.erase(v.begin() + static_cast<long>(i));
        } else {
            ++i;
        }
    }
}
}  // namespace

namespace detail {
void set_dispatch_hook(void (*hook)(const Core&));
}

void set_remote_ops(const RemoteOps* ops) {
    g_ops.store(ops);
    detail::set_dispatch_hook(ops ? on_dispatch : nullptr);
}
bool remote_windows() { return g_ops.load(std::memory_order_relaxed) != nullptr; }

// check_gm of [a, a + n) found rank `rank`'s window (device.cpp).
void remote_open(const Core& c, uintptr_t a, uint64_t n, int rank, const SourceLoc& loc) {
    if (n == 0) return;
    std::lock_guard lk(g_remote_mu);
    auto& v = g_open[&c];
    // Earlier instructions' ranges go back first (their writes come before
    // this access), and so does a range of this one that overlaps.
    for (size_t i = 0; i < v.size();) {
        if (v[i].tag < c.ops || (v[i].a < a + n && a < v[i].a + v[i].n)) {
            close_range(v[i], loc);
            v.erase(v.begin() + static_cast<long>(i));
        } else {
            ++i;
        }
    }
    OpenRange r{a, n, rank, c.ops, {}};
    pages(a, n, +1);
    fetch(r, loc);
    v.push_back(std::move(r));
}

void remote_settle(const Core& c) {
    std::lock_guard lk(g_remote_mu);
    auto it = g_open.find(&c);
    if (it == g_open.end()) return;
    auto& v = it->second;
    for (size_t i = 0; i < v.size();) {
        if (v[i].tag < c.ops) {
            close_range(v[i], c.last_loc);
            v.erase(v.begin() + static_cast<long>(i));
        } else {
            ++i;
        }
    }
}

void remote_close_all(const Core& c) {
    std::lock_guard lk(g_remote_mu);
    auto it = g_open.find(&c);
    if (it == g_open.end()) return;
    for (const OpenRange& r : it->second) close_range(r, c.last_loc);
    g_open.erase(it);
}

bool remote_open_plain(const Core& c, uintptr_t addr) {
    if (!g_ops.load(std::memory_order_relaxed)) return false;
    const int count = g_fixed_n.load();
    for (int i = 0; i < count; ++i) {
        const FixedWindow& w = g_fixed[i];
        if (addr < w.lo || addr >= w.hi || w.rank == process_rank()) continue;
        const uintptr_t lo = std::max(addr & ~(kPage - 1), w.lo), hi = std::min(lo + kPage, w.hi);
        std::lock_guard lk(g_remote_mu);
        remote_open(c, lo, hi - lo, w.rank, c.last_loc);
        // Opened as if by the instruction before: the core's next record (a
        // dcci, a barrier) or checked access sends it back and closes it, so
        // a spin that invalidates the line between reads sees the peer's writes.
        g_open[&c].back().tag = c.ops ? c.ops - 1 : 0;
        return true;
    }
    return false;
}

bool remote_window_fault(uintptr_t addr, char* buf, size_t n) {
    if (!g_ops.load(std::memory_order_relaxed)) return false;
    const int count = g_fixed_n.load();
    for (int i = 0; i < count; ++i) {
        const FixedWindow& w = g_fixed[i];
        if (addr < w.lo || addr >= w.hi || w.rank == process_rank()) continue;
        std::snprintf(buf, n,
                      "rank %d of %d read or wrote rank %d's %s at 0x%" PRIxPTR " (byte %" PRIuPTR
                      " of the window) through a plain pointer. Under the remote window transport "
                      "(PTOLAB_HCCL_TRANSPORT=mpi, or ranks on several hosts) a peer's window is not mapped in this "
                      "process, and its page could not be fetched for this access: reach it with the communication "
                      "instructions (TPUT, TGET, TNOTIFY, TWAIT, TTEST, TPUT_ASYNC, ...), TLOAD/TSTORE or the DMA "
                      "and atomic intrinsics, which carry the access over MPI (docs/many-devices.md, \"Several "
                      "hosts\")",
                      process_rank(), process_ranks(), w.rank, w.kind, addr, addr - w.lo);
        return true;
    }
    return false;
}

std::string remote_window_host_access(uintptr_t a, uint64_t bytes) {
    if (!g_ops.load(std::memory_order_relaxed) || bytes == 0) return {};
    const int count = g_fixed_n.load();
    for (int i = 0; i < count; ++i) {
        const FixedWindow& w = g_fixed[i];
        if (w.rank == process_rank() || a >= w.hi || a + bytes <= w.lo) continue;
        const uintptr_t first = std::max(a, w.lo) - w.lo, last = std::min<uintptr_t>(a + bytes, w.hi) - w.lo - 1;
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "rank %d's %s [0x%" PRIxPTR ", 0x%" PRIxPTR ") (bytes %" PRIuPTR "..%" PRIuPTR " of the window)",
                      w.rank, w.kind, w.lo, w.hi, first, last);
        return buf;
    }
    return {};
}

void set_shared_atomic_word(uint32_t* word) { g_shared_word.store(word); }
bool shared_atomics() { return g_shared_word.load(std::memory_order_relaxed) != nullptr || remote_windows(); }
void shared_atomic_lock() {
    if (const RemoteOps* o = g_ops.load()) {
        // One rank's atomic update at a time; what it read before it held the
        // lock is read again.
        o->lock();
        if (const Core* c = current_core_or_null()) refresh_open(*c);
        return;
    }
    uint32_t* w = g_shared_word.load(std::memory_order_relaxed);
    if (!w) return;
    for (uint64_t spins = 0;; ++spins) {
        uint32_t expect = 0;
        if (__atomic_compare_exchange_n(w, &expect, 1u, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
        if (spins > 64) sched_yield();
    }
}
void shared_atomic_unlock() {
    if (const RemoteOps* o = g_ops.load()) {
        if (const Core* c = current_core_or_null()) remote_close_all(*c);
        o->unlock();
        return;
    }
    if (uint32_t* w = g_shared_word.load(std::memory_order_relaxed)) __atomic_store_n(w, 0u, __ATOMIC_RELEASE);
}

double comm_timeout_s() {
    if (const char* v = std::getenv("PTO_COMM_TIMEOUT_S"); v && *v) {
        char* end = nullptr;
        const double t = std::strtod(v, &end);
        if (end != v && *end == '\0' && t > 0) return t;
    }
    return default_sync_timeout_s() / 2;
}

void wait_remote(Core& c, const SourceLoc& loc, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe) {
    const double start = now_s(), limit = comm_timeout_s();
    if (ready()) return;
    const std::string mine = core_and_rank(c) + ", " + loc.str() + ": " + describe();
    board_wait(c, &mine);
    struct Leave {
        const Core& c;
        ~Leave() { board_wait(c, nullptr); }
    } leave{c};
    double quiet_since = start, last_check = start;
    uint64_t last_seq = ~uint64_t{0};
    while (!ready()) {
        const double now = now_s();
        if (now - last_check >= 0.05) {
            last_check = now;
            check_board(loc, core_and_rank(c) + ", " + loc.str() + ": " + describe(), quiet_since, last_seq, now);
        }
        if (c.abandon && c.abandon->load(std::memory_order_relaxed))
            fault(loc, "stopped while waiting: the launch was abandoned after a stream synchronisation timed out");
        yield_core(c, loc);
        if (const RemoteOps* o = g_ops.load()) {
            // Peers' writes to this rank's windows arrive as MPI progresses;
            // a signal in a peer's window is read again.
            o->progress();
            refresh_open(c);
        }
        if (ready()) return;
        back_off(now_s() - start, true);
        if (now_s() - start > limit) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%g", limit);
            const BoardView v = read_board();
            fault(loc, "cross-rank wait never satisfied (" + core_and_rank(c) + ", " + loc.str() + "): " + describe() +
                           "; no rank changed it in " + secs +
                           " s (PTO_COMM_TIMEOUT_S). A peer that never signals, signals another address or exited "
                           "leaves this wait unsatisfied" + (v.others.empty() ? "" : ". Ranks:" + v.others));
        }
    }
}

std::string wait_cross_rank(const std::string& who, const std::function<bool()>& ready,
                            const std::function<std::string()>& describe, const std::function<void()>& progress) {
    const double start = now_s(), limit = comm_timeout_s();
    if (ready()) return {};
    const SourceLoc none{};
    // On the board as one waiting unit of this rank, beside any running cores.
    auto mark = [](const std::string* what) {
        const int running = g_running_cores.load();
        board_mark(what, static_cast<uint32_t>(running > 0 ? running + 1 : 1));
    };
    const std::string mine = who + ": " + describe();
    mark(&mine);
    struct Leave {
        std::function<void(const std::string*)> f;
        ~Leave() { f(nullptr); }
    } leave{mark};
    double quiet_since = start, last_check = start;
    uint64_t last_seq = ~uint64_t{0};
    try {
        while (!ready()) {
            const double now = now_s();
            if (now - last_check >= 0.05) {
                last_check = now;
                check_board(none, who + ": " + describe(), quiet_since, last_seq, now);
            }
            if (progress) progress();
            if (const RemoteOps* o = g_ops.load()) o->progress();
            if (ready()) return {};
            back_off(now_s() - start, true);
            if (now_s() - start > limit) {
                char secs[32];
                std::snprintf(secs, sizeof secs, "%g", limit);
                const BoardView v = read_board();
                return "cross-rank wait never satisfied (" + who + "): " + describe() + "; no rank changed it in " +
                       secs + " s (PTO_COMM_TIMEOUT_S). A peer that never signals or exited leaves this wait "
                       "unsatisfied" + (v.others.empty() ? "" : ". Ranks:" + v.others);
            }
        }
    } catch (const KernelFault& f) {
        return f.what;
    }
    return {};
}

void poll_ended(Core& c) {
    c.poll_on_board = false;
    board_wait(c, nullptr);
}

void poll_gm(const SourceLoc& loc, const void* gm, const char* how) {
    Core* cp = current_core_or_null();
    if (!cp) return;
    Core& c = *cp;
    const uintptr_t a = reinterpret_cast<uintptr_t>(gm);
    // One spin: polls of GM with at most a few other instructions between
    // them (pto-isa's TWAIT issues a pipe_barrier every 64 polls).
    if (c.poll_count == 0 || c.ops - c.poll_ops > 4) {
        if (c.poll_on_board) poll_ended(c);
        c.poll_count = 0;
        c.poll_since = now_s();
    }
    c.poll_ops = c.ops;
    c.poll_addr = a;
    timing_poll(c, gm);
    if (c.abandon && c.abandon->load(std::memory_order_relaxed))
        fault(loc, "stopped while polling GM: the launch was abandoned after a stream synchronisation timed out");
    yield_core(c, loc);
    if (const RemoteOps* o = g_ops.load()) {
        o->progress();
        remote_close_all(c);
    }
    ++c.poll_count;
    const double waited = now_s() - c.poll_since;
    back_off(waited, false);
    // Past the time a bounded polling loop takes, the spin is a wait: on the
    // ranks' board, and checked against it every 50 ms.
    if (waited > 0.5) {
        const int r = window_rank(a);
        const std::string mine = core_and_rank(c) + ", " + loc.str() + ": polls GM address " +
                                 std::to_string(a) + (r >= 0 ? " in rank " + std::to_string(r) + "'s window" : "") +
                                 " (" + how + ")";
        if (!c.poll_on_board) {
            c.poll_on_board = true;
            board_wait(c, &mine);
        }
        static thread_local double quiet_since = 0, last_check = 0;
        static thread_local uint64_t last_seq = ~uint64_t{0};
        const double now = now_s();
        if (c.poll_count == 1 || now - last_check >= 0.05) {
            if (now - last_check > 1.0) quiet_since = now;
            last_check = now;
            check_board(loc, mine, quiet_since, last_seq, now);
        }
    }
    if (waited > comm_timeout_s()) {
        const int r = window_rank(a);
        char buf[200];
        std::snprintf(buf, sizeof buf, "GM address 0x%" PRIxPTR "%s", a,
                      r >= 0 ? (" in rank " + std::to_string(r) + "'s window").c_str() : "");
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", comm_timeout_s());
        const BoardView v = read_board();
        fault(loc, "spin on GM never ended (" + core_and_rank(c) + ", " + loc.str() + "): the core polled " + buf +
                       " (" + how + ") for " + secs +
                       " s (PTO_COMM_TIMEOUT_S) without it changing to what the loop waits for. A peer that never "
                       "signals, signals another address or exited leaves this wait unsatisfied" +
                       (v.others.empty() ? "" : ". Ranks:" + v.others));
    }
}

}  // namespace ptosim
