// Kernels that take their time before touching memory, so that a host
// operator not in stream order would see the memory before they wrote it, or
// change it before they read it (python/tests_torch_npu/test_stream_order.py).
#include <pto/pto-inst.hpp>
#include <unistd.h>

// y[i] = base + i, written after `ms` milliseconds.
__global__ AICORE void late_iota(__gm__ float* y, float base, int64_t n, int64_t ms) {
    usleep(static_cast<useconds_t>(ms) * 1000);
    for (int64_t i = 0; i < n; ++i) y[i] = base + static_cast<float>(i);
}

// y[i] = 2 * x[i], read after `ms` milliseconds.
__global__ AICORE void late_double(__gm__ float* y, __gm__ float* x, int64_t n, int64_t ms) {
    usleep(static_cast<useconds_t>(ms) * 1000);
    for (int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}

// late_double with untyped pointers, as extensions often declare them.
__global__ AICORE void late_double_untyped(__gm__ void* y, __gm__ void* x, int64_t n, int64_t ms) {
    usleep(static_cast<useconds_t>(ms) * 1000);
    for (int64_t i = 0; i < n; ++i) ((__gm__ float*)y)[i] = 2.0f * ((__gm__ float*)x)[i];
}

extern "C" void call_late_iota(uint32_t block_dim, void* stream, uint8_t* y, float base, int64_t n, int64_t ms) {
    late_iota<<<block_dim, nullptr, stream>>>((__gm__ float*)y, base, n, ms);
}

extern "C" void call_late_double(uint32_t block_dim, void* stream, uint8_t* y, uint8_t* x, int64_t n, int64_t ms) {
    late_double<<<block_dim, nullptr, stream>>>((__gm__ float*)y, (__gm__ float*)x, n, ms);
}

extern "C" void call_late_double_untyped(uint32_t block_dim, void* stream, void* y, void* x, int64_t n, int64_t ms) {
    late_double_untyped<<<block_dim, nullptr, stream>>>(y, x, n, ms);
}
