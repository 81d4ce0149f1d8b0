// A2A3's fixpipe out of L0C on PIPE_FIX: copy_matrix_cc_to_gm / _cbuf in the
// register form (Xm, Xt) pto-isa's TSTORE uses and the argument form, and the
// ND_PARA, QUANT_PRE and FPC registers they read (docs/intrinsics/fixpipe.md).
// A2A3's fixpipe has no path into UB: copy_matrix_cc_to_ubuf stays pending.
#pragma once
#include <cce/operands.hpp>
#include <cce/a2a3/enums.hpp>
#include <ptosim/cce_cube.hpp>

static_assert(int(NoQuant) == int(ptosim::cce::Quant::NoQuant) && int(REQ8) == int(ptosim::cce::Quant::REQ8) &&
                  int(VSHIFTS322S16) == int(ptosim::cce::Quant::VSHIFTS322S16) &&
                  int(VQF322F32_PRE) == int(ptosim::cce::Quant::VQF322F32_PRE) &&
                  int(VQS322BF16_PRE) == int(ptosim::cce::Quant::VQS322BF16_PRE),
              "QuantMode_t and ptosim::cce::Quant must number the modes alike");

namespace ptosim_cce {
// Xm: nSize [15:4], mSize [31:16], dst stride [63:32]. Xt: src stride [15:0],
// unit flag [33:32], quantisation mode [38:34], ReLU mode [41:39], channel
// split [42], NZ -> ND [43] (pto-isa's TStoreAcc* field comments).
inline ptosim::cce::Fix fix_of(uint64_t xm, uint64_t xt) {
    return {uint16_t((xm >> 4) & 0xfff), uint16_t((xm >> 16) & 0xffff), uint32_t(xm >> 32), uint16_t(xt & 0xffff),
            uint8_t((xt >> 32) & 3),     uint8_t((xt >> 34) & 0x1f),     uint8_t((xt >> 39) & 7),
            ((xt >> 42) & 1) != 0,       ((xt >> 43) & 1) != 0};
}
}  // namespace ptosim_cce

#define PTOSIM_CCE_FIX(name, dst_q, space, dst_value)                                                              \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cc__ S* src, uint64_t xm, uint64_t xt,                                        \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim::cce::fixpipe(ptosim_cce::here(w), #name, ptosim::Space::space, dst_value, ptosim::cce::dt_of<D>(), \
                             ptosim::cce::dt_of<S>(), ptosim_cce::off(src), ptosim_cce::fix_of(xm, xt));           \
    }                                                                                                              \
    template <class D, class S>                                                                                    \
    inline void name(dst_q D* dst, __cc__ S* src, uint8_t /*sid*/, uint16_t nSize, uint16_t mSize,                 \
                     uint32_t dstStride, uint16_t srcStride, uint8_t unitFlagMode, uint64_t quantPre,              \
                     uint8_t reluPre, bool channelSplit, bool nz2ndEn,                                             \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                     \
        ptosim::cce::fixpipe(ptosim_cce::here(w), #name, ptosim::Space::space, dst_value, ptosim::cce::dt_of<D>(), \
                             ptosim::cce::dt_of<S>(), ptosim_cce::off(src),                                        \
                             {nSize, mSize, dstStride, srcStride, unitFlagMode, uint8_t(quantPre), reluPre,        \
                              channelSplit, nz2ndEn});                                                             \
    }                                                                                                              \
    /* The older argument form: the ReLU mode as an enumeration (pto-isa at cannmirror defdb75f passes its      \
       pto::ReluPreMode, a scoped enum, where later trees cast it to uint8_t), the quantisation mode as       \
       QuantMode_t (the CCE reference's 8.3 prototype). The same move. */                                         \
    template <class D, class S, class Q, class R, std::enable_if_t<std::is_enum_v<R>, int> = 0>                   \
    inline void name(dst_q D* dst, __cc__ S* src, uint8_t sid, uint16_t nSize, uint16_t mSize, uint32_t dstStride, \
                     uint16_t srcStride, uint8_t unitFlagMode, Q quantPre, R reluPre, bool channelSplit,           \
                     bool nz2ndEn, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                       \
        name(dst, src, sid, nSize, mSize, dstStride, srcStride, unitFlagMode, uint64_t(quantPre),                  \
             static_cast<uint8_t>(reluPre), channelSplit, nz2ndEn, w);                                             \
    }
PTOSIM_CCE_FIX(copy_matrix_cc_to_gm, __gm__, GM, reinterpret_cast<uintptr_t>(ptosim_cce::host(dst)))
PTOSIM_CCE_FIX(copy_matrix_cc_to_cbuf, __cbuf__, L1, ptosim_cce::off(dst))
#undef PTOSIM_CCE_FIX

#define PTOSIM_CCE_FIX_REG(name, reg)                                                                              \
    inline void name(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                        \
        ptosim::cce::set_cube_reg(ptosim_cce::here(w), #name, ptosim::cce::CubeReg::reg, v);                       \
    }
PTOSIM_CCE_FIX_REG(set_nd_para, NdPara)
PTOSIM_CCE_FIX_REG(set_quant_pre, QuantPre)
PTOSIM_CCE_FIX_REG(set_fpc, Fpc)
#undef PTOSIM_CCE_FIX_REG
