// A5 mix kernels on the CCE intrinsics alone: the Cube core's fixpipe writes
// the UB of its group's Vector sub-blocks (copy_matrix_cc_to_ub), the Vector
// cores store what they received. Built by ptocc for dav-c310 (mix).
#include <cstdint>

#include "local_addresses.hpp"

constexpr uint64_t kUb = 0x1000;

// The ReLU mode as a scoped enumeration, as the March 2026 pto-isa snapshot
// passes its pto::ReluPreMode (docs/intrinsics/a5-cube.md).
enum class ReluPre : uint8_t { None = 0 };

// C[16 x 32] = A[16 x 32] * B[32 x 32] (half -> float) on the Cube core;
// `dual` 0: all of C as ND rows to sub-block `sub`; 1: rows 0-7 to
// sub-block 0 and 8-15 to sub-block 1; 2: columns 0-15 and 16-31. Each
// Vector sub-block stores its UB's first `rows x cols` floats to out[sub].
__global__ __aicore__ void a5_acc_to_ub(__gm__ float* out0, __gm__ float* out1, __gm__ half* a, __gm__ half* b,
                                        uint32_t dual, uint32_t sub) {
#if defined(__DAV_CUBE__)
    set_mte2_nz_para(1 | 1ull << 16 | 16ull << 32);
    copy_gm_to_cbuf_multi_nd2nz(l1<half>(0), a, 0, 32 * 2, 0, 16, 32, 0, false);
    set_mte2_nz_para(1 | 1ull << 16 | 32ull << 32);
    copy_gm_to_cbuf_multi_nd2nz(l1<half>(0x4000), b, 0, 32 * 2, 0, 32, 32, 0, false);
    sync(PIPE_MTE2, PIPE_MTE1);
    load_cbuf_to_ca(l0a<half>(0), l1<half>(0), 0, 0, 1, 2, 1, 1, false);
    load_cbuf_to_cb(l0b<half>(0), l1<half>(0x4000), 0, 0, 2, 2, 2, 2, true);
    sync(PIPE_MTE1, PIPE_M);
    mad(l0c<float>(0), l0a<half>(0), l0b<half>(0), 16, 32, 32, 0, true, false, true);
    sync(PIPE_M, PIPE_FIX);
    set_loop3_para(1);
    const uint32_t row = dual == 2 ? 16 : 32;  // the ND destination's row length
    copy_matrix_cc_to_ub(ub<float>(kUb), l0c<float>(0), 0, 32, 16, row, 16, uint8_t(dual), sub == 1, 0, 0, 0,
                         ReluPre::None, false, true, 0, 0, false, false, 0, false, false, false, false, false, false);
    set_intra_block(PIPE_FIX, 0);
    set_intra_block(PIPE_FIX, 16);
#endif
#if defined(__DAV_VEC__)
    wait_intra_block(PIPE_MTE3, 0);
    const uint32_t me = static_cast<uint32_t>(get_subblockid());
    if (dual == 0 && me != sub) return;
    const uint32_t n = dual == 0 ? 16 * 32 : 8 * 32;
    copy_ubuf_to_gm_align_v2(me == 0 ? out0 : out1, ub<float>(kUb), 0, 1, n * 4, 0, 0, 0);
#endif
}

// L1 -> UB across cores: 64 floats into the Cube core's L1; blocks 0-3 to
// sub-block 0's UB, blocks 4 and 6 (one gap block) to sub-block 1's; each
// Vector sub-block stores 32 floats of its UB to out[sub].
__global__ __aicore__ void a5_l1_to_ub(__gm__ float* out0, __gm__ float* out1, __gm__ float* src) {
#if defined(__DAV_CUBE__)
    copy_gm_to_cbuf_align_v2(l1<float>(0), src, 0, 1, 64 * 4, 0, 0, false, 0, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE1);
    copy_cbuf_to_ubuf(ub<float>(kUb), l1<float>(0), 0, 1, 4, 0, 0);
    copy_cbuf_to_ubuf(ub<float>(kUb), l1<float>(128), 1, 2, 1, 1, 0);
    set_intra_block(PIPE_MTE1, 0);
    set_intra_block(PIPE_MTE1, 16);
#endif
#if defined(__DAV_VEC__)
    wait_intra_block(PIPE_MTE3, 0);
    copy_ubuf_to_gm_align_v2(get_subblockid() == 0 ? out0 : out1, ub<float>(kUb), 0, 1, 32 * 4, 0, 0, 0);
#endif
}

// UB -> L1 and back: each Vector sub-block writes its 32 floats of `src`
// (sub-block s: elements 32 s ...) into the Cube core's L1 at 128 s bytes;
// the Cube core returns all 64 to sub-block 0's UB, which stores them.
__global__ __aicore__ void a5_ub_to_l1(__gm__ float* out, __gm__ float* src) {
#if defined(__DAV_VEC__)
    const int64_t me = get_subblockid();
    copy_gm_to_ubuf_align_v2(ub<float>(kUb), src + 32 * me, 0, 1, 32 * 4, 0, 0, false, 0, 0, 0);
    sync(PIPE_MTE2, PIPE_MTE3);
    copy_ubuf_to_cbuf(l1<float>(128 * me), ub<float>(kUb), 0, 1, 4, 0, 0);
    set_intra_block(PIPE_MTE3, 1);
#endif
#if defined(__DAV_CUBE__)
    wait_intra_block(PIPE_MTE1, 1);
    wait_intra_block(PIPE_MTE1, 1 + 16);
    copy_cbuf_to_ubuf(ub<float>(kUb + 0x1000), l1<float>(0), 0, 1, 8, 0, 0);
    set_intra_block(PIPE_MTE1, 2);
    set_intra_block(PIPE_MTE1, 2 + 16);
#endif
#if defined(__DAV_VEC__)
    wait_intra_block(PIPE_MTE3, 2);
    if (get_subblockid() == 0) copy_ubuf_to_gm_align_v2(out, ub<float>(kUb + 0x1000), 0, 1, 64 * 4, 0, 0, 0);
#endif
}

extern "C" void launch_a5_acc_to_ub(float* out0, float* out1, half* a, half* b, uint32_t dual, uint32_t sub,
                                    void* s) {
    a5_acc_to_ub<<<1, nullptr, s>>>(out0, out1, a, b, dual, sub);
}
extern "C" void launch_a5_l1_to_ub(float* out0, float* out1, float* src, void* s) {
    a5_l1_to_ub<<<1, nullptr, s>>>(out0, out1, src);
}
extern "C" void launch_a5_ub_to_l1(float* out, float* src, void* s) { a5_ub_to_l1<<<1, nullptr, s>>>(out, src); }
