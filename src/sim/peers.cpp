// Many devices (docs/many-devices.md): the ranks of a multi-rank program as
// this process's simulator sees them — its rank, the communicator windows
// libhccl mapped, the lock word atomic updates share across processes, and
// waits on memory another rank writes.
#include <ptosim/peers.hpp>

#include <ptosim/core.hpp>

#include "device_impl.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include <sched.h>

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

std::string core_and_rank(const Core& c) {
    std::string s = "rank " + std::to_string(process_rank()) + " of " + std::to_string(process_ranks()) + ", " +
                    c.name();
    return s;
}

}  // namespace

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
    }
    Device& d = Device::get();
    std::lock_guard lk(d.impl().mu);
    auto it = d.impl().allocations.find(b);
    if (it != d.impl().allocations.end() && it->second.window_rank >= 0) d.impl().allocations.erase(it);
}

void set_window_span(uintptr_t lo, uintptr_t hi) {
    std::lock_guard lk(g_win_mu);
    g_span_lo = lo;
    g_span_hi = hi;
}
void clear_window_span() { set_window_span(0, 0); }

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

void set_shared_atomic_word(uint32_t* word) { g_shared_word.store(word); }
bool shared_atomics() { return g_shared_word.load(std::memory_order_relaxed) != nullptr; }
void shared_atomic_lock() {
    uint32_t* w = g_shared_word.load(std::memory_order_relaxed);
    if (!w) return;
    for (uint64_t spins = 0;; ++spins) {
        uint32_t expect = 0;
        if (__atomic_compare_exchange_n(w, &expect, 1u, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
        if (spins > 64) sched_yield();
    }
}
void shared_atomic_unlock() {
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
    while (!ready()) {
        if (c.abandon && c.abandon->load(std::memory_order_relaxed))
            fault(loc, "stopped while waiting: the launch was abandoned after a stream synchronisation timed out");
        yield_core(c, loc);
        if (ready()) return;
        back_off(now_s() - start, true);
        if (now_s() - start > limit) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%g", limit);
            fault(loc, "cross-rank wait never satisfied (" + core_and_rank(c) + ", " + loc.str() + "): " + describe() +
                           "; no rank changed it in " + secs +
                           " s (PTO_COMM_TIMEOUT_S). A peer that never signals, signals another address or exited "
                           "leaves this wait unsatisfied");
        }
    }
}

void poll_gm(const SourceLoc& loc, const void* gm, const char* how) {
    Core* cp = current_core_or_null();
    if (!cp) return;
    Core& c = *cp;
    const uintptr_t a = reinterpret_cast<uintptr_t>(gm);
    // One spin: polls of GM with at most a few other instructions between
    // them (pto-isa's TWAIT issues a pipe_barrier every 64 polls).
    if (c.poll_count == 0 || c.ops - c.poll_ops > 4) {
        c.poll_count = 0;
        c.poll_since = now_s();
    }
    c.poll_ops = c.ops;
    c.poll_addr = a;
    if (c.abandon && c.abandon->load(std::memory_order_relaxed))
        fault(loc, "stopped while polling GM: the launch was abandoned after a stream synchronisation timed out");
    yield_core(c, loc);
    ++c.poll_count;
    const double waited = now_s() - c.poll_since;
    back_off(waited, false);
    if (waited > comm_timeout_s()) {
        const int r = window_rank(a);
        char buf[200];
        std::snprintf(buf, sizeof buf, "GM address 0x%" PRIxPTR "%s", a,
                      r >= 0 ? (" in rank " + std::to_string(r) + "'s window").c_str() : "");
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", comm_timeout_s());
        fault(loc, "spin on GM never ended (" + core_and_rank(c) + ", " + loc.str() + "): the core polled " + buf +
                       " (" + how + ") for " + secs +
                       " s (PTO_COMM_TIMEOUT_S) without it changing to what the loop waits for. A peer that never "
                       "signals, signals another address or exited leaves this wait unsatisfied");
    }
}

}  // namespace ptosim
