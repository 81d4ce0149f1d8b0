// Kernels on the A2A3 int4, dequantising and fused relu-conversion
// intrinsics alone (docs/intrinsics/convert.md), built by ptocc over
// ptosim's intrinsic layer.
#include <cstdint>

namespace {
constexpr uint64_t kA = 0x0, kB = 0x400, kOut = 0x1000;

template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }

__aicore__ void in(uint64_t at, __gm__ void* src, uint32_t bytes) {
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(at), (__gm__ uint32_t*)src, 0, 1, bytes, 0, 0, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
__aicore__ void out(__gm__ void* dst, uint64_t at, uint32_t bytes) {
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)dst, ub<uint32_t>(at), 0, 1, bytes, 0, 0, 0, 0);
}
}  // namespace

// 128 halves to int4 rounded to nearest (o[0..64)) and toward zero
// (o[64..128)), then the first back to halves (o[128..384)).
__global__ __aicore__ void int4(__gm__ uint8_t* o, __gm__ half* h) {
    in(kA, h, 256);
    vconv_f162s4r(ub<void>(kOut), ub<half>(kA), 1, 1, 1, 8, 8);
    vconv_f162s4z(ub<void>(kOut + 64), ub<half>(kA), 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vconv_s42f16(ub<half>(kOut + 128), ub<void>(kOut), 1, 1, 1, (uint8_t)8, (uint8_t)8);
    out(o, kOut, 384);
}

// 64 int32 times the half scale 0.5 into halves.
__global__ __aicore__ void deq(__gm__ half* o, __gm__ int32_t* s) {
    in(kA, s, 256);
    set_deqscale(half(0.5f));
    pipe_barrier(PIPE_V);
    vconv_deq(ub<half>(kOut), ub<int32_t>(kA), 1, 1, 1, 4, 8);
    out(o, kOut, 128);
}

// vaddreluconv_f162s8 of 128 halves (o[0..128)) and vsubreluconv_s162s8 of
// 128 int16 (o[128..256)).
__global__ __aicore__ void reluconv(__gm__ int8_t* o, __gm__ half* a, __gm__ half* b, __gm__ int16_t* c,
                                    __gm__ int16_t* d) {
    in(kA, a, 256);
    in(kB, b, 256);
    vaddreluconv_f162s8(ub<int8_t>(kOut), ub<half>(kA), ub<half>(kB), 1, 1, 1, 1, 4, 8, 8, false);
    in(kA, c, 256);
    in(kB, d, 256);
    vsubreluconv_s162s8(ub<int8_t>(kOut + 128), ub<int16_t>(kA), ub<int16_t>(kB), 1, 1, 1, 1, 4, 8, 8, false);
    out(o, kOut, 256);
}

// CTRL[59] set: conversions to integers keep the low bits. Eight halves to
// int8 (o[0..8)) and eight int32 to int16 (o[8..24) bytes), then the same with
// the bit clear (o[32..40), o[40..56)).
__global__ __aicore__ void wrap(__gm__ int8_t* o, __gm__ half* h, __gm__ int32_t* w) {
    in(kA, h, 32);
    in(kB, w, 32);
    set_vector_mask(0, 0xff);
    set_ctrl(sbitset1(get_ctrl(), 59));
    vconv_f162s8r(ub<int8_t>(kOut), ub<half>(kA), 1, 1, 1, 4, 8);
    vconv_s322s16(ub<int16_t>(kOut + 8), ub<int32_t>(kB), 1, 1, 1, 4, 8);
    set_ctrl(sbitset0(get_ctrl(), 59));
    vconv_f162s8r(ub<int8_t>(kOut + 32), ub<half>(kA), 1, 1, 1, 4, 8);
    vconv_s322s16(ub<int16_t>(kOut + 40), ub<int32_t>(kB), 1, 1, 1, 4, 8);
    set_vector_mask(-1, -1);
    out(o, kOut, 64);
}

// 128 int8 widened to float in place, as TDEQUANT does: to halves at every
// other block of o's area, then each repeat's halves to floats over the same
// bytes (a repeat reads its sources before it writes). Counter mode.
__global__ __aicore__ void widen(__gm__ float* o, __gm__ int8_t* x) {
    in(kA, x, 128);
    set_mask_count();
    set_vector_mask(0, 128);
    vconv_s82f16(ub<half>(kOut), ub<int8_t>(kA), 0, 2, 1, 16, 4);
    pipe_barrier(PIPE_V);
    vconv_f162f32(ub<float>(kOut), ub<half>(kOut), 0, 1, 2, 8, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    out(o, kOut, 512);
}

// 272 int16 widened to float in place from the same start, as TROWARGMAX's
// index output does: repeat r's floats cover the int16s repeat r + 1 reads.
__global__ __aicore__ void widen_rows(__gm__ float* o, __gm__ int16_t* x) {
    in(kOut, x, 544);
    set_mask_count();
    set_vector_mask(0, 272);
    vconv_s162f32(ub<float>(kOut), ub<int16_t>(kOut), 0, 1, 1, 8, 4);
    set_mask_norm();
    set_vector_mask(-1, -1);
    out(o, kOut, 272 * 4);
}

// 128 halves to int32 (nearest even) and 64 floats to int64 (toward zero),
// each into bytes apart from its source: the direct path of a conversion.
__global__ __aicore__ void widen_apart(__gm__ int32_t* o, __gm__ int64_t* o64, __gm__ half* h, __gm__ float* f) {
    in(kA, h, 256);
    in(kB, f, 256);
    vconv_f162s32r(ub<int32_t>(kOut), ub<half>(kA), 2, 1, 1, 8, 4);
    vconv_f322s64z(ub<int64_t>(kOut + 0x400), ub<float>(kB), 2, 1, 1, 8, 4);
    out(o, kOut, 512);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o64, ub<uint32_t>(kOut + 0x400), 0, 1, 512, 0, 0, 0, 0);
}

extern "C" void launch_widen_apart(int32_t* o, int64_t* o64, void* h, float* f, void* s) {
    widen_apart<<<1, nullptr, s>>>(o, o64, (half*)h, f);
}
extern "C" void launch_widen_rows(float* o, int16_t* x, void* s) { widen_rows<<<1, nullptr, s>>>(o, x); }
extern "C" void launch_widen(float* o, int8_t* x, void* s) { widen<<<1, nullptr, s>>>(o, x); }
extern "C" void launch_wrap(int8_t* o, void* h, int32_t* w, void* s) { wrap<<<1, nullptr, s>>>(o, (half*)h, w); }
extern "C" void launch_int4(uint8_t* o, void* h, void* s) { int4<<<1, nullptr, s>>>(o, (half*)h); }
extern "C" void launch_deq(void* o, int32_t* x, void* s) { deq<<<1, nullptr, s>>>((half*)o, x); }
extern "C" void launch_reluconv(int8_t* o, void* a, void* b, int16_t* c, int16_t* d, void* s) {
    reluconv<<<1, nullptr, s>>>(o, (half*)a, (half*)b, c, d);
}
