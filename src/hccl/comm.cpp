// Communicators: root info, init and destroy, rank queries, barrier, and
// the MPI helpers the other calls share (docs/many-devices.md).
#include <hccl/hccl_comm.h>

#include <acl/acl.h>
#include <ptosim/peers.hpp>
#include <ptosim/runtime.hpp>

#include "comm.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <random>

namespace hccl_sim {
namespace {

std::mutex g_mu;
std::map<std::string, Comm*> g_comms;  // live communicators by name

uint64_t fresh_id() {
    // Unique across the processes and hosts of a run: time, pid, a counter
    // and the random device.
    static std::atomic<uint64_t> counter{0};
    std::random_device rd;
    uint64_t id = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    id ^= static_cast<uint64_t>(getpid()) << 40;
    id ^= (static_cast<uint64_t>(rd()) << 32 | rd());
    id += counter.fetch_add(1) * 0x9e3779b97f4a7c15ull;
    return id;
}

constexpr int kChunk = 1 << 30;  // bytes per MPI call: counts are ints

}  // namespace

HcclResult fail(HcclResult code, const std::string& msg) {
    const std::string line = ptosim::rank_prefix() + msg;
    ptosim::set_last_error(line);
    std::fprintf(stderr, "HCCL: %s\n", line.c_str());
    return code;
}

Comm* live(HcclComm comm, const char* fn) {
    auto* c = static_cast<Comm*>(comm);
    if (!c) {
        fail(HCCL_E_PTR, std::string(fn) + ": comm is NULL; pass the communicator HcclCommInitRootInfo returned");
        return nullptr;
    }
    std::lock_guard lk(g_mu);
    for (auto& [name, p] : g_comms)
        if (p == c) return c;
    fail(HCCL_E_PARA, std::string(fn) + ": comm is not a live communicator (destroyed, or not from HcclCommInitRootInfo)");
    return nullptr;
}

Comm* by_name(const char* name) {
    std::lock_guard lk(g_mu);
    auto it = g_comms.find(name);
    return it == g_comms.end() ? nullptr : it->second;
}

bool allgather_bytes(const Comm& c, const void* send, void* recv, uint64_t bytes) {
    if (c.size == 1) {
        if (bytes) std::memmove(recv, send, bytes);
        return true;
    }
    const Mpi& m = mpi();
    if (bytes <= static_cast<uint64_t>(kChunk))
        return m.allgather(send, static_cast<int>(bytes), m.byte, recv, static_cast<int>(bytes), m.byte, c.mpi_comm) == 0;
    // Larger than one call: gather chunk by chunk through a staging buffer.
    std::vector<uint8_t> stage(static_cast<size_t>(kChunk) * c.size);
    for (uint64_t off = 0; off < bytes; off += kChunk) {
        const int n = static_cast<int>(std::min<uint64_t>(kChunk, bytes - off));
        if (m.allgather(static_cast<const uint8_t*>(send) + off, n, m.byte, stage.data(), n, m.byte, c.mpi_comm) != 0)
            return false;
        for (uint32_t r = 0; r < c.size; ++r)
            std::memcpy(static_cast<uint8_t*>(recv) + r * bytes + off, stage.data() + static_cast<size_t>(r) * n, n);
    }
    return true;
}

bool bcast_bytes(const Comm& c, void* buf, uint64_t bytes, uint32_t root) {
    if (c.size == 1) return true;
    const Mpi& m = mpi();
    for (uint64_t off = 0; off < bytes; off += kChunk) {
        const int n = static_cast<int>(std::min<uint64_t>(kChunk, bytes - off));
        if (m.bcast(static_cast<uint8_t*>(buf) + off, n, m.byte, c.mpi_rank[root], c.mpi_comm) != 0) return false;
    }
    return true;
}

bool send_bytes(const Comm& c, const void* buf, uint64_t bytes, uint32_t to) {
    const Mpi& m = mpi();
    for (uint64_t off = 0; off < bytes; off += kChunk) {
        const int n = static_cast<int>(std::min<uint64_t>(kChunk, bytes - off));
        if (m.send(static_cast<const uint8_t*>(buf) + off, n, m.byte, c.mpi_rank[to], 0, c.mpi_comm) != 0) return false;
    }
    return true;
}

bool recv_bytes(const Comm& c, void* buf, uint64_t bytes, uint32_t from) {
    const Mpi& m = mpi();
    alignas(8) uint8_t status[64];
    for (uint64_t off = 0; off < bytes; off += kChunk) {
        const int n = static_cast<int>(std::min<uint64_t>(kChunk, bytes - off));
        if (m.recv(static_cast<uint8_t*>(buf) + off, n, m.byte, c.mpi_rank[from], 0, c.mpi_comm, status) != 0)
            return false;
    }
    return true;
}

bool barrier(const Comm& c) { return c.size == 1 || mpi().barrier(c.mpi_comm) == 0; }

}  // namespace hccl_sim

using namespace hccl_sim;

extern "C" {

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
    if (!rootInfo) return fail(HCCL_E_PTR, "HcclGetRootInfo: rootInfo is NULL");
    std::memset(rootInfo, 0, sizeof *rootInfo);
    RootInfoBody b{};
    std::memcpy(b.magic, kRootMagic, sizeof kRootMagic);
    b.id = fresh_id();
    b.maker_pid = static_cast<uint32_t>(getpid());
    gethostname(b.host, sizeof b.host - 1);
    std::memcpy(rootInfo->internal, &b, sizeof b);
    return HCCL_SUCCESS;
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, HcclComm* comm) {
    const char* fn = "HcclCommInitRootInfo";
    if (!comm) return fail(HCCL_E_PTR, std::string(fn) + ": comm is NULL");
    *comm = nullptr;
    if (!rootInfo) return fail(HCCL_E_PTR, std::string(fn) + ": rootInfo is NULL");
    if (nRanks == 0) return fail(HCCL_E_PARA, std::string(fn) + ": nRanks is 0");
    if (rank >= nRanks)
        return fail(HCCL_E_PARA, std::string(fn) + ": rank " + std::to_string(rank) + " is not below nRanks " +
                                     std::to_string(nRanks));
    if (nRanks > kMaxRanks)
        return fail(HCCL_E_NOT_SUPPORT, std::string(fn) + ": nRanks " + std::to_string(nRanks) +
                                            " exceeds the device context's " + std::to_string(kMaxRanks) + " ranks");
    RootInfoBody b;
    std::memcpy(&b, rootInfo->internal, sizeof b);
    if (std::memcmp(b.magic, kRootMagic, sizeof kRootMagic) != 0)
        return fail(HCCL_E_PARA, std::string(fn) +
                                     ": rootInfo was not made by HcclGetRootInfo, or not all of it reached this rank "
                                     "(share all HCCL_ROOT_INFO_BYTES bytes, e.g. with MPI_Bcast)");
    std::string bad;
    const std::string transport = transport_asked(bad);
    if (!bad.empty()) return fail(HCCL_E_PARA, std::string(fn) + ": " + bad);
    auto c = std::make_unique<Comm>();
    c->rank = rank;
    c->size = nRanks;
    c->id = b.id;
    char name[64];
    std::snprintf(name, sizeof name, "ptolab_hccl_%016" PRIx64, b.id);
    c->name = name;
    if (nRanks > 1) {
        std::string why;
        if (!ensure_initialized(why))
            return fail(HCCL_E_UNAVAIL, std::string(fn) + ": " + std::to_string(nRanks) +
                                            " ranks need MPI between their processes, and " + why);
        const Mpi& m = mpi();
        int world = 0, me = 0;
        m.comm_size(m.world, &world);
        m.comm_rank(m.world, &me);
        if (static_cast<uint32_t>(world) != nRanks)
            return fail(HCCL_E_NOT_SUPPORT,
                        std::string(fn) + ": nRanks is " + std::to_string(nRanks) + " but MPI started " +
                            std::to_string(world) + " processes; ptolab's communicators span every process of the run "
                            "(start the program with mpirun -np " + std::to_string(nRanks) + ")");
        uint64_t dup = 0;
        if (m.comm_dup(m.world, &dup) != 0) return fail(HCCL_E_INTERNAL, std::string(fn) + ": MPI_Comm_dup failed");
        c->mpi_comm = static_cast<Handle>(dup);
        // Every rank's view: its HCCL rank, the root info's id and its host.
        struct Joiner {
            uint32_t rank;
            uint32_t pad;
            uint64_t id;
            char host[64];
        } mine{rank, 0, b.id, {}}, all[kMaxRanks];
        gethostname(mine.host, sizeof mine.host - 1);
        c->mpi_rank.assign(nRanks, -1);
        // Until the map is known, the MPI ranks are the identity.
        for (uint32_t r = 0; r < nRanks; ++r) c->mpi_rank[r] = static_cast<int>(r);
        if (!allgather_bytes(*c, &mine, all, sizeof mine))
            return fail(HCCL_E_INTERNAL, std::string(fn) + ": MPI_Allgather failed");
        std::string problem, other_host;
        std::vector<int> map(nRanks, -1);
        for (int p = 0; p < world; ++p) {
            if (all[p].id != b.id && problem.empty())
                problem = "MPI process " + std::to_string(p) + " passed another root info (each communicator needs "
                          "the root info of one HcclGetRootInfo on every rank)";
            if (all[p].rank >= nRanks) continue;
            if (map[all[p].rank] >= 0 && problem.empty())
                problem = "rank " + std::to_string(all[p].rank) + " was passed by MPI processes " +
                          std::to_string(map[all[p].rank]) + " and " + std::to_string(p) +
                          " (each rank id once, 0.." + std::to_string(nRanks - 1) + ")";
            map[all[p].rank] = p;
            if (std::strncmp(all[p].host, mine.host, sizeof mine.host) != 0 && other_host.empty())
                other_host = std::string("rank ") + std::to_string(all[p].rank) + " runs on host '" + all[p].host +
                             "' and this rank on '" + mine.host + "'";
        }
        // Shared memory reaches only the ranks of one host: across hosts
        // the windows go over MPI (docs/many-devices.md, "Several hosts").
        if (transport == "shm" && !other_host.empty() && problem.empty())
            problem = "PTOLAB_HCCL_TRANSPORT=shm, but " + other_host +
                      ": shared memory windows need every rank on one host (unset it, or set mpi)";
        if (!problem.empty()) {
            m.comm_free(&dup);
            return fail(problem.find("PTOLAB_HCCL_TRANSPORT") != std::string::npos ? HCCL_E_NOT_SUPPORT : HCCL_E_PARA,
                        std::string(fn) + ": " + problem);
        }
        c->mpi_rank = map;
        c->win.remote = transport == "mpi" || !other_host.empty();
    }
    ptosim::set_process_rank(static_cast<int>(rank), static_cast<int>(nRanks));
    if (std::string why = map_windows(*c); !why.empty()) {
        if (c->mpi_comm) {
            uint64_t h = c->mpi_comm;
            mpi().comm_free(&h);
        }
        return fail(HCCL_E_MEMORY, std::string(fn) + ": " + why);
    }
    Comm* p = c.release();
    {
        std::lock_guard lk(g_mu);
        g_comms[p->name] = p;
    }
    *comm = p;
    return HCCL_SUCCESS;
}

HcclResult HcclCommDestroy(HcclComm comm) {
    Comm* c = live(comm, "HcclCommDestroy");
    if (!c) return static_cast<Comm*>(comm) ? HCCL_E_PARA : HCCL_E_PTR;
    // Every rank stops using the windows before any unmaps them.
    barrier(*c);
    {
        std::lock_guard lk(g_mu);
        g_comms.erase(c->name);
    }
    release_ccu(*c);
    release_resources(*c);
    unmap_windows(*c);
    if (c->device_ctx) aclrtFree(c->device_ctx);
    if (c->workspace) aclrtFree(c->workspace);
    if (c->mpi_comm) {
        uint64_t h = c->mpi_comm;
        mpi().comm_free(&h);
    }
    c->magic = 0;
    delete c;
    return HCCL_SUCCESS;
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
    Comm* c = live(comm, "HcclGetRankId");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!rank) return fail(HCCL_E_PTR, "HcclGetRankId: rank is NULL");
    *rank = c->rank;
    return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    Comm* c = live(comm, "HcclGetRankSize");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!rankSize) return fail(HCCL_E_PTR, "HcclGetRankSize: rankSize is NULL");
    *rankSize = c->size;
    return HCCL_SUCCESS;
}

HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    Comm* c = live(comm, "HcclGetCommName");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!commName) return fail(HCCL_E_PTR, "HcclGetCommName: commName is NULL");
    std::snprintf(commName, MAX_GROUP_NAME, "%s", c->name.c_str());
    return HCCL_SUCCESS;
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    Comm* c = live(comm, "HcclBarrier");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    const aclError e = aclrtSynchronizeStream(stream);
    const std::string why = e != ACL_SUCCESS ? aclGetRecentErrMsg() : "";
    // A rank whose stream failed still meets the others: a barrier it
    // skipped would pair the ranks' later collectives wrongly (its
    // HcclCommDestroy with their barrier), and every rank would hang.
    const bool met = barrier(*c) && meet_clocks(*c, 0);
    if (e != ACL_SUCCESS)
        return fail(HCCL_E_RUNTIME, "HcclBarrier: the work queued on the stream failed (aclrtSynchronizeStream " +
                                        std::to_string(e) + ": " + why + ")");
    if (!met) return fail(HCCL_E_INTERNAL, "HcclBarrier: MPI_Barrier failed");
    return HCCL_SUCCESS;
}

const char* HcclGetErrorString(HcclResult code) {
    switch (code) {
        case HCCL_SUCCESS: return "success";
        case HCCL_E_PARA: return "parameter error";
        case HCCL_E_PTR: return "empty pointer";
        case HCCL_E_MEMORY: return "memory error";
        case HCCL_E_INTERNAL: return "internal error";
        case HCCL_E_NOT_SUPPORT: return "not supported";
        case HCCL_E_NOT_FOUND: return "resource not found";
        case HCCL_E_UNAVAIL: return "resource unavailable";
        case HCCL_E_SYSCALL: return "system call error";
        case HCCL_E_TIMEOUT: return "timeout";
        case HCCL_E_OPEN_FILE_FAILURE: return "open file failure";
        case HCCL_E_TCP_CONNECT: return "tcp connect failure";
        case HCCL_E_ROCE_CONNECT: return "roce connect failure";
        case HCCL_E_TCP_TRANSFER: return "tcp transfer failure";
        case HCCL_E_ROCE_TRANSFER: return "roce transfer failure";
        case HCCL_E_RUNTIME: return "runtime call failure";
        case HCCL_E_DRV: return "driver call failure";
        case HCCL_E_PROFILING: return "profiling call failure";
        case HCCL_E_CCE: return "cce call failure";
        case HCCL_E_NETWORK: return "network call failure";
        case HCCL_E_AGAIN: return "try again";
        case HCCL_E_REMOTE: return "remote error";
        case HCCL_E_SUSPENDING: return "communicator suspending";
        default: return "unknown HcclResult";
    }
}

}  // extern "C"
