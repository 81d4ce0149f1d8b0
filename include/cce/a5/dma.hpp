// A5's DMA between GM and UB: copy_gm_to_ubuf_align_v2 and
// copy_ubuf_to_gm_align_v2 with byte strides, and the two outer loops the
// set_loop*_outtoub / _ubtoout registers configure
// (docs/intrinsics/a5-vreg.md, "DMA").
#pragma once
#include <cce/atomic_modes.hpp>
#include <cce/operands.hpp>
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

// UB -> UB bursts (A5's form has no sid): nBurst bursts of lenBurst 32-byte
// blocks, srcGap/dstGap blocks between them, as A2A3's copy_ubuf_to_ubuf
// (pto-isa's A5 callers compute every operand in 32-byte blocks;
// docs/intrinsics/a5-vreg.md, "DMA").
template <class D, class S>
inline void copy_ubuf_to_ubuf(__ubuf__ D* dst, __ubuf__ S* src, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_ub_to_ub(ptosim_cce::here(w), "copy_ubuf_to_ubuf", ptosim_cce::off(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap});
}
// The same copy with A2A3's sid operand first: older A5 toolkits declare it
// so, and the March 2026 pto-isa snapshot (defdb75f, npu/a5/TMrgSort.hpp and
// TSort32.hpp) calls it with sid 0; later pto-isa calls the form above
// through pto_copy_ubuf_to_ubuf (common/arch_cce_intrinsic.hpp). The sid
// selects nothing ptosim models.
template <class D, class S>
inline void copy_ubuf_to_ubuf(__ubuf__ D* dst, __ubuf__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                              uint16_t srcGap, uint16_t dstGap,
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    copy_ubuf_to_ubuf(dst, src, nBurst, lenBurst, srcGap, dstGap, w);
}

// The burst forms with 32-byte units (A2A3's copy_gm_to_ubuf /
// copy_ubuf_to_gm, same operands and move, src/sim/cce/dma.cpp): pto-isa's
// A5 tinsert and syncall kernels call them directly.
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
