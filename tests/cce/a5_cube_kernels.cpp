// Kernels written on A5's Cube-side CCE intrinsics alone: L1, L0A, L0B, L0C
// and BT addresses as integers, the flags by hand. Built by ptocc for
// dav-c310-cube over ptosim's intrinsic layer.
#include <cstdint>

#include "local_addresses.hpp"

namespace {
// MTE2_NZ_PARA for one matrix: 32-byte blocks between rows and between
// fractal columns.
__aicore__ void nz_para(uint64_t row_blocks, uint64_t column_blocks) {
    set_mte2_nz_para(1 | row_blocks << 16 | column_blocks << 32);
}
// Xm and Xt of copy_matrix_cc_to_gm.
__aicore__ uint64_t xm(uint64_t n, uint64_t m, uint64_t dst_stride) { return n << 4 | m << 16 | dst_stride << 32; }
__aicore__ uint64_t xt(uint64_t src_stride, bool nz2nd) { return src_stride | uint64_t(nz2nd) << 43; }

constexpr uint64_t kA = 0, kB = 0x4000, kBias = 0x8000;

// A[20 x 40] and B[40 x 32] (half, ND in GM) into L1 as NZ tiles of 32 x 48
// and 48 x 32; A to L0A as it is, B to L0B transposed (Zn).
__aicore__ void load_ab_f16(__gm__ half* a, __gm__ half* b, bool a_dn) {
    nz_para(1, 32);
    if (a_dn)  // A given as its transpose (K x M row-major): column d of A at d * 40 bytes
        copy_gm_to_cbuf_multi_dn2nz(l1<half>(kA), a, 0, 20 * 2, 0, 20, 40, 0, false);
    else
        copy_gm_to_cbuf_multi_nd2nz(l1<half>(kA), a, 0, 40 * 2, 0, 20, 40, 0, false);
    nz_para(1, 48);
    copy_gm_to_cbuf_multi_nd2nz(l1<half>(kB), b, 0, 32 * 2, 0, 40, 32, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 0, 0, 2, 3, 2, 2, false);
    load_cbuf_to_cb(l0b<half>(0), l1<half>(kB), 0, 0, 3, 2, 3, 2, true);
    sync(PIPE_MTE1, PIPE_M);
}
}  // namespace

// C[20 x 32] = A[20 x 40] * B[40 x 32], float out as ND rows of 32.
__global__ __aicore__ void a5_gemm_f16(__gm__ float* c, __gm__ half* a, __gm__ half* b) {
    load_ab_f16(a, b, false);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 20, 40, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 20, 32), xt(32, true));
}

// The same product with A read from its transpose (DN), out as NZ: two
// column groups of 16 floats, 32 rows (512 elements) apart.
__global__ __aicore__ void a5_gemm_f16_dn_nz(__gm__ float* c, __gm__ half* at, __gm__ half* b) {
    load_ab_f16(at, b, true);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 20, 40, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 20, 32 * 16), xt(32, false));
}

// The half product stored NZ -> DN (Xt bit 62): column-major, each column
// of 20 rows right after the previous one.
__global__ __aicore__ void a5_gemm_f16_dn_out(__gm__ float* c, __gm__ half* a, __gm__ half* b) {
    load_ab_f16(a, b, false);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 20, 40, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    set_channel_para(1ull << 48);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 20, 20), xt(32, false) | 1ull << 62);
}

// C = bias + A * B: the half bias row into L1 with the burst copy, widened
// into the bias table (32-byte burst units on A5), the BT address in bits
// [63:32] of C's pointer.
__global__ __aicore__ void a5_gemm_f16_bias(__gm__ float* c, __gm__ half* a, __gm__ half* b, __gm__ half* bias) {
    copy_gm_to_cbuf_align_v2(l1<half>(kBias), bias, 0, 1, 32 * 2, 0, 0, false, 0, 0, 0);
    load_ab_f16(a, b, false);
    copy_cbuf_to_bt(uint64_t(0), l1<half>(kBias), 1, 1, 2, 0, 0);
    sync(PIPE_MTE1, PIPE_M);
    mad((__cc__ float*)(uint64_t(0) << 32), l0a<half>(0), l0b<half>(0), 20, 40, 32, 0, true, true, false);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 20, 32), xt(32, true));
}

// C[16 x 32] = A[16 x 64] (E4M3) * B[64 x 32] (E5M2) into float; B's 8-bit
// transposing load takes m_step in pairs.
__global__ __aicore__ void a5_gemm_f8(__gm__ float* c, __gm__ float8_e4m3_t* a, __gm__ float8_e5m2_t* b) {
    nz_para(1, 16);
    copy_gm_to_cbuf_multi_nd2nz(l1<float8_e4m3_t>(kA), a, 0, 64, 0, 16, 64, 0, false);
    nz_para(1, 64);
    copy_gm_to_cbuf_multi_nd2nz(l1<float8_e5m2_t>(kB), b, 0, 32, 0, 64, 32, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<float8_e4m3_t>(0), l1<float8_e4m3_t>(kA), 0, 0, 1, 2, 1, 1, false);
    load_cbuf_to_cb(l0b<float8_e5m2_t>(0), l1<float8_e5m2_t>(kB), 0, 0, 4, 1, 4, 2, true);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(0), l0a<float8_e4m3_t>(0), l0b<float8_e5m2_t>(0), 16, 64, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 16, 32), xt(16, true));
}

// C[16 x 32] = A[16 x 32] * B[32 x 32] in int8 -> int32, out as NZ: column
// groups of 16 int32, 16 rows (256 elements) apart; the stride counts
// elements on A5.
__global__ __aicore__ void a5_gemm_s8_nz(__gm__ int32_t* c, __gm__ int8_t* a, __gm__ int8_t* b) {
    nz_para(1, 16);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kA), a, 0, 32, 0, 16, 32, 0, false);
    nz_para(1, 32);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kB), b, 0, 32, 0, 32, 32, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<int8_t>(0), l1<int8_t>(kA), 0, 0, 1, 1, 1, 1, false);
    load_cbuf_to_cb(l0b<int8_t>(0), l1<int8_t>(kB), 0, 0, 2, 1, 2, 2, true);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<int32_t>(0), l0a<int8_t>(0), l0b<int8_t>(0), 16, 32, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    copy_matrix_cc_to_gm(c, l0c<int32_t>(0), xm(32, 16, 16 * 16), xt(16, false));
}

// C = bias + A * B with a bfloat16 bias row (convControl 0: A5 widens a
// bfloat16 source anyway), out as E4M3 scaled by 1/4 (QF322FP8_PRE, the
// scale in QUANT_PRE).
__global__ __aicore__ void a5_bias_bf16_to_f8(__gm__ float8_e4m3_t* c, __gm__ half* a, __gm__ half* b,
                                              __gm__ bfloat16_t* bias) {
    copy_gm_to_cbuf_align_v2(l1<bfloat16_t>(kBias), bias, 0, 1, 32 * 2, 0, 0, false, 0, 0, 0);
    load_ab_f16(a, b, false);
    copy_cbuf_to_bt(uint64_t(0), l1<bfloat16_t>(kBias), 0, 1, 2, 0, 0);
    sync(PIPE_MTE1, PIPE_M);
    mad((__cc__ float*)(uint64_t(0) << 32), l0a<half>(0), l0b<half>(0), 20, 40, 32, 0, true, true, false);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    set_quant_pre(0x3e800000u);  // 0.25f
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 20, 32), xt(32, true) | uint64_t(QF322FP8_PRE) << 34);
}

// The 4-bit transposing load made visible: a 64 x 64 matrix of nibbles (64
// rows of 32 bytes, NZ in L1) transposed into L0B by load_cbuf_to_cb_s4,
// then read back as an int8 B (K 32 x N 64) through C = I * B.
__global__ __aicore__ void a5_s4_transpose(__gm__ int32_t* c, __gm__ int8_t* identity, __gm__ int8_t* nibbles) {
    nz_para(1, 16);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kA), identity, 0, 32, 0, 16, 32, 0, false);
    nz_para(1, 64);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kB), nibbles, 0, 32, 0, 64, 32, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<int8_t>(0), l1<int8_t>(kA), 0, 0, 1, 1, 1, 1, false);
    load_cbuf_to_cb_s4(l0b<int8_t>(0), l1<int8_t>(kB), 0, 0, 4, 1, 4, 4, true);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<int32_t>(0), l0a<int8_t>(0), l0b<int8_t>(0), 16, 32, 64, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<int32_t>(0), xm(64, 16, 64), xt(16, true));
}

// img2col through FMATRIX_B into L0A (Nz), read back through C = A * I:
// a 4 x 4 x 16 half feature map padded one column on the left with 7.0
// (set_padding_b), a 2 x 2 filter, stride 1: 3 x 4 output positions, k = 64.
__global__ __aicore__ void a5_img2col(__gm__ float* c, __gm__ half* fmap, __gm__ half* identity) {
    copy_gm_to_cbuf_align_v2(l1<half>(kA), fmap, 0, 1, 4 * 4 * 16 * 2, 0, 0, false, 0, 0, 0);
    nz_para(1, 64);
    copy_gm_to_cbuf_multi_nd2nz(l1<half>(kB), identity, 0, 64 * 2, 0, 64, 64, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    set_fmatrix_b(4 | 4ull << 16 | 1ull << 32);
    set_padding_b(0x4700);  // 7.0 in half
    set_l3d_rpt_b(0);
    img2colv2_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 64, 16, 0, 0, 1, 1, 2, 2, 1, 1, false, false, false, true, 16);
    load_cbuf_to_cb(l0b<half>(0), l1<half>(kB), 0, 0, 4, 4, 4, 4, true);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 12, 64, 64, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(64, 12, 64), xt(16, true));
}

// A float transposing load with an odd k_step: 8-wide fractal rows cannot
// make whole 16-row fractals.
__global__ __aicore__ void a5_odd_float_transpose(__gm__ float* out) {
    load_cbuf_to_cb(l0b<float>(0), l1<float>(0), 0, 0, 1, 1, 1, 1, true);
    (void)out;
}

// MX: C[32 x 32] = A[32 x 128] (E4M3) * B[128 x 32] (E4M3), each k block of
// 32 scaled by E8M0 codes. B comes as its transpose (32 x 128), so the same
// plain fractal load gives its Zn. A's scales are boxes (1..2, 1..2) of a
// 4 x 3 grid of 32-byte boxes in L1, B's the whole 2 x 2 grid; the scale
// stores are at the operands' L0 addresses >> 4.
constexpr uint64_t kScaleA = 0x9000, kScaleB = 0x9400, kMxA = 0x400, kMxB = 0x800;
__global__ __aicore__ void a5_mx_f8(__gm__ float* c, __gm__ float8_e4m3_t* a, __gm__ float8_e4m3_t* bt,
                                   __gm__ float8_e8m0_t* sa, __gm__ float8_e8m0_t* sb) {
    nz_para(1, 32);
    copy_gm_to_cbuf_multi_nd2nz(l1<float8_e4m3_t>(kA), a, 0, 128, 0, 32, 128, 0, false);
    copy_gm_to_cbuf_multi_nd2nz(l1<float8_e4m3_t>(kB), bt, 0, 128, 0, 32, 128, 0, false);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleA), sa, 0, 1, 12 * 32, 0, 0, false, 0, 0, 0);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleB), sb, 0, 1, 4 * 32, 0, 0, false, 0, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<float8_e4m3_t>(kMxA), l1<float8_e4m3_t>(kA), 0, 0, 2, 4, 2, 2, false);
    load_cbuf_to_cb(l0b<float8_e4m3_t>(kMxB), l1<float8_e4m3_t>(kB), 0, 0, 2, 4, 2, 2, false);
    load_cbuf_to_ca_mx(kMxA >> 4, l1<float8_e8m0_t>(kScaleA), 1, 1, 2, 2, 3, 2);
    load_cbuf_to_cb_mx(kMxB >> 4, l1<float8_e8m0_t>(kScaleB), 0, 0, 2, 2, 2, 2);
    sync(PIPE_MTE1, PIPE_M);
    mad_mx(l0c<float>(0), l0a<float8_e4m3_t>(kMxA), l0b<float8_e4m3_t>(kMxB), 32, 128, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(32, 32, 32), xt(32, true));
}

// MX with 4-bit operands and a bias: C[16 x 16] = bias + A[16 x 64] (E2M1) *
// B[64 x 16] (E1M2), two elements a byte; B again as its transpose. One
// scale box each; the float bias row through L1 into the bias table.
__global__ __aicore__ void a5_mx_f4_bias(__gm__ float* c, __gm__ int8_t* a, __gm__ int8_t* bt,
                                        __gm__ float8_e8m0_t* sa, __gm__ float8_e8m0_t* sb, __gm__ float* bias) {
    nz_para(1, 16);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kA), a, 0, 32, 0, 16, 32, 0, false);
    copy_gm_to_cbuf_multi_nd2nz(l1<int8_t>(kB), bt, 0, 32, 0, 16, 32, 0, false);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleA), sa, 0, 1, 32, 0, 0, false, 0, 0, 0);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleB), sb, 0, 1, 32, 0, 0, false, 0, 0, 0);
    copy_gm_to_cbuf_align_v2(l1<float>(kBias), bias, 0, 1, 16 * 4, 0, 0, false, 0, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca_s4(l0a<float4_e2m1x2_t>(0), l1<float4_e2m1x2_t>(kA), 0, 0, 1, 1, 1, 1, false);
    load_cbuf_to_cb_s4(l0b<float4_e1m2x2_t>(0), l1<float4_e1m2x2_t>(kB), 0, 0, 1, 1, 1, 1, false);
    load_cbuf_to_ca_mx(0, l1<float8_e8m0_t>(kScaleA), 0, 0, 1, 1, 1, 1);
    load_cbuf_to_cb_mx(0, l1<float8_e8m0_t>(kScaleB), 0, 0, 1, 1, 1, 1);
    copy_cbuf_to_bt(uint64_t(0), l1<float>(kBias), 0, 1, 2, 0, 0);
    sync(PIPE_MTE1, PIPE_M);
    mad_mx((__cc__ float*)(uint64_t(0) << 32), l0a<float4_e2m1x2_t>(0), l0b<float4_e1m2x2_t>(0), 16, 64, 16, 0, true,
           true, false);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(16, 16, 16), xt(16, true));
}

// MX GEMV: c[1 x 16] = a[1 x 64] (E4M3) * B[64 x 16] (E5M2) with m == 1 and
// disableGemv false: a and its two scales as plain runs of bytes (a one-row
// operand as pto-isa's TEXTRACT leaves it in L0A), B as above.
__global__ __aicore__ void a5_mx_gemv(__gm__ float* c, __gm__ float8_e4m3_t* a, __gm__ float8_e5m2_t* bt,
                                     __gm__ float8_e8m0_t* sa, __gm__ float8_e8m0_t* sb) {
    copy_gm_to_cbuf_align_v2(l1<float8_e4m3_t>(kA), a, 0, 1, 512, 0, 0, false, 0, 0, 0);
    nz_para(1, 16);
    copy_gm_to_cbuf_multi_nd2nz(l1<float8_e5m2_t>(kB), bt, 0, 64, 0, 16, 64, 0, false);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleA), sa, 0, 1, 32, 0, 0, false, 0, 0, 0);
    copy_gm_to_cbuf_align_v2(l1<float8_e8m0_t>(kScaleB), sb, 0, 1, 32, 0, 0, false, 0, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<float8_e4m3_t>(0), l1<float8_e4m3_t>(kA), 0, 0, 1, 1, 1, 1, false);
    load_cbuf_to_cb(l0b<float8_e5m2_t>(0), l1<float8_e5m2_t>(kB), 0, 0, 1, 2, 1, 1, false);
    load_cbuf_to_ca_mx(0, l1<float8_e8m0_t>(kScaleA), 0, 0, 1, 1, 1, 1);
    load_cbuf_to_cb_mx(0, l1<float8_e8m0_t>(kScaleB), 0, 0, 1, 1, 1, 1);
    sync(PIPE_MTE1, PIPE_M);
    mad_mx(l0c<float>(0), l0a<float8_e4m3_t>(0), l0b<float8_e5m2_t>(0), 1, 64, 16, 0, false, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), xm(16, 1, 16), xt(16, true));
}

// A scale load whose destination box runs past the end of L0A's 4 KiB
// scale store.
__global__ __aicore__ void a5_mx_load_past_store(__gm__ float* out) {
    load_cbuf_to_ca_mx(4096 - 16, l1<float8_e8m0_t>(0), 0, 0, 1, 1, 1, 1);
    (void)out;
}

extern "C" void launch_a5_gemm_f16(float* c, half* a, half* b, void* s) { a5_gemm_f16<<<1, nullptr, s>>>(c, a, b); }
extern "C" void launch_a5_gemm_f16_dn_nz(float* c, half* at, half* b, void* s) {
    a5_gemm_f16_dn_nz<<<1, nullptr, s>>>(c, at, b);
}
extern "C" void launch_a5_gemm_f16_bias(float* c, half* a, half* b, half* bias, void* s) {
    a5_gemm_f16_bias<<<1, nullptr, s>>>(c, a, b, bias);
}
extern "C" void launch_a5_gemm_f8(float* c, uint8_t* a, uint8_t* b, void* s) {
    a5_gemm_f8<<<1, nullptr, s>>>(c, (float8_e4m3_t*)a, (float8_e5m2_t*)b);
}
extern "C" void launch_a5_gemm_s8_nz(int32_t* c, int8_t* a, int8_t* b, void* s) {
    a5_gemm_s8_nz<<<1, nullptr, s>>>(c, a, b);
}
extern "C" void launch_a5_bias_bf16_to_f8(uint8_t* c, half* a, half* b, uint16_t* bias, void* s) {
    a5_bias_bf16_to_f8<<<1, nullptr, s>>>((float8_e4m3_t*)c, a, b, (bfloat16_t*)bias);
}
extern "C" void launch_a5_s4_transpose(int32_t* c, int8_t* identity, int8_t* nibbles, void* s) {
    a5_s4_transpose<<<1, nullptr, s>>>(c, identity, nibbles);
}
extern "C" void launch_a5_img2col(float* c, half* fmap, half* identity, void* s) {
    a5_img2col<<<1, nullptr, s>>>(c, fmap, identity);
}
extern "C" void launch_a5_gemm_f16_dn_out(float* c, half* a, half* b, void* s) {
    a5_gemm_f16_dn_out<<<1, nullptr, s>>>(c, a, b);
}
extern "C" void launch_a5_odd_float_transpose(float* out, void* s) { a5_odd_float_transpose<<<1, nullptr, s>>>(out); }
extern "C" void launch_a5_mx_f8(float* c, uint8_t* a, uint8_t* bt, uint8_t* sa, uint8_t* sb, void* s) {
    a5_mx_f8<<<1, nullptr, s>>>(c, (float8_e4m3_t*)a, (float8_e4m3_t*)bt, (float8_e8m0_t*)sa, (float8_e8m0_t*)sb);
}
extern "C" void launch_a5_mx_f4_bias(float* c, uint8_t* a, uint8_t* bt, uint8_t* sa, uint8_t* sb, float* bias,
                                     void* s) {
    a5_mx_f4_bias<<<1, nullptr, s>>>(c, (int8_t*)a, (int8_t*)bt, (float8_e8m0_t*)sa, (float8_e8m0_t*)sb, bias);
}
extern "C" void launch_a5_mx_gemv(float* c, uint8_t* a, uint8_t* bt, uint8_t* sa, uint8_t* sb, void* s) {
    a5_mx_gemv<<<1, nullptr, s>>>(c, (float8_e4m3_t*)a, (float8_e5m2_t*)bt, (float8_e8m0_t*)sa, (float8_e8m0_t*)sb);
}
extern "C" void launch_a5_mx_load_past_store(float* out, void* s) { a5_mx_load_past_store<<<1, nullptr, s>>>(out); }
