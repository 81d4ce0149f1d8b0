// torch's CPU allocator as the simulated torch_npu installs it. At the C++
// level an npu tensor is a CPU tensor over ptosim device memory, so
// at::empty_like(x), at::empty(..., x.options()) and torch::zeros_like(x) in
// an extension reach this allocator with nothing that says "npu". While the
// calling thread is inside an extension call given an npu tensor
// (_extensions.py raises the scope), it allocates aclrtMalloc blocks, as
// torch_npu's NPU allocator does on a device; otherwise it is torch's own.
// The symbols of libptosim resolve at load: the simulated torch_npu loaded
// it with RTLD_GLOBAL.
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <mutex>
#include <unordered_set>

extern "C" {
int aclrtMalloc(void** devPtr, size_t size, int policy);
int aclrtFree(void* devPtr);
const char* aclGetRecentErrMsg();
void ptosim_host_wrote(const void* ptr, uint64_t bytes);
}

namespace {

thread_local int t_scope = 0;

// Device blocks this allocator handed out, for raw_deleter, which gets only
// the pointer (allocate's DataPtr carries the right deleter itself).
std::mutex g_mu;
std::unordered_set<void*> g_device;
c10::DeleterFnPtr g_host_raw = nullptr;

void free_device(void* p) {
    {
        std::lock_guard<std::mutex> lk(g_mu);
        g_device.erase(p);
    }
    aclrtFree(p);
}

class ScopedDeviceAllocator final : public c10::Allocator {
public:
    explicit ScopedDeviceAllocator(c10::Allocator* host) : host_(host) {}

    c10::DataPtr allocate(size_t n) const override {
        if (t_scope == 0 || n == 0) return host_->allocate(n);
        void* p = nullptr;
        const int rc = aclrtMalloc(&p, n, 0);
        TORCH_CHECK(rc == 0 && p, "torch_npu (ptosim): aclrtMalloc(", n, ") for a tensor an extension made failed (",
                    rc, "): ", aclGetRecentErrMsg());
        // Host code in the extension may fill it (zeros_like, fill_) where the
        // device would run a kernel; initcheck cannot see those writes.
        ptosim_host_wrote(p, n);
        {
            std::lock_guard<std::mutex> lk(g_mu);
            g_device.insert(p);
        }
        return {p, p, &free_device, c10::Device(c10::DeviceType::CPU)};
    }

    c10::DeleterFnPtr raw_deleter() const override { return g_host_raw ? &raw_free : nullptr; }

private:
    static void raw_free(void* p) {
        {
            std::lock_guard<std::mutex> lk(g_mu);
            if (g_device.count(p) == 0) return g_host_raw(p);
        }
        free_device(p);
    }
    c10::Allocator* host_;
};

void install() {
    c10::Allocator* host = c10::GetCPUAllocator();
    g_host_raw = host->raw_deleter();
    static ScopedDeviceAllocator allocator(host);
    // Above the default priority, so that torch keeps it.
    c10::SetCPUAllocator(&allocator, 1);
}

const bool installed = (install(), true);

}  // namespace

extern "C" void ptosim_torch_device_scope(int delta) { t_scope += delta; }
