// A2A3's compares and selects (docs/intrinsics/compare.md): vcmp_* into the
// compare mask register, vcmpv_* and vcmpvs_* into a bit mask in UB, vsel in
// its three select modes, set_cmpmask. The runtime side is src/sim/cce/compare.cpp.
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_COMPARE(suffix, cmp)                                                                            \
    template <class T>                                                                                             \
    inline void vcmp_##suffix(__ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk, uint16_t src0Blk, \
                              uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,                \
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                              \
        ptosim::cce::vcmp(ptosim_cce::here(w), "vcmp_" #suffix, ptosim::cce::Cmp::cmp, ptosim::cce::dt_of<T>(),     \
                          ptosim_cce::off(src0), ptosim_cce::off(src1),                                            \
                          {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep});                            \
    }                                                                                                              \
    template <class D, class T>                                                                                    \
    inline void vcmpv_##suffix(__ubuf__ D* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk, \
                               uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep,              \
                               uint16_t src1Rep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {          \
        ptosim::cce::vcmpv(ptosim_cce::here(w), "vcmpv_" #suffix, ptosim::cce::Cmp::cmp, ptosim::cce::dt_of<T>(),   \
                           ptosim_cce::off(dst), ptosim_cce::off(src0), ptosim_cce::off(src1),                     \
                           {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep});                           \
    }                                                                                                              \
    template <class D, class T, class S>                                                                           \
    inline void vcmpvs_##suffix(__ubuf__ D* dst, __ubuf__ T* src, S scalar, uint8_t repeat, uint16_t dstBlk,        \
                                uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep,                                 \
                                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                           \
        ptosim::cce::vcmpvs(ptosim_cce::here(w), "vcmpvs_" #suffix, ptosim::cce::Cmp::cmp, ptosim::cce::dt_of<T>(), \
                            ptosim_cce::off(dst), ptosim_cce::off(src), ptosim_cce::scalar_bits<T>(scalar),        \
                            {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});                                       \
    }
PTOSIM_CCE_COMPARE(eq, Eq)
PTOSIM_CCE_COMPARE(ne, Ne)
PTOSIM_CCE_COMPARE(lt, Lt)
PTOSIM_CCE_COMPARE(le, Le)
PTOSIM_CCE_COMPARE(gt, Gt)
PTOSIM_CCE_COMPARE(ge, Ge)
#undef PTOSIM_CCE_COMPARE

// src1 is data (modes 0 and 2) or the address of a bit mask (mode 1), so its
// pointee type is free; the mode may be pto-isa's SELMODE enumeration.
template <class T, class S1, class M>
inline void vsel(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ S1* src1, uint8_t repeat, uint16_t dstBlk,
                 uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep, M mode,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vsel(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src0),
                      ptosim_cce::off(src1), {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep},
                      static_cast<int>(mode));
}

// Without a mode: mode 0, the compare mask register's bits (pto-isa's
// TPARTARGMAX/MIN select values and indices after one vcmp).
template <class T>
inline void vsel(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,
                 uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vsel(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src0),
                      ptosim_cce::off(src1), {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep}, 0);
}

template <class T>
inline void set_cmpmask(__ubuf__ T* src, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_cmpmask(ptosim_cce::here(w), ptosim_cce::off(src));
}
