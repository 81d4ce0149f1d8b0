// The device side of a simulated Ascend950 (A5) collective communication
// unit (CCU): its completion event registers (CKEs), each an 8-byte slot of
// device memory that rtGetDevResAddress(die, cke) gives and a kernel writes
// to trigger a launched CCU program (pto-isa's CkeTrigger: the mask, with
// bit 63 set). libhccl's CCU engine (src/hccl/ccu.cpp) allocates the CKEs
// its kernels' events use, polls the slots and runs the programs on ACL
// streams. docs/many-devices.md, "The CCU engine".
#pragma once
#include <ptosim/core.hpp>
#include <ptosim/runtime.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace ptosim::ccu {

constexpr uint32_t kDies = 2, kCkesPerDie = 1024;
constexpr uint64_t kValidBit = 1ull << 63;

// A free CKE of `die` for an event of a registered kernel; false with *why.
bool alloc_cke(uint32_t die, uint32_t* id, std::string* why);
void free_cke(uint32_t die, uint32_t id);
// The slot of CKE `id` on `die` (device memory, 8 bytes); null with *why
// when there is no such CKE.
uint64_t* cke_slot(uint32_t die, uint32_t id, std::string* why);
// Whether [p, p + bytes) lies in the CKE slots; the slot's die and id.
bool find_cke(const void* p, uint64_t bytes, uint32_t* die, uint32_t* id);

// ptolab's pto::comm: the trigger store of TBROADCAST/TGATHER/TSCATTER/
// TREDUCE<CollEngine::CCU>: (mask | kValidBit) into the slot at `slot`, a
// scalar GM store of the calling core; faults at `loc` when `slot` is not a
// CKE slot or the mask is empty.
void trigger(const SourceLoc& loc, uint64_t slot, uint32_t mask, const char* op);

// Host work on an ACL stream (libhccl's CCU launches): `work` runs on the
// stream's worker in order with its launches; `clock_us` is the stream's
// simulated time where the work starts, and the work moves it to where it
// ends. A status that is not ok becomes the stream's error.
Status enqueue_stream_work(void* acl_stream, const char* fn, std::string what,
                           std::function<Status(double& clock_us)> work);

}  // namespace ptosim::ccu
