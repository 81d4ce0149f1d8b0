// Kernels of two core types in one library, and launches that need both
// (tests/cce/test_cce_cross_launch.cpp). The source is built twice, as
// pto-isa's syncall testcase builds its 1:1 pair: once for the Cube core
// (-DCROSS_CUBE, dav-c220-cube) and once for the Vector core (-DCROSS_VEC,
// dav-c220-vec). The Cube object holds every launch, the Vector kernel's
// among them: it must run on Vector cores, the type of the unit defining it.
//
// Participant p (Cube block b: p = b; Vector block b: p = cube_blocks + b)
// copies in[p * 8] to slots[p * 8] (a Vector core through its UB), adds one
// to counter[0], spins on ld_dev until every participant of both launches
// has added, then writes the sum of all slots to sums[p] and its core type
// (1 Cube, 2 Vector) to types[p]. The sum is right only if every slot was
// written before anyone passed the barrier.
//
// A third build (-DCROSS_MIX, dav-c220 with --cce-soc-core-type=Mix: a mix unit)
// launches the Vector kernel too, which ptosim refuses by name.
#include <cstdint>

#include "kernel_sync.hpp"

namespace {
constexpr int kSlot = 8;  // int32 per participant: one 32-byte block

__aicore__ void arrive_and_wait(__gm__ int32_t* counter, int32_t total) {
    set_st_atomic_cfg(ATOMIC_S32, ATOMIC_SUM);
    st_atomic<int32_t>(1, counter);
    while (ld_dev(counter, 0) < total) {
    }
}

__aicore__ void sum_slots(__gm__ int32_t* slots, __gm__ int32_t* sums, __gm__ int32_t* types, int32_t p,
                          int32_t total, int32_t type) {
    int32_t s = 0;
    for (int32_t i = 0; i < total; ++i) s += ld_dev(slots + i * kSlot, 0);
    sums[p] = s;
    types[p] = type;
}
}  // namespace

#if defined(CROSS_CUBE)
extern "C" __global__ __aicore__ void cross_vec(__gm__ int32_t* in, __gm__ int32_t* slots, __gm__ int32_t* counter,
                                                __gm__ int32_t* sums, __gm__ int32_t* types, int32_t cube_blocks,
                                                int32_t total);

extern "C" __global__ __aicore__ void cross_cube(__gm__ int32_t* in, __gm__ int32_t* slots, __gm__ int32_t* counter,
                                                 __gm__ int32_t* sums, __gm__ int32_t* types, int32_t cube_blocks,
                                                 int32_t total) {
    const int32_t p = static_cast<int32_t>(get_block_idx());
    slots[p * kSlot] = in[p * kSlot];
    arrive_and_wait(counter, total);
    sum_slots(slots, sums, types, p, total, 1);
}

// The Cube kernel on `cube_stream`, then the Vector kernel on `vec_stream`:
// each waits in its barrier for the other's participants.
extern "C" void launch_pair(int32_t* in, int32_t* slots, int32_t* counter, int32_t* sums, int32_t* types,
                            int32_t cube_blocks, int32_t vec_blocks, void* cube_stream, void* vec_stream) {
    const int32_t total = cube_blocks + vec_blocks;
    cross_cube<<<cube_blocks, nullptr, cube_stream>>>(in, slots, counter, sums, types, cube_blocks, total);
    cross_vec<<<vec_blocks, nullptr, vec_stream>>>(in, slots, counter, sums, types, cube_blocks, total);
}

// The Vector kernel alone, launched from this Cube translation unit.
extern "C" void launch_vec(int32_t* in, int32_t* slots, int32_t* counter, int32_t* sums, int32_t* types,
                           int32_t vec_blocks, void* stream) {
    cross_vec<<<vec_blocks, nullptr, stream>>>(in, slots, counter, sums, types, 0, vec_blocks);
}
#endif

#if defined(CROSS_VEC)
extern "C" __global__ __aicore__ void cross_vec(__gm__ int32_t* in, __gm__ int32_t* slots, __gm__ int32_t* counter,
                                                __gm__ int32_t* sums, __gm__ int32_t* types, int32_t cube_blocks,
                                                int32_t total) {
    const int32_t p = cube_blocks + static_cast<int32_t>(get_block_idx());
    // Through the UB, which only a Vector core has.
    copy_gm_to_ubuf_align_b32(ub<int32_t>(0), in + p * kSlot, 0, 1, kSlot * 4, 0, 0, 0, 0);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm_align_b32(slots + p * kSlot, ub<int32_t>(0), 0, 1, kSlot * 4, 0, 0, 0, 0);
    pipe_barrier(PIPE_ALL);
    arrive_and_wait(counter, total);
    sum_slots(slots, sums, types, p, total, 2);
}
#endif

#if defined(CROSS_MIX)
extern "C" __global__ __aicore__ void cross_vec(__gm__ int32_t* in, __gm__ int32_t* slots, __gm__ int32_t* counter,
                                                __gm__ int32_t* sums, __gm__ int32_t* types, int32_t cube_blocks,
                                                int32_t total);

// The Vector kernel launched from a mix translation unit.
extern "C" void launch_vec_from_mix(int32_t* in, int32_t* slots, int32_t* counter, int32_t* sums, int32_t* types,
                                    int32_t vec_blocks, void* stream) {
    cross_vec<<<vec_blocks, nullptr, stream>>>(in, slots, counter, sums, types, 0, vec_blocks);
}
#endif
