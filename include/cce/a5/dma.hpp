// A5's DMA between GM and UB: copy_gm_to_ubuf_align_v2 and
// copy_ubuf_to_gm_align_v2 with byte strides, and the two outer loops the
// set_loop*_outtoub / _ubtoout registers configure
// (docs/intrinsics/a5-vreg.md, "DMA").
#pragma once
#include <cce/atomic_modes.hpp>
#include <cce/builtins.hpp>
#include <ptosim/cce_a5.hpp>

template <class D, class S>
inline void copy_gm_to_ubuf_align_v2(__ubuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint32_t nBurst,
                                     uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad, bool padCtl,
                                     uint8_t /*l2CacheCtl*/, uint64_t srcStride, uint32_t dstStride,
                                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (leftPad != 0 || rightPad != 0)
        ptosim::fault(ptosim_cce::here(w), "copy_gm_to_ubuf_align_v2 with left or right padding counts is not "
                                           "simulated by ptosim yet (docs/intrinsics/a5-vreg.md)");
    ptosim::cce::a5::copy_gm_to_ub_v2(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::host(src),
                                      {nBurst, lenBurst, srcStride, dstStride, padCtl, int(sizeof(D))});
}
template <class D, class S>
inline void copy_ubuf_to_gm_align_v2(__gm__ D* dst, __ubuf__ S* src, uint8_t /*sid*/, uint32_t nBurst,
                                     uint32_t lenBurst, uint8_t /*l2CacheCtl*/, uint64_t dstStride,
                                     uint32_t srcStride, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::copy_ub_to_gm_v2(ptosim_cce::here(w), ptosim_cce::host(dst), ptosim_cce::off(src),
                                      {nBurst, lenBurst, dstStride, srcStride, false});
}

#define PTOSIM_CCE_LOOP(name, to_ub, which)                                                                     \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                     \
        ptosim::cce::a5::set_dma_loop(ptosim_cce::here(w), #name, to_ub, which, v);                             \
    }
PTOSIM_CCE_LOOP(set_loop_size_outtoub, true, 0)
PTOSIM_CCE_LOOP(set_loop1_stride_outtoub, true, 1)
PTOSIM_CCE_LOOP(set_loop2_stride_outtoub, true, 2)
PTOSIM_CCE_LOOP(set_loop_size_ubtoout, false, 0)
PTOSIM_CCE_LOOP(set_loop1_stride_ubtoout, false, 1)
PTOSIM_CCE_LOOP(set_loop2_stride_ubtoout, false, 2)
#undef PTOSIM_CCE_LOOP
