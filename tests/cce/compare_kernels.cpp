// Kernels on the A2A3 compare, select, reduction and broadcast intrinsics
// alone (docs/intrinsics/compare.md, reduce.md), built by ptocc over
// ptosim's intrinsic layer. Each stages its inputs into UB, runs the
// intrinsics under test and sends a result region back.
#include <cstdint>

namespace {
constexpr uint64_t kA = 0x0, kB = 0x800, kMask = 0x1000, kTmp = 0x1400, kOut = 0x2000;

template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }

__aicore__ void in(uint64_t at, __gm__ void* src, uint32_t bytes) {
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(at), (__gm__ uint32_t*)src, 0, 1, bytes, 0, 0, 0, 0);
}
__aicore__ void go_v() {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
__aicore__ void out(__gm__ void* dst, uint64_t at, uint32_t bytes) {
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)dst, ub<uint32_t>(at), 0, 1, bytes, 0, 0, 0, 0);
}
}  // namespace

// Bits into UB: vcmpv_lt of 128 floats (two repeats, 8 bytes each) at
// out[0..16); vcmpv_ne of the same at out[16..32); vcmpvs_ge of 128 halves
// against 2.0 (one repeat, 16 bytes) at out[32..48). The mask register holds
// one slot only: vcmpv and vcmpvs ignore it.
__global__ __aicore__ void compare_bits(__gm__ uint8_t* o, __gm__ float* a, __gm__ float* b, __gm__ half* h) {
    in(kA, a, 128 * 4);
    in(kB, b, 128 * 4);
    in(kTmp, h, 128 * 2);
    go_v();
    set_vector_mask(0, 1);
    vcmpv_lt(ub<uint8_t>(kOut), ub<float>(kA), ub<float>(kB), 2, 1, 1, 1, 8, 8, 8);
    vcmpv_ne(ub<uint8_t>(kOut + 16), ub<float>(kA), ub<float>(kB), 2, 1, 1, 1, 8, 8, 8);
    vcmpvs_ge(ub<uint8_t>(kOut + 32), ub<half>(kTmp), half(2.0f), 1, 1, 1, 8, 8);
    set_vector_mask(-1, -1);
    out(o, kOut, 64);
}

// The compare mask register: set_cmpmask loads 0x0F0F... from UB; vcmp_gt
// under an eight-slot mask rewrites only bits 0..7; vsel in mode 0 then picks
// a (bit 1) or b (bit 0) for each slot of both repeats alike, into o[0..128)
// with mode 0 given and into o[128..256) with the mode left out.
__global__ __aicore__ void select_register(__gm__ float* o, __gm__ float* a, __gm__ float* b) {
    in(kA, a, 128 * 4);
    in(kB, b, 128 * 4);
    go_v();
    __ubuf__ uint64_t* m = ub<uint64_t>(kMask);
    m[0] = 0x0F0F0F0F0F0F0F0Full;
    m[1] = 0;
    pipe_barrier(PIPE_ALL);
    set_cmpmask(m);
    pipe_barrier(PIPE_V);
    set_vector_mask(0, 0xff);
    vcmp_gt(ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8);
    set_vector_mask(-1, -1);
    pipe_barrier(PIPE_V);
    vsel(ub<float>(kOut), ub<float>(kA), ub<float>(kB), 2, 1, 1, 1, 8, 8, 8, 0);
    // The form without a mode selects as mode 0.
    vsel(ub<float>(kOut + 128 * 4), ub<float>(kA), ub<float>(kB), 2, 1, 1, 1, 8, 8, 8);
    out(o, kOut, 256 * 4);
}

// vsel mode 1 (bits at src1, the constant -7 from the register) and mode 2
// (bits at the address the register holds) over 100 floats in counter mode;
// out[0..104) and out[104..208) start as 5.0, so the four after each count
// show what was not written.
__global__ __aicore__ void select_ub(__gm__ float* o, __gm__ float* a, __gm__ float* b, __gm__ uint8_t* bits) {
    in(kA, a, 128 * 4);
    in(kB, b, 128 * 4);
    in(kMask, bits, 16);
    go_v();
    vector_dup(ub<float>(kOut), 5.0f, 4, 1, 1, 8, 8);
    __ubuf__ float* constant = ub<float>(kTmp);
    constant[0] = -7.0f;
    pipe_barrier(PIPE_ALL);
    set_cmpmask(constant);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 100);
    vsel(ub<float>(kOut), ub<float>(kA), ub<uint8_t>(kMask), 1, 1, 1, 1, 8, 8, 8, 1);
    set_mask_norm();
    set_vector_mask(-1, -1);
    __ubuf__ uint32_t* addr = ub<uint32_t>(kTmp + 32);
    addr[0] = static_cast<uint32_t>(kMask);
    pipe_barrier(PIPE_ALL);
    set_cmpmask(addr);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 100);
    vsel(ub<float>(kOut + 104 * 4), ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8, 2);
    set_mask_norm();
    set_vector_mask(-1, -1);
    out(o, kOut, 208 * 4);
}

// Per-repeat reductions of 128 floats (two repeats): vcadd under a mask of
// the low four slots into out[0], out[2] (dstRepeatStride 2 elements);
// vcmax VALUE_INDEX into out[4..8) (value, index bits); vcmin ONLY_INDEX
// into out[8..10); vcmax ONLY_VALUE into out[10..12).
__global__ __aicore__ void reduce_repeat(__gm__ float* o, __gm__ float* a) {
    in(kA, a, 128 * 4);
    go_v();
    vector_dup(ub<float>(kOut), -1.0f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    set_vector_mask(0, 0xf);
    vcadd(ub<float>(kOut), ub<float>(kA), 2, 2, 1, 8, false);
    set_vector_mask(-1, -1);
    vcmax(ub<float>(kOut + 4 * 4), ub<float>(kA), 2, 1, 1, 8, VALUE_INDEX);
    vcmin(ub<float>(kOut + 8 * 4), ub<float>(kA), 2, 1, 1, 8, ONLY_INDEX);
    vcmax(ub<float>(kOut + 10 * 4), ub<float>(kA), 2, 1, 1, 8, ONLY_VALUE);
    out(o, kOut, 16 * 4);
}

// vcadd of 128 halves whose pairwise tree overflows: out[0]. vcgadd of 64
// floats, one sum per block: out[8..16) as floats; vcgmin of them:
// out[16..24); vcpadd of 13 floats in counter mode: out[24..32); vcpadd of
// the same 64 floats twice (source repeat stride 0), results one 128-byte
// destination stride apart: out[32..96).
__global__ __aicore__ void reduce_block(__gm__ float* o, __gm__ half* h, __gm__ float* a) {
    in(kTmp, h, 128 * 2);
    in(kA, a, 64 * 4);
    go_v();
    vector_dup(ub<float>(kOut), -1.0f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vcadd(ub<half>(kOut), ub<half>(kTmp), 1, 1, 1, 8, false);
    vcgadd(ub<float>(kOut + 8 * 4), ub<float>(kA), 1, 1, 1, 8);
    vcgmin(ub<float>(kOut + 16 * 4), ub<float>(kA), 1, 1, 1, 8);
    set_mask_count();
    set_vector_mask(0, 13);
    vcpadd(ub<float>(kOut + 24 * 4), ub<float>(kA), 0, 1, 1, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    vcpadd(ub<float>(kOut + 32 * 4), ub<float>(kA), 2, 1, 1, 0);
    out(o, kOut, 96 * 4);
}

// vbrcb of 16 words, two repeats, blocks two apart and repeats 16 blocks
// apart, over a region preset to 0xEEEEEEEE: out[0..256) words.
__global__ __aicore__ void broadcast(__gm__ uint32_t* o, __gm__ uint32_t* a) {
    in(kA, a, 16 * 4);
    go_v();
    vector_dup(ub<uint32_t>(kOut), 0xEEEEEEEEu, 4, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vbrcb(ub<uint32_t>(kOut), ub<uint32_t>(kA), 2, 16, 2);
    out(o, kOut, 256 * 4);
}

// vcgmax, vcgmin and vcgadd of two repeats of 64 floats under a full mask,
// eight results a repeat side by side: out[0..16), out[16..32), out[32..48).
__global__ __aicore__ void reduce_block_f32(__gm__ float* o, __gm__ float* a) {
    in(kA, a, 128 * 4);
    go_v();
    vcgmax(ub<float>(kOut), ub<float>(kA), 2, 1, 1, 8);
    vcgmin(ub<float>(kOut + 16 * 4), ub<float>(kA), 2, 1, 1, 8);
    vcgadd(ub<float>(kOut + 32 * 4), ub<float>(kA), 2, 1, 1, 8);
    vcgadd(ub<float>(kOut + 48 * 4), ub<float>(kA + 64 * 4), 1, 1, 1, 8);  // the NaN-free second repeat alone
    out(o, kOut, 56 * 4);
}

extern "C" void launch_reduce_block_f32(float* o, float* a, void* s) { reduce_block_f32<<<1, nullptr, s>>>(o, a); }
extern "C" void launch_compare_bits(uint8_t* o, float* a, float* b, void* h, void* s) {
    compare_bits<<<1, nullptr, s>>>(o, a, b, (half*)h);
}
extern "C" void launch_select_register(float* o, float* a, float* b, void* s) { select_register<<<1, nullptr, s>>>(o, a, b); }
extern "C" void launch_select_ub(float* o, float* a, float* b, uint8_t* bits, void* s) {
    select_ub<<<1, nullptr, s>>>(o, a, b, bits);
}
extern "C" void launch_reduce_repeat(float* o, float* a, void* s) { reduce_repeat<<<1, nullptr, s>>>(o, a); }
extern "C" void launch_reduce_block(float* o, void* h, float* a, void* s) { reduce_block<<<1, nullptr, s>>>(o, (half*)h, a); }
extern "C" void launch_broadcast(uint32_t* o, uint32_t* a, void* s) { broadcast<<<1, nullptr, s>>>(o, a); }
