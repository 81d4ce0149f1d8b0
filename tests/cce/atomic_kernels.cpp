// Kernels on the A2A3 scalar GM atomics alone (docs/intrinsics/atomic.md):
// a counter every block adds to and then polls, as pto-isa's soft SyncAll
// does, and a float maximum.
#include <cstdint>

// Block b adds b + 1 to counter[0] and the float b * 1.5 into fmax[0] by
// maximum, then spins on ld_dev until all four have added, and reports what
// it read in seen[b].
__global__ __aicore__ void counter(__gm__ int32_t* counter, __gm__ float* fmax, __gm__ int32_t* seen) {
    const int32_t b = static_cast<int32_t>(get_block_idx());
    set_st_atomic_cfg(ATOMIC_S32, ATOMIC_SUM);
    st_atomic<int32_t>(b + 1, counter);
    set_st_atomic_cfg(ATOMIC_F32, ATOMIC_MAX);
    st_atomic<float>(b * 1.5f, fmax);
    int32_t now = 0;
    while ((now = ld_dev(counter, 0)) < 10) {
    }
    seen[b] = now;
}

extern "C" void launch_counter(int32_t* c, float* f, int32_t* seen, void* s) { counter<<<4, nullptr, s>>>(c, f, seen); }
