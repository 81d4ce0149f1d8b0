// The C API of include/ptosim/c_api.h. Registration writes the device's
// allocation map directly (Device::Impl is visible inside the runtime), so
// externally owned memory is found by Device::find exactly like aclrtMalloc
// blocks, without the device ever freeing it.
#include <ptosim/c_api.h>
#include <ptosim/check.hpp>
#include "device_impl.hpp"
#include "hex.hpp"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace {

using ptosim::Device;

using ptolab::common::hex;

int fail(int code, std::string msg) {
    ptosim::set_last_error(std::move(msg));
    return code;
}

// Bases registered through this API; guarded by the device's mutex so that
// unregistering can never release an aclrtMalloc block.
std::set<uintptr_t>& external() {
    static auto* s = new std::set<uintptr_t>();
    return *s;
}

}  // namespace

extern "C" {

int ptosim_register_memory(void* ptr, uint64_t bytes) {
    if (!ptr) return fail(ptosim::err::kInvalidParam, "ptosim_register_memory: ptr is null; pass the buffer's address");
    if (bytes == 0)
        return fail(ptosim::err::kInvalidParam,
                    "ptosim_register_memory: bytes is 0; register a buffer of at least one byte");
    const uintptr_t base = reinterpret_cast<uintptr_t>(ptr);
    if (base + bytes < base)
        return fail(ptosim::err::kInvalidParam, "ptosim_register_memory: range " + hex(base) + " + " +
                                                    std::to_string(bytes) + " bytes wraps the address space");
    Device::Impl& im = Device::get().impl();
    std::lock_guard lk(im.mu);
    // The neighbour at or below base, and the first block above it, are the only ones that can overlap.
    auto next = im.allocations.upper_bound(base);
    if (next != im.allocations.begin()) {
        const ptosim::Allocation& prev = std::prev(next)->second;
        if (prev.base + prev.size > base)
            return fail(ptosim::err::kInvalidParam,
                        "ptosim_register_memory: range " + hex(base) + " + " + std::to_string(bytes) +
                            " bytes overlaps the registered block at " + hex(prev.base) + " (" +
                            std::to_string(prev.size) + " bytes); unregister it first or register a disjoint buffer");
    }
    if (next != im.allocations.end() && next->first < base + bytes)
        return fail(ptosim::err::kInvalidParam,
                    "ptosim_register_memory: range " + hex(base) + " + " + std::to_string(bytes) +
                        " bytes overlaps the registered block at " + hex(next->first) + " (" +
                        std::to_string(next->second.size) + " bytes); unregister it first or register a disjoint buffer");
    im.allocations[base] = {base, bytes, true};
    external().insert(base);
    return 0;
}

int ptosim_unregister_memory(void* ptr) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(ptr);
    Device::Impl& im = Device::get().impl();
    std::lock_guard lk(im.mu);
    if (!external().count(base)) {
        const bool acl = im.allocations.count(base) != 0;
        return fail(ptosim::err::kInvalidParam,
                    "ptosim_unregister_memory: " + hex(base) +
                        (acl ? " is an aclrtMalloc/aclrtMallocHost block; release it with aclrtFree/aclrtFreeHost"
                             : " is not the base of memory registered with ptosim_register_memory (already "
                               "unregistered, or an address inside a buffer)"));
    }
    external().erase(base);
    im.allocations.erase(base);
    return 0;
}

int ptosim_is_device_memory(const void* ptr, uint64_t bytes) {
    const auto a = Device::get().find(ptr, bytes == 0 ? 1 : bytes);
    return a && a->device ? 1 : 0;
}

void ptosim_host_wrote(const void* ptr, uint64_t bytes) {
    if (ptr && bytes) ptosim::check::gm_host_write(ptr, bytes);
}

const char* ptosim_soc_name(void) { return Device::get().soc().name; }
const char* ptosim_target_name(void) { return Device::get().soc().target == ptosim::Target::A5 ? "A5" : "A2A3"; }
int ptosim_cube_core_count(void) { return Device::get().soc().aic; }
int ptosim_vector_core_count(void) { return Device::get().soc().aiv; }
uint64_t ptosim_ub_bytes(void) { return Device::get().soc().ub; }
int ptosim_simulator_mode(void) { return 1; }

void* ptosim_default_stream(void) { return Device::get().default_stream(); }

namespace {
thread_local void* t_current_stream = nullptr;
}
void* ptosim_current_stream(void) { return t_current_stream ? t_current_stream : Device::get().default_stream(); }
void ptosim_set_current_stream(void* stream) { t_current_stream = stream; }
void* ptosim_create_stream(void) { return Device::get().create_stream(); }

int ptosim_destroy_stream(void* stream) {
    Device& d = Device::get();
    auto* s = static_cast<ptosim::Stream*>(stream);
    if (!stream || !d.is_stream(s) || s == d.default_stream())
        return fail(ptosim::err::kInvalidParam,
                    "ptosim_destroy_stream: " + hex(reinterpret_cast<uintptr_t>(stream)) +
                        " is not a live stream from ptosim_create_stream (the default stream cannot be destroyed)");
    ptosim::Status st = d.destroy_stream(s);
    return st.ok() ? 0 : fail(st.code, "ptosim_destroy_stream: " + st.message);
}

int ptosim_synchronize(void* stream, double timeout_s) {
    Device& d = Device::get();
    auto* s = stream ? static_cast<ptosim::Stream*>(stream) : d.default_stream();
    if (!d.is_stream(s))
        return fail(ptosim::err::kInvalidParam,
                    "ptosim_synchronize: " + hex(reinterpret_cast<uintptr_t>(stream)) +
                        " is not a live stream; pass a stream handle from ptosim/ACL, or null for the default stream");
    // The kernel is left running: ptolab's Python layer may synchronise again to wait for a slow kernel.
    ptosim::Status st = s->synchronize(timeout_s > 0 ? timeout_s : ptosim::default_sync_timeout_s(),
                                       ptosim::Stream::OnTimeout::Keep);
    return st.ok() ? 0 : fail(st.code, "ptosim_synchronize: " + st.message);
}

int ptosim_synchronize_all(double timeout_s) {
    Device& d = Device::get();
    const double limit = timeout_s > 0 ? timeout_s : ptosim::default_sync_timeout_s();
    std::vector<ptosim::Stream*> streams;
    {
        std::lock_guard lk(d.impl().mu);
        streams.assign(d.impl().streams.begin(), d.impl().streams.end());
    }
    int first = 0;
    for (ptosim::Stream* s : streams) {
        // A stream destroyed since the snapshot drained its work when it went.
        if (!d.is_stream(s)) continue;
        ptosim::Status st = s->synchronize(limit, ptosim::Stream::OnTimeout::Keep);
        if (!st.ok() && first == 0) first = fail(st.code, "ptosim_synchronize: " + st.message);
    }
    return first;
}

double ptosim_default_sync_timeout_s(void) { return ptosim::default_sync_timeout_s(); }

const char* ptosim_last_error(void) { return ptosim::last_error(); }

}  // extern "C"
