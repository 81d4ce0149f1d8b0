// A5 mix kernels on the CCE intrinsics alone: the Cube core's fixpipe writes
// the UB of its group's Vector sub-blocks (copy_matrix_cc_to_ub), the Vector
// cores store what they received. Built by ptocc for dav-c310 (mix).
#include <cstdint>

namespace {
template <class T>
__aicore__ __cbuf__ T* l1(uint64_t at) { return (__cbuf__ T*)at; }
template <class T>
__aicore__ __ca__ T* l0a(uint64_t at) { return (__ca__ T*)at; }
template <class T>
__aicore__ __cb__ T* l0b(uint64_t at) { return (__cb__ T*)at; }
template <class T>
__aicore__ __cc__ T* l0c(uint64_t at) { return (__cc__ T*)at; }
template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }

__aicore__ void sync(pipe_t from, pipe_t to) {
    set_flag(from, to, EVENT_ID0);
    wait_flag(from, to, EVENT_ID0);
}
constexpr uint64_t kUb = 0x1000;
}  // namespace

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
    copy_matrix_cc_to_ub(ub<float>(kUb), l0c<float>(0), 0, 32, 16, row, 16, uint8_t(dual), sub == 1, 0, 0, 0, 0,
                         false, true, 0, 0, false, false, 0, false, false, false, false, false, false);
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

extern "C" void launch_a5_acc_to_ub(float* out0, float* out1, half* a, half* b, uint32_t dual, uint32_t sub,
                                    void* s) {
    a5_acc_to_ub<<<1, nullptr, s>>>(out0, out1, a, b, dual, sub);
}
