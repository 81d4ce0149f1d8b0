// A5 SIMT vector functions as pto-isa's MGATHER and MSCATTER write them:
// __simt_vf__ bodies started by cce::async_invoke over a 32-wide thread
// block, reading indices from UB, gathering from GM into UB, scattering into
// GM with atomics. Built by ptocc for dav-c310-vec over ptosim's SIMT layer.
#include <cstdint>

#include "kernel_sync.hpp"

namespace {
constexpr uint64_t kIdx = 0x0, kSrc = 0x2000, kOut = 0x4000;

// dst[t] = table[idx[t]] for the n first threads of the block.
__simt_vf__ LAUNCH_BOUND(1024) void gather_body(__ubuf__ float* dst, __gm__ const float* table,
                                                __ubuf__ const uint32_t* idx, uint32_t n) {
    const uint32_t t = threadIdx.y * blockDim.x + threadIdx.x;
    if (t < n) dst[t] = table[idx[t]];
}

// Each thread's built-in variables and the order it ran in (the value its
// atomicAdd on the block's counter found).
__simt_vf__ void ids_body(__gm__ uint32_t* out, __gm__ int32_t* counter) {
    const uint32_t t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const uint32_t threads = blockDim.x * blockDim.y * blockDim.z;
    __gm__ uint32_t* o = out + (blockIdx.x * threads + t) * 8;
    o[0] = threadIdx.x;
    o[1] = threadIdx.y;
    o[2] = threadIdx.z;
    o[3] = blockDim.x * 100 + blockDim.y * 10 + blockDim.z;
    o[4] = blockIdx.x;
    o[5] = gridDim.x;
    o[6] = static_cast<uint32_t>(atomicAdd(counter + blockIdx.x, 1));
    o[7] = __cce_simt_get_TID_X() + 10 * __cce_simt_get_TID_Y() + 100 * __cce_simt_get_TID_Z();
}

// table[idx[t]] += src[t] (int32 and float), and the float table's maximum.
__simt_vf__ LAUNCH_BOUND(1024) void scatter_body(__gm__ int32_t* table, __gm__ float* ftable, __gm__ float* fmax,
                                                 __ubuf__ const int32_t* src, __ubuf__ const uint32_t* idx,
                                                 uint32_t n) {
    const uint32_t t = threadIdx.y * 32 + threadIdx.x;
    if (t >= n) return;
    atomicAdd(&table[idx[t]], src[t]);
    atomicAdd(&ftable[idx[t]], static_cast<float>(src[t]) * 0.25f);
    atomicMax(&fmax[idx[t]], static_cast<float>(src[t]));
}

// Thread (5, 1, 0) of block 1 reaches a block barrier the others never do.
__simt_vf__ void barrier_body(__gm__ int32_t* out) {
    out[threadIdx.y * 8 + threadIdx.x] = 1;
    if (blockIdx.x == 1 && threadIdx.x == 5 && threadIdx.y == 1) __sync_workitems();  // line: barrier
}

// Each warp sums its threads' values; thread x = 0 of each warp leaves the
// sum in UB; after the block barrier every thread reads all of them back and
// adds e^(-1) as the engram kernels' gate does. Values with a fractional part
// show the sum's order.
__simt_vf__ LAUNCH_BOUND(1024) void warp_sum_body(__gm__ float* out, __ubuf__ float* scratch) {
    const uint32_t t = threadIdx.y * 32 + threadIdx.x;
    const float v = static_cast<float>(t) + 1.0f / static_cast<float>(t + 3);
    const float warp = __builtin_cce_redux_add_f32(v);
    if (threadIdx.x == 0) scratch[threadIdx.y] = warp;
    __sync_workitems();
    float all = __builtin_cce_expf(-1.0f);
    for (uint32_t w = 0; w < blockDim.y; ++w) all += scratch[w];
    out[t * 2] = warp;
    out[t * 2 + 1] = all;
}

// Half a warp sums while the other half waits at a barrier: neither goes on.
__simt_vf__ void mismatch_body(__gm__ int32_t* out) {
    if (threadIdx.x < 16) out[threadIdx.x] = static_cast<int32_t>(__builtin_cce_redux_add_f32(1.0f));  // line: warp sum
    else __sync_workitems();  // line: mismatched barrier
}

__simt_vf__ void empty_body(__gm__ int32_t*) {}

// Each thread, 100 frames of a kilobyte down its stack, before and after a
// block barrier: the core ptosim::core() finds (its block index), whether the
// stack is a SIMT slot of the fiber-stack region naming the thread-local core
// (include/ptosim/core.hpp), and blockIdx.x.
[[gnu::noinline]] __simt_callee__ void deep_core(__gm__ uint32_t* o, int n) {
    volatile char frame[1024];
    frame[0] = static_cast<char>(n);
    if (n > 0) {
        deep_core(o, n - 1);
        o[3] += static_cast<uint32_t>(frame[0] - static_cast<char>(n));  // keeps the frame
        return;
    }
    const uintptr_t sp = ptosim::detail::stack_pointer();
    const ptosim::detail::FiberStackTop* top = ptosim::detail::fiber_stack_top(sp);
    const bool simt_slot = sp - ptosim::detail::g_fiber_stack_base >= ptosim::detail::kCoreStackArea;
    o[0] = static_cast<uint32_t>(ptosim::core().block_idx);
    o[1] = top && simt_slot && top->core == ptosim::detail::thread_core() ? 1u : 0u;
    o[2] = blockIdx.x;
}
__simt_vf__ void core_body(__gm__ uint32_t* out) {
    const uint32_t t = threadIdx.y * blockDim.x + threadIdx.x;
    __gm__ uint32_t* o = out + (blockIdx.x * 24 + t) * 8;
    deep_core(o, 100);
    __sync_workitems();
    deep_core(o + 4, 100);
}

// Thread 3 stores through an address no allocation holds.
__simt_vf__ void crash_body(__gm__ int32_t* out, uint64_t wild) {
    if (threadIdx.x == 3) out = (__gm__ int32_t*)wild;
    out[threadIdx.x] = 1;
}
}  // namespace

__global__ __aicore__ void simt_gather(__gm__ float* out, __gm__ float* table, __gm__ uint32_t* idx, uint32_t n) {
    copy_gm_to_ubuf_align_v2(ub<uint32_t>(kIdx), idx, 0, 1, n * sizeof(uint32_t), 0, 0, false, 0, 0, 0);
    mte2_to_v();
    // The indices as a pointer to non-const: a UB range the body may write but does not.
    __ubuf__ float* dst = ub<float>(kOut);
    __ubuf__ uint32_t* ix = ub<uint32_t>(kIdx);
    cce::async_invoke<gather_body>(cce::dim3{32, (n + 31) / 32}, dst, table, ix, n);  // line: gather start
    v_to_mte3();
    copy_ubuf_to_gm_align_v2(out, ub<float>(kOut), 0, 1, n * sizeof(float), 0, 0, 0);
}

// The gather with the vector pipe's wait before MTE3 left out.
__global__ __aicore__ void simt_gather_unsynced(__gm__ float* out, __gm__ float* table, __gm__ uint32_t* idx,
                                                uint32_t n) {
    copy_gm_to_ubuf_align_v2(ub<uint32_t>(kIdx), idx, 0, 1, n * sizeof(uint32_t), 0, 0, false, 0, 0, 0);
    mte2_to_v();
    cce::async_invoke<gather_body>(cce::dim3{32, (n + 31) / 32}, ub<float>(kOut), table, ub<uint32_t>(kIdx), n);
    copy_ubuf_to_gm_align_v2(out, ub<float>(kOut), 0, 1, n * sizeof(float), 0, 0, 0);  // unsynced store
}

__global__ __aicore__ void simt_ids(__gm__ uint32_t* out, __gm__ int32_t* counter) {
    cce::async_invoke<ids_body>(cce::dim3{4, 3, 2}, out, counter);
}

__global__ __aicore__ void simt_scatter(__gm__ int32_t* table, __gm__ float* ftable, __gm__ float* fmax,
                                        __gm__ int32_t* src, __gm__ uint32_t* idx, uint32_t n) {
    copy_gm_to_ubuf_align_v2(ub<uint32_t>(kIdx), idx, 0, 1, n * sizeof(uint32_t), 0, 0, false, 0, 0, 0);
    copy_gm_to_ubuf_align_v2(ub<int32_t>(kSrc), src, 0, 1, n * sizeof(int32_t), 0, 0, false, 0, 0, 0);
    mte2_to_v();
    cce::async_invoke<scatter_body>(cce::dim3{32, (n + 31) / 32}, table, ftable, fmax, ub<int32_t>(kSrc),
                                    ub<uint32_t>(kIdx), n);
}

__global__ __aicore__ void simt_barrier(__gm__ int32_t* out) {
    cce::async_invoke<barrier_body>(cce::dim3{8, 2}, out);  // line: barrier start
}

__global__ __aicore__ void simt_warp_sum(__gm__ float* out) {
    cce::async_invoke<warp_sum_body>(cce::dim3{32, 3}, out, ub<float>(kOut));
}

__global__ __aicore__ void simt_mismatch(__gm__ int32_t* out) {
    cce::async_invoke<mismatch_body>(cce::dim3{32}, out);  // line: mismatch start
}

__global__ __aicore__ void simt_outside(__gm__ uint32_t* out) {
    out[0] = threadIdx.x;  // line: outside
}

__global__ __aicore__ void simt_too_many(__gm__ int32_t* out) {
    cce::async_invoke<empty_body>(cce::dim3{64, 33}, out);  // line: too many
}

__global__ __aicore__ void simt_core(__gm__ uint32_t* out) {
    cce::async_invoke<core_body>(cce::dim3{8, 3}, out);
}

__global__ __aicore__ void simt_crash(__gm__ int32_t* out) {
    cce::async_invoke<crash_body>(cce::dim3{8}, out, uint64_t{16});  // line: crash
}

extern "C" void launch_simt_gather(float* out, float* table, uint32_t* idx, uint32_t n, void* s) {
    simt_gather<<<1, nullptr, s>>>(out, table, idx, n);
}
extern "C" void launch_simt_gather_unsynced(float* out, float* table, uint32_t* idx, uint32_t n, void* s) {
    simt_gather_unsynced<<<1, nullptr, s>>>(out, table, idx, n);
}
// Launched as pto-isa launches its SIMT kernels with dynamic UB bytes.
extern "C" void launch_simt_ids(uint32_t* out, int32_t* counter, uint32_t blocks, void* s) {
    simt_ids<<<blocks, (uint32_t)8192, s>>>(out, counter);
}
extern "C" void launch_simt_scatter(int32_t* table, float* ftable, float* fmax, int32_t* src, uint32_t* idx,
                                    uint32_t n, void* s) {
    simt_scatter<<<1, nullptr, s>>>(table, ftable, fmax, src, idx, n);
}
extern "C" void launch_simt_barrier(int32_t* out, void* s) { simt_barrier<<<2, nullptr, s>>>(out); }
extern "C" void launch_simt_warp_sum(float* out, void* s) { simt_warp_sum<<<1, nullptr, s>>>(out); }
extern "C" void launch_simt_mismatch(int32_t* out, void* s) { simt_mismatch<<<1, nullptr, s>>>(out); }
extern "C" void launch_simt_outside(uint32_t* out, void* s) { simt_outside<<<1, nullptr, s>>>(out); }
extern "C" void launch_simt_too_many(int32_t* out, void* s) { simt_too_many<<<1, nullptr, s>>>(out); }
extern "C" void launch_simt_core(uint32_t* out, uint32_t blocks, void* s) { simt_core<<<blocks, nullptr, s>>>(out); }
extern "C" void launch_simt_crash(int32_t* out, void* s) { simt_crash<<<1, nullptr, s>>>(out); }
