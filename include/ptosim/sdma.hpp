// The SDMA engine of a simulated device: submission queues in device memory,
// described in an SDMA workspace (the layout pto-isa's SDMA code reads), each
// with a doorbell; a DMA store of a new tail to a doorbell runs the queue's
// entries up to it. docs/many-devices.md, "Asynchronous transfers (SDMA)".
#pragma once
#include <ptosim/core.hpp>

#include <cstdint>

namespace ptosim::sdma {

// The workspace: a FlagInfo, then kMaxQueues ChannelInfos, then the
// session records and flag payloads the kernel's SDMA code keeps
// (kWorkspaceBytes in all).
constexpr uint32_t kFlagInfoMagic = 0x414d4453;  // "SDMA": prepared by aclnnShmemSdmaStarsQuery
constexpr uint32_t kMaxQueues = 48;
constexpr uint32_t kQueueDepth = 2048;
constexpr uint32_t kSqeBytes = 64;
constexpr uint32_t kDoorbellBytes = 64;
constexpr uint32_t kContextBytes = 16 * 1024;
constexpr uint32_t kFlagPayloadBytesPerGroup = 512;
constexpr uint32_t kWorkspaceBytes = kContextBytes + kMaxQueues * kFlagPayloadBytesPerGroup;

struct FlagInfo {
    uint32_t flag;            // kFlagInfoMagic once the queues are described
    uint32_t total_queues;    // ChannelInfos that follow
    uint8_t reserved[56];
};
struct ChannelInfo {
    uint32_t sq_head, sq_tail;
    uint64_t sq_base;      // kQueueDepth entries of kSqeBytes
    uint64_t sq_reg_base;  // the doorbell: A2A3 stores the tail at +8, A5 at +0
    uint32_t sq_depth, sq_id, cq_id, logic_cq_id;
    uint64_t cqe_addr;
    uint32_t report_cqe_num, stream_id, dev_id;
    uint8_t reserved[4];
};
static_assert(sizeof(FlagInfo) == 64 && sizeof(ChannelInfo) == 64);

// A queue of `depth` entries at sq_base with its doorbell block; `sq_id`
// names it in reports.
void add_queue(void* sq_base, void* doorbell, uint32_t depth, uint32_t sq_id);
void remove_queue(void* doorbell);

// Called by the DMA stores to GM (copy_ubuf_to_gm*): a store that covers a
// doorbell's tail word runs the queue's entries from the engine's head up to
// the tail stored. Entries copy `length` bytes from source to destination
// (opcode 0); each transfer is checked as a GM access of this rank (a remote
// address outside the peer's window faults, naming the queue and entry).
void on_gm_store(Core& c, const SourceLoc& loc, const void* p, uint64_t bytes);

}  // namespace ptosim::sdma
