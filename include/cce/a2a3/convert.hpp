// vconv_<from>2<to><rounding>: element-type conversion under the vector mask,
// one name per pair and rounding as CCE spells them (docs/intrinsics/convert.md).
// The suffix: r to nearest even, a away from zero, f floor, c ceil, z toward
// zero, o to odd; none: the pair's default rounding.
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_VCONV(name, from, to, round)                                                                    \
    template <class D, class S>                                                                                    \
    inline void name(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,            \
                     uint16_t dstRep, uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {   \
        ptosim::cce::vconv(ptosim_cce::here(w), #name, ptosim::cce::Dt::from, ptosim::cce::Dt::to,                  \
                           ptosim::cce::Round::round, ptosim_cce::off(dst), ptosim_cce::off(src),                  \
                           {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});                                        \
    }
PTOSIM_CCE_VCONV(vconv_bf162f32, BF16, F32, None)
PTOSIM_CCE_VCONV(vconv_bf162s32a, BF16, S32, Away)
PTOSIM_CCE_VCONV(vconv_bf162s32c, BF16, S32, Ceil)
PTOSIM_CCE_VCONV(vconv_bf162s32f, BF16, S32, Floor)
PTOSIM_CCE_VCONV(vconv_bf162s32r, BF16, S32, Rint)
PTOSIM_CCE_VCONV(vconv_bf162s32z, BF16, S32, Trunc)
PTOSIM_CCE_VCONV(vconv_f162f32, F16, F32, None)
PTOSIM_CCE_VCONV(vconv_f162s16a, F16, S16, Away)
PTOSIM_CCE_VCONV(vconv_f162s16c, F16, S16, Ceil)
PTOSIM_CCE_VCONV(vconv_f162s16f, F16, S16, Floor)
PTOSIM_CCE_VCONV(vconv_f162s16r, F16, S16, Rint)
PTOSIM_CCE_VCONV(vconv_f162s16z, F16, S16, Trunc)
PTOSIM_CCE_VCONV(vconv_f162s32, F16, S32, None)
PTOSIM_CCE_VCONV(vconv_f162s32a, F16, S32, Away)
PTOSIM_CCE_VCONV(vconv_f162s32c, F16, S32, Ceil)
PTOSIM_CCE_VCONV(vconv_f162s32f, F16, S32, Floor)
PTOSIM_CCE_VCONV(vconv_f162s32r, F16, S32, Rint)
PTOSIM_CCE_VCONV(vconv_f162s32z, F16, S32, Trunc)
PTOSIM_CCE_VCONV(vconv_f162s8, F16, S8, None)
PTOSIM_CCE_VCONV(vconv_f162s8a, F16, S8, Away)
PTOSIM_CCE_VCONV(vconv_f162s8c, F16, S8, Ceil)
PTOSIM_CCE_VCONV(vconv_f162s8f, F16, S8, Floor)
PTOSIM_CCE_VCONV(vconv_f162s8r, F16, S8, Rint)
PTOSIM_CCE_VCONV(vconv_f162s8z, F16, S8, Trunc)
PTOSIM_CCE_VCONV(vconv_f162u8, F16, U8, None)
PTOSIM_CCE_VCONV(vconv_f162u8a, F16, U8, Away)
PTOSIM_CCE_VCONV(vconv_f162u8c, F16, U8, Ceil)
PTOSIM_CCE_VCONV(vconv_f162u8f, F16, U8, Floor)
PTOSIM_CCE_VCONV(vconv_f162u8r, F16, U8, Rint)
PTOSIM_CCE_VCONV(vconv_f162u8z, F16, U8, Trunc)
PTOSIM_CCE_VCONV(vconv_f322bf16a, F32, BF16, Away)
PTOSIM_CCE_VCONV(vconv_f322bf16c, F32, BF16, Ceil)
PTOSIM_CCE_VCONV(vconv_f322bf16f, F32, BF16, Floor)
PTOSIM_CCE_VCONV(vconv_f322bf16r, F32, BF16, Rint)
PTOSIM_CCE_VCONV(vconv_f322bf16z, F32, BF16, Trunc)
PTOSIM_CCE_VCONV(vconv_f322f16, F32, F16, None)
PTOSIM_CCE_VCONV(vconv_f322f16a, F32, F16, Away)
PTOSIM_CCE_VCONV(vconv_f322f16c, F32, F16, Ceil)
PTOSIM_CCE_VCONV(vconv_f322f16f, F32, F16, Floor)
PTOSIM_CCE_VCONV(vconv_f322f16o, F32, F16, Odd)
PTOSIM_CCE_VCONV(vconv_f322f16r, F32, F16, Rint)
PTOSIM_CCE_VCONV(vconv_f322f16z, F32, F16, Trunc)
PTOSIM_CCE_VCONV(vconv_f322f32a, F32, F32, Away)
PTOSIM_CCE_VCONV(vconv_f322f32c, F32, F32, Ceil)
PTOSIM_CCE_VCONV(vconv_f322f32f, F32, F32, Floor)
PTOSIM_CCE_VCONV(vconv_f322f32r, F32, F32, Rint)
PTOSIM_CCE_VCONV(vconv_f322f32z, F32, F32, Trunc)
PTOSIM_CCE_VCONV(vconv_f322s16a, F32, S16, Away)
PTOSIM_CCE_VCONV(vconv_f322s16c, F32, S16, Ceil)
PTOSIM_CCE_VCONV(vconv_f322s16f, F32, S16, Floor)
PTOSIM_CCE_VCONV(vconv_f322s16r, F32, S16, Rint)
PTOSIM_CCE_VCONV(vconv_f322s16z, F32, S16, Trunc)
PTOSIM_CCE_VCONV(vconv_f322s32a, F32, S32, Away)
PTOSIM_CCE_VCONV(vconv_f322s32c, F32, S32, Ceil)
PTOSIM_CCE_VCONV(vconv_f322s32f, F32, S32, Floor)
PTOSIM_CCE_VCONV(vconv_f322s32r, F32, S32, Rint)
PTOSIM_CCE_VCONV(vconv_f322s32z, F32, S32, Trunc)
PTOSIM_CCE_VCONV(vconv_f322s64a, F32, S64, Away)
PTOSIM_CCE_VCONV(vconv_f322s64c, F32, S64, Ceil)
PTOSIM_CCE_VCONV(vconv_f322s64f, F32, S64, Floor)
PTOSIM_CCE_VCONV(vconv_f322s64r, F32, S64, Rint)
PTOSIM_CCE_VCONV(vconv_f322s64z, F32, S64, Trunc)
PTOSIM_CCE_VCONV(vconv_s162f16, S16, F16, None)
PTOSIM_CCE_VCONV(vconv_s162f16a, S16, F16, Away)
PTOSIM_CCE_VCONV(vconv_s162f16c, S16, F16, Ceil)
PTOSIM_CCE_VCONV(vconv_s162f16f, S16, F16, Floor)
PTOSIM_CCE_VCONV(vconv_s162f16r, S16, F16, Rint)
PTOSIM_CCE_VCONV(vconv_s162f16z, S16, F16, Trunc)
PTOSIM_CCE_VCONV(vconv_s162f32, S16, F32, None)
PTOSIM_CCE_VCONV(vconv_s322f32, S32, F32, None)
PTOSIM_CCE_VCONV(vconv_s322f32a, S32, F32, Away)
PTOSIM_CCE_VCONV(vconv_s322f32c, S32, F32, Ceil)
PTOSIM_CCE_VCONV(vconv_s322f32f, S32, F32, Floor)
PTOSIM_CCE_VCONV(vconv_s322f32r, S32, F32, Rint)
PTOSIM_CCE_VCONV(vconv_s322f32z, S32, F32, Trunc)
PTOSIM_CCE_VCONV(vconv_s322s16, S32, S16, None)
PTOSIM_CCE_VCONV(vconv_s322s64, S32, S64, None)
PTOSIM_CCE_VCONV(vconv_s642f32a, S64, F32, Away)
PTOSIM_CCE_VCONV(vconv_s642f32c, S64, F32, Ceil)
PTOSIM_CCE_VCONV(vconv_s642f32f, S64, F32, Floor)
PTOSIM_CCE_VCONV(vconv_s642f32r, S64, F32, Rint)
PTOSIM_CCE_VCONV(vconv_s642f32z, S64, F32, Trunc)
PTOSIM_CCE_VCONV(vconv_s642s32, S64, S32, None)
PTOSIM_CCE_VCONV(vconv_s82f16, S8, F16, None)
PTOSIM_CCE_VCONV(vconv_u82f16, U8, F16, None)
#undef PTOSIM_CCE_VCONV

// Half to packed int4 and back (two a byte, the lower element in the low
// nibble), and int32 to half through the scale set_deqscale sets.
#define PTOSIM_CCE_VCONV_S4(name, to_s4, round)                                                                    \
    template <class D, class S, class R>                                                                           \
    inline void name(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, R dstRep,  \
                     R srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                           \
        ptosim::cce::vconv_s4(ptosim_cce::here(w), #name, to_s4, ptosim::cce::Round::round, ptosim_cce::off(dst),   \
                              ptosim_cce::off(src),                                                                \
                              {repeat, dstBlk, srcBlk, 0, static_cast<uint16_t>(dstRep), static_cast<uint16_t>(srcRep), 0}); \
    }
PTOSIM_CCE_VCONV_S4(vconv_f162s4, true, None)
PTOSIM_CCE_VCONV_S4(vconv_f162s4a, true, Away)
PTOSIM_CCE_VCONV_S4(vconv_f162s4c, true, Ceil)
PTOSIM_CCE_VCONV_S4(vconv_f162s4f, true, Floor)
PTOSIM_CCE_VCONV_S4(vconv_f162s4r, true, Rint)
PTOSIM_CCE_VCONV_S4(vconv_f162s4z, true, Trunc)
PTOSIM_CCE_VCONV_S4(vconv_s42f16, false, None)
#undef PTOSIM_CCE_VCONV_S4

template <class D, class S>
inline void vconv_deq(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,
                      uint16_t dstRep, uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vconv_deq(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::off(src),
                           {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});
}

template <class H>
inline void set_deqscale(H scale, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const half h = static_cast<half>(scale);
    uint16_t bits;
    __builtin_memcpy(&bits, &h, sizeof bits);
    ptosim::cce::set_deqscale(ptosim_cce::here(w), bits);
}

// Fused add/sub, ReLU and down-conversion; `h` picks the destination's high
// half packing (only h = 0 is simulated).
#define PTOSIM_CCE_RELUCONV(name, sub, from, to)                                                                   \
    template <class D, class S>                                                                                    \
    inline void name(__ubuf__ D* dst, __ubuf__ S* src0, __ubuf__ S* src1, uint8_t repeat, uint16_t dstBlk,          \
                     uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep, bool h, \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                      \
        ptosim::cce::vreluconv(ptosim_cce::here(w), #name, sub, ptosim::cce::Dt::from, ptosim::cce::Dt::to,         \
                               ptosim_cce::off(dst), ptosim_cce::off(src0), ptosim_cce::off(src1),                 \
                               {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep}, h);                    \
    }
PTOSIM_CCE_RELUCONV(vaddreluconv_f322f16, false, F32, F16)
PTOSIM_CCE_RELUCONV(vaddreluconv_f162s8, false, F16, S8)
PTOSIM_CCE_RELUCONV(vaddreluconv_s162s8, false, S16, S8)
PTOSIM_CCE_RELUCONV(vsubreluconv_f322f16, true, F32, F16)
PTOSIM_CCE_RELUCONV(vsubreluconv_f162s8, true, F16, S8)
PTOSIM_CCE_RELUCONV(vsubreluconv_s162s8, true, S16, S8)
#undef PTOSIM_CCE_RELUCONV
