// HCCL's resource and rank-graph calls (hccl/hccl_res.h,
// hccl/hccl_rank_graph.h): memory registered per tag, one UB link between
// every two ranks in the rank graph, and AIV channels over those links whose
// entities (send and completion queues, doorbells, the registered buffers of
// both ends) live in device memory, run by ptosim's URMA engine
// (ptosim/urma.hpp). docs/many-devices.md, "Resources and rank graph".
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>
#include <acl/acl.h>
#include <ptosim/peers.hpp>
#include <ptosim/urma.hpp>

#include "comm.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using hccl_sim::Comm;
using hccl_sim::fail;
using hccl_sim::live;

namespace {

// hcomm's channel entity and the records it points to, as pto-isa's URMA
// workspace manager reads them (its urma_hccl_defs.hpp names the layout
// hcomm's hcomm_res_entity_defs.h). ptolab's own declarations of it.
struct EntityHeader {
    uint32_t version, magic, size, reserved;
};
struct BufferEntity {  // RegedBufferEntity
    int32_t type;      // 1: memory for remote access
    uint32_t pad;
    uint64_t addr, size;
    int32_t protection_type;
    uint32_t token_id, token_value;
    uint8_t rest[56 - 16 - 12];
};
struct SqEntity {  // SqContext, UB jetty-for-send form
    int32_t type;
    uint32_t pad;
    uint64_t sq_va, head_addr, tail_addr, db_va;
    uint32_t jfs_id, wqe_size, sq_depth, tp_id;
    uint8_t remote_eid[16];
    uint8_t rest[120 - 64];
};
struct CqEntity {  // CqContext, UB jetty-for-completion form
    int32_t type;
    uint32_t pad;
    uint64_t cq_va, head_addr, tail_addr, db_va;
    uint32_t jfc_id, cqe_size, cq_depth;
    uint8_t rest[120 - 44];
};
struct ChannelEntity {
    EntityHeader header;
    int32_t engine, protocol;
    uint32_t local_notify_num, remote_notify_num, local_buffer_num, remote_buffer_num, sq_num, cq_num;
    uint64_t local_notify, remote_notify, local_buffers, remote_buffers, sq, cq;
    uint8_t reserve[160];
};
static_assert(sizeof(BufferEntity) == 64 && sizeof(SqEntity) == 128 && sizeof(CqEntity) == 128);
static_assert(sizeof(ChannelEntity) == 256 && offsetof(ChannelEntity, local_buffers) == 64);
constexpr uint32_t kEntityMagic = 0x0f0f0f0f;  // HCCL's channel magic word (HCCL_CHANNEL_MAGIC_WORD)

// ptolab's queue sizes (docs/many-devices.md, "URMA"): powers of two, as
// pto-isa's completion poller masks indices with depth - 1.
constexpr uint32_t kSqDepth = 1024, kCqDepth = 1024;
constexpr uint32_t kMaxRegions = 16;
constexpr size_t kTagBytes = 64;

struct Reg {
    Comm* comm;
    std::string tag;
    CommMem mem;
    uint32_t token_id, token_value;
};

// What the two ends of a channel tell each other.
struct Wire {
    int32_t pid;
    uint32_t n;
    char host[64];
    struct R {
        uint64_t addr, size;
        uint32_t token_id, token_value;
        char tag[kTagBytes];
    } r[kMaxRegions];
};

struct Chan {
    bool ccu = false;       // a CCU channel: block is this end's notify registers
    uint64_t serial = 0;    // a CCU channel's number in the process
    uint32_t notify_num = 0;
    uint64_t remote_notify = 0;  // the peer's notify registers
    uint64_t block_bytes = 0;
    void* block = nullptr;  // the device memory of the entity, queues and words
    ChannelEntity* entity = nullptr;
    uint32_t* sq_doorbell = nullptr;
    uint32_t peer = 0;
    int peer_pid = 0;
    std::vector<CommMem> remote_mems;
    std::vector<std::string> remote_tags;
    std::vector<char*> remote_tag_ptrs;
};

struct Res {
    std::vector<std::unique_ptr<Reg>> regs;
    std::vector<std::unique_ptr<Chan>> chans;
    std::vector<CommLink> links;  // HcclRankGraphGetLinks' answer, until the next call
};

std::mutex g_mu;
std::map<const Comm*, Res> g_res;
std::map<int, int> g_pid;  // peer rank -> process id, for the transport
bool g_remote = false;     // the channels' communicator uses the remote window transport

// The peer's memory over the host: process_vm_writev/readv into the peer
// process (ranks on one host, the same user).
bool vm_move(int rank, uint64_t remote, void* local, uint64_t n, bool write, std::string* why) {
    int pid = 0;
    {
        std::lock_guard lk(g_mu);
        auto it = g_pid.find(rank);
        if (it != g_pid.end()) pid = it->second;
    }
    if (!pid) {
        *why = "no channel to rank " + std::to_string(rank);
        return false;
    }
    uint64_t done = 0;
    while (done < n) {
        iovec l{static_cast<uint8_t*>(local) + done, n - done};
        iovec r{reinterpret_cast<void*>(remote + done), n - done};
        const ssize_t k = write ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (k <= 0) {
            *why = std::string(write ? "process_vm_writev" : "process_vm_readv") + " into process " +
                   std::to_string(pid) + ": " + std::strerror(k < 0 ? errno : EIO) +
                   (errno == EPERM ? " (the ranks must run as one user, and the host must allow it: ptrace scope)"
                                   : errno == EFAULT ? " (the peer's memory is not mapped there any more: it was "
                                                       "freed, or its process is gone)"
                                                     : "");
            return false;
        }
        done += static_cast<uint64_t>(k);
    }
    return true;
}
bool vm_put(int rank, uint64_t remote, const void* src, uint64_t n, std::string* why) {
    return vm_move(rank, remote, const_cast<void*>(src), n, true, why);
}
bool vm_get(int rank, uint64_t remote, void* dst, uint64_t n, std::string* why) {
    return vm_move(rank, remote, dst, n, false, why);
}
const ptosim::urma::Transport kVm{vm_put, vm_get, "the host (process_vm_writev/readv between the ranks' processes)"};

// Under the remote window transport: MPI one-sided communication on the
// communicator's dynamic window, where every rank attached its registered
// memory (windows.cpp).
bool mpi_put(int rank, uint64_t remote, const void* src, uint64_t n, std::string* why) {
    return hccl_sim::registered_rma(rank, remote, const_cast<void*>(src), n, true, why);
}
bool mpi_get(int rank, uint64_t remote, void* dst, uint64_t n, std::string* why) {
    return hccl_sim::registered_rma(rank, remote, dst, n, false, why);
}
const ptosim::urma::Transport kMpi{mpi_put, mpi_get, "MPI (the remote window transport's dynamic window)"};

HcclResult dead(HcclComm comm) { return comm ? HCCL_E_PARA : HCCL_E_PTR; }

std::string host_name() {
    char h[64] = {};
    gethostname(h, sizeof h - 1);
    return h;
}

// A rank's endpoint: its UB EID (ptolab's: "ptolab-ub" and the rank) on device `rank`.
EndpointDesc endpoint(uint32_t rank) {
    EndpointDesc e;
    EndpointDescInit(&e, 1);
    e.protocol = COMM_PROTOCOL_UBC_TP;
    e.commAddr.type = COMM_ADDR_TYPE_EID;
    std::memset(e.commAddr.eid, 0, sizeof e.commAddr.eid);
    std::memcpy(e.commAddr.eid, "ptolab-ub", 9);
    std::memcpy(e.commAddr.eid + 12, &rank, 4);
    e.loc.locType = ENDPOINT_LOC_TYPE_DEVICE;
    e.loc.device = {rank, rank, 0, 0};
    return e;
}

}  // namespace

namespace hccl_sim {
// HcclCommDestroy: the channels and registrations of `c` go.
void release_resources(Comm& c) {
    std::lock_guard lk(g_mu);
    auto it = g_res.find(&c);
    if (it == g_res.end()) return;
    for (auto& ch : it->second.chans) {
        if (ch->ccu) {
            if (c.win.remote) detach_registered(c, ch->block);
        } else {
            ptosim::urma::remove_channel(ch->sq_doorbell);
        }
        aclrtFree(ch->block);
    }
    for (auto& g : it->second.regs) detach_registered(c, g->mem.addr);
    g_res.erase(it);
    if (g_res.empty()) {
        ptosim::urma::set_transport(nullptr);
        g_pid.clear();
    }
}
bool ccu_channel(const Comm& c, uint64_t handle, CcuChannel* out) {
    std::lock_guard lk(g_mu);
    auto it = g_res.find(&c);
    if (it == g_res.end()) return false;
    for (auto& ch : it->second.chans)
        if (ch->ccu && reinterpret_cast<uint64_t>(ch->block) == handle) {
            out->serial = ch->serial;
            out->peer = ch->peer;
            out->notify_num = ch->notify_num;
            out->local_notify = static_cast<uint32_t*>(ch->block);
            out->remote_notify = ch->remote_notify;
            return true;
        }
    return false;
}

bool peer_move(int rank, uint64_t remote, void* local, uint64_t n, bool write, std::string* why) {
    if (g_remote) return registered_rma(rank, remote, local, n, write, why);
    return vm_move(rank, remote, local, n, write, why);
}

const char* peer_transport_name() { return g_remote ? kMpi.name : kVm.name; }

}  // namespace hccl_sim

namespace {

// The two ends of a channel swap their descriptions (`End`: a struct with
// the host's name in `host`) over MPI; over shared memory windows an engine
// reaches a peer's memory on the same host only.
template <class End>
HcclResult exchange_ends(Comm* c, const End& mine, End& theirs, int peer, const std::string& host,
                         const char* engine) {
    if (!hccl_sim::send_bytes(*c, &mine, sizeof mine, peer) || !hccl_sim::recv_bytes(*c, &theirs, sizeof theirs, peer))
        return fail(HCCL_E_INTERNAL,
                    "HcclChannelAcquire: the exchange with rank " + std::to_string(peer) + " over MPI failed");
    if (!c->win.remote && std::strncmp(theirs.host, host.c_str(), sizeof theirs.host) != 0)
        return fail(HCCL_E_NOT_SUPPORT, "HcclChannelAcquire: rank " + std::to_string(peer) + " runs on host '" +
                                            theirs.host + "' and this rank on '" + host +
                                            "': over shared memory windows ptolab's " + engine +
                                            " engine reaches a peer's memory on the same host only (across hosts "
                                            "the ranks use the remote window transport, PTOLAB_HCCL_TRANSPORT=mpi)");
    return HCCL_SUCCESS;
}

// CCU channels: each end has notify registers in device memory (notifyNum
// indices of 16 bits, a 4-byte counter per bit that only the peer writes),
// and the two ends exchange the registers' addresses.
HcclResult acquire_ccu(Comm* c, const HcclChannelDesc* descs, uint32_t n, ChannelHandle* channels,
                       const std::string& host) {
    struct CcuWire {
        int32_t pid;
        uint32_t notify_num;
        uint64_t notify;
        char host[64];
    };
    for (uint32_t i = 0; i < n; ++i)
        if (descs[i].notifyNum > 16)
            return fail(HCCL_E_PARA, "HcclChannelAcquire: channelDescs[" + std::to_string(i) + "]: notifyNum " +
                                         std::to_string(descs[i].notifyNum) +
                                         ": a CCU channel has at most 16 notify registers");
    for (uint32_t i = 0; i < n; ++i) {
        const HcclChannelDesc& d = descs[i];
        const uint32_t peer = d.remoteRank;
        const uint32_t num = d.notifyNum ? d.notifyNum : 1;
        const uint64_t bytes = uint64_t(num) * 16 * 4;
        void* block = nullptr;
        if (aclrtMalloc(&block, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || !block)
            return fail(HCCL_E_MEMORY, "HcclChannelAcquire: aclrtMalloc of the notify registers of the CCU channel to "
                                       "rank " + std::to_string(peer) + " failed");
        std::memset(block, 0, bytes);
        std::string why;
        if (c->win.remote && !hccl_sim::attach_registered(*c, block, bytes, why)) {
            aclrtFree(block);
            return fail(HCCL_E_INTERNAL, "HcclChannelAcquire: the CCU channel's notify registers: " + why);
        }
        CcuWire mine{}, theirs{};
        mine.pid = static_cast<int32_t>(getpid());
        mine.notify_num = num;
        mine.notify = reinterpret_cast<uint64_t>(block);
        std::snprintf(mine.host, sizeof mine.host, "%s", host.c_str());
        if (HcclResult e = exchange_ends(c, mine, theirs, peer, host, "CCU")) return e;
        auto ch = std::make_unique<Chan>();
        static std::atomic<uint64_t> next_serial{0};
        ch->ccu = true;
        ch->serial = ++next_serial;
        ch->peer = peer;
        ch->peer_pid = theirs.pid;
        ch->notify_num = std::min(num, theirs.notify_num);
        ch->remote_notify = theirs.notify;
        ch->block = block;
        ch->block_bytes = bytes;
        channels[i] = reinterpret_cast<uint64_t>(block);
        std::lock_guard lk(g_mu);
        g_pid[static_cast<int>(peer)] = theirs.pid;
        g_remote = c->win.remote;
        g_res[c].chans.push_back(std::move(ch));
    }
    return HCCL_SUCCESS;
}

}  // namespace

extern "C" {

HcclResult HcclCommMemReg(HcclComm comm, const char* memTag, const CommMem* mem, HcclMemHandle* memHandle) {
    Comm* c = live(comm, "HcclCommMemReg");
    if (!c) return dead(comm);
    if (!memHandle) return fail(HCCL_E_PTR, "HcclCommMemReg: memHandle is NULL");
    *memHandle = nullptr;
    if (!memTag || !mem) return fail(HCCL_E_PTR, std::string("HcclCommMemReg: ") + (!memTag ? "memTag" : "mem") + " is NULL");
    const std::string tag(memTag);
    if (tag.empty() || tag.size() >= kTagBytes)
        return fail(HCCL_E_PARA, "HcclCommMemReg: memTag '" + tag + "' must be 1 to " + std::to_string(kTagBytes - 1) +
                                     " characters");
    if (mem->type != COMM_MEM_TYPE_DEVICE)
        return fail(HCCL_E_NOT_SUPPORT, "HcclCommMemReg: memory type " + std::to_string(mem->type) +
                                            " of '" + tag + "': ptolab registers device memory (COMM_MEM_TYPE_DEVICE, "
                                            "from aclrtMalloc)");
    if (!mem->addr || mem->size == 0)
        return fail(HCCL_E_PARA, "HcclCommMemReg: '" + tag + "' has " + (!mem->addr ? "a NULL address" : "size 0"));
    std::lock_guard lk(g_mu);
    Res& r = g_res[c];
    for (const auto& g : r.regs)
        if (g->tag == tag)
            return fail(HCCL_E_PARA, "HcclCommMemReg: tag '" + tag + "' is already registered on this communicator");
    if (r.regs.size() >= kMaxRegions)
        return fail(HCCL_E_NOT_SUPPORT, "HcclCommMemReg: " + std::to_string(kMaxRegions) +
                                            " registrations per communicator are the most ptolab keeps");
    std::string why;
    if (!hccl_sim::attach_registered(*c, mem->addr, mem->size, why))
        return fail(HCCL_E_INTERNAL, "HcclCommMemReg: '" + tag + "': " + why);
    const uint32_t idx = static_cast<uint32_t>(r.regs.size());
    // Token ids are 20 bits in a WQE; the value is ptolab's, fixed per rank
    // and registration so that runs repeat.
    auto g = std::make_unique<Reg>(Reg{c, tag, *mem, 0x100u + idx, 0x7a000000u | (c->rank << 8) | idx});
    *memHandle = g.get();
    r.regs.push_back(std::move(g));
    return HCCL_SUCCESS;
}

HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t netLayer, uint32_t srcRank, uint32_t dstRank,
                                 CommLink** links, uint32_t* linkNum) {
    Comm* c = live(comm, "HcclRankGraphGetLinks");
    if (!c) return dead(comm);
    if (!links || !linkNum)
        return fail(HCCL_E_PTR, std::string("HcclRankGraphGetLinks: ") + (!links ? "links" : "linkNum") + " is NULL");
    *links = nullptr;
    *linkNum = 0;
    if (netLayer != 0)
        return fail(HCCL_E_PARA, "HcclRankGraphGetLinks: net layer " + std::to_string(netLayer) +
                                     ": ptolab's rank graph has one layer, 0 (every rank of the communicator "
                                     "linked to every other)");
    if (srcRank >= c->size || dstRank >= c->size)
        return fail(HCCL_E_PARA, "HcclRankGraphGetLinks: rank " + std::to_string(srcRank >= c->size ? srcRank : dstRank) +
                                     " is not below the communicator's " + std::to_string(c->size) + " ranks");
    if (srcRank == dstRank) return HCCL_SUCCESS;
    std::lock_guard lk(g_mu);
    Res& r = g_res[c];
    CommLink l;
    std::memset(&l, 0, sizeof l);
    l.header = {COMM_LINK_VERSION, COMM_LINK_MAGIC_WORD, static_cast<uint32_t>(sizeof(CommLink)), 0};
    l.srcEndpointDesc = endpoint(srcRank);
    l.dstEndpointDesc = endpoint(dstRank);
    l.linkAttr.linkProtocol = COMM_PROTOCOL_UBC_TP;
    l.linkAttr.hop = 1;
    // The same UB link under its two transport protocols: TP (what the
    // URMA path picks) and CTP (what CCU channels ask for).
    r.links.assign(2, l);
    r.links[1].linkAttr.linkProtocol = COMM_PROTOCOL_UBC_CTP;
    *links = r.links.data();
    *linkNum = 2;
    return HCCL_SUCCESS;
}

HcclResult HcclChannelAcquire(HcclComm comm, CommEngine engine, const HcclChannelDesc* channelDescs,
                              uint32_t channelNum, ChannelHandle* channels) {
    Comm* c = live(comm, "HcclChannelAcquire");
    if (!c) return dead(comm);
    if (!channelDescs || !channels)
        return fail(HCCL_E_PTR, std::string("HcclChannelAcquire: ") + (!channelDescs ? "channelDescs" : "channels") +
                                    " is NULL");
    for (uint32_t i = 0; i < channelNum; ++i) channels[i] = 0;
    if (engine != COMM_ENGINE_AIV && engine != COMM_ENGINE_CCU)
        return fail(HCCL_E_NOT_SUPPORT, "HcclChannelAcquire: engine " + std::to_string(engine) +
                                            ": ptolab builds channels for the AI Vector cores (COMM_ENGINE_AIV, URMA "
                                            "work queues a kernel posts to) and for CCU kernels (COMM_ENGINE_CCU); "
                                            "CPU and AICPU engines are not simulated");
    // Every description first: a refusal leaves no channel half built.
    std::vector<std::vector<Reg*>> mems(channelNum);
    for (uint32_t i = 0; i < channelNum; ++i) {
        const HcclChannelDesc& d = channelDescs[i];
        const std::string at = "HcclChannelAcquire: channelDescs[" + std::to_string(i) + "]";
        if (d.header.magicWord != HCCL_CHANNEL_MAGIC_WORD)
            return fail(HCCL_E_PARA, at + " has no description header (magic word " + std::to_string(d.header.magicWord) +
                                         "): initialise it with HcclChannelDescInit");
        if (d.remoteRank >= c->size || d.remoteRank == c->rank)
            return fail(HCCL_E_PARA, at + ": remote rank " + std::to_string(d.remoteRank) +
                                         (d.remoteRank == c->rank ? " is this rank" : " is not a rank of the communicator (" +
                                                                                          std::to_string(c->size) + " ranks)"));
        if (d.channelProtocol != COMM_PROTOCOL_UBC_TP && d.channelProtocol != COMM_PROTOCOL_UBC_CTP)
            return fail(HCCL_E_NOT_SUPPORT, at + ": protocol " + std::to_string(d.channelProtocol) +
                                                ": ptolab's AIV channels run over the UB links of its rank graph "
                                                "(COMM_PROTOCOL_UBC_TP or UBC_CTP, HcclRankGraphGetLinks)");
        if (d.memHandleNum > kMaxRegions || (d.memHandleNum && !d.memHandles))
            return fail(HCCL_E_PARA, at + ": " + std::to_string(d.memHandleNum) + " memory handles" +
                                         (d.memHandleNum > kMaxRegions ? " (at most 16)" : " and memHandles NULL"));
        std::lock_guard lk(g_mu);
        Res& r = g_res[c];
        for (uint32_t k = 0; k < d.memHandleNum; ++k) {
            Reg* g = nullptr;
            for (auto& x : r.regs)
                if (x.get() == d.memHandles[k]) g = x.get();
            if (!g)
                return fail(HCCL_E_PARA, at + ": memHandles[" + std::to_string(k) +
                                             "] is not a handle HcclCommMemReg returned on this communicator");
            mems[i].push_back(g);
        }
    }
    const std::string host = host_name();
    if (engine == COMM_ENGINE_CCU) return acquire_ccu(c, channelDescs, channelNum, channels, host);
    for (uint32_t i = 0; i < channelNum; ++i) {
        const HcclChannelDesc& d = channelDescs[i];
        const uint32_t peer = d.remoteRank;
        // The two ends exchange their registered memory, process and host
        // (each rank posts its send first: the message is small).
        Wire mine{}, theirs{};
        mine.pid = static_cast<int32_t>(getpid());
        mine.n = static_cast<uint32_t>(mems[i].size());
        std::snprintf(mine.host, sizeof mine.host, "%s", host.c_str());
        for (uint32_t k = 0; k < mine.n; ++k) {
            const Reg& g = *mems[i][k];
            mine.r[k] = {reinterpret_cast<uint64_t>(g.mem.addr), g.mem.size, g.token_id, g.token_value, {}};
            std::snprintf(mine.r[k].tag, kTagBytes, "%s", g.tag.c_str());
        }
        if (HcclResult e = exchange_ends(c, mine, theirs, peer, host, "URMA")) return e;
        auto ch = std::make_unique<Chan>();
        ch->peer = peer;
        ch->peer_pid = theirs.pid;
        // One device block: the entity, its contexts and buffer lists, the
        // two queues, and the six index words on lines of their own.
        const uint64_t nl = mine.n, nr = theirs.n;
        const uint64_t off_sq_ctx = 256, off_cq_ctx = 384, off_local = 512, off_remote = off_local + 64 * nl;
        const uint64_t off_words = (off_remote + 64 * nr + 63) / 64 * 64;
        const uint64_t off_sq = off_words + 6 * 64, off_cq = off_sq + uint64_t(kSqDepth) * 64;
        const uint64_t total = off_cq + uint64_t(kCqDepth) * 64;
        void* block = nullptr;
        if (aclrtMalloc(&block, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || !block)
            return fail(HCCL_E_MEMORY, "HcclChannelAcquire: aclrtMalloc of " + std::to_string(total) +
                                           " bytes for the channel to rank " + std::to_string(peer) + " failed");
        const auto base = reinterpret_cast<uint64_t>(block);
        std::vector<uint8_t> img(total, 0);
        auto word = [&](int k) { return base + off_words + 64 * k; };  // sq head, tail, db; cq head, tail, db
        EndpointDesc peer_ep = endpoint(peer);
        auto* e = reinterpret_cast<ChannelEntity*>(img.data());
        e->header = {HCCL_CHANNEL_VERSION, kEntityMagic, static_cast<uint32_t>(sizeof(ChannelEntity)), 0};
        e->engine = COMM_ENGINE_AIV;
        e->protocol = d.channelProtocol;
        e->local_buffer_num = static_cast<uint32_t>(nl);
        e->remote_buffer_num = static_cast<uint32_t>(nr);
        e->sq_num = e->cq_num = 1;
        e->local_buffers = base + off_local;
        e->remote_buffers = base + off_remote;
        e->sq = base + off_sq_ctx;
        e->cq = base + off_cq_ctx;
        const uint32_t tp_id = 0x1000u + c->rank * 0x100u + peer;  // ptolab's numbering of the paths
        auto* sq = reinterpret_cast<SqEntity*>(img.data() + off_sq_ctx);
        *sq = SqEntity{0, 0, base + off_sq, word(0), word(1), word(2), 0x200u + peer, 64, kSqDepth, tp_id, {}, {}};
        std::memcpy(sq->remote_eid, peer_ep.commAddr.eid, 16);
        auto* cq = reinterpret_cast<CqEntity*>(img.data() + off_cq_ctx);
        *cq = CqEntity{0, 0, base + off_cq, word(3), word(4), word(5), 0x200u + peer, 64, kCqDepth, {}};
        ptosim::urma::Channel sim;
        sim.peer = static_cast<int>(peer);
        sim.sq = reinterpret_cast<uint8_t*>(base + off_sq);
        sim.sq_depth = kSqDepth;
        sim.sq_doorbell = reinterpret_cast<uint32_t*>(word(2));
        sim.cq = reinterpret_cast<uint8_t*>(base + off_cq);
        sim.cq_depth = kCqDepth;
        sim.cq_doorbell = reinterpret_cast<uint32_t*>(word(5));
        sim.tp_id = tp_id;
        std::memcpy(sim.remote_eid, peer_ep.commAddr.eid, 16);
        auto fill = [&](uint64_t off, const Wire::R& w) {
            auto* b = reinterpret_cast<BufferEntity*>(img.data() + off);
            b->type = 1;
            b->addr = w.addr;
            b->size = w.size;
            b->token_id = w.token_id;
            b->token_value = w.token_value;
        };
        for (uint32_t k = 0; k < nl; ++k) {
            fill(off_local + 64 * k, mine.r[k]);
            sim.local.push_back({mine.r[k].addr, mine.r[k].size, mine.r[k].token_id, mine.r[k].token_value, mine.r[k].tag});
        }
        for (uint32_t k = 0; k < nr; ++k) {
            fill(off_remote + 64 * k, theirs.r[k]);
            const Wire::R& w = theirs.r[k];
            sim.remote.push_back({w.addr, w.size, w.token_id, w.token_value, w.tag});
            ch->remote_mems.push_back(CommMem{COMM_MEM_TYPE_DEVICE, reinterpret_cast<void*>(w.addr), w.size});
            ch->remote_tags.emplace_back(w.tag);
        }
        for (auto& t : ch->remote_tags) ch->remote_tag_ptrs.push_back(t.data());
        if (aclrtMemcpy(block, total, img.data(), total, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
            aclrtFree(block);
            return fail(HCCL_E_RUNTIME, "HcclChannelAcquire: writing the channel entity to device memory failed");
        }
        ch->block = block;
        ch->entity = reinterpret_cast<ChannelEntity*>(block);
        ch->sq_doorbell = sim.sq_doorbell;
        ptosim::urma::add_channel(sim);
        channels[i] = base;
        std::lock_guard lk(g_mu);
        g_pid[static_cast<int>(peer)] = theirs.pid;
        g_res[c].chans.push_back(std::move(ch));
    }
    ptosim::urma::set_transport(c->win.remote ? &kMpi : &kVm);
    g_remote = c->win.remote;
    return HCCL_SUCCESS;
}

HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle channel, uint32_t* memNum, CommMem** remoteMems,
                                    char*** memTags) {
    Comm* c = live(comm, "HcclChannelGetRemoteMems");
    if (!c) return dead(comm);
    if (!memNum || !remoteMems || !memTags)
        return fail(HCCL_E_PTR, std::string("HcclChannelGetRemoteMems: ") +
                                    (!memNum ? "memNum" : !remoteMems ? "remoteMems" : "memTags") + " is NULL");
    *memNum = 0;
    *remoteMems = nullptr;
    *memTags = nullptr;
    std::lock_guard lk(g_mu);
    Res& r = g_res[c];
    for (auto& ch : r.chans)
        if (reinterpret_cast<uint64_t>(ch->block) == channel) {
            *memNum = static_cast<uint32_t>(ch->remote_mems.size());
            *remoteMems = ch->remote_mems.data();
            *memTags = ch->remote_tag_ptrs.data();
            return HCCL_SUCCESS;
        }
    return fail(HCCL_E_PARA, "HcclChannelGetRemoteMems: channel " + std::to_string(channel) +
                                 " is not a channel HcclChannelAcquire returned on this communicator");
}

}  // extern "C"
