// A2A3's DMA between GM and UB and within UB (MTE2 / MTE3 / MTE3), in bursts
// with gaps and padding (docs/intrinsics/dma.md).
#pragma once
#include <cce/operands.hpp>
#include <cce/atomic_modes.hpp>

// dst and src spaces, the runtime call and the argument order that call takes.
#define PTOSIM_CCE_ALIGN_COPY(name, bytes, dst_space, src_space, call, to, from)                                   \
    template <class D, class S>                                                                                    \
    inline void name(dst_space D* dst, src_space S* src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst,      \
                     uint8_t leftPad, uint8_t rightPad, uint32_t srcGap, uint32_t dstGap,                          \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                      \
        ptosim::cce::call(ptosim_cce::here(w), #name, ptosim_cce::to(dst), ptosim_cce::from(src),                  \
                          {nBurst, lenBurst, srcGap, dstGap, leftPad, rightPad}, bytes, true);                     \
    }
PTOSIM_CCE_ALIGN_COPY(copy_gm_to_ubuf_align_b8, 1, __ubuf__, __gm__, copy_gm_to_ub, off, host)
PTOSIM_CCE_ALIGN_COPY(copy_gm_to_ubuf_align_b16, 2, __ubuf__, __gm__, copy_gm_to_ub, off, host)
PTOSIM_CCE_ALIGN_COPY(copy_gm_to_ubuf_align_b32, 4, __ubuf__, __gm__, copy_gm_to_ub, off, host)
PTOSIM_CCE_ALIGN_COPY(copy_ubuf_to_gm_align_b8, 1, __gm__, __ubuf__, copy_ub_to_gm, host, off)
PTOSIM_CCE_ALIGN_COPY(copy_ubuf_to_gm_align_b16, 2, __gm__, __ubuf__, copy_ub_to_gm, host, off)
PTOSIM_CCE_ALIGN_COPY(copy_ubuf_to_gm_align_b32, 4, __gm__, __ubuf__, copy_ub_to_gm, host, off)
#undef PTOSIM_CCE_ALIGN_COPY

// The 32-byte-block forms: burst length and strides in blocks.
template <class D, class S>
inline void copy_gm_to_ubuf(__ubuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_gm_to_ub(ptosim_cce::here(w), "copy_gm_to_ubuf", ptosim_cce::off(dst), ptosim_cce::host(src),
                               {nBurst, lenBurst, srcStride, dstStride}, 1, false);
}
template <class D, class S>
inline void copy_ubuf_to_gm(__gm__ D* dst, __ubuf__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_ub_to_gm(ptosim_cce::here(w), "copy_ubuf_to_gm", ptosim_cce::host(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcStride, dstStride}, 1, false);
}
template <class D, class S>
inline void copy_ubuf_to_ubuf(__ubuf__ D* dst, __ubuf__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                              uint16_t srcStride, uint16_t dstStride,
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_ub_to_ub(ptosim_cce::here(w), "copy_ubuf_to_ubuf", ptosim_cce::off(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcStride, dstStride});
}
