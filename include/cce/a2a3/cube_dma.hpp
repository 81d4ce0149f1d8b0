// A2A3's DMA into and out of L1 (Cube side): GM <-> L1 bursts (MTE2 / MTE3),
// GM -> L1 with the ND -> NZ conversion (MTE2), L1 -> bias table (MTE1) and
// L1 -> fixpipe buffer (FIX) (docs/intrinsics/dma-cube.md).
#pragma once
#include <cce/builtins.hpp>
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

// convControl 1 widens half in L1 to float in the bias table. Two forms of
// the destination: a __biasbuf__ pointer (pto-isa since hw-native-sys
// 3186c381), or the bias-table address as an integer, the form the CANN CCE
// reference documents (copy_cbuf_to_bt(uint64_t dst, __cbuf__ void* src,
// ...)) and pto-isa at cannmirror defdb75f calls (npu/a2a3/TMov.hpp,
// TMovToBt). Both move alike (docs/intrinsics/dma-cube.md).
template <class D, class S>
inline void copy_cbuf_to_bt(__biasbuf__ D* dst, __cbuf__ S* src, uint16_t convControl, uint16_t nBurst,
                            uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_bt(ptosim_cce::here(w), "copy_cbuf_to_bt", ptosim_cce::off(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap}, convControl != 0);
}
template <class S>
inline void copy_cbuf_to_bt(uint64_t dst, __cbuf__ S* src, uint16_t convControl, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcGap, uint16_t dstGap,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_bt(ptosim_cce::here(w), "copy_cbuf_to_bt", dst, ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap}, convControl != 0);
}

template <class D, class S>
inline void copy_cbuf_to_fbuf(__fbuf__ D* dst, __cbuf__ S* src, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_fb(ptosim_cce::here(w), "copy_cbuf_to_fbuf", ptosim_cce::off(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap});
}

// Fills L1 with a value: repeats of 32-byte blocks (cce_cube.hpp, fill_l1).
// An integer value is the element's bit pattern (pto-isa passes a float
// fill as its uint32_t bits); a floating value converts to the element type.
template <class T, class U>
inline void create_cbuf_matrix(__cbuf__ T* dst, int64_t repeatConfig, U value,
                               ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    uint64_t bits = 0;
    if constexpr (std::is_integral_v<U>) {
        bits = static_cast<uint64_t>(value) & (sizeof(T) >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * sizeof(T))) - 1);
    } else {
        const T v = static_cast<T>(value);
        std::memcpy(&bits, &v, sizeof(T));
    }
    ptosim::cce::fill_l1(ptosim_cce::here(w), "create_cbuf_matrix", ptosim_cce::off(dst), uint64_t(repeatConfig), bits,
                         sizeof(T));
}
template <class T>
inline void create_cbuf_matrix_bf16(__cbuf__ T* dst, int64_t repeatConfig, bfloat16_t value,
                                    ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, 2);
    ptosim::cce::fill_l1(ptosim_cce::here(w), "create_cbuf_matrix_bf16", ptosim_cce::off(dst), uint64_t(repeatConfig),
                         bits, 2);
}
