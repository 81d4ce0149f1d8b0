// A2A3's reductions and broadcasts (docs/intrinsics/reduce.md): vcadd,
// vcmax and vcmin per repeat, vcgadd, vcgmax and vcgmin per block, vcpadd per
// pair, vbrcb. The runtime side is src/sim/cce/reduce.cpp.
#pragma once
#include <cce/operands.hpp>

template <class T>
inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRep, uint16_t srcBlk, uint16_t srcRep,
                  bool mode, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vreduce(ptosim_cce::here(w), "vcadd", ptosim::cce::Red::Add, ptosim::cce::dt_of<T>(),
                         ptosim_cce::off(dst), ptosim_cce::off(src), {repeat, dstRep, srcBlk, srcRep}, mode ? 1 : 0);
}

#define PTOSIM_CCE_EXTREME(name, red)                                                                              \
    template <class T, class O>                                                                                    \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRep, uint16_t srcBlk,            \
                     uint16_t srcRep, O order, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {           \
        ptosim::cce::vreduce(ptosim_cce::here(w), #name, ptosim::cce::Red::red, ptosim::cce::dt_of<T>(),            \
                             ptosim_cce::off(dst), ptosim_cce::off(src), {repeat, dstRep, srcBlk, srcRep},          \
                             static_cast<int>(order));                                                             \
    }
PTOSIM_CCE_EXTREME(vcmax, Max)
PTOSIM_CCE_EXTREME(vcmin, Min)
#undef PTOSIM_CCE_EXTREME

#define PTOSIM_CCE_GROUP(name, red)                                                                                \
    template <class T>                                                                                             \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRep, uint16_t srcBlk,            \
                     uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                    \
        ptosim::cce::vgreduce(ptosim_cce::here(w), #name, ptosim::cce::Red::red, ptosim::cce::dt_of<T>(),           \
                              ptosim_cce::off(dst), ptosim_cce::off(src), {repeat, dstRep, srcBlk, srcRep});        \
    }
PTOSIM_CCE_GROUP(vcgadd, Add)
PTOSIM_CCE_GROUP(vcgmax, Max)
PTOSIM_CCE_GROUP(vcgmin, Min)
#undef PTOSIM_CCE_GROUP

template <class T>
inline void vcpadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRep, uint16_t srcBlk, uint16_t srcRep,
                   ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vcpadd(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src),
                        {repeat, dstRep, srcBlk, srcRep});
}

template <class T>
inline void vbrcb(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dstBlk, uint16_t dstRep, uint8_t repeat,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vbrcb(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src), dstBlk,
                       dstRep, repeat);
}
