// A communicator of ptolab's libhccl (docs/many-devices.md).
#pragma once
#include <hccl/hccl_types.h>

#include "mpi.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hccl_sim {

// The root info's bytes as ptolab lays them out: a magic word, the
// communicator's id (unique per HcclGetRootInfo on a host and across hosts),
// and the host name of the rank that made it.
struct RootInfoBody {
    char magic[16];   // "ptolab-hccl-1"
    uint64_t id;
    uint32_t maker_pid;
    char host[64];
};
static_assert(sizeof(RootInfoBody) <= HCCL_ROOT_INFO_BYTES);
constexpr const char kRootMagic[] = "ptolab-hccl-1";

// The windows of every rank, in one address range mapped at the same
// address in every rank (Windows::map): a shared header, then for each rank
// its windowsIn and windowsOut, each followed by an unmapped gap, so that an
// access running past a window faults instead of reaching the next.
struct Windows {
    uintptr_t span_lo = 0, span_hi = 0;
    uint64_t win_bytes = 0, gap_bytes = 0;
    std::string shm_name;
    void* header = nullptr;  // the shared header page (lock word first)
    std::vector<uintptr_t> in, out;  // by rank
    // The remote transport: this rank's header and windows are its own
    // memory, exposed as MPI windows; peers' windows are not mapped.
    bool remote = false;
    Handle hdr_win = 0, in_win = 0, out_win = 0;
    Handle dyn_win = 0;  // URMA: the registered memory of every rank, attached where it lies
    bool mapped() const { return span_hi != 0; }
};

// The device-side context a kernel reads (HcclAllocComResourceByTiling):
// the leading fields of HCCL's HcclCombinOpParam on a mesh topology.
constexpr uint32_t kMaxRanks = 64;
struct DeviceContext {
    uint64_t workSpace;
    uint64_t workSpaceSize;
    uint32_t rankId;
    uint32_t rankNum;
    uint64_t winSize;
    uint64_t windowsIn[kMaxRanks];
    uint64_t windowsOut[kMaxRanks];
};

struct Comm {
    uint32_t magic = 0x48434d4d;  // "HCMM": a live communicator
    uint32_t rank = 0, size = 1;
    uint64_t id = 0;
    std::string name;
    Handle mpi_comm = 0;          // a duplicate of MPI_COMM_WORLD (0 without MPI)
    std::vector<int> mpi_rank;    // the MPI rank of each HCCL rank
    Windows win;
    void* device_ctx = nullptr;   // aclrtMalloc'd DeviceContext, on first request
    void* workspace = nullptr;
};

// A live communicator from a handle; null (with the error set) otherwise.
Comm* live(HcclComm comm, const char* fn);
// All live communicators by group name.
Comm* by_name(const char* name);

// Records `msg` for aclGetRecentErrMsg and prints it with the rank
// ("HCCL: rank 1: HcclAllReduce: ..."); returns `code`.
HcclResult fail(HcclResult code, const std::string& msg);

// The window transport PTOLAB_HCCL_TRANSPORT asks for: "mpi", "shm" or ""
// (automatic: shared memory on one host, MPI across hosts); `bad` is set to
// the refusal when the value is none of them.
std::string transport_asked(std::string& bad);

// Maps the windows of `c` (collective over c's ranks); "" or why not.
std::string map_windows(Comm& c);
void unmap_windows(Comm& c);

// MPI over the communicator: bytes, chunked to MPI's int counts.
bool allgather_bytes(const Comm& c, const void* send, void* recv, uint64_t bytes);
bool bcast_bytes(const Comm& c, void* buf, uint64_t bytes, uint32_t root);
bool send_bytes(const Comm& c, const void* buf, uint64_t bytes, uint32_t to);
bool recv_bytes(const Comm& c, void* buf, uint64_t bytes, uint32_t from);
bool barrier(const Comm& c);
// Every rank's simulated clock moves to the latest one's plus what the
// collective adds for `recv_bytes` received (collectives.cpp); collective.
bool meet_clocks(const Comm& c, uint64_t recv_bytes);

// Bytes of one element of `t` (0: not a data type), and acc[i] = acc[i] op
// x[i] for `count` elements, rounding to the type (collectives.cpp).
int type_bytes(HcclDataType t);
void reduce_into(void* acc, const void* x, uint64_t count, HcclDataType t, HcclReduceOp op);

// CCU channels (HcclChannelAcquire with COMM_ENGINE_CCU, resources.cpp): the
// peer, this end's notify registers (device memory: notify_num x 16 bit
// counters of 4 bytes, each written only by the peer) and the peer's.
struct CcuChannel {
    uint64_t serial = 0;  // unique in the process: notify counts are kept per channel, not per address
    uint32_t peer = 0;
    uint32_t notify_num = 0;
    uint32_t* local_notify = nullptr;
    uint64_t remote_notify = 0;
};
bool ccu_channel(const Comm& c, uint64_t handle, CcuChannel* out);
// Bytes to or from rank `rank`'s memory at `remote` over the transport the
// communicator's channels use (shared memory: the peer's process; the remote
// transport: MPI on the dynamic window). False with *why.
bool peer_move(int rank, uint64_t remote, void* local, uint64_t n, bool write, std::string* why);
const char* peer_transport_name();
// HcclCommDestroy: the CCU kernels and threads of `c` go (ccu.cpp).
void release_ccu(Comm& c);

// HcclCommDestroy: the channels and memory registrations of `c` are released
// (resources.cpp).
void release_resources(Comm& c);
// Under the remote transport: memory registered for URMA is attached to the
// communicator's dynamic MPI window, and the URMA engine reaches a peer's
// registered memory through it (windows.cpp). False with `why`.
bool attach_registered(Comm& c, void* base, uint64_t bytes, std::string& why);
void detach_registered(Comm& c, void* base);
// Under the remote transport: memory a CCU kernel reaches (GetTokenInfo's
// ranges) attached to the communicator's dynamic window, once per
// communicator; true (nothing to do) under shared memory.
bool attach_ccu(void* base, uint64_t bytes, std::string& why);
bool registered_rma(int rank, uint64_t addr, void* buf, uint64_t bytes, bool write, std::string* why);

}  // namespace hccl_sim
