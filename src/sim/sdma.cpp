// The SDMA engine: queues registered by aclnnShmemSdmaStarsQuery (aclnn.cpp),
// run when a DMA store writes a doorbell. include/ptosim/sdma.hpp.
#include <ptosim/sdma.hpp>
#include <ptosim/peers.hpp>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ptosim::sdma {
namespace {

struct Queue {
    uint8_t* sq_base;
    uint32_t depth;
    uint32_t sq_id;
    uint32_t head = 0;  // the next entry the engine runs
};

struct Engine {
    std::mutex mu;
    std::map<uintptr_t, Queue> by_doorbell;  // doorbell block address -> queue
};
Engine& engine() {
    static Engine* e = new Engine();
    return *e;
}
std::atomic<int> g_queues{0};

uint32_t rd32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// One entry: opcode 0 copies length bytes; opcode 6, a cache maintenance
// prefetch of the source into L2 (pto-isa's TPREFETCH_ASYNC), moves no byte:
// its record reads the source and writes nothing, which the cost model takes
// as filling L2 (a later TLOAD of those lines is an L2 hit). The two
// targets' entries keep the addresses at bytes 32..47 and differ in where the
// length is.
void run_entry(Core& c, const SourceLoc& loc, const Queue& q, uint32_t index) {
    const uint8_t* e = q.sq_base + uint64_t(index) * kSqeBytes;
    const uint32_t opcode = e[16];
    const uint64_t src = uint64_t(rd32(e + 32)) | (uint64_t(rd32(e + 36)) << 32);
    const uint64_t dst = uint64_t(rd32(e + 40)) | (uint64_t(rd32(e + 44)) << 32);
    const uint32_t len = c.target == Target::A5 ? rd32(e + 48) : rd32(e + 28);
    std::string where = "SDMA queue " + std::to_string(q.sq_id) + " entry " + std::to_string(index);
    if (process_ranks() > 1)
        where += " (rank " + std::to_string(process_rank()) + " of " + std::to_string(process_ranks()) + ")";
    constexpr uint32_t kCopy = 0, kCmoPrefetch = 6;
    if (opcode != kCopy && opcode != kCmoPrefetch)
        fault(loc, where + ": opcode " + std::to_string(opcode) +
                       " is not simulated (0, a copy, and 6, a prefetch into L2); the kernel's SDMA code wrote an "
                       "entry ptosim cannot run");
    if (len == 0) return;
    const bool copy = opcode == kCopy;
    check_gm(reinterpret_cast<const void*>(src), len, (where + (copy ? " source" : " prefetch source")).c_str(), loc);
    if (copy) check_gm(reinterpret_cast<const void*>(dst), len, (where + " destination").c_str(), loc);
    OpRecord r;
    r.op = copy ? "SDMA" : "SDMA prefetch";
    r.pipe = Pipe::MTE3;
    r.loc = loc;
    r.read(Space::GM, src, len);
    if (copy) r.write(Space::GM, dst, len);
    r.bytes = len;
    dispatch(c, r);
    if (copy) std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), len);
}

}  // namespace

void add_queue(void* sq_base, void* doorbell, uint32_t depth, uint32_t sq_id) {
    Engine& e = engine();
    std::lock_guard lk(e.mu);
    e.by_doorbell[reinterpret_cast<uintptr_t>(doorbell)] = Queue{static_cast<uint8_t*>(sq_base), depth, sq_id};
    g_queues.store(static_cast<int>(e.by_doorbell.size()), std::memory_order_release);
}

void remove_queue(void* doorbell) {
    Engine& e = engine();
    std::lock_guard lk(e.mu);
    e.by_doorbell.erase(reinterpret_cast<uintptr_t>(doorbell));
    g_queues.store(static_cast<int>(e.by_doorbell.size()), std::memory_order_release);
}

void on_gm_store(Core& c, const SourceLoc& loc, const void* p, uint64_t bytes) {
    if (g_queues.load(std::memory_order_acquire) == 0 || bytes == 0) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + bytes;
    Engine& e = engine();
    // The entries to run, claimed under the lock and run without it (a
    // record may let other cores of this thread run, which may ring too).
    struct Run {
        Queue q;
        uint32_t from, to;
    };
    std::vector<Run> runs;
    {
        std::lock_guard lk(e.mu);
        auto it = e.by_doorbell.upper_bound(lo);
        if (it != e.by_doorbell.begin()) --it;
        for (; it != e.by_doorbell.end() && it->first < hi; ++it) {
            const uintptr_t tail_at = it->first + (c.target == Target::A5 ? 0 : 8);
            if (tail_at + 4 > hi || tail_at < lo) continue;
            Queue& q = it->second;
            const uint32_t tail = rd32(reinterpret_cast<const uint8_t*>(tail_at));
            if (tail >= q.depth)
                fault(loc, "SDMA queue " + std::to_string(q.sq_id) + ": the doorbell at " + hex(tail_at) +
                               " was rung with tail " + std::to_string(tail) + ", past the queue's " +
                               std::to_string(q.depth) +
                               " entries; store a tail below the depth (the index after the last entry written)");
            runs.push_back({q, q.head, tail});
            q.head = tail;
        }
    }
    // The entries run on the ringing core, in queue order, before the store
    // returns: transfers complete in the order they were queued.
    for (const Run& r : runs)
        for (uint32_t i = r.from; i != r.to; i = (i + 1) % r.q.depth) run_entry(c, loc, r.q, i);
}

}  // namespace ptosim::sdma
