// Kernels written on the A2A3 CCE intrinsics alone, as public kernels are:
// no PTO header, UB addresses as integers, the mask and the flags by hand.
// Built by ptocc over ptosim's intrinsic layer, with no header choice given.
#include <cstdint>

#include "kernel_sync.hpp"

namespace {
constexpr uint64_t kA = 0x0, kB = 0x400, kOut = 0x800;
}  // namespace

// out[0..104) = a + b over the first 100 elements in counter mode; the four
// after them are never written (UB reads as zero at launch).
__global__ __aicore__ void counter_add(__gm__ float* out, __gm__ float* a, __gm__ float* b) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), a, 0, 1, 100 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<float>(kB), b, 0, 1, 100 * 4, 0, 0, 0, 0);
    mte2_to_v();
    set_mask_count();
    set_vector_mask(0, 100);
    vadd(ub<float>(kOut), ub<float>(kA), ub<float>(kB), 0, 1, 1, 1, 8, 8, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 104 * 4, 0, 0, 0, 0);
}

// Normal mode: every slot set to -1, then the even slots of two repeats get src + 1.5.
__global__ __aicore__ void masked_adds(__gm__ float* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 128 * 4, 0, 0, 0, 0);
    mte2_to_v();
    vector_dup(ub<float>(kOut), -1.0f, 2, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    set_vector_mask(0, 0x5555555555555555ull);
    vadds(ub<float>(kOut), ub<float>(kA), 1.5f, 2, 1, 1, 8, 8);
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 128 * 4, 0, 0, 0, 0);
}

// Two bursts of 20 floats, each padded on the right to 24 with the pad value,
// a one-block gap between them in UB; the padded rows go back out whole.
__global__ __aicore__ void padded_rows(__gm__ float* out, __gm__ float* src) {
    set_mov_pad_val(0x40e00000u);  // 7.0f
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 2, 20 * 4, 0, 4, 0, 1);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm_align_b32(out, ub<float>(kA), 0, 2, 24 * 4, 0, 0, 1, 0);
}

// vconv_f322s32{r,a,f,c,z} of eight values into out[8 * mode + i].
__global__ __aicore__ void rounding(__gm__ int32_t* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 8 * 4, 0, 0, 0, 0);
    mte2_to_v();
    set_vector_mask(0, 0xff);
    vconv_f322s32r(ub<int32_t>(kOut + 0 * 32), ub<float>(kA), 1, 1, 1, 8, 8);
    vconv_f322s32a(ub<int32_t>(kOut + 1 * 32), ub<float>(kA), 1, 1, 1, 8, 8);
    vconv_f322s32f(ub<int32_t>(kOut + 2 * 32), ub<float>(kA), 1, 1, 1, 8, 8);
    vconv_f322s32c(ub<int32_t>(kOut + 3 * 32), ub<float>(kA), 1, 1, 1, 8, 8);
    vconv_f322s32z(ub<int32_t>(kOut + 4 * 32), ub<float>(kA), 1, 1, 1, 8, 8);
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<int32_t>(kOut), 0, 1, 40 * 4, 0, 0, 0, 0);
}

// Scalar code writes and reads the core's own UB through a pointer: each
// block stores its index at the same UB address and sends it out.
__global__ __aicore__ void scalar_ub(__gm__ int32_t* out) {
    __ubuf__ int32_t* p = ub<int32_t>(kOut);
    p[0] = static_cast<int32_t>(get_block_idx()) * 10;
    p[1] = p[0] + 1;
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32(out + 8 * get_block_idx(), p, 0, 1, 8 * 4, 0, 0, 0, 0);
}

// An intrinsic declared but not simulated yet stops the launch.
__global__ __aicore__ void unsimulated(__gm__ float* out) {
    copy_sram_to_neighbor_sram(ub<float>(kOut), ub<float>(kA), 1);
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 32, 0, 0, 0, 0);
}

// A destination one block past the end of UB (192 KiB on A2A3).
__global__ __aicore__ void past_ub(__gm__ float* out) {
    vector_dup(ub<float>(192 * 1024 - 32), 1.0f, 1, 1, 1, 8, 8);
    copy_ubuf_to_gm_align_b32(out, ub<float>(kA), 0, 1, 32, 0, 0, 0, 0);
}

// Two 32-byte bursts 2 MiB apart in GM: the first in the kernel's
// allocation, the second past the memory ptosim keeps after it.
__global__ __aicore__ void burst_past_allocation(__gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 2, 32, 0, 0, 2u << 20, 0);
}

// Leaves the first four mask bits set for whatever kernel runs next on the core.
__global__ __aicore__ void leave_partial_mask() {
    set_mask_norm();
    set_vector_mask(0, 0xf);
}

// A vadds that relies on the mask the core holds (no set_vector_mask).
__global__ __aicore__ void adds_under_incoming_mask(__gm__ float* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 64 * 4, 0, 0, 0, 0);
    mte2_to_v();
    vadds(ub<float>(kOut), ub<float>(kA), 1.0f, 1, 1, 1, 8, 8);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 64 * 4, 0, 0, 0, 0);
}

// vexp over 128 floats in place (two whole repeats, one contiguous run),
// then vexp of out[0..6) into out[1..7) in counter mode: the destination one
// element past its source, so each element reads the one just written.
__global__ __aicore__ void exp_in_place_and_shifted(__gm__ float* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 128 * 4, 0, 0, 0, 0);
    mte2_to_v();
    vexp(ub<float>(kA), ub<float>(kA), 2, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 6);
    vexp(ub<float>(kA + 128 * 4 + 4), ub<float>(kA + 128 * 4), 0, 1, 1, 8, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kA), 0, 1, 136 * 4, 0, 0, 0, 0);
}

// The float operations a run at a time: vadd, vmax, vmin and vdiv of 64
// floats holding NaNs, infinities, signed zeros and subnormals (one repeat)
// into out[0..256), vmuls by 3 and vmaxs by 0.5 into out[256..384); then
// c + c in counter mode (20 elements) with the destination one element past
// both sources, so that each element doubles the one just written, into
// out[384..448).
__global__ __aicore__ void float_runs(__gm__ float* out, __gm__ float* a, __gm__ float* b, __gm__ float* c) {
    constexpr uint64_t kC = 0x1000;
    copy_gm_to_ubuf_align_b32(ub<float>(kA), a, 0, 1, 64 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<float>(kB), b, 0, 1, 64 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<float>(kC), c, 0, 1, 64 * 4, 0, 0, 0, 0);
    mte2_to_v();
    vadd(ub<float>(kOut), ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8);
    vmax(ub<float>(kOut + 256), ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8);
    vmin(ub<float>(kOut + 512), ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8);
    vdiv(ub<float>(kOut + 768), ub<float>(kA), ub<float>(kB), 1, 1, 1, 1, 8, 8, 8);
    vmuls(ub<float>(kOut + 1024), ub<float>(kA), 3.0f, 1, 1, 1, 8, 8);
    vmaxs(ub<float>(kOut + 1280), ub<float>(kA), 0.5f, 1, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 20);
    vadd(ub<float>(kC + 4), ub<float>(kC), ub<float>(kC), 0, 1, 1, 1, 8, 8, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 384 * 4, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32(out + 384, ub<float>(kC), 0, 1, 64 * 4, 0, 0, 0, 0);
}

// vcopy in counter mode with a repeat per row, as pto-isa's TEXTRACT copies
// each row's tail: 4 rows of 16 floats (2 blocks a row) into rows of 32 (4
// blocks), the count of 5 applying to every row.
__global__ __aicore__ void counted_row_tails(__gm__ float* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 64 * 4, 0, 0, 0, 0);
    mte2_to_v();
    set_mask_count();
    set_vector_mask(0, 5);
    vcopy(ub<float>(kOut), ub<float>(kA), 4, 1, 1, 4, 2);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 128 * 4, 0, 0, 0, 0);
}

// As TFILLPAD copies a tile: 3 rows of 80 floats (320 bytes, wider than a
// repeat) into rows of 96, the count of 80 per row.
__global__ __aicore__ void counted_wide_rows(__gm__ float* out, __gm__ float* src) {
    copy_gm_to_ubuf_align_b32(ub<float>(kA), src, 0, 1, 240 * 4, 0, 0, 0, 0);
    mte2_to_v();
    set_mask_count();
    set_vector_mask(0, 80);
    vcopy(ub<float>(kOut), ub<float>(kA), 3, 1, 1, 12, 10);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kOut), 0, 1, 288 * 4, 0, 0, 0, 0);
}

// Scalar code on halves, as pto-isa's element-by-element fallbacks write it:
// GM loads, UB stores and loads, a half passed and returned by value, double
// and float constants, overflow; o[0..8) by DMA, o[15] by a scalar GM store.
__aicore__ half twice(half h) { return h * 2; }
__global__ __aicore__ void scalar_half(__gm__ half* o, __gm__ half* in) {
    __ubuf__ half* p = ub<half>(kOut);
    p[0] = in[0];
    p[1] = twice(in[1]);
    p[2] = 0.1;
    p[3] = p[0] + p[1];
    p[4] = static_cast<half>(65520.0f);
    p[5] = -p[2];
    o[15] = p[3];
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o, ub<uint32_t>(kOut), 0, 1, 8 * 2, 0, 0, 0, 0);
}

// bfloat16_t elements stored as ptocc's translation of pto-isa's headers
// writes them (`p[i] = v;` becomes `::ptosim_cce::store_to(p[i]) = v;`,
// cce/store_to.hpp): from a GM and a UB element, from double, float and int
// constants rounded to nearest even, through `*q`; o[0..8) by DMA, o[15] by a
// scalar GM store.
__global__ __aicore__ void scalar_bf16(__gm__ bfloat16_t* o, __gm__ bfloat16_t* in) {
    __ubuf__ bfloat16_t* p = ub<bfloat16_t>(kOut);
    ::ptosim_cce::store_to(p[0]) = in[0];
    ::ptosim_cce::store_to(p[1]) = p[0];
    ::ptosim_cce::store_to(p[2]) = 0.1;
    ::ptosim_cce::store_to(p[3]) = static_cast<bfloat16_t>(0);
    ::ptosim_cce::store_to(p[4]) = 1.00390625f;
    ::ptosim_cce::store_to(p[5]) = 7;
    ::ptosim_cce::store_to(p[6]) = 1.01171875f;
    __ubuf__ bfloat16_t* q = p + 7;
    ::ptosim_cce::store_to(*q) = -2.0f;
    ::ptosim_cce::store_to(o[15]) = p[6];
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o, ub<uint32_t>(kOut), 0, 1, 8 * 2, 0, 0, 0, 0);
}

// Element loops on UB, as pto-isa's MGATHER zero-fills a row: clang turns
// them into memset/memcpy/memmove, which LLVM 14 cannot lower for UB's
// address space; ptocc's -fno-builtin-mem* keep them loops. 64 int32 from
// GM, o[0..n) zeroed, then o[n..2n) = a[0..n) and a shift down by one of
// a[32..64) into o[32..63); o[63] keeps a[63].
__global__ __aicore__ void element_loops(__gm__ int32_t* o, __gm__ int32_t* a, int n) {
    copy_gm_to_ubuf_align_b32(ub<int32_t>(kA), a, 0, 1, 64 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<int32_t>(kOut), a, 0, 1, 64 * 4, 0, 0, 0, 0);
    pipe_barrier(PIPE_ALL);
    __ubuf__ int32_t* d = ub<int32_t>(kOut);
    __ubuf__ int32_t* s = ub<int32_t>(kA);
    for (int i = 0; i < n; ++i) d[i] = 0;
    for (int i = 0; i < n; ++i) d[n + i] = s[i];
    for (int i = 32; i < 63; ++i) d[i] = d[i + 1];
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32(o, ub<int32_t>(kOut), 0, 1, 64 * 4, 0, 0, 0, 0);
}

// The mixed axpy: 128 halves times -0.5 added into 128 floats, two repeats
// of 64 (dst eight blocks a repeat, src four).
__global__ __aicore__ void axpy_widen(__gm__ float* o, __gm__ float* d, __gm__ half* x) {
    copy_gm_to_ubuf_align_b32(ub<float>(kOut), d, 0, 1, 128 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kA), (__gm__ uint32_t*)x, 0, 1, 128 * 2, 0, 0, 0, 0);
    mte2_to_v();
    vaxpy(ub<float>(kOut), ub<half>(kA), half(-0.5f), 2, 1, 1, 8, 4);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(o, ub<float>(kOut), 0, 1, 128 * 4, 0, 0, 0, 0);
}

// vmadd on 128 halves: d = a * d + b, one repeat.
__global__ __aicore__ void madd_half(__gm__ half* o, __gm__ half* a, __gm__ half* b, __gm__ half* d) {
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kA), (__gm__ uint32_t*)a, 0, 1, 256, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kB), (__gm__ uint32_t*)b, 0, 1, 256, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kOut), (__gm__ uint32_t*)d, 0, 1, 256, 0, 0, 0, 0);
    mte2_to_v();
    vmadd(ub<half>(kOut), ub<half>(kA), ub<half>(kB), 1, 1, 1, 1, 8, 8, 8);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o, ub<uint32_t>(kOut), 0, 1, 256, 0, 0, 0, 0);
}

// vshr with roundEn = false (pto-isa's TSHRS form) on 64 int32: arithmetic
// shifts by 3; the plain form beside it on uint32 (o[64..128)).
__global__ __aicore__ void shift_right(__gm__ int32_t* o, __gm__ int32_t* x) {
    copy_gm_to_ubuf_align_b32(ub<int32_t>(kA), x, 0, 1, 64 * 4, 0, 0, 0, 0);
    mte2_to_v();
    vshr(ub<int32_t>(kOut), ub<int32_t>(kA), 3, 1, 1, 1, 8, 8, false);
    vshr(ub<uint32_t>(kOut + 256), ub<uint32_t>(kA), 3, 1, 1, 1, 8, 8);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(o, ub<int32_t>(kOut), 0, 1, 128 * 4, 0, 0, 0, 0);
}

// 200 halves in counter mode (a run that is not a whole number of eight- or
// sixteen-element groups): out[0..200) = a + b, out[256..456) = a - b,
// out[512..712) = a * b, and a * b again in place over a (out[768..968)).
__global__ __aicore__ void half_rows(__gm__ half* out, __gm__ half* a, __gm__ half* b) {
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kA), (__gm__ uint32_t*)a, 0, 1, 400, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(kB), (__gm__ uint32_t*)b, 0, 1, 400, 0, 0, 0, 0);
    mte2_to_v();
    set_mask_count();
    set_vector_mask(0, 200);
    vadd(ub<half>(kOut), ub<half>(kA), ub<half>(kB), 0, 1, 1, 1, 8, 8, 8);
    vsub(ub<half>(kOut + 512), ub<half>(kA), ub<half>(kB), 0, 1, 1, 1, 8, 8, 8);
    vmul(ub<half>(kOut + 1024), ub<half>(kA), ub<half>(kB), 0, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vmul(ub<half>(kA), ub<half>(kA), ub<half>(kB), 0, 1, 1, 1, 8, 8, 8);
    set_mask_norm();
    set_vector_mask(-1, -1);
    v_to_mte3();
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)out, ub<uint32_t>(kOut), 0, 1, 1536, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)(out + 768), ub<uint32_t>(kA), 0, 1, 400, 0, 0, 0, 0);
}

extern "C" void launch_half_rows(void* o, void* a, void* b, void* s) { half_rows<<<1, nullptr, s>>>((half*)o, (half*)a, (half*)b); }
extern "C" void launch_shift_right(int32_t* o, int32_t* x, void* s) { shift_right<<<1, nullptr, s>>>(o, x); }
extern "C" void launch_madd_half(void* o, void* a, void* b, void* d, void* s) {
    madd_half<<<1, nullptr, s>>>((half*)o, (half*)a, (half*)b, (half*)d);
}
extern "C" void launch_axpy_widen(float* o, float* d, void* x, void* s) { axpy_widen<<<1, nullptr, s>>>(o, d, (half*)x); }
extern "C" void launch_element_loops(int32_t* o, int32_t* a, int n, void* s) {
    element_loops<<<1, nullptr, s>>>(o, a, n);
}
extern "C" void launch_scalar_bf16(void* o, void* in, void* s) {
    scalar_bf16<<<1, nullptr, s>>>((bfloat16_t*)o, (bfloat16_t*)in);
}
extern "C" void launch_scalar_half(void* o, void* in, void* s) { scalar_half<<<1, nullptr, s>>>((half*)o, (half*)in); }
extern "C" void launch_counter_add(float* out, float* a, float* b, void* s) { counter_add<<<1, nullptr, s>>>(out, a, b); }
extern "C" void launch_masked_adds(float* out, float* src, void* s) { masked_adds<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_padded_rows(float* out, float* src, void* s) { padded_rows<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_rounding(int32_t* out, float* src, void* s) { rounding<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_scalar_ub(int32_t* out, void* s) { scalar_ub<<<2, nullptr, s>>>(out); }
extern "C" void launch_unsimulated(float* out, void* s) { unsimulated<<<1, nullptr, s>>>(out); }
extern "C" void launch_past_ub(float* out, void* s) { past_ub<<<1, nullptr, s>>>(out); }
extern "C" void launch_leave_partial_mask(void* s) { leave_partial_mask<<<1, nullptr, s>>>(); }
extern "C" void launch_exp_in_place_and_shifted(float* out, float* src, void* s) {
    exp_in_place_and_shifted<<<1, nullptr, s>>>(out, src);
}
extern "C" void launch_float_runs(float* out, float* a, float* b, float* c, void* s) {
    float_runs<<<1, nullptr, s>>>(out, a, b, c);
}
extern "C" void launch_counted_row_tails(float* out, float* src, void* s) { counted_row_tails<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_counted_wide_rows(float* out, float* src, void* s) { counted_wide_rows<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_burst_past_allocation(float* src, void* s) { burst_past_allocation<<<1, nullptr, s>>>(src); }
extern "C" void launch_adds_under_incoming_mask(float* out, float* src, void* s) {
    adds_under_incoming_mask<<<1, nullptr, s>>>(out, src);
}

// The forms pto-isa's TCOLSUM, TCVT and TROWEXPAND* issue, which take light
// paths with nothing subscribed (docs/speed.md): a and b are 256 floats each.
// out[0..128): the counter-mode column sum of a's two rows and b's two rows
// into a row of its own (vadd in place); out2: vsub, vmul, vdiv, vmax, vmin
// of a and b over four full-mask repeats, each into its own 256 floats;
// out[128..256): a's first 128 through half and back (vconv_f322f16r,
// vconv_f162f32: two repeats of 64 each); out[256..384): a - (b's first
// eight values, one a block) over two repeats (src1 block stride 0);
// out[384..513): vadd into a destination shifted one element against its
// source (the general path, left to its element order). ops[0]: the
// instructions counted between two reads of the counter.
__global__ __aicore__ void light_paths(__gm__ float* out, __gm__ float* out2, __gm__ int64_t* ops, __gm__ float* a,
                                       __gm__ float* b) {
    constexpr uint64_t kX = 0x0, kY = 0x400, kO = 0x1000, kO2 = 0x2000, kH = 0x4000;
    copy_gm_to_ubuf_align_b32(ub<float>(kX), a, 0, 1, 256 * 4, 0, 0, 0, 0);
    copy_gm_to_ubuf_align_b32(ub<float>(kY), b, 0, 1, 256 * 4, 0, 0, 0, 0);
    mte2_to_v();
    const int64_t start = get_sys_cnt();
    set_mask_count();
    set_vector_mask(0, 128);
    vadd(ub<float>(kO), ub<float>(kX), ub<float>(kX + 512), 0, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vadd(ub<float>(kO), ub<float>(kO), ub<float>(kY), 0, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vadd(ub<float>(kO), ub<float>(kO), ub<float>(kY + 512), 0, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_norm();
    set_vector_mask(-1, -1);
    vsub(ub<float>(kO2 + 0 * 1024), ub<float>(kX), ub<float>(kY), 4, 1, 1, 1, 8, 8, 8);
    vmul(ub<float>(kO2 + 1 * 1024), ub<float>(kX), ub<float>(kY), 4, 1, 1, 1, 8, 8, 8);
    vdiv(ub<float>(kO2 + 2 * 1024), ub<float>(kX), ub<float>(kY), 4, 1, 1, 1, 8, 8, 8);
    vmax(ub<float>(kO2 + 3 * 1024), ub<float>(kX), ub<float>(kY), 4, 1, 1, 1, 8, 8, 8);
    vmin(ub<float>(kO2 + 4 * 1024), ub<float>(kX), ub<float>(kY), 4, 1, 1, 1, 8, 8, 8);
    vconv_f322f16r(ub<half>(kH), ub<float>(kX), 2, 1, 1, 4, 8);
    pipe_barrier(PIPE_V);
    vconv_f162f32(ub<float>(kO + 512), ub<half>(kH), 2, 1, 1, 8, 4);
    vsub(ub<float>(kO + 1024), ub<float>(kX), ub<float>(kY), 2, 1, 1, 0, 8, 8, 1);
    vadd(ub<float>(kO + 1536 + 4), ub<float>(kO + 1536), ub<float>(kY), 2, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    ops[0] = get_sys_cnt() - start;
    v_to_mte3();
    copy_ubuf_to_gm_align_b32(out, ub<float>(kO), 0, 1, 1024 * 4, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32(out2, ub<float>(kO2), 0, 1, 5 * 1024, 0, 0, 0, 0);
}
extern "C" void launch_light_paths(float* o, float* o2, int64_t* ops, float* a, float* b, void* s) {
    light_paths<<<1, nullptr, s>>>(o, o2, ops, a, b);
}
