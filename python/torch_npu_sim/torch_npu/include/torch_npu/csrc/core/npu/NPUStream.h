// torch_npu's stream getters for extensions built against the simulated
// torch_npu (ptolab, docs/torch_npu.md). getCurrentNPUStream() is the stream
// the calling thread selected in Python (torch.npu.set_stream /
// torch.npu.stream()), kept per thread by libptosim; getDefaultNPUStream() is
// ptosim's default aclrtStream, the one torch.npu.default_stream() wraps.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <c10/core/Device.h>

typedef void *aclrtStream;

namespace c10_npu {

namespace detail {
// Resolved at run time: `import torch_npu` loads libptosim globally before
// any extension, so the extension needs no link line of its own.
inline aclrtStream ptosim_stream(const char *symbol) {
    using Fn = void *(*)();
    void *sym = dlsym(RTLD_DEFAULT, symbol);
    if (!sym) {
        if (void *h = dlopen("libptosim.so", RTLD_NOW | RTLD_NOLOAD)) sym = dlsym(h, symbol);
    }
    if (!sym) {
        throw std::runtime_error(
            "c10_npu::getCurrentNPUStream: the simulator (libptosim.so) is not loaded; import torch_npu (ptolab's "
            "simulated one, PTOLAB_TORCH_NPU=sim) before calling into this extension");
    }
    return reinterpret_cast<Fn>(sym)();
}
}  // namespace detail

class NPUStream {
public:
    explicit NPUStream(aclrtStream s, c10::DeviceIndex index = 0) : stream_(s), index_(index) {}
    // need_empty mirrors torch_npu's flag (drain its task queue first); ptosim
    // queues launches on the stream itself, so there is nothing to drain.
    aclrtStream stream(bool need_empty = true) const {
        (void)need_empty;
        return stream_;
    }
    operator aclrtStream() const { return stream_; }
    c10::DeviceIndex device_index() const { return index_; }
    int64_t id() const { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(stream_)); }
    bool operator==(const NPUStream &o) const { return stream_ == o.stream_; }
    bool operator!=(const NPUStream &o) const { return stream_ != o.stream_; }

private:
    aclrtStream stream_;
    c10::DeviceIndex index_;
};

inline NPUStream getCurrentNPUStream(c10::DeviceIndex device_index = -1) {
    return NPUStream(detail::ptosim_stream("ptosim_current_stream"), device_index < 0 ? 0 : device_index);
}

inline NPUStream getDefaultNPUStream(c10::DeviceIndex device_index = -1) {
    return NPUStream(detail::ptosim_stream("ptosim_default_stream"), device_index < 0 ? 0 : device_index);
}

}  // namespace c10_npu
