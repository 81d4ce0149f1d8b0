// A2A3's memory-to-memory vector instructions: repeat, block and repeat
// strides, under the vector mask (docs/intrinsics/vector.md). Each kernel-side
// name is one line over the runtime's shared repeat loop (src/sim/cce/vector.cpp).
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_BINARY(name, op)                                                                                \
    template <class T>                                                                                             \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,          \
                     uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,       \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                      \
        ptosim::cce::vbinary(ptosim_cce::here(w), #name, ptosim::cce::Bin::op, ptosim::cce::dt_of<T>(),             \
                             ptosim_cce::off(dst), ptosim_cce::off(src0), ptosim_cce::off(src1),                   \
                             {repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep});                        \
    }
PTOSIM_CCE_BINARY(vadd, Add)
PTOSIM_CCE_BINARY(vsub, Sub)
PTOSIM_CCE_BINARY(vmul, Mul)
PTOSIM_CCE_BINARY(vdiv, Div)
PTOSIM_CCE_BINARY(vmax, Max)
PTOSIM_CCE_BINARY(vmin, Min)
PTOSIM_CCE_BINARY(vand, And)
PTOSIM_CCE_BINARY(vor, Or)
PTOSIM_CCE_BINARY(vaddrelu, AddRelu)
PTOSIM_CCE_BINARY(vsubrelu, SubRelu)
PTOSIM_CCE_BINARY(vmla, MulAddDst)
PTOSIM_CCE_BINARY(vmadd, MulAdd)
PTOSIM_CCE_BINARY(vmaddrelu, MulAddRelu)
PTOSIM_CCE_BINARY(vprelu, Prelu)
#undef PTOSIM_CCE_BINARY

#define PTOSIM_CCE_UNARY(name, op)                                                                                 \
    template <class T>                                                                                             \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,            \
                     uint16_t dstRep, uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {   \
        ptosim::cce::vunary(ptosim_cce::here(w), #name, ptosim::cce::Una::op, ptosim::cce::dt_of<T>(),              \
                            ptosim_cce::off(dst), ptosim_cce::off(src), {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0}); \
    }
PTOSIM_CCE_UNARY(vexp, Exp)
PTOSIM_CCE_UNARY(vln, Ln)
PTOSIM_CCE_UNARY(vabs, Abs)
PTOSIM_CCE_UNARY(vsqrt, Sqrt)
PTOSIM_CCE_UNARY(vrsqrt, Rsqrt)
PTOSIM_CCE_UNARY(vrec, Rec)
PTOSIM_CCE_UNARY(vrelu, Relu)
PTOSIM_CCE_UNARY(vnot, Not)
PTOSIM_CCE_UNARY(vcopy, Copy)
#undef PTOSIM_CCE_UNARY

#define PTOSIM_CCE_SCALAR(name, op)                                                                                \
    template <class T, class S>                                                                                    \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src, S scalar, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,  \
                     uint16_t dstRep, uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {   \
        ptosim::cce::vscalar(ptosim_cce::here(w), #name, ptosim::cce::Sca::op, ptosim::cce::dt_of<T>(),             \
                             ptosim_cce::off(dst), ptosim_cce::off(src), ptosim_cce::scalar_bits<T>(scalar),        \
                             {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});                                      \
    }
PTOSIM_CCE_SCALAR(vadds, Add)
PTOSIM_CCE_SCALAR(vmuls, Mul)
PTOSIM_CCE_SCALAR(vmaxs, Max)
PTOSIM_CCE_SCALAR(vmins, Min)
PTOSIM_CCE_SCALAR(vlrelu, Lrelu)
PTOSIM_CCE_SCALAR(vaxpy, Axpy)
#undef PTOSIM_CCE_SCALAR

// The mixed-precision axpy (Ascend C Axpy, half source into a float
// destination): a repeat is 64 elements, eight blocks of dst and four of src.
template <class S>
inline void vaxpy(__ubuf__ float* dst, __ubuf__ half* src, S scalar, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,
                  uint16_t dstRep, uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vaxpy_widen(ptosim_cce::here(w), ptosim_cce::off(dst), ptosim_cce::off(src),
                             ptosim_cce::scalar_bits<half>(scalar), {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});
}

// Shifts take the shift count as an integer whatever the element type.
#define PTOSIM_CCE_SHIFT(name, op)                                                                                 \
    template <class T>                                                                                             \
    inline void name(__ubuf__ T* dst, __ubuf__ T* src, int64_t count, uint8_t repeat, uint16_t dstBlk,              \
                     uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep,                                            \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                      \
        ptosim::cce::vscalar(ptosim_cce::here(w), #name, ptosim::cce::Sca::op, ptosim::cce::dt_of<T>(),             \
                             ptosim_cce::off(dst), ptosim_cce::off(src), static_cast<uint64_t>(count),              \
                             {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});                                      \
    }
PTOSIM_CCE_SHIFT(vshl, Shl)
PTOSIM_CCE_SHIFT(vshr, Shr)
#undef PTOSIM_CCE_SHIFT

// vshr with the rounding flag (Ascend C ShiftRight's roundEn, default off);
// pto-isa's TSHRS passes false. Rounding right shifts are not simulated yet.
template <class T>
inline void vshr(__ubuf__ T* dst, __ubuf__ T* src, int64_t count, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,
                 uint16_t dstRep, uint16_t srcRep, bool roundEn,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (roundEn) ptosim::cce::not_simulated("vshr with roundEn = true", __builtin_return_address(0));
    vshr(dst, src, count, repeat, dstBlk, srcBlk, dstRep, srcRep, w);
}

template <class T, class S>
inline void vector_dup(__ubuf__ T* dst, S scalar, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, uint16_t dstRep,
                       uint16_t srcRep, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vscalar(ptosim_cce::here(w), "vector_dup", ptosim::cce::Sca::Dup, ptosim::cce::dt_of<T>(),
                         ptosim_cce::off(dst), ptosim_cce::off(dst), ptosim_cce::scalar_bits<T>(scalar),
                         {repeat, dstBlk, srcBlk, 0, dstRep, srcRep, 0});
}
