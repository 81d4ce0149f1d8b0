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

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hccl_sim {
namespace {

// The shared header: the atomic lock word at 0, the ranks' board
// (ptosim::set_rank_board: 64 slots of 256 bytes) from kBoardOffset.
constexpr uint64_t kHeaderBytes = 32768;
constexpr uint64_t kBoardOffset = 4096, kBoardBytes = 16384;
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

}  // namespace

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
    return {};
}

void unmap_windows(Comm& c) {
    Windows& w = c.win;
    if (!w.mapped()) return;
    ptosim::leave_rank_board();
    ptosim::set_shared_atomic_word(nullptr);
    ptosim::clear_window_span();
    for (uint32_t r = 0; r < c.size; ++r) {
        ptosim::unregister_window(reinterpret_cast<void*>(w.in[r]));
        ptosim::unregister_window(reinterpret_cast<void*>(w.out[r]));
    }
    munmap(reinterpret_cast<void*>(w.span_lo), w.span_hi - w.span_lo);
    w = Windows{};
}

}  // namespace hccl_sim
