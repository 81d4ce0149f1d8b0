// A5's fixpipe out of L0C on PIPE_FIX: copy_matrix_cc_to_gm in the register
// form (Xm, Xt) pto-isa's TSTORE uses, copy_matrix_cc_to_cbuf in A5's
// argument form, and the registers they read (ND_PARA through
// set_loop3_para, QUANT_PRE, FPC, CHANNEL_PARA). The move itself is A2A3's
// (src/sim/cce/fixpipe.cpp); docs/intrinsics/a5-cube.md, "Fixpipe", lists
// what differs and what faults.
#pragma once
#include <cce/operands.hpp>
#include <cce/a2a3/enums.hpp>
#include <ptosim/cce_cube.hpp>

#include <string>
#include <type_traits>

namespace ptosim_cce {
// A5 counts the NZ destination stride in elements (CANN asc_copy_l0c2gm,
// 3510: loop_dst_stride), A2A3 in 32-byte blocks; the shared move takes
// blocks.
template <class D>
inline uint32_t a5_nz_stride(const where_t& w, const char* op, uint32_t elements) {
    const uint64_t bytes = uint64_t(elements) * sizeof(D);
    if (bytes % 32 != 0)
        ptosim::fault(here(w), std::string(op) + ": the NZ destination stride (" + std::to_string(elements) +
                                   " elements) must be a multiple of 32 bytes");
    return uint32_t(bytes / 32);
}

// Xm: nSize [15:4], mSize [31:16], dst stride [63:32]. Xt: src stride [15:0],
// quantisation mode [29] (its bit 5) and [38:34], unit flag [33:32], ReLU
// mode [41:39], channel split [42], NZ -> ND [43], NZ -> DN [62] (pto-isa's
// TStoreAcc* field comments). With NZ -> ND or DN the destination stride is
// a row (column) length in elements.
template <class D>
inline ptosim::cce::Fix a5_fix_of(const where_t& w, const char* op, uint64_t xm, uint64_t xt) {
    const bool nz2nd = ((xt >> 43) & 1) != 0, nz2dn = ((xt >> 62) & 1) != 0;
    const uint32_t dst_stride = uint32_t(xm >> 32);
    ptosim::cce::Fix f{uint16_t((xm >> 4) & 0xfff),
                       uint16_t((xm >> 16) & 0xffff),
                       nz2nd || nz2dn ? dst_stride : a5_nz_stride<D>(w, op, dst_stride),
                       uint16_t(xt & 0xffff),
                       uint8_t((xt >> 32) & 3),
                       uint8_t(((xt >> 34) & 0x1f) | (((xt >> 29) & 1) << 5)),
                       uint8_t((xt >> 39) & 7),
                       ((xt >> 42) & 1) != 0,
                       nz2nd};
    f.nz2dn = nz2dn;
    return f;
}
}  // namespace ptosim_cce

template <class D, class S>
inline void copy_matrix_cc_to_gm(__gm__ D* dst, __cc__ S* src, uint64_t xm, uint64_t xt,
                                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::fixpipe(ptosim_cce::here(w), "copy_matrix_cc_to_gm", ptosim::Space::GM,
                         reinterpret_cast<uintptr_t>(ptosim_cce::host(dst)), ptosim::cce::dt_of<D>(),
                         ptosim::cce::dt_of<S>(), ptosim_cce::off(src),
                         ptosim_cce::a5_fix_of<D>(w, "copy_matrix_cc_to_gm", xm, xt));
}

// A5's argument form (CANN asc_copy_l0c2l1, 3510). The post-stage
// operations (quantPost, reluPost, clipReluPost, eltwise, loop enhance, C0
// padding, Winograd, broadcast) and the clip ReLU fault when set; NZ -> DN
// writes a column-major destination, dstStride elements per column. The
// ReLU mode may be an integer or an enumeration: the March 2026 pto-isa
// snapshot (cannmirror defdb75f, npu/a5/TMov.hpp, TExtract.hpp, TInsert.hpp)
// passes its pto::ReluPreMode, a scoped enum, where later trees cast it to
// uint8_t (as A2A3's older form, docs/intrinsics/fixpipe.md).
template <class D, class S, class R,
          std::enable_if_t<std::is_integral_v<R> || std::is_enum_v<R>, int> = 0>
inline void copy_matrix_cc_to_cbuf(__cbuf__ D* dst, __cc__ S* src, uint8_t /*sid*/, uint16_t nSize, uint16_t mSize,
                                   uint32_t dstStride, uint16_t srcStride, uint8_t /*l2CacheCtl*/,
                                   uint8_t clipReluPre, uint8_t unitFlagCtl, uint64_t quantPre, R reluPre,
                                   bool splitEn, bool nz2ndEn, uint64_t quantPost, uint8_t reluPost,
                                   bool clipReluPost, bool loopEnhanceEn, uint8_t eltwiseOp, bool eltwiseAntqEn,
                                   bool loopEnhanceMergeEn, bool c0PadEn, bool winoPostEn, bool broadcastEn,
                                   bool nz2dnEn, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    constexpr const char* op = "copy_matrix_cc_to_cbuf";
    if (clipReluPre || quantPost || reluPost || clipReluPost || loopEnhanceEn || eltwiseOp || eltwiseAntqEn ||
        loopEnhanceMergeEn || c0PadEn || winoPostEn || broadcastEn)
        ptosim::fault(ptosim_cce::here(w),
                      std::string(op) + ": clip ReLU, the post-stage operations, eltwise, loop enhance, C0 padding, "
                                        "Winograd and broadcast are not simulated by ptosim yet "
                                        "(docs/intrinsics/a5-cube.md); pass 0/false for them");
    ptosim::cce::Fix f{nSize,     mSize,       nz2ndEn || nz2dnEn ? dstStride : ptosim_cce::a5_nz_stride<D>(w, op, dstStride),
                       srcStride, unitFlagCtl, uint8_t(quantPre),
                       static_cast<uint8_t>(reluPre), splitEn, nz2ndEn};
    f.nz2dn = nz2dnEn;
    ptosim::cce::fixpipe(ptosim_cce::here(w), op, ptosim::Space::L1, ptosim_cce::off(dst), ptosim::cce::dt_of<D>(),
                         ptosim::cce::dt_of<S>(), ptosim_cce::off(src), f);
}

// L0C into a Vector core's UB (CANN asc_copy_l0c2ub is not published for
// 3510; the operands are pto-isa's pto_copy_matrix_cc_to_ub): the Cube core
// writes the UB of Vector sub-block subBlockId of its group, or with
// dualDstCtl 1 (split M) / 2 (split N) one half to each sub-block at the
// same address. The other operands as copy_matrix_cc_to_cbuf.
template <class D, class S, class R,
          std::enable_if_t<std::is_integral_v<R> || std::is_enum_v<R>, int> = 0>
inline void copy_matrix_cc_to_ub(__ubuf__ D* dst, __cc__ S* src, uint8_t /*sid*/, uint16_t nSize, uint16_t mSize,
                                 uint32_t dstStride, uint16_t srcStride, uint8_t dualDstCtl, bool subBlockId,
                                 uint8_t clipReluPre, uint8_t unitFlagCtl, uint64_t quantPre, R reluPre,
                                 bool splitEn, bool nz2ndEn, uint64_t quantPost, uint8_t reluPost, bool clipReluPost,
                                 bool loopEnhanceEn, uint8_t eltwiseOp, bool eltwiseAntqEn, bool loopEnhanceMergeEn,
                                 bool c0PadEn, bool winoPostEn, bool broadcastEn, bool nz2dnEn,
                                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    constexpr const char* op = "copy_matrix_cc_to_ub";
    if (clipReluPre || quantPost || reluPost || clipReluPost || loopEnhanceEn || eltwiseOp || eltwiseAntqEn ||
        loopEnhanceMergeEn || c0PadEn || winoPostEn || broadcastEn)
        ptosim::fault(ptosim_cce::here(w),
                      std::string(op) + ": clip ReLU, the post-stage operations, eltwise, loop enhance, C0 padding, "
                                        "Winograd and broadcast are not simulated by ptosim yet "
                                        "(docs/intrinsics/a5-cube.md); pass 0/false for them");
    ptosim::cce::Fix f{nSize,     mSize,       nz2ndEn || nz2dnEn ? dstStride : ptosim_cce::a5_nz_stride<D>(w, op, dstStride),
                       srcStride, unitFlagCtl, uint8_t(quantPre),
                       static_cast<uint8_t>(reluPre), splitEn, nz2ndEn};
    f.nz2dn = nz2dnEn;
    f.dual = dualDstCtl;
    f.sub_block = subBlockId ? 1 : 0;
    ptosim::cce::fixpipe(ptosim_cce::here(w), op, ptosim::Space::UB, ptosim_cce::off(dst), ptosim::cce::dt_of<D>(),
                         ptosim::cce::dt_of<S>(), ptosim_cce::off(src), f);
}

#define PTOSIM_CCE_FIX_REG_A5(name, reg)                                                                           \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                        \
        ptosim::cce::set_cube_reg(ptosim_cce::here(w), #name, ptosim::cce::CubeReg::reg, v);                       \
    }
PTOSIM_CCE_FIX_REG_A5(set_loop3_para, NdPara)
PTOSIM_CCE_FIX_REG_A5(set_channel_para, ChannelPara)
PTOSIM_CCE_FIX_REG_A5(set_quant_pre, QuantPre)
PTOSIM_CCE_FIX_REG_A5(set_fpc, Fpc)
#undef PTOSIM_CCE_FIX_REG_A5
