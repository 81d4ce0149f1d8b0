// A2A3's gathers (docs/intrinsics/gather.md): vgather, vreducev2,
// get_rsvd_cnt. The runtime side is src/sim/cce/gather.cpp.
#pragma once
#include <cce/operands.hpp>

// offsetAddr is a UB byte address (pto-isa passes a UB pointer's value).
template <class T>
inline void vgather(__ubuf__ T* dst, __ubuf__ uint32_t* offsets, uint64_t offsetAddr, uint16_t dstRep, uint8_t repeat,
                    ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vgather(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(offsets),
                         offsetAddr, dstRep, repeat);
}

template <class T, class U, class P>
inline void vreducev2(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ U* src1, uint16_t repeat, uint8_t src0Blk,
                      P pattern, uint16_t src0Rep, uint8_t src1Rep,
                      ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vreducev2(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src0),
                           ptosim_cce::off(src1), repeat, src0Blk, static_cast<int>(pattern), src0Rep, src1Rep);
}

inline int64_t get_rsvd_cnt() { return static_cast<int64_t>(ptosim::cce::get_rsvd_cnt()); }

// offsetAddr is a UB byte address; the offsets are bytes, each a block's.
template <class T>
inline void vgatherb(__ubuf__ T* dst, __ubuf__ uint32_t* offsets, uint64_t offsetAddr, uint16_t dstRep, uint8_t dstBlk,
                     uint8_t repeat, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vgatherb(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(offsets),
                          offsetAddr, dstRep, dstBlk, repeat);
}
