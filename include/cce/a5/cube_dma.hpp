// A5's DMA into L1 (Cube side, MTE2): GM -> L1 with the ND -> NZ and DN -> NZ
// conversions (MTE2_NZ_PARA gives the L1 side), GM -> L1 bursts with byte
// strides over the outtol1 loops, and their registers
// (docs/intrinsics/a5-cube.md). L1 -> bias table / fixpipe buffer and the
// L1 fill are cce/cube_l1.hpp's, shared with A2A3.
#pragma once
#include <cce/operands.hpp>
#include <cce/cube_l1.hpp>
#include <ptosim/cce_a5.hpp>
#include <ptosim/cce_cube.hpp>

#define PTOSIM_CCE_TO_NZ(name, dn)                                                                                 \
    template <class D, class S>                                                                                    \
    inline void name(__cbuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint64_t loop1SrcStride,                    \
                     uint8_t /*l2CacheCtl*/, uint16_t nValue, uint32_t dValue, uint64_t loop4SrcStride,            \
                     bool smallC0, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                      \
        static_assert(sizeof(D) == sizeof(S), #name ": source and destination element sizes differ");             \
        if (smallC0)                                                                                               \
            ptosim::fault(ptosim_cce::here(w), #name " with smallc0_en set is not simulated by ptosim yet "        \
                                               "(docs/intrinsics/a5-cube.md); pass false");                        \
        ptosim::cce::copy_gm_to_l1_nd2nz_a5(ptosim_cce::here(w), #name, ptosim_cce::off(dst),                     \
                                            ptosim_cce::host(src), loop1SrcStride, nValue, dValue, loop4SrcStride, \
                                            int(sizeof(D)), dn);                                                   \
    }
PTOSIM_CCE_TO_NZ(copy_gm_to_cbuf_multi_nd2nz, false)
PTOSIM_CCE_TO_NZ(copy_gm_to_cbuf_multi_dn2nz, true)
#undef PTOSIM_CCE_TO_NZ

// Bursts of lenBurst bytes, srcStride bytes apart in GM and dstStride in L1;
// with dataSelectBit each burst is followed by rightPad elements of the
// set_pad_val_outtol1 value and filled to its 32-byte boundary with it.
template <class D, class S>
inline void copy_gm_to_cbuf_align_v2(__cbuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint32_t nBurst,
                                     uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad, bool dataSelectBit,
                                     uint8_t /*l2CacheCtl*/, uint64_t srcStride, uint32_t dstStride,
                                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (leftPad != 0)
        ptosim::fault(ptosim_cce::here(w), "copy_gm_to_cbuf_align_v2 with a left padding count is not simulated by "
                                           "ptosim yet (docs/intrinsics/a5-cube.md); pass 0");
    ptosim::cce::a5::copy_gm_to_l1_v2(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::host(src),
                                      {nBurst, lenBurst, srcStride, dstStride, dataSelectBit, int(sizeof(D))},
                                      dataSelectBit ? rightPad : 0);
}

#define PTOSIM_CCE_LOOP_L1(name, which)                                                                            \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                        \
        ptosim::cce::a5::set_dma_loop(ptosim_cce::here(w), #name, ptosim::cce::a5::DmaDir::GmToL1, which, v);     \
    }
PTOSIM_CCE_LOOP_L1(set_loop_size_outtol1, 0)
PTOSIM_CCE_LOOP_L1(set_loop1_stride_outtol1, 1)
PTOSIM_CCE_LOOP_L1(set_loop2_stride_outtol1, 2)
#undef PTOSIM_CCE_LOOP_L1

inline void set_pad_val_outtol1(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::set_l1_pad_value(ptosim_cce::here(w), v);
}
inline void set_mte2_nz_para(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_cube_reg(ptosim_cce::here(w), "set_mte2_nz_para", ptosim::cce::CubeReg::Mte2NzPara, v);
}

// Between the Cube core's L1 and a Vector sub-block's UB (A5's TMOV/TINSERT
// Vec <-> Mat): on the Cube core, copy_cbuf_to_ubuf writes the UB of the
// sub-block its third operand names (pto-isa's texpands_mat passes 0, then
// 1); on a Vector core, copy_ubuf_to_cbuf writes its Cube core's L1 (third
// operand 0). Bursts and gaps in 32-byte blocks (docs/intrinsics/a5-cube.md).
template <class D, class S>
inline void copy_cbuf_to_ubuf(__ubuf__ D* dst, __cbuf__ S* src, uint8_t subBlockId, uint16_t nBurst,
                              uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap,
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_peer_ub(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::off(src),
                                    {nBurst, lenBurst, srcGap, dstGap}, subBlockId);
}
template <class D, class S>
inline void copy_ubuf_to_cbuf(__cbuf__ D* dst, __ubuf__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                              uint16_t srcGap, uint16_t dstGap,
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_ub_to_peer_l1(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::off(src),
                                    {nBurst, lenBurst, srcGap, dstGap});
}
