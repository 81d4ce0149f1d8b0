// The URMA engine of a simulated Ascend950 (A5) device: the UB NIC that
// runs the work queue entries (WQEs) a kernel writes into a channel's send
// queue and rings with a doorbell, moving bytes between this rank's
// registered memory and a peer's, and writing a completion (CQE) into the
// channel's completion queue. libhccl builds the channels
// (HcclChannelAcquire with COMM_ENGINE_AIV) and installs the transport that
// reaches a peer's memory. docs/many-devices.md, "URMA".
//
// The entry formats are pto-isa's (include/pto/comm/async/urma/urma_types.hpp
// at 3186c381: a 48-byte SQE and a 16-byte SGE per 64-byte WQE, a 64-byte
// CQE) and the workspace its UrmaWorkspaceManager fills (UrmaInfo and the
// per-peer queue and memory rows) is read by ptolab's pto::comm as it lays
// them out; ptosim writes none of their code, it reads the bytes.
#pragma once
#include <ptosim/core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ptosim::urma {

// Opcodes of an SQE (pto-isa's UrmaOpcode): the engine runs WRITE, READ and NOP.
constexpr uint32_t kOpWrite = 3, kOpRead = 6, kOpNop = 0x11;
constexpr uint32_t kSqeBytes = 48, kSgeBytes = 16, kWqeBytes = 64, kCqeBytes = 64;

// Memory registered for a channel: [addr, addr + size) of a rank, its
// protection token (the id a WQE names, the value it must carry).
struct Region {
    uint64_t addr = 0, size = 0;
    uint32_t token_id = 0, token_value = 0;
    std::string tag;
};

// One channel of this rank to `peer`: its send queue (depth entries of
// wqe_bytes at sq, the producer index rung into *sq_doorbell), its
// completion queue (cq_depth entries of cqe_bytes at cq; the kernel writes
// its consumer index into *cq_doorbell) and what a WQE on it must name: the
// transport path id, the peer's EID, the peer's registered regions (remote)
// and this rank's (local).
struct Channel {
    int peer = -1;
    uint8_t* sq = nullptr;
    uint32_t sq_depth = 0, wqe_bytes = kWqeBytes;
    uint32_t* sq_doorbell = nullptr;
    uint8_t* cq = nullptr;
    uint32_t cq_depth = 0, cqe_bytes = kCqeBytes;
    uint32_t* cq_doorbell = nullptr;
    uint32_t tp_id = 0;
    uint8_t remote_eid[16] = {};
    std::vector<Region> local, remote;
};
void add_channel(const Channel& ch);
void remove_channel(const void* sq_doorbell);
int channels();

// How the engine reaches a peer's memory (installed by libhccl): bytes
// [remote, remote + n) of rank `rank`, complete at the target when the call
// returns; false with *why on failure.
struct Transport {
    bool (*put)(int rank, uint64_t remote, const void* src, uint64_t n, std::string* why);
    bool (*get)(int rank, uint64_t remote, void* dst, uint64_t n, std::string* why);
    const char* name;  // in reports: "shared memory", "MPI"
};
void set_transport(const Transport* t);

// A store to GM by the kernel (st_dev, a scalar or DMA store): when it
// covers a channel's send doorbell, the engine runs the WQEs from its
// consumer index up to the producer index stored, on the storing core,
// before the store returns, and writes one CQE for each; a store to a
// completion doorbell moves the queue's consumer index. Faults at `loc`
// name the channel, the entry and what is wrong with it.
void on_gm_store(Core& c, const SourceLoc& loc, const void* p, uint64_t bytes);

// ptolab's pto::comm over pto-isa's URMA workspace (UrmaInfo at `ws`):
// the registered base of peer `peer`; a WQE posted on the channel to `peer`
// (queue pair `qp`) and its doorbell rung, returning the producer index
// after it; a wait for the completions up to `head` (false: a completion
// with an error status); a test that does not wait.
uint64_t peer_base(const SourceLoc& loc, const void* ws, uint32_t peer);
uint32_t post(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t opcode, uint64_t remote,
              uint64_t local, uint64_t bytes, const char* op);
bool wait(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t head);
bool test(const SourceLoc& loc, const void* ws, uint32_t peer, uint32_t qp, uint32_t head);

}  // namespace ptosim::urma
