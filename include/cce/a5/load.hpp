// A5's loads from L1 into L0A (load_cbuf_to_ca) and L0B (load_cbuf_to_cb):
// the 2-D form with M/K start positions and steps, plain or transposed
// (CANN asc_copy_l12l0a/b for the 3510 architecture;
// docs/intrinsics/a5-cube.md, "L1 -> L0A/L0B").
#pragma once
#include <cce/operands.hpp>
#include <ptosim/cce_cube.hpp>

#define PTOSIM_CCE_LOAD2D_A5(name, dst_q, dst_space, bits)                                                         \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cbuf__ S* src, uint16_t mStartPosition, uint16_t kStartPosition,             \
                     uint8_t mStep, uint8_t kStep, int16_t srcStride, uint16_t dstStride, bool transpose,         \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        static_assert(sizeof(D) == sizeof(S), #name ": source and destination element sizes differ");             \
        if (srcStride < 0)                                                                                         \
            ptosim::fault(ptosim_cce::here(w), #name ": a negative srcStride is not simulated by ptosim yet "      \
                                               "(docs/intrinsics/a5-cube.md)");                                    \
        ptosim::cce::load_2d_a5(ptosim_cce::here(w), #name, ptosim::Space::dst_space, ptosim_cce::off(dst),       \
                                ptosim_cce::off(src),                                                              \
                                {mStartPosition, kStartPosition, mStep, kStep, uint16_t(srcStride), dstStride,     \
                                 transpose},                                                                       \
                                bits);                                                                             \
    }
PTOSIM_CCE_LOAD2D_A5(load_cbuf_to_ca, __ca__, L0A, int(sizeof(D)) * 8)
PTOSIM_CCE_LOAD2D_A5(load_cbuf_to_cb, __cb__, L0B, int(sizeof(D)) * 8)
// The 4-bit forms (pto-isa's float4 tiles, two elements a byte): the same
// fractals; k counts 32-byte columns, and a transposition moves 4-bit
// elements.
PTOSIM_CCE_LOAD2D_A5(load_cbuf_to_ca_s4, __ca__, L0A, 4)
PTOSIM_CCE_LOAD2D_A5(load_cbuf_to_cb_s4, __cb__, L0B, 4)
#undef PTOSIM_CCE_LOAD2D_A5

// The MX scale loads (pto-isa's TMOV/TEXTRACT of ScaleLeft/ScaleRight
// tiles): whole 32-byte boxes of E8M0 scales from L1 into the L0A/L0B
// scale store at `dst` (the operand's L0 address >> 4, pto-isa's
// GetScaleAddr); positions and steps count boxes
// (docs/intrinsics/a5-cube.md, "MX").
#define PTOSIM_CCE_LOAD_MX_A5(name, dst_space)                                                                     \
    template <class S>                                                                                             \
    inline void name(uint64_t dst, __cbuf__ S* src, uint16_t rowStartPosition, uint16_t colStartPosition,         \
                     uint8_t rowStep, uint8_t colStep, uint16_t srcStride, uint16_t dstStride,                    \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim::cce::load_mx_scales(ptosim_cce::here(w), #name, ptosim::Space::dst_space, dst, ptosim_cce::off(src), \
                                    {rowStartPosition, colStartPosition, rowStep, colStep, srcStride, dstStride});  \
    }
PTOSIM_CCE_LOAD_MX_A5(load_cbuf_to_ca_mx, L0AMX)
PTOSIM_CCE_LOAD_MX_A5(load_cbuf_to_cb_mx, L0BMX)
#undef PTOSIM_CCE_LOAD_MX_A5

// img2col (load3d v2, asc_copy_l12l0a/b "3D format"): A2A3's operands and
// feature-map walk (docs/intrinsics/load.md); into L0A it writes Nz
// fractals, A5's Left layout. fmatrixCtrl selects FMATRIX_B with its own
// repeat and padding registers.
#define PTOSIM_CCE_IMG2COL_A5(name, dst_q, dst_space)                                                              \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cbuf__ S* src, uint16_t stepK, uint16_t stepM, uint16_t posK, uint16_t posM, \
                     uint8_t strideW, uint8_t strideH, uint8_t Wk, uint8_t Hk, uint8_t dilationW, uint8_t dilationH,  \
                     bool filterW, bool filterH, bool transpose, bool fmatrixCtrl, uint16_t channelSize,           \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        static_assert(sizeof(D) == sizeof(S), #name ": source and destination element sizes differ");             \
        ptosim::cce::Img2col g{stepK,     stepM,     posK,    posM,         strideW,                              \
                               strideH,   uint16_t(Wk | (filterW ? 256 : 0)), uint16_t(Hk | (filterH ? 256 : 0)), \
                               dilationW, dilationH, transpose, fmatrixCtrl, channelSize};                          \
        g.a5 = true;                                                                                               \
        ptosim::cce::img2col(ptosim_cce::here(w), #name, ptosim::Space::dst_space, ptosim_cce::off(dst),          \
                             ptosim_cce::off(src), g, sizeof(D));                                                  \
    }
PTOSIM_CCE_IMG2COL_A5(img2colv2_cbuf_to_ca, __ca__, L0A)
PTOSIM_CCE_IMG2COL_A5(img2colv2_cbuf_to_cb, __cb__, L0B)
#undef PTOSIM_CCE_IMG2COL_A5

#define PTOSIM_CCE_CUBE_REG_A5(name, reg)                                                                          \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                        \
        ptosim::cce::set_cube_reg(ptosim_cce::here(w), #name, ptosim::cce::CubeReg::reg, v);                       \
    }
PTOSIM_CCE_CUBE_REG_A5(set_fmatrix, Fmatrix)
PTOSIM_CCE_CUBE_REG_A5(set_fmatrix_b, FmatrixB)
PTOSIM_CCE_CUBE_REG_A5(set_l3d_rpt, L3dRpt)
PTOSIM_CCE_CUBE_REG_A5(set_l3d_rpt_b, L3dRptB)
PTOSIM_CCE_CUBE_REG_A5(set_padding_b, PaddingB)
#undef PTOSIM_CCE_CUBE_REG_A5
