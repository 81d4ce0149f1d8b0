// The CCU's completion event registers (CKEs) as device memory, the trigger
// store of ptolab's pto::comm, rtGetDevResAddress, and host work on ACL
// streams for libhccl's CCU engine. include/ptosim/ccu.hpp,
// docs/many-devices.md "The CCU engine".
#include <ptosim/ccu.hpp>
#include <ptosim/check.hpp>
#include <ptosim/peers.hpp>

#include "acl_internal.hpp"
#include "device_impl.hpp"
#include "timing.hpp"

#include <acl/acl.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

namespace ptosim {
// timing.cpp: the calling core's scalar unit waits until pipe p is idle.
void timing_hold_pipe(Core& c, Pipe p, const char* what, const char* op, const SourceLoc& loc);
}

namespace ptosim::ccu {
namespace {

struct Table {
    std::mutex mu;
    uint64_t* slots = nullptr;  // kDies * kCkesPerDie words of device memory
    std::vector<bool> used;
};
Table& table() {
    static Table* t = new Table();
    return *t;
}
// With t.mu held: the slots, allocated at first use.
bool ensure(Table& t, std::string* why) {
    if (t.slots) return true;
    void* p = Device::get().allocate(uint64_t(kDies) * kCkesPerDie * 8, true);
    if (!p) {
        if (why) *why = "the device memory of the CKE slots could not be allocated";
        return false;
    }
    std::memset(p, 0, uint64_t(kDies) * kCkesPerDie * 8);
    t.slots = static_cast<uint64_t*>(p);
    t.used.assign(uint64_t(kDies) * kCkesPerDie, false);
    return true;
}
std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

}  // namespace

bool alloc_cke(uint32_t die, uint32_t* id, std::string* why) {
    if (die >= kDies) {
        *why = "die " + std::to_string(die) + ": the simulated device's CCU has dies 0 and 1";
        return false;
    }
    Table& t = table();
    std::lock_guard lk(t.mu);
    if (!ensure(t, why)) return false;
    for (uint32_t i = 0; i < kCkesPerDie; ++i)
        if (!t.used[die * kCkesPerDie + i]) {
            t.used[die * kCkesPerDie + i] = true;
            t.slots[die * kCkesPerDie + i] = 0;
            *id = i;
            return true;
        }
    *why = "all " + std::to_string(kCkesPerDie) + " CKEs of die " + std::to_string(die) +
           " are taken by registered CCU kernels (destroy communicators whose kernels are done)";
    return false;
}

void free_cke(uint32_t die, uint32_t id) {
    Table& t = table();
    std::lock_guard lk(t.mu);
    if (!t.slots || die >= kDies || id >= kCkesPerDie) return;
    t.used[die * kCkesPerDie + id] = false;
    __atomic_store_n(&t.slots[die * kCkesPerDie + id], 0, __ATOMIC_RELEASE);
}

uint64_t* cke_slot(uint32_t die, uint32_t id, std::string* why) {
    if (die >= kDies || id >= kCkesPerDie) {
        if (why)
            *why = "there is no CKE " + std::to_string(id) + " on die " + std::to_string(die) + " (dies 0.." +
                   std::to_string(kDies - 1) + ", CKEs 0.." + std::to_string(kCkesPerDie - 1) + ")";
        return nullptr;
    }
    Table& t = table();
    std::lock_guard lk(t.mu);
    if (!ensure(t, why)) return nullptr;
    return t.slots + die * kCkesPerDie + id;
}

bool find_cke(const void* p, uint64_t bytes, uint32_t* die, uint32_t* id) {
    Table& t = table();
    std::lock_guard lk(t.mu);
    if (!t.slots) return false;
    const auto a = reinterpret_cast<uintptr_t>(p), lo = reinterpret_cast<uintptr_t>(t.slots);
    const uintptr_t hi = lo + uint64_t(kDies) * kCkesPerDie * 8;
    if (a < lo || a + bytes > hi) return false;
    const uint64_t k = (a - lo) / 8;
    *die = static_cast<uint32_t>(k / kCkesPerDie);
    *id = static_cast<uint32_t>(k % kCkesPerDie);
    return true;
}

void trigger(const SourceLoc& loc, uint64_t slot, uint32_t mask, const char* op) {
    Core& c = core();
    uint32_t die = 0, id = 0;
    const auto* p = reinterpret_cast<uint64_t*>(slot);
    if (slot % 8 || !find_cke(p, 8, &die, &id))
        fault(loc, std::string(op) + ": the CKE slot address " + hex(slot) +
                       " is not a CKE slot of this device's CCU: pass the address rtGetDevResAddress gave for the "
                       "launched kernel's gate (the die and CKE id its GeneArgs published)");
    if ((mask & 0xffff) == 0)
        fault(loc, std::string(op) + ": the trigger mask " + hex(mask) + " for CKE " + std::to_string(id) + " of die " +
                       std::to_string(die) + " sets none of the CKE's 16 bits, so no CCU wait can see it");
    check_gm(p, 8, op, loc);
    // As pto-isa's trigger: the stores before it (pipe_barrier) are done.
    timing_hold_pipe(c, Pipe::MTE3, "CKE trigger", op, loc);
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::S;
    r.loc = loc;
    r.bytes = 8;
    r.write(Space::GM, slot, 8);
    dispatch(c, r);
    __atomic_store_n(const_cast<uint64_t*>(p), uint64_t(mask) | kValidBit, __ATOMIC_RELEASE);
}

Status enqueue_stream_work(void* acl_stream, const char* fn, std::string what,
                           std::function<Status(double& clock_us)> work) {
    Stream* s = nullptr;
    if (aclError e = acl_impl::resolve_stream(fn, static_cast<aclrtStream>(acl_stream), &s))
        return {e, std::string(fn) + ": " + last_error()};
    auto run = [w = std::move(work)]() -> Status {
        cost::TaskClock* t = cost::current_task();
        double clock = t ? t->end_us : 0;
        Status st = w(clock);
        if (t) t->end_us = std::max(t->end_us, clock);
        return st;
    };
    return s->enqueue_host(std::move(what), std::move(run));
}

}  // namespace ptosim::ccu

extern "C" {

// CANN's rtGetDevResAddress for the CCU's CKEs (resType 3, the only type
// ptolab's runtime has): the 8-byte slot of CKE resId on die dieId.
struct PtolabRtDevResInfo {
    uint32_t dieId;
    int procType;
    int resType;
    uint32_t resId;
    uint32_t flag;
};
struct PtolabRtDevResAddrInfo {
    uint64_t* resAddress;
    uint32_t* len;
};

int rtGetDevResAddress(PtolabRtDevResInfo* in, PtolabRtDevResAddrInfo* out) {
    using ptosim::acl_impl::fail;
    if (!in || !out || !out->resAddress || !out->len)
        return fail(ACL_ERROR_RT_PARAM_INVALID, "rtGetDevResAddress: the resource info, the address info or its "
                                                "resAddress/len pointers are null");
    *out->resAddress = 0;
    *out->len = 0;
    constexpr int kCcuCke = 3;
    if (in->resType != kCcuCke)
        return fail(ACL_ERROR_RT_PARAM_INVALID, "rtGetDevResAddress: resource type " + std::to_string(in->resType) +
                                                    " is not simulated; ptolab's runtime gives the CCU's CKE slots "
                                                    "(type 3)");
    std::string why;
    uint64_t* slot = ptosim::ccu::cke_slot(in->dieId, in->resId, &why);
    if (!slot) return fail(ACL_ERROR_RT_PARAM_INVALID, "rtGetDevResAddress: " + why);
    *out->resAddress = reinterpret_cast<uint64_t>(slot);
    *out->len = 8;
    return 0;
}

}  // extern "C"
