// The communicator windows (docs/many-devices.md, "Windows"): POSIX shared
// memory every rank on the host maps at the same virtual address, so that
// the address of a peer's window a kernel computes (windowsIn[peer] +
// offset) is valid in every rank's process, and registered with ptosim as
// device memory of that rank.
#include <ptosim/peers.hpp>

#include "comm.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <tuple>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace hccl_sim {
namespace {

// The shared header: the atomic lock word at 0, the ranks' board
// (ptosim::set_rank_board: 64 slots of 256 bytes) from kBoardOffset.
constexpr uint64_t kHeaderBytes = 32768;
constexpr uint64_t kBoardOffset = 4096, kBoardBytes = 16384;
// Then the cost model's time stamps of writes into the windows
// (ptosim::set_time_stamps; shared memory transport only).
constexpr uint64_t kStampOffset = kBoardOffset + kBoardBytes, kStampBytes = kHeaderBytes - kStampOffset;
// Where the span is tried, in 2 TiB steps from 16 TiB: far from the heap
// (just above the program) and from the mappings the kernel hands out
// (below the stack), so the same address is free in every rank.
constexpr uintptr_t kFirstBase = uintptr_t{1} << 44;
constexpr uintptr_t kBaseStep = uintptr_t{1} << 41;
constexpr int kBases = 32;

uint64_t window_bytes(std::string& why) {
    uint64_t mb = HCCL_COMM_DEFAULT_BUFFSIZE;
    if (const char* v = std::getenv("HCCL_BUFFSIZE"); v && *v) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(v, &end, 10);
        if (end == v || *end != '\0' || n == 0 || n > (1ull << 20)) {
            why = std::string("HCCL_BUFFSIZE='") + v + "' is not a size in MB (1..1048576)";
            return 0;
        }
        mb = n;
    }
    return mb << 20;
}

bool all_true(const Comm& c, bool mine) {
    uint8_t v = mine ? 1 : 0;
    std::vector<uint8_t> all(c.size);
    if (!allgather_bytes(c, &v, all.data(), 1)) return false;
    for (uint8_t x : all)
        if (!x) return false;
    return true;
}

// ---- the remote transport (docs/many-devices.md, "Several hosts")
// Every access ptosim makes to a peer's window goes through these, over the
// MPI windows of the one communicator that has them. MPI is called from the
// cores' host threads, one call at a time.
std::recursive_mutex g_rma_mu;
const Comm* g_remote = nullptr;
const Rma* g_rma = nullptr;
constexpr uint64_t kRmaChunk = uint64_t{1} << 30;

// The MPI window and displacement of bytes at `addr` in rank r's windows.
bool locate(int r, uintptr_t addr, uint64_t bytes, Handle& win, long& disp) {
    const Windows& w = g_remote->win;
    if (addr >= w.in[r] && addr + bytes <= w.in[r] + w.win_bytes) {
        win = w.in_win;
        disp = static_cast<long>(addr - w.in[r]);
        return true;
    }
    if (addr >= w.out[r] && addr + bytes <= w.out[r] + w.win_bytes) {
        win = w.out_win;
        disp = static_cast<long>(addr - w.out[r]);
        return true;
    }
    return false;
}

template <class Op>
bool rma_bytes(int r, uintptr_t addr, uint64_t bytes, Op op) {
    std::lock_guard lk(g_rma_mu);
    if (!g_remote || r < 0 || r >= static_cast<int>(g_remote->size)) return false;
    Handle win = 0;
    long disp = 0;
    if (!locate(r, addr, bytes, win, disp)) return false;
    const int target = g_remote->mpi_rank[r];
    for (uint64_t off = 0; off < bytes; off += kRmaChunk) {
        const int n = static_cast<int>(std::min(kRmaChunk, bytes - off));
        if (op(off, n, target, disp + static_cast<long>(off), win) != 0) return false;
    }
    return g_rma->win_flush(target, win) == 0;
}

bool remote_get(int r, uintptr_t addr, void* dst, uint64_t bytes) {
    const Handle byte = mpi().byte;
    return rma_bytes(r, addr, bytes, [&](uint64_t off, int n, int t, long d, Handle win) {
        return g_rma->get(static_cast<uint8_t*>(dst) + off, n, byte, t, d, n, byte, win);
    });
}

bool remote_put(int r, uintptr_t addr, const void* src, uint64_t bytes) {
    const Handle byte = mpi().byte;
    return rma_bytes(r, addr, bytes, [&](uint64_t off, int n, int t, long d, Handle win) {
        return g_rma->put(static_cast<const uint8_t*>(src) + off, n, byte, t, d, n, byte, win);
    });
}

// The atomic lock: a word in rank 0's header, taken with MPI's
// compare-and-swap (0 -> this rank + 1) and freed with an atomic replace,
// both atomic with respect to each other by MPI's rules for accumulate
// operations on one location.
void remote_lock() {
    for (uint64_t tries = 0;; ++tries) {
        int32_t mine = 0, free_word = 0, seen = -1;
        {
            std::lock_guard lk(g_rma_mu);
            if (!g_remote) return;
            mine = static_cast<int32_t>(g_remote->rank) + 1;
            const int target = g_remote->mpi_rank[0];
            g_rma->compare_and_swap(&mine, &free_word, &seen, g_rma->int32, target, 0, g_remote->win.hdr_win);
            g_rma->win_flush(target, g_remote->win.hdr_win);
        }
        if (seen == 0) return;
        if (tries > 64) sched_yield();
    }
}

void remote_unlock() {
    std::lock_guard lk(g_rma_mu);
    if (!g_remote) return;
    const int32_t free_word = 0;
    const int target = g_remote->mpi_rank[0];
    g_rma->accumulate(&free_word, 1, g_rma->int32, target, 0, 1, g_rma->int32, g_rma->op_replace,
                      g_remote->win.hdr_win);
    g_rma->win_flush(target, g_remote->win.hdr_win);
}

// MPI moves the peers' passive-target accesses to this rank's windows when
// this rank calls into MPI (an implementation without a progress thread
// needs it): the waits and polls call this. MPI_Win_sync makes what arrived
// visible to this process's loads (MPI's unified memory model).
void remote_progress() {
    std::lock_guard lk(g_rma_mu);
    if (!g_remote) return;
    int flag = 0;
    g_rma->iprobe(g_rma->any_source, g_rma->any_tag, g_remote->mpi_comm, &flag, g_rma->status_ignore);
    g_rma->win_sync(g_remote->win.hdr_win);
    g_rma->win_sync(g_remote->win.in_win);
    g_rma->win_sync(g_remote->win.out_win);
    g_rma->win_sync(g_remote->win.dyn_win);
}

void remote_push_slot(const void* slot, uint64_t bytes) {
    std::lock_guard lk(g_rma_mu);
    if (!g_remote) return;
    int fin = 0;
    mpi().finalized(&fin);
    if (fin) return;
    const long disp = static_cast<long>(kBoardOffset + bytes * g_remote->rank);
    for (uint32_t r = 0; r < g_remote->size; ++r)
        if (r != g_remote->rank)
            g_rma->put(slot, static_cast<int>(bytes), mpi().byte, g_remote->mpi_rank[r], disp, static_cast<int>(bytes),
                       mpi().byte, g_remote->win.hdr_win);
    g_rma->win_flush_all(g_remote->win.hdr_win);
}

}  // namespace

bool attach_registered(Comm& c, void* base, uint64_t bytes, std::string& why) {
    std::lock_guard lk(g_rma_mu);
    if (!c.win.remote || !g_rma) return true;
    if (g_rma->win_attach(c.win.dyn_win, base, static_cast<long>(bytes)) != 0) {
        why = "MPI_Win_attach of the memory failed";
        return false;
    }
    return true;
}

void detach_registered(Comm& c, void* base) {
    std::lock_guard lk(g_rma_mu);
    if (c.win.remote && g_rma) g_rma->win_detach(c.win.dyn_win, base);
}

bool attach_ccu(void* base, uint64_t bytes, std::string& why) {
    static std::mutex mu;
    static std::set<std::tuple<uint64_t, uintptr_t, uint64_t>> done;  // (communicator id, base, bytes)
    Comm* c = nullptr;
    {
        std::lock_guard lk(g_rma_mu);
        c = const_cast<Comm*>(g_remote);
    }
    if (!c) return true;
    std::lock_guard lk(mu);
    const auto key = std::make_tuple(c->id, reinterpret_cast<uintptr_t>(base), bytes);
    if (done.count(key)) return true;
    if (!attach_registered(*c, base, bytes, why)) return false;
    done.insert(key);
    return true;
}

// A peer's registered memory over the dynamic window: the displacement is
// the address (MPI_Aint), as MPI defines for dynamic windows.
bool registered_rma(int rank, uint64_t addr, void* buf, uint64_t bytes, bool write, std::string* why) {
    std::lock_guard lk(g_rma_mu);
    if (!g_remote || rank < 0 || rank >= static_cast<int>(g_remote->size)) {
        *why = "the communicator's MPI windows are gone";
        return false;
    }
    const Handle byte = mpi().byte, win = g_remote->win.dyn_win;
    const int target = g_remote->mpi_rank[rank];
    for (uint64_t off = 0; off < bytes; off += kRmaChunk) {
        const int n = static_cast<int>(std::min(kRmaChunk, bytes - off));
        const long disp = static_cast<long>(addr + off);
        uint8_t* p = static_cast<uint8_t*>(buf) + off;
        const int rc = write ? g_rma->put(p, n, byte, target, disp, n, byte, win)
                             : g_rma->get(p, n, byte, target, disp, n, byte, win);
        if (rc != 0) {
            *why = std::string(write ? "MPI_Put" : "MPI_Get") + " on the dynamic window returned " + std::to_string(rc);
            return false;
        }
    }
    if (g_rma->win_flush(target, win) != 0) {
        *why = "MPI_Win_flush on the dynamic window failed";
        return false;
    }
    return true;
}

namespace {

const ptosim::RemoteOps kRemoteOps{remote_get, remote_put, remote_lock, remote_unlock, remote_progress,
                                   remote_push_slot};

// The remote transport's mapping: the same address range reserved in every
// rank (so the addresses in the device context mean the same everywhere),
// this rank's header and windows mapped as its own memory inside it, the
// peers' windows left reserved and inaccessible.
std::string map_remote(Comm& c, uintptr_t base, uint64_t span) {
    Windows& w = c.win;
    std::string why;
    const Rma* r = rma(why);
    if (!r) return "the remote window transport needs MPI one-sided communication: " + why;
    if (g_remote) return "another communicator uses the remote window transport in this process (one at a time)";
    const uint64_t win = w.win_bytes;
    w.in.assign(c.size, 0);
    w.out.assign(c.size, 0);
    for (uint32_t k = 0; k < c.size; ++k) {
        w.in[k] = base + kHeaderBytes + w.gap_bytes + uint64_t{2} * k * (win + w.gap_bytes);
        w.out[k] = w.in[k] + win + w.gap_bytes;
    }
    bool ok = true;
    auto own = [&](uintptr_t at, uint64_t bytes) {
        void* p = mmap(reinterpret_cast<void*>(at), bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
        if (p == MAP_FAILED && ok) {
            ok = false;
            why = std::string("mapping this rank's windows failed: ") + std::strerror(errno);
        }
    };
    own(base, kHeaderBytes);
    own(w.in[c.rank], win);
    own(w.out[c.rank], win);
    if (!all_true(c, ok)) {
        munmap(reinterpret_cast<void*>(base), span);
        return why.empty() ? "another rank could not map its windows" : why;
    }
    uint64_t h = 0, i = 0, o = 0;
    bool made = r->win_create(reinterpret_cast<void*>(base), static_cast<long>(kHeaderBytes), 1, r->info_null,
                              c.mpi_comm, &h) == 0;
    made = r->win_create(reinterpret_cast<void*>(w.in[c.rank]), static_cast<long>(win), 1, r->info_null, c.mpi_comm,
                         &i) == 0 && made;
    made = r->win_create(reinterpret_cast<void*>(w.out[c.rank]), static_cast<long>(win), 1, r->info_null,
                         c.mpi_comm, &o) == 0 && made;
    if (!made) {
        munmap(reinterpret_cast<void*>(base), span);
        return "MPI_Win_create of the windows failed";
    }
    w.hdr_win = h;
    w.in_win = i;
    w.out_win = o;
    uint64_t d = 0;
    if (r->win_create_dynamic(r->info_null, c.mpi_comm, &d) != 0) {
        munmap(reinterpret_cast<void*>(base), span);
        return "MPI_Win_create_dynamic (URMA's registered memory) failed";
    }
    w.dyn_win = d;
    // One passive-target epoch to every rank for the communicator's life.
    for (Handle x : {w.hdr_win, w.in_win, w.out_win, w.dyn_win}) r->win_lock_all(r->mode_nocheck, x);
    w.remote = true;
    w.span_lo = base;
    w.span_hi = base + span;
    w.header = reinterpret_cast<void*>(base);
    {
        std::lock_guard lk(g_rma_mu);
        g_remote = &c;
        g_rma = r;
    }
    for (uint32_t k = 0; k < c.size; ++k) {
        ptosim::register_window(reinterpret_cast<void*>(w.in[k]), win, static_cast<int>(k), "windowsIn");
        ptosim::register_window(reinterpret_cast<void*>(w.out[k]), win, static_cast<int>(k), "windowsOut");
    }
    ptosim::set_window_span(w.span_lo, w.span_hi);
    ptosim::set_remote_ops(&kRemoteOps);
    // Every rank's windows exist before any rank's board reaches them.
    barrier(c);
    ptosim::set_rank_board(static_cast<uint8_t*>(w.header) + kBoardOffset, kBoardBytes, static_cast<int>(c.rank),
                           static_cast<int>(c.size));
    return {};
}

}  // namespace

// MPICH (ch4) moves a passive-target access only while the target calls
// MPI: an origin's MPI_Get to a rank sitting in host code waits for it (the
// whole time the target sleeps; about 17 ms per access while it waits in
// MPI_Barrier, measured with MPICH 4.0.2). MPICH's progress thread
// (MPIR_CVAR_ASYNC_PROGRESS) serves them at once; it must be asked for
// before MPI_Init, which the program may call before any HCCL call, so
// libhccl asks when it is loaded: when the remote transport is forced, or
// when the launcher started ranks on several hosts (hydra: fewer local
// ranks than ranks). A value the user set stays. Open MPI's one-sided
// communication needs no target progress on one host (its shared-memory
// path); it ignores the variable.
__attribute__((constructor)) void ask_mpich_progress_thread() {
    const char* t = std::getenv("PTOLAB_HCCL_TRANSPORT");
    const char* local = std::getenv("MPI_LOCALNRANKS");
    const char* all = std::getenv("PMI_SIZE");
    const bool forced = t && std::strcmp(t, "mpi") == 0;
    const bool hosts = local && all && std::strcmp(local, all) != 0;
    if ((forced || hosts) && !(t && std::strcmp(t, "shm") == 0)) setenv("MPIR_CVAR_ASYNC_PROGRESS", "1", 0);
}

std::string transport_asked(std::string& bad) {
    const char* v = std::getenv("PTOLAB_HCCL_TRANSPORT");
    if (!v || !*v) return {};
    const std::string t = v;
    if (t == "mpi" || t == "shm") return t;
    bad = "PTOLAB_HCCL_TRANSPORT='" + t + "' is not a window transport: 'mpi' (one-sided MPI, each rank's windows "
          "its own memory) or 'shm' (shared memory on one host); unset, the ranks use shared memory on one host "
          "and MPI across hosts";
    return {};
}

std::string map_windows(Comm& c) {
    std::string why;
    const uint64_t win = window_bytes(why);
    if (!win) return why;
    Windows& w = c.win;
    w.win_bytes = win;
    w.gap_bytes = win;  // a run past a window lands in unmapped memory
    const uint64_t span = kHeaderBytes + w.gap_bytes + uint64_t{2} * c.size * (win + w.gap_bytes);
    // One address every rank can reserve.
    uintptr_t base = 0;
    for (int k = 0; k < kBases && !base; ++k) {
        const uintptr_t at = kFirstBase + ((c.id + k) % kBases) * kBaseStep;
        void* p = mmap(reinterpret_cast<void*>(at), span, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        const bool ok = p == reinterpret_cast<void*>(at);
        if (p != MAP_FAILED && !ok) munmap(p, span);
        if (all_true(c, ok)) base = at;
        else if (ok) munmap(p, span);
    }
    if (!base) return "no address range of " + std::to_string(span) + " bytes is free in every rank for the windows";
    if (c.win.remote) return map_remote(c, base, span);
    // The shared memory: rank 0 makes it, the others open it.
    char name[64];
    std::snprintf(name, sizeof name, "/ptolab-hccl-%016" PRIx64, c.id);
    w.shm_name = name;
    const uint64_t file_bytes = kHeaderBytes + uint64_t{2} * c.size * win;
    int fd = -1;
    bool ok = true;
    if (c.rank == 0) {
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        ok = fd >= 0 && ftruncate(fd, static_cast<off_t>(file_bytes)) == 0;
        if (!ok) why = std::string("shm_open/ftruncate of ") + name + " failed: " + std::strerror(errno);
    }
    if (!all_true(c, ok)) {
        if (fd >= 0) close(fd), shm_unlink(name);
        munmap(reinterpret_cast<void*>(base), span);
        return why.empty() ? "rank 0 could not create the windows' shared memory" : why;
    }
    if (c.rank != 0) {
        fd = shm_open(name, O_RDWR, 0600);
        ok = fd >= 0;
        if (!ok) why = std::string("shm_open of ") + name + " failed: " + std::strerror(errno);
    }
    auto map_at = [&](uintptr_t at, uint64_t bytes, uint64_t offset) {
        void* p = mmap(reinterpret_cast<void*>(at), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
                       static_cast<off_t>(offset));
        if (p == MAP_FAILED && ok) {
            ok = false;
            why = std::string("mapping the windows failed: ") + std::strerror(errno);
        }
    };
    w.in.assign(c.size, 0);
    w.out.assign(c.size, 0);
    if (ok) {
        map_at(base, kHeaderBytes, 0);
        for (uint32_t r = 0; r < c.size; ++r) {
            w.in[r] = base + kHeaderBytes + w.gap_bytes + uint64_t{2} * r * (win + w.gap_bytes);
            w.out[r] = w.in[r] + win + w.gap_bytes;
            map_at(w.in[r], win, kHeaderBytes + uint64_t{2} * r * win);
            map_at(w.out[r], win, kHeaderBytes + (uint64_t{2} * r + 1) * win);
        }
    }
    if (fd >= 0) close(fd);
    const bool all_ok = all_true(c, ok);
    if (c.rank == 0) shm_unlink(name);  // every rank mapped it (or gave up): nothing to leak
    if (!all_ok) {
        munmap(reinterpret_cast<void*>(base), span);
        return why.empty() ? "another rank could not map the windows" : why;
    }
    w.span_lo = base;
    w.span_hi = base + span;
    w.header = reinterpret_cast<void*>(base);
    for (uint32_t r = 0; r < c.size; ++r) {
        ptosim::register_window(reinterpret_cast<void*>(w.in[r]), win, static_cast<int>(r), "windowsIn");
        ptosim::register_window(reinterpret_cast<void*>(w.out[r]), win, static_cast<int>(r), "windowsOut");
    }
    ptosim::set_window_span(w.span_lo, w.span_hi);
    ptosim::set_shared_atomic_word(static_cast<uint32_t*>(w.header));
    ptosim::set_rank_board(static_cast<uint8_t*>(w.header) + kBoardOffset, kBoardBytes, static_cast<int>(c.rank),
                           static_cast<int>(c.size));
    ptosim::set_time_stamps(static_cast<uint8_t*>(w.header) + kStampOffset, kStampBytes);
    return {};
}

void unmap_windows(Comm& c) {
    Windows& w = c.win;
    if (!w.mapped()) return;
    ptosim::leave_rank_board();
    if (w.remote) {
        // Every rank has left the board and stopped reaching peers before the
        // windows go (MPI_Win_free is collective).
        ptosim::set_remote_ops(nullptr);
        {
            std::lock_guard lk(g_rma_mu);
            g_remote = nullptr;
        }
        for (Handle* x : {&w.hdr_win, &w.in_win, &w.out_win, &w.dyn_win}) {
            g_rma->win_unlock_all(*x);
            g_rma->win_free(x);
        }
    }
    ptosim::set_shared_atomic_word(nullptr);
    ptosim::set_time_stamps(nullptr, 0);
    ptosim::clear_window_span();
    for (uint32_t r = 0; r < c.size; ++r) {
        ptosim::unregister_window(reinterpret_cast<void*>(w.in[r]));
        ptosim::unregister_window(reinterpret_cast<void*>(w.out[r]));
    }
    munmap(reinterpret_cast<void*>(w.span_lo), w.span_hi - w.span_lo);
    w = Windows{};
}

}  // namespace hccl_sim
