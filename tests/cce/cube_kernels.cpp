// Kernels written on the A2A3 Cube-side CCE intrinsics alone: L1, L0A, L0B,
// L0C and BT addresses as integers, the flags by hand. Built by ptocc for
// dav-c220-cube over ptosim's intrinsic layer, with no header choice given.
#include <cstdint>

#include "local_addresses.hpp"

// A 20 x 40 half matrix into L1 as NZ (fractal columns of 16, 32 rows apart),
// and the whole 3 x 32 x 16 NZ region back out.
__global__ __aicore__ void nd2nz_round_trip(__gm__ half* out, __gm__ half* src) {
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(0), src, 0, 1, 20, 40, 0, 40, 32, 1, 0);
    sync(PIPE_MTE2, PIPE_MTE3);
    copy_cbuf_to_gm(out, l1<half>(0), 0, 1, 3 * 32, 0, 0);
}

// C[20 x 32] = relu(A[20 x 32] * B[32 x 32]) in half: A through img2col into
// L0A, B through the transposing 2-D load into L0B, the result NZ -> ND.
__global__ __aicore__ void gemm_f16(__gm__ half* c, __gm__ half* a, __gm__ half* b) {
    constexpr uint64_t kA = 0, kB = 0x1000;
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kA), a, 0, 1, 20, 32, 0, 32, 32, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kB), b, 0, 1, 32, 32, 0, 32, 32, 1, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    // The NZ A tile read as a 1 x 32 feature map of 32 channels.
    set_fmatrix(32 | (1u << 16));
    img2colv2_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 32, 32, 0, 0, 1, 1, 1, 1, 1, 1, false, false, false, false, 32);
    // NZ fractal (k, n) -> Zn fractal (k, n), each transposed.
    for (uint16_t kf = 0; kf < 2; ++kf)
        load_cbuf_to_cb(l0b<half>(kf * 2 * 256 * 2), l1<half>(kB), kf, 2, 2, 0, 0, true, __cce_scalar::inc);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 20, 32, 32, 0, false, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_nd_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), 0, 32, 20, 32, 32, 0, F322F16, 1, false, true);
}

// C[16 x 32] = 2 * A[16 x 64] * B[64 x 32] in int8 -> int32: A by the 2-D
// load, B by the int8 transposing load, two mads (the second accumulates);
// out as int32 ND and, requantised (REQ8, scale 3/4, signed), as int8 NZ.
__global__ __aicore__ void gemm_s8(__gm__ int32_t* c, __gm__ int8_t* q, __gm__ int8_t* a, __gm__ int8_t* b) {
    constexpr uint64_t kA = 0, kB = 0x1000;
    copy_gm_to_cbuf_multi_nd2nz_b8(l1<int8_t>(kA), a, 0, 1, 16, 64, 0, 64, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b8(l1<int8_t>(kB), b, 0, 1, 64, 32, 0, 32, 64, 1, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<int8_t>(0), l1<int8_t>(kA), 0, 2, 1, 0, 0, false, __cce_scalar::inc);
    load_cbuf_to_cb_transpose(l0b<int8_t>(0), l1<int8_t>(kB), 0, 2, 1, 1, false, 0);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<int32_t>(0), l0a<int8_t>(0), l0b<int8_t>(0), 16, 64, 32, 0, false, false, true);
    pipe_barrier(PIPE_M);
    mad(l0c<int32_t>(0), l0a<int8_t>(0), l0b<int8_t>(0), 16, 64, 32, 0, false, false, false);
    sync(PIPE_M, PIPE_FIX);
    set_nd_para(1);
    copy_matrix_cc_to_gm(c, l0c<int32_t>(0), 0, 32, 16, 32, 16, 0, NoQuant, 0, false, true);
    // M1 = 0.75 (0x3f400000), signed 8-bit range (bit 46).
    set_quant_pre(0x3f400000ull | (1ull << 46));
    copy_matrix_cc_to_gm(q, l0c<int32_t>(0), 0, 32, 16, 16, 16, 0, REQ8, 0, false, false);
}

// C[16 x 32] = bias + A[16 x 16] * B[16 x 32], float out in NZ with channel
// split (16 x 8 groups): the bias widened from half into the bias table, B
// given transposed (N x K) so that its NZ tile is already L0B's Zn.
__global__ __aicore__ void gemm_bias_nz(__gm__ float* c, __gm__ half* a, __gm__ half* bt, __gm__ half* bias) {
    constexpr uint64_t kA = 0, kB = 0x1000, kBias = 0x2000;
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kA), a, 0, 1, 16, 16, 0, 16, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kB), bt, 0, 1, 32, 16, 0, 16, 32, 1, 0);
    copy_gm_to_cbuf(l1<half>(kBias), bias, 0, 1, 2, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 0, 1, 1, 0, false);  // the short form
    load_cbuf_to_cb(l0b<half>(0), l1<half>(kB), 0, 2, 1, 0, 0, false, __cce_scalar::inc);
    copy_cbuf_to_bt((__biasbuf__ float*)0, l1<half>(kBias), 1, 1, 1, 0, 0);
    sync(PIPE_MTE1, PIPE_M);
    // The bias table address rides in bits [63:32] of the accumulator pointer.
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 16, 16, 32, 0, false, true, false);
    sync(PIPE_M, PIPE_FIX);
    copy_matrix_cc_to_gm(c, l0c<float>(0), 0, 32, 16, 16, 16, 0, NoQuant, 0, true, false);
}

// The bias table written through copy_cbuf_to_bt's integer-address form
// (the CCE reference's prototype; pto-isa at cannmirror defdb75f): 16 floats
// at BT 0x180, then 64 halves widened to floats at BT 0x100 in two bursts of
// 64 source bytes, the source gap 2 (32-byte blocks: halves 32..63 skipped),
// the destination gap 1 (64 bytes: the 16 floats at 0x180 stay). C[16 x 80]
// = bias + A[16 x 16] * B[16 x 80] (B given N x K), out as float ND.
__global__ __aicore__ void bias_table_at_address(__gm__ float* c, __gm__ half* a, __gm__ half* bt, __gm__ half* bias,
                                                 __gm__ float* fill) {
    constexpr uint64_t kA = 0, kB = 0x1000, kBias = 0x4000, kFill = 0x5000;
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kA), a, 0, 1, 16, 16, 0, 16, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kB), bt, 0, 1, 80, 16, 0, 16, 80, 1, 0);
    copy_gm_to_cbuf(l1<half>(kBias), bias, 0, 1, 6, 0, 0);
    copy_gm_to_cbuf(l1<float>(kFill), fill, 0, 1, 2, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 0, 1, 1, 0, 0, false, __cce_scalar::inc);
    load_cbuf_to_cb(l0b<half>(0), l1<half>(kB), 0, 5, 1, 0, 0, false, __cce_scalar::inc);
    copy_cbuf_to_bt(uint64_t{0x180}, l1<float>(kFill), 0, 1, 1, 0, 0);
    copy_cbuf_to_bt(uint64_t{0x100}, l1<half>(kBias), 1, 2, 1, 2, 1);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(uint64_t{0x100} << 32), l0a<half>(0), l0b<half>(0), 16, 16, 80, 0, false, true, false);
    sync(PIPE_M, PIPE_FIX);
    set_nd_para(1);
    copy_matrix_cc_to_gm(c, l0c<float>(0), 0, 80, 16, 80, 16, 0, NoQuant, 0, false, true);
}

// copy_matrix_cc_to_cbuf's older argument form, the ReLU mode a scoped
// enumeration as pto-isa at cannmirror defdb75f passes (its TMovCcToCb):
// C[16 x 32] = A[16 x 16] * B[16 x 32] in half, from L0C into L1 as half NZ
// with ReLU, then L1 -> GM as it lies (two 16 x 16 fractals).
enum class Relu : uint8_t { None = 0, Normal = 1 };
__global__ __aicore__ void acc_to_l1_enum_relu(__gm__ half* c, __gm__ half* a, __gm__ half* bt) {
    constexpr uint64_t kA = 0, kB = 0x1000, kC = 0x3000;
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kA), a, 0, 1, 16, 16, 0, 16, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b16(l1<half>(kB), bt, 0, 1, 32, 16, 0, 16, 32, 1, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<half>(0), l1<half>(kA), 0, 1, 1, 0, 0, false, __cce_scalar::inc);
    load_cbuf_to_cb(l0b<half>(0), l1<half>(kB), 0, 2, 1, 0, 0, false, __cce_scalar::inc);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 16, 16, 32, 0, false, false, true);
    sync(PIPE_M, PIPE_FIX);
    copy_matrix_cc_to_cbuf(l1<half>(kC), l0c<float>(0), 0, 32, 16, 16, 16, 0, F322F16, Relu::Normal, false, false);
    sync(PIPE_FIX, PIPE_MTE3);
    copy_cbuf_to_gm(c, l1<half>(kC), 0, 1, 32, 0, 0);
}

// Per-column dequantisation (VDEQF16): int8 A[16 x 32] * B[32 x 16] -> int32,
// each column j scaled by the j-th 64-bit parameter, which travels GM -> L1
// -> FB and is found through FPC; out as half ND.
__global__ __aicore__ void dequant_columns(__gm__ half* c, __gm__ int8_t* a, __gm__ int8_t* bt, __gm__ uint64_t* params) {
    constexpr uint64_t kA = 0, kB = 0x1000, kP = 0x2000;
    copy_gm_to_cbuf_multi_nd2nz_b8(l1<int8_t>(kA), a, 0, 1, 16, 32, 0, 32, 16, 1, 0);
    copy_gm_to_cbuf_multi_nd2nz_b8(l1<int8_t>(kB), bt, 0, 1, 16, 32, 0, 32, 16, 1, 0);
    copy_gm_to_cbuf(l1<uint64_t>(kP), params, 0, 1, 4, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<int8_t>(0), l1<int8_t>(kA), 0, 1, 1, 0, 0, false, __cce_scalar::inc);
    load_cbuf_to_cb(l0b<int8_t>(0), l1<int8_t>(kB), 0, 1, 1, 0, 0, false, __cce_scalar::inc);
    sync(PIPE_MTE2, PIPE_FIX);
    copy_cbuf_to_fbuf((__fbuf__ uint64_t*)0x80, l1<uint64_t>(kP), 1, 1, 0, 0);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<int32_t>(0), l0a<int8_t>(0), l0b<int8_t>(0), 16, 32, 16, 0, false, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_fpc((0x80 >> 7) << 8);
    set_nd_para(1);
    copy_matrix_cc_to_gm(c, l0c<int32_t>(0), 0, 16, 16, 16, 16, 0, VDEQF16, 0, false, true);
}

// Scalar code on a Cube core writes its own L1 through a __cbuf__ pointer.
__global__ __aicore__ void scalar_l1(__gm__ int32_t* out) {
    __cbuf__ int32_t* p = l1<int32_t>(0x40);
    for (int i = 0; i < 8; ++i) p[i] = 100 + i;
    pipe_barrier(PIPE_ALL);
    copy_cbuf_to_gm(out, p, 0, 1, 1, 0, 0);
}

// Two fractals loaded to the last 512 bytes of L0A (64 KiB on A2A3).
__global__ __aicore__ void past_l0a(__gm__ half* out) {
    load_cbuf_to_ca(l0a<half>(64 * 1024 - 512), l1<half>(0), 0, 2, 1, 0, 0, false, __cce_scalar::inc);
    copy_cbuf_to_gm(out, l1<half>(0), 0, 1, 1, 0, 0);
}

extern "C" void launch_nd2nz_round_trip(half* out, half* src, void* s) { nd2nz_round_trip<<<1, nullptr, s>>>(out, src); }
extern "C" void launch_gemm_f16(half* c, half* a, half* b, void* s) { gemm_f16<<<1, nullptr, s>>>(c, a, b); }
extern "C" void launch_gemm_s8(int32_t* c, int8_t* q, int8_t* a, int8_t* b, void* s) {
    gemm_s8<<<1, nullptr, s>>>(c, q, a, b);
}
extern "C" void launch_gemm_bias_nz(float* c, half* a, half* bt, half* bias, void* s) {
    gemm_bias_nz<<<1, nullptr, s>>>(c, a, bt, bias);
}
extern "C" void launch_bias_table_at_address(float* c, half* a, half* bt, half* bias, float* fill, void* s) {
    bias_table_at_address<<<1, nullptr, s>>>(c, a, bt, bias, fill);
}
extern "C" void launch_acc_to_l1_enum_relu(half* c, half* a, half* bt, void* s) {
    acc_to_l1_enum_relu<<<1, nullptr, s>>>(c, a, bt);
}
extern "C" void launch_dequant_columns(half* c, int8_t* a, int8_t* bt, uint64_t* p, void* s) {
    dequant_columns<<<1, nullptr, s>>>(c, a, bt, p);
}
// create_cbuf_matrix: one block of floats from the uint32_t bits of 3.0f
// (o[0..8)), one block of halves from the half 2.5 (o[8..12) as halves).
__global__ __aicore__ void fill_l1(__gm__ float* o) {
    create_cbuf_matrix(l1<float>(0), 1 | (1 << 16), 0x40400000u);
    create_cbuf_matrix(l1<half>(32), 1 | (1 << 16), half(2.5f));
    sync(PIPE_MTE2, PIPE_MTE3);
    copy_cbuf_to_gm(o, l1<float>(0), 0, 1, 2, 0, 0);
}

extern "C" void launch_fill_l1(float* o, void* s) { fill_l1<<<1, nullptr, s>>>(o); }
extern "C" void launch_scalar_l1(int32_t* out, void* s) { scalar_l1<<<1, nullptr, s>>>(out); }
extern "C" void launch_past_l0a(half* out, void* s) { past_l0a<<<1, nullptr, s>>>(out); }
