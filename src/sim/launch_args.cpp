// Part of libptosim: see launch_args.hpp.
#include "launch_args.hpp"

#include "device_impl.hpp"

#include <cstdio>
#include <mutex>
#include <string>

namespace ptosim {
namespace {

// With Device::Impl::mu held.
bool in_registered_block(const Device::Impl& im, uintptr_t a) {
    auto it = im.allocations.upper_bound(a);
    if (it == im.allocations.begin()) return false;
    --it;
    // One past the end counts: it is where an empty view of a block's tail
    // begins, and a kernel given it has nothing to read there.
    return a - it->second.base <= it->second.size;
}

// With Device::Impl::mu held. A program that never had device memory (ptosim's
// own C++ tests, ctypes runs on plain NumPy buffers) runs its kernels on host
// memory by design; once it has, an address outside every block is a mistake.
bool had_device_memory(const Device::Impl& im) {
    if (im.freed_used.load(std::memory_order_acquire) > 0) return true;
    for (const auto& entry : im.allocations)
        if (entry.second.device) return true;
    return false;
}

}  // namespace

Status check_launch_pointers(Device& d, const LaunchSpec& spec) {
    Device::Impl& im = d.impl();
    const uintptr_t ffts = d.ffts_ctrl_addr();
    std::lock_guard lk(im.mu);
    int device_memory = -1;  // not looked up yet: only a suspicious argument pays for the scan
    for (size_t i = 0; i < spec.gm_args.size(); ++i) {
        const uintptr_t a = reinterpret_cast<uintptr_t>(spec.gm_args[i]);
        if (!a || a == ffts || in_registered_block(im, a)) continue;
        if (device_memory < 0) device_memory = had_device_memory(im) ? 1 : 0;
        if (!device_memory) return {};
        // A freed block is reported at the kernel's first access to it, with who freed it.
        if (find_freed(d, a) || im.in_host_quarantine(a)) continue;
        char addr[32];
        std::snprintf(addr, sizeof addr, "%p", spec.gm_args[i]);
        const int code = spec.kind == KernelKind::Vec ? err::kVectorCoreException : err::kAiCoreException;
        return {code, "kernel '" + spec.kernel + "' launched at " + spec.site.str() + ": argument " +
                          std::to_string(i + 1) + " is " + addr +
                          ", host memory in no device block: a device cannot address it. A CPU tensor or host "
                          "buffer passed to the kernel? pass an npu tensor (x.npu()) or aclrtMalloc memory. The "
                          "kernel did not run."};
    }
    return {};
}

}  // namespace ptosim
