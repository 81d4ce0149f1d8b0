// A2A3's DMA into and out of L1 (Cube side): GM <-> L1 bursts (MTE2 / MTE3),
// GM -> L1 with the ND -> NZ conversion (MTE2); L1 -> bias table (MTE1) and
// L1 -> fixpipe buffer (FIX) in cce/cube_l1.hpp (docs/intrinsics/dma-cube.md).
#pragma once
#include <cce/operands.hpp>
#include <cce/a2a3/enums.hpp>
#include <ptosim/cce_cube.hpp>

#include <cstring>

template <class D, class S>
inline void copy_gm_to_cbuf(__cbuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride, pad_t padMode = PAD_NONE,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (padMode != PAD_NONE)
        ptosim::fault(ptosim_cce::here(w), "copy_gm_to_cbuf: only pad mode PAD_NONE is simulated");
    ptosim::cce::copy_gm_to_l1(ptosim_cce::here(w), "copy_gm_to_cbuf", ptosim_cce::off(dst), ptosim_cce::host(src),
                               {nBurst, lenBurst, srcStride, dstStride});
}

template <class D, class S>
inline void copy_cbuf_to_gm(__gm__ D* dst, __cbuf__ S* src, uint8_t /*sid*/, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_gm(ptosim_cce::here(w), "copy_cbuf_to_gm", ptosim_cce::host(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcStride, dstStride});
}

#define PTOSIM_CCE_ND2NZ(name, bytes)                                                                              \
    template <class D, class S>                                                                                    \
    inline void name(__cbuf__ D* dst, __gm__ S* src, uint8_t /*sid*/, uint16_t ndNum, uint16_t nValue,            \
                     uint16_t dValue, uint16_t srcNdMatrixStride, uint16_t srcDValue, uint16_t dstNzC0Stride,      \
                     uint16_t dstNzNStride, uint16_t dstNzMatrixStride,                                           \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim::cce::copy_gm_to_l1_nd2nz(ptosim_cce::here(w), #name, ptosim_cce::off(dst), ptosim_cce::host(src), \
                                         {ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,      \
                                          dstNzNStride, dstNzMatrixStride},                                        \
                                         bytes);                                                                   \
    }
PTOSIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b8, 1)
PTOSIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b16, 2)
PTOSIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b32s, 4)
#undef PTOSIM_CCE_ND2NZ

// copy_cbuf_to_bt, copy_cbuf_to_fbuf and create_cbuf_matrix(_bf16), in the
// units of this target.
#include <cce/cube_l1.hpp>
