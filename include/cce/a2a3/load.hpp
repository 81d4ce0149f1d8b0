// A2A3's loads into L0A (load_*_to_ca) and L0B (load_*_to_cb): 2-D fractal
// loads, transposing loads, img2col (load3d v2), and the FMATRIX / repeat
// registers img2col reads (docs/intrinsics/load.md).
#pragma once
#include <cce/operands.hpp>
#include <ptosim/cce_cube.hpp>

namespace ptosim_cce {
template <class D, class S>
inline void load2d(const where_t& w, const char* op, ptosim::Space dst_space, uint64_t dst, ptosim::Space src_space,
                   uint64_t src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint16_t dstGap, bool transpose,
                   __cce_scalar::addr_cal_mode_t mode) {
    static_assert(sizeof(D) == sizeof(S), "load_*_to_ca/cb: source and destination element sizes differ");
    ptosim::cce::load_2d(here(w), op, dst_space, dst, src_space, src,
                         {baseIdx, repeat, srcStride, dstGap, transpose, mode == __cce_scalar::dec}, sizeof(D));
}
}  // namespace ptosim_cce

#define PTOSIM_CCE_LOAD2D(name, dst_q, dst_space, src_q, src_space, src_value)                                    \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, src_q S* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride,            \
                     uint16_t dstGap, uint8_t /*sid*/, bool transpose, __cce_scalar::addr_cal_mode_t mode,         \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim_cce::load2d<D, S>(w, #name, ptosim::Space::dst_space, ptosim_cce::off(dst), ptosim::Space::src_space, src_value,    \
                                 baseIdx, repeat, srcStride, dstGap, transpose, mode);                             \
    }
PTOSIM_CCE_LOAD2D(load_cbuf_to_ca, __ca__, L0A, __cbuf__, L1, ptosim_cce::off(src))
PTOSIM_CCE_LOAD2D(load_cbuf_to_cb, __cb__, L0B, __cbuf__, L1, ptosim_cce::off(src))
#undef PTOSIM_CCE_LOAD2D

// The short form without the destination gap and the address mode
// (pto-isa at cannmirror defdb75f, TExtract.hpp: `load_cbuf_to_ca(dst, src,
// baseIdx, repeat, 1, 0, false)`): no gap, incrementing addresses.
#define PTOSIM_CCE_LOAD2D_SHORT(name, dst_q, dst_space)                                                           \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cbuf__ S* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride,         \
                     uint8_t /*sid*/, bool transpose, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {     \
        ptosim_cce::load2d<D, S>(w, #name, ptosim::Space::dst_space, ptosim_cce::off(dst), ptosim::Space::L1,    \
                                 ptosim_cce::off(src), baseIdx, repeat, srcStride, 0, transpose, __cce_scalar::inc); \
    }
PTOSIM_CCE_LOAD2D_SHORT(load_cbuf_to_ca, __ca__, L0A)
PTOSIM_CCE_LOAD2D_SHORT(load_cbuf_to_cb, __cb__, L0B)
#undef PTOSIM_CCE_LOAD2D_SHORT

// GM -> L0A/L0B: the same fractal walk from GM, on MTE2 (no transpose).
#define PTOSIM_CCE_LOADGM(name, dst_q, dst_space)                                                                  \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __gm__ S* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride,           \
                     uint16_t dstGap, uint8_t /*sid*/, __cce_scalar::addr_cal_mode_t mode,                         \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim_cce::load2d<D, S>(w, #name, ptosim::Space::dst_space, ptosim_cce::off(dst), ptosim::Space::GM,                        \
                                 reinterpret_cast<uintptr_t>(ptosim_cce::host(src)), baseIdx, repeat, srcStride,   \
                                 dstGap, false, mode);                                                             \
    }
PTOSIM_CCE_LOADGM(load_gm_to_ca, __ca__, L0A)
PTOSIM_CCE_LOADGM(load_gm_to_cb, __cb__, L0B)
#undef PTOSIM_CCE_LOADGM

#define PTOSIM_CCE_LOAD2DT(name, dst_q, dst_space)                                                                 \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cbuf__ S* src, uint16_t indexID, uint8_t repeat, uint16_t srcStride,         \
                     uint16_t dstGap, bool /*addrmode*/, uint16_t dstFracGap,                                      \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        static_assert(sizeof(D) == sizeof(S), #name ": source and destination element sizes differ");             \
        ptosim::cce::load_2d_transpose(ptosim_cce::here(w), #name, ptosim::Space::dst_space, ptosim_cce::off(dst), \
                                       ptosim_cce::off(src), {indexID, repeat, srcStride, dstGap, dstFracGap},     \
                                       sizeof(D));                                                                 \
    }
PTOSIM_CCE_LOAD2DT(load_cbuf_to_ca_transpose, __ca__, L0A)
PTOSIM_CCE_LOAD2DT(load_cbuf_to_cb_transpose, __cb__, L0B)
#undef PTOSIM_CCE_LOAD2DT

// filterW/filterH carry bit 8 of the filter size (pto-isa's TImg2col splits
// sizes above 255 that way).
#define PTOSIM_CCE_IMG2COL(name, dst_q, dst_space)                                                                 \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cbuf__ S* src, uint16_t stepK, uint16_t stepM, uint16_t posK, uint16_t posM, \
                     uint8_t strideW, uint8_t strideH, uint8_t Wk, uint8_t Hk, uint8_t dilationW, uint8_t dilationH,  \
                     bool filterW, bool filterH, bool transpose, bool fmatrixCtrl, uint16_t channelSize,           \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        static_assert(sizeof(D) == sizeof(S), #name ": source and destination element sizes differ");             \
        ptosim::cce::img2col(ptosim_cce::here(w), #name, ptosim::Space::dst_space, ptosim_cce::off(dst),          \
                             ptosim_cce::off(src),                                                                 \
                             {stepK, stepM, posK, posM, strideW, strideH, uint16_t(Wk | (filterW ? 256 : 0)),      \
                              uint16_t(Hk | (filterH ? 256 : 0)), dilationW, dilationH, transpose, fmatrixCtrl,    \
                              channelSize},                                                                        \
                             sizeof(D));                                                                           \
    }
PTOSIM_CCE_IMG2COL(img2colv2_cbuf_to_ca, __ca__, L0A)
PTOSIM_CCE_IMG2COL(img2colv2_cbuf_to_cb, __cb__, L0B)
#undef PTOSIM_CCE_IMG2COL

#define PTOSIM_CCE_CUBE_REG(name, reg)                                                                             \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                        \
        ptosim::cce::set_cube_reg(ptosim_cce::here(w), #name, ptosim::cce::CubeReg::reg, v);                       \
    }
PTOSIM_CCE_CUBE_REG(set_fmatrix, Fmatrix)
PTOSIM_CCE_CUBE_REG(set_fmatrix_b, FmatrixB)
PTOSIM_CCE_CUBE_REG(set_l3d_rpt, L3dRpt)
#undef PTOSIM_CCE_CUBE_REG
