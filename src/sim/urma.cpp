// The URMA engine: channels built by libhccl (HcclChannelAcquire), run when a
// store writes a send doorbell. include/ptosim/urma.hpp,
// docs/many-devices.md "URMA".
#include <ptosim/urma.hpp>
#include <ptosim/peers.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

namespace ptosim {
// timing.cpp: the calling core's scalar unit waits until pipe p is idle.
void timing_hold_pipe(Core& c, Pipe p, const char* what, const char* op, const SourceLoc& loc);
}

namespace ptosim::urma {
namespace {

struct Queue {
    Channel ch;
    uint32_t sq_ci = 0;  // the next WQE the engine runs (a free-running index)
    uint32_t cq_pi = 0;  // completions written
    uint32_t cq_ci = 0;  // the consumer index the kernel rang into the CQ doorbell
};

struct Engine {
    std::mutex mu;
    std::map<uintptr_t, Queue> by_doorbell;         // send doorbell -> channel
    std::map<uintptr_t, uintptr_t> by_cq_doorbell;  // completion doorbell -> send doorbell
    const Transport* transport = nullptr;
};
Engine& engine() {
    static Engine* e = new Engine();
    return *e;
}
std::atomic<int> g_channels{0};

uint32_t rd32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
uint64_t rd64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
void wr32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
void wr64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
uint32_t bits(uint32_t w, int lo, int n) { return (w >> lo) & ((n == 32) ? ~0u : ((1u << n) - 1)); }

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}
std::string me() {
    return process_ranks() > 1 ? " (rank " + std::to_string(process_rank()) + " of " + std::to_string(process_ranks()) + ")"
                               : std::string();
}
std::string opname(uint32_t op) {
    switch (op) {
        case 0: return "SEND";
        case 1: return "SEND_WITH_IMM";
        case 2: return "SEND_WITH_INV";
        case kOpWrite: return "WRITE";
        case 4: return "WRITE_WITH_IMM";
        case 5: return "WRITE_WITH_NOTIFY";
        case kOpRead: return "READ";
        case 7: return "CAS";
        case 8: return "ATOMIC_SWAP";
        case 9: return "ATOMIC_STORE";
        case 10: return "ATOMIC_LOAD";
        case 0xb: return "FAA";
        case kOpNop: return "NOP";
        default: return "unknown";
    }
}
std::string regions(const std::vector<Region>& rs) {
    std::string s;
    for (const Region& r : rs) {
        if (!s.empty()) s += ", ";
        s += "'" + r.tag + "' [" + hex(r.addr) + ", " + hex(r.addr + r.size) + ") token id " + std::to_string(r.token_id);
    }
    return s.empty() ? "none" : s;
}

// One WQE of channel q at index idx (free-running), as pto-isa's
// UrmaSqeCtx and UrmaSgeCtx lay it out; run, then its CQE written.
void run_wqe(Core& c, const SourceLoc& loc, Queue& q, uint32_t idx) {
    const Channel& ch = q.ch;
    const uint32_t slot = idx % ch.sq_depth;
    const uint8_t* w = ch.sq + uint64_t(slot) * ch.wqe_bytes;
    const std::string where = "URMA channel to rank " + std::to_string(ch.peer) + me() + ", send queue entry " +
                              std::to_string(slot) + " (WQE " + std::to_string(idx) + " at " +
                              hex(reinterpret_cast<uintptr_t>(w)) + ")";
    const uint32_t d0 = rd32(w), d1 = rd32(w + 4), d2 = rd32(w + 8), d3 = rd32(w + 12);
    const uint32_t owner = bits(d0, 31, 1), token_en = bits(d0, 28, 1);
    const uint32_t opcode = bits(d1, 8, 8), inline_len = bits(d1, 22, 10);
    const uint32_t tp_id = bits(d2, 0, 24), sge_num = bits(d2, 24, 8);
    const uint32_t rmt_token_id = bits(d3, 0, 20);
    const uint32_t rmt_token_value = rd32(w + 32);
    const uint64_t remote = uint64_t(rd32(w + 40)) | (uint64_t(rd32(w + 44)) << 32);
    const uint32_t len = rd32(w + kSqeBytes), lkey = rd32(w + kSqeBytes + 4);
    const uint64_t local = rd64(w + kSqeBytes + 8);
    // pto-isa's writer sets the owner bit to 1 on even passes over the
    // queue, 0 on odd ones ((index & depth) == 0).
    const uint32_t want_owner = (idx & ch.sq_depth) == 0 ? 1 : 0;
    if (owner != want_owner)
        fault(loc, where + ": its owner bit is " + std::to_string(owner) + ", not " + std::to_string(want_owner) +
                       " as an entry written on this pass over the queue has: the doorbell was rung past the "
                       "entries written (ring it with the index after the last WQE filled)");
    if (opcode != kOpWrite && opcode != kOpRead && opcode != kOpNop)
        fault(loc, where + ": opcode " + std::to_string(opcode) + " (" + opname(opcode) +
                       ") is not simulated: the engine runs WRITE (3), READ (6) and NOP (0x11)");
    if (std::memcmp(w + 16, ch.remote_eid, 16) != 0)
        fault(loc, where + ": the remote EID in bytes 16..31 is not rank " + std::to_string(ch.peer) +
                       "'s EID, which the channel connects to; copy it from the workspace's EID table");
    if (tp_id != ch.tp_id)
        fault(loc, where + ": transport path " + std::to_string(tp_id) + ", but the channel's is " +
                       std::to_string(ch.tp_id));
    uint64_t bytes = 0;
    if (opcode != kOpNop) {
        if (inline_len != 0)
            fault(loc, where + ": inline data (" + std::to_string(inline_len) + " bytes) is not simulated");
        if (sge_num != 1)
            fault(loc, where + ": " + std::to_string(sge_num) +
                           " scatter-gather entries; the engine runs WQEs of one SGE (a 64-byte WQE has room for one)");
        bytes = len;
        // The peer's region the WQE names by its token id.
        const Region* rr = nullptr;
        for (const Region& r : ch.remote)
            if (r.token_id == rmt_token_id) rr = &r;
        if (!rr)
            fault(loc, where + ": remote token id " + std::to_string(rmt_token_id) + " names no memory rank " +
                           std::to_string(ch.peer) + " registered on this channel (" + regions(ch.remote) + ")");
        if (token_en && rmt_token_value != rr->token_value)
            fault(loc, where + ": remote token value " + hex(rmt_token_value) + " does not match rank " +
                           std::to_string(ch.peer) + "'s region '" + rr->tag + "': the peer refuses the access");
        if (remote < rr->addr || remote - rr->addr > rr->size || len > rr->size - (remote - rr->addr))
            fault(loc, where + ": " + opname(opcode) + " of " + std::to_string(len) + " bytes at remote address " +
                           hex(remote) + " lies outside rank " + std::to_string(ch.peer) + "'s registered region '" +
                           rr->tag + "' [" + hex(rr->addr) + ", " + hex(rr->addr + rr->size) +
                           "): the remote address is outside the memory the peer registered (HcclCommMemReg)");
        const Region* lr = nullptr;
        for (const Region& r : ch.local)
            if (r.token_id == lkey) lr = &r;
        if (!lr)
            fault(loc, where + ": the SGE's token id " + std::to_string(lkey) +
                           " names no memory this rank registered on the channel (" + regions(ch.local) + ")");
        if (local < lr->addr || local - lr->addr > lr->size || len > lr->size - (local - lr->addr))
            fault(loc, where + ": the SGE's " + std::to_string(len) + " bytes at " + hex(local) +
                           " lie outside this rank's registered region '" + lr->tag + "' [" + hex(lr->addr) + ", " +
                           hex(lr->addr + lr->size) + ")");
        const bool write = opcode == kOpWrite;
        check_gm(reinterpret_cast<const void*>(local), len, (where + (write ? " source" : " destination")).c_str(),
                 loc);
        OpRecord r;
        r.op = write ? "URMA WRITE" : "URMA READ";
        r.pipe = Pipe::MTE3;
        r.loc = loc;
        // The local side only: the remote bytes are another process's memory.
        // The cost model reads the peer from `event` (cost.cpp).
        if (write) r.read(Space::GM, local, len);
        else r.write(Space::GM, local, len);
        r.bytes = len;
        r.event = ch.peer;
        dispatch(c, r);
        Engine& e = engine();
        const Transport* t = e.transport;
        if (!t)
            fault(loc, where + ": no transport to rank " + std::to_string(ch.peer) +
                           " (the communicator that built the channel was destroyed)");
        std::string why;
        const bool ok = write ? t->put(ch.peer, remote, reinterpret_cast<const void*>(local), len, &why)
                              : t->get(ch.peer, remote, reinterpret_cast<void*>(local), len, &why);
        if (!ok)
            fault(loc, where + ": the " + opname(opcode) + " of " + std::to_string(len) + " bytes " +
                           (write ? "to" : "from") + " rank " + std::to_string(ch.peer) + " at " + hex(remote) +
                           " failed over " + t->name + ": " + why);
        timing_hold_pipe(c, Pipe::MTE3, "URMA transfer", r.op, loc);
    }
    // The completion: pto-isa's UrmaJfcCqeCtx; valid when its owner bit
    // differs from the pass parity ((index / depth) & 1) the poller expects
    // to leave behind.
    if (q.cq_pi - q.cq_ci >= ch.cq_depth)
        fault(loc, where + ": the completion queue is full (" + std::to_string(ch.cq_depth) +
                       " completions not consumed; the kernel's CQ doorbell stands at " + std::to_string(q.cq_ci) +
                       "): poll the completions before posting more");
    const uint32_t n = q.cq_pi++;
    uint8_t* cqe = ch.cq + uint64_t(n % ch.cq_depth) * ch.cqe_bytes;
    uint8_t e[kCqeBytes] = {};
    const uint32_t cq_owner = ((n / ch.cq_depth) & 1) ^ 1;
    const uint32_t cq_op = opcode == kOpRead ? 1 : opcode == kOpNop ? 3 : 0;  // 3-bit field: ptolab's numbering
    wr32(e, (1u << 1) | (cq_owner << 2) | (cq_op << 4));                     // sR 0 (send side), jetty, owner
    wr32(e + 4, slot & 0xffff);                                              // entryIdx: the WQE's slot
    wr32(e + 12, tp_id & 0xffffff);
    wr32(e + 16, static_cast<uint32_t>(bytes));                              // byteCnt
    std::memcpy(e + 28, ch.remote_eid, 16);
    std::memcpy(cqe, e, kCqeBytes);
}

}  // namespace

void add_channel(const Channel& ch) {
    Engine& e = engine();
    std::lock_guard lk(e.mu);
    const auto db = reinterpret_cast<uintptr_t>(ch.sq_doorbell);
    e.by_doorbell[db] = Queue{ch};
    if (ch.cq_doorbell) e.by_cq_doorbell[reinterpret_cast<uintptr_t>(ch.cq_doorbell)] = db;
    g_channels.store(static_cast<int>(e.by_doorbell.size()), std::memory_order_release);
}

void remove_channel(const void* sq_doorbell) {
    Engine& e = engine();
    std::lock_guard lk(e.mu);
    auto it = e.by_doorbell.find(reinterpret_cast<uintptr_t>(sq_doorbell));
    if (it == e.by_doorbell.end()) return;
    if (it->second.ch.cq_doorbell) e.by_cq_doorbell.erase(reinterpret_cast<uintptr_t>(it->second.ch.cq_doorbell));
    e.by_doorbell.erase(it);
    g_channels.store(static_cast<int>(e.by_doorbell.size()), std::memory_order_release);
}

int channels() { return g_channels.load(std::memory_order_acquire); }

void set_transport(const Transport* t) {
    Engine& e = engine();
    std::lock_guard lk(e.mu);
    e.transport = t;
}

void on_gm_store(Core& c, const SourceLoc& loc, const void* p, uint64_t bytes) {
    if (g_channels.load(std::memory_order_acquire) == 0 || bytes == 0) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + bytes;
    Engine& e = engine();
    Queue* ring = nullptr;
    uint32_t from = 0, to = 0;
    {
        std::lock_guard lk(e.mu);
        for (auto it = e.by_cq_doorbell.lower_bound(lo > 3 ? lo - 3 : 0); it != e.by_cq_doorbell.end() && it->first < hi;
             ++it)
            if (it->first >= lo && it->first + 4 <= hi) {
                Queue& q = e.by_doorbell[it->second];
                // The kernel writes the low 24 bits of its consumer index.
                const uint32_t v = rd32(reinterpret_cast<const uint8_t*>(it->first)) & 0xffffff;
                q.cq_ci = (q.cq_pi & ~0xffffffu) | v;
                if (q.cq_ci > q.cq_pi) q.cq_ci -= 0x1000000;
            }
        auto it = e.by_doorbell.lower_bound(lo > 3 ? lo - 3 : 0);
        for (; it != e.by_doorbell.end() && it->first < hi; ++it) {
            if (it->first < lo || it->first + 4 > hi) continue;
            Queue& q = it->second;
            const uint32_t pi = rd32(reinterpret_cast<const uint8_t*>(it->first));
            if (pi - q.sq_ci > q.ch.sq_depth)
                fault(loc, "URMA channel to rank " + std::to_string(q.ch.peer) + me() + ": the send doorbell at " +
                               hex(it->first) + " was rung with producer index " + std::to_string(pi) +
                               ", but the engine has run up to " + std::to_string(q.sq_ci) + " and the queue holds " +
                               std::to_string(q.ch.sq_depth) +
                               " entries: store the index after the last WQE written (a free-running count)");
            ring = &q;
            from = q.sq_ci;
            to = pi;
            q.sq_ci = pi;
            break;
        }
    }
    if (!ring) return;
    // The WQEs run on the ringing core, in queue order, before the store
    // returns (the channel's map entry stays while its communicator lives).
    for (uint32_t i = from; i != to; ++i) run_wqe(c, loc, *ring, i);
}

// ------------------------------------------------ ptolab's pto::comm side

namespace {

// pto-isa's UrmaInfo and its rows (urma_types.hpp), read by offset.
struct Info {
    uint32_t qp_num, local_token, rank_count;
    uint64_t sq, scq, mem;
};
Info read_info(const SourceLoc& loc, const void* ws, const char* op) {
    if (!ws) fault(loc, std::string(op) + ": the session has no URMA workspace (build it on UrmaWorkspaceManager's "
                                          "GetWorkspaceAddr())");
    check_gm(ws, 56, (std::string(op) + " URMA workspace").c_str(), loc);
    const auto* b = static_cast<const uint8_t*>(ws);
    Info i{rd32(b), rd32(b + 4), rd32(b + 8), rd64(b + 16), rd64(b + 32), rd64(b + 48)};
    if (i.qp_num == 0 || i.rank_count == 0 || !i.sq || !i.scq || !i.mem)
        fault(loc, std::string(op) + ": the URMA workspace at " + hex(reinterpret_cast<uintptr_t>(ws)) +
                       " is not filled (queue pairs " + std::to_string(i.qp_num) + ", ranks " +
                       std::to_string(i.rank_count) + "): initialise UrmaWorkspaceManager first");
    return i;
}
void check_peer(const SourceLoc& loc, const Info& i, uint32_t peer, uint32_t qp, const char* op) {
    if (peer >= i.rank_count)
        fault(loc, std::string(op) + ": peer " + std::to_string(peer) + " is not a rank of the workspace's " +
                       std::to_string(i.rank_count));
    if (qp >= i.qp_num)
        fault(loc, std::string(op) + ": queue pair " + std::to_string(qp) + " of " + std::to_string(i.qp_num));
    if (static_cast<int>(peer) == process_rank())
        fault(loc, std::string(op) + ": peer " + std::to_string(peer) +
                       " is this rank; URMA channels connect a rank to its peers");
}
struct Wq {
    uint64_t buf;
    uint32_t shift, depth;
    uint64_t head, tail, db;
};
Wq read_wq(const uint8_t* row) { return {rd64(row + 8), rd32(row + 16), rd32(row + 20), rd64(row + 24), rd64(row + 32), rd64(row + 48)}; }

uint32_t ld(Core& c, const SourceLoc& loc, uint64_t a, const char* what) {
    check_gm(reinterpret_cast<const void*>(a), 4, what, loc);
    (void)c;
    return rd32(reinterpret_cast<const uint8_t*>(a));
}
void st(Core& c, const SourceLoc& loc, uint64_t a, uint32_t v, const char* what) {
    check_gm(reinterpret_cast<void*>(a), 4, what, loc);
    OpRecord r;
    r.op = what;
    r.pipe = Pipe::S;
    r.loc = loc;
    r.write(Space::GM, a, 4);
    r.bytes = 4;
    dispatch(c, r);
    wr32(reinterpret_cast<uint8_t*>(a), v);
    on_gm_store(c, loc, reinterpret_cast<void*>(a), 4);
}

// Consumes completions of the channel to `peer` up to `head`; 0, or the
// first error's (status << 8) | substatus; or 0x100 when a completion is not
// there (test: not yet; wait: never, as the engine completes at the doorbell).
uint32_t consume(Core& c, const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t head,
                 bool advance, const char* op) {
    const Info i = read_info(loc, ws, op);
    check_peer(loc, i, peer, qp, op);
    const auto* cqrow = reinterpret_cast<const uint8_t*>(i.scq + (uint64_t(peer) * i.qp_num + qp) * 56);
    const uint64_t buf = rd64(cqrow + 8), tail_at = rd64(cqrow + 32), db = rd64(cqrow + 48);
    const uint32_t shift = rd32(cqrow + 16), depth = rd32(cqrow + 20);
    uint32_t tail = ld(c, loc, tail_at, op);
    while (static_cast<int32_t>(head - tail) > 0) {
        const auto* cqe = reinterpret_cast<const uint8_t*>(buf + (uint64_t(tail & (depth - 1)) << shift));
        const uint32_t parity = (tail / depth) & 1;
        const uint32_t d0 = rd32(cqe);
        if (bits(d0, 2, 1) == parity) return 0x100;
        ++tail;
        const uint32_t status = bits(d0, 24, 8), sub = bits(d0, 16, 8);
        if (status || sub) return (status << 8) | sub;
    }
    if (advance) {
        st(c, loc, tail_at, tail, "URMA CQ tail");
        st(c, loc, db, tail & 0xffffff, "URMA CQ doorbell");
        const auto* sqrow = reinterpret_cast<const uint8_t*>(i.sq + (uint64_t(peer) * i.qp_num + qp) * 64);
        st(c, loc, rd64(sqrow + 32), tail, "URMA SQ tail");
    }
    return 0;
}

}  // namespace

uint64_t peer_base(const SourceLoc& loc, const void* ws, uint32_t peer) {
    const Info i = read_info(loc, ws, "UrmaPeerMrBaseAddr");
    if (peer >= i.rank_count)
        fault(loc, "UrmaPeerMrBaseAddr: peer " + std::to_string(peer) + " is not a rank of the workspace's " +
                       std::to_string(i.rank_count));
    return rd64(reinterpret_cast<const uint8_t*>(i.mem + uint64_t(peer) * 40 + 24));
}

uint32_t post(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t opcode, uint64_t remote,
              uint64_t local, uint64_t bytes, const char* op) {
    Core& c = core();
    const Info i = read_info(loc, ws, op);
    check_peer(loc, i, peer, qp, op);
    if (bytes == 0 || bytes > (256ull << 20))
        fault(loc, std::string(op) + ": " + std::to_string(bytes) +
                       " bytes in one WQE; URMA moves 1 byte to 256 MiB per WQE (split larger transfers)");
    const auto* row = reinterpret_cast<const uint8_t*>(i.sq + (uint64_t(peer) * i.qp_num + qp) * 64);
    const Wq wq = read_wq(row);
    const auto* mem = reinterpret_cast<const uint8_t*>(i.mem + uint64_t(peer) * 40);
    const uint32_t head = ld(c, loc, wq.head, op);
    const uint32_t tail = ld(c, loc, wq.tail, op);
    if (head - tail >= wq.depth)
        fault(loc, std::string(op) + ": the send queue to rank " + std::to_string(peer) + " is full (" +
                       std::to_string(wq.depth) + " WQEs not completed): wait for earlier events first");
    const uint32_t depth = wq.depth;
    uint8_t* w = reinterpret_cast<uint8_t*>(wq.buf + (uint64_t(head % depth) << wq.shift));
    check_gm(w, kWqeBytes, (std::string(op) + " WQE").c_str(), loc);
    uint8_t e[kWqeBytes] = {};
    const uint32_t owner = (head & depth) == 0 ? 1 : 0;
    const uint32_t token_en = mem[0] ? 1 : 0;
    const uint32_t jetty_type = bits(rd32(mem), 8, 2);
    wr32(e, (head % depth & 0xffff) | (0x20u << 16) | (token_en << 28) | (jetty_type << 29) | (owner << 31));
    wr32(e + 4, uint32_t(mem[2]) | (opcode << 8));
    wr32(e + 8, (rd32(mem + 4) & 0xffffff) | (1u << 24));  // the path, one SGE
    wr32(e + 12, rd32(mem + 8) & 0xfffff);                 // the peer's token id
    const uint64_t eid_at = rd64(mem + 32);
    check_gm(reinterpret_cast<const void*>(eid_at), 16, (std::string(op) + " peer EID").c_str(), loc);
    std::memcpy(e + 16, reinterpret_cast<const void*>(eid_at), 16);
    wr32(e + 32, rd32(mem + 12));
    wr64(e + 40, remote);
    wr32(e + kSqeBytes, static_cast<uint32_t>(bytes));
    wr32(e + kSqeBytes + 4, i.local_token);
    wr64(e + kSqeBytes + 8, local);
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::S;
    r.loc = loc;
    r.write(Space::GM, reinterpret_cast<uintptr_t>(w), kWqeBytes);
    r.bytes = kWqeBytes;
    dispatch(c, r);
    std::memcpy(w, e, kWqeBytes);
    // As pto-isa's poster: the doorbell first, then the head word.
    st(c, loc, wq.db, head + 1, "URMA doorbell");
    st(c, loc, wq.head, head + 1, "URMA SQ head");
    return head + 1;
}

bool wait(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t head) {
    Core& c = core();
    const uint32_t r = consume(c, loc, ws, peer, qp, head, true, "AsyncEvent::Wait (URMA)");
    if (r == 0x100)
        fault(loc, "AsyncEvent::Wait (URMA): completion of WQE " + std::to_string(head - 1) + " to rank " +
                       std::to_string(peer) + " is not in the completion queue: the event was not posted on this "
                       "channel");
    return r == 0;
}

bool test(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t head) {
    Core& c = core();
    return consume(c, loc, ws, peer, qp, head, false, "AsyncEvent::Test (URMA)") == 0;
}

}  // namespace ptosim::urma
