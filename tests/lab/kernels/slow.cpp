// A kernel that outlives any short synchronisation limit (it sleeps on the
// simulated core), to exercise the per-sync layer of hang detection.
#include <pto/pto-inst.hpp>
#include <unistd.h>

__global__ AICORE void slow_kernel(__gm__ float* y, int64_t ms) {
    usleep(static_cast<useconds_t>(ms) * 1000);
    y[0] = 1.0f;
}

extern "C" void call_slow(uint32_t block_dim, void* stream, uint8_t* y, int64_t ms) {
    slow_kernel<<<block_dim, nullptr, stream>>>((__gm__ float*)y, ms);
}
