// L1 -> bias table (MTE1), L1 -> fixpipe buffer (FIX) and the L1 fill, on
// A2A3 and A5 alike but for the burst units (cce_cube.hpp, L1MoveUnits;
// docs/intrinsics/dma-cube.md, docs/intrinsics/a5-cube.md).
#pragma once
#include <cce/operands.hpp>
#include <ptosim/cce_cube.hpp>

#include <cstring>

namespace ptosim_cce {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
inline constexpr ptosim::cce::L1MoveUnits kBtUnits = ptosim::cce::kBtUnitsA5, kFbUnits = ptosim::cce::kFbUnitsA5;
#else
inline constexpr ptosim::cce::L1MoveUnits kBtUnits = ptosim::cce::kBtUnitsA2A3, kFbUnits = ptosim::cce::kFbUnitsA2A3;
#endif
template <class S>
inline ptosim::cce::BtWiden bt_widen(uint16_t convControl) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    if constexpr (std::is_same_v<S, bfloat16_t>) return ptosim::cce::BtWiden::BF16;
#endif
    return convControl != 0 ? ptosim::cce::BtWiden::F16 : ptosim::cce::BtWiden::None;
}
}  // namespace ptosim_cce

// convControl 1 widens half in L1 to float in the bias table. On A5 a
// bfloat16 source widens to float whatever convControl says (chosen:
// pto-isa's A5 TMovToBt sets convControl for half only, and its bfloat16-bias
// tmatmul testcases expect the widened values; CANN's asc_copy_l12bt (3510)
// has a bfloat16 overload but does not say; docs/intrinsics/a5-cube.md). Two forms of
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
                               {nBurst, lenBurst, srcGap, dstGap}, ptosim_cce::bt_widen<S>(convControl), ptosim_cce::kBtUnits);
}
template <class S>
inline void copy_cbuf_to_bt(uint64_t dst, __cbuf__ S* src, uint16_t convControl, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcGap, uint16_t dstGap,
                            ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_bt(ptosim_cce::here(w), "copy_cbuf_to_bt", dst, ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap}, ptosim_cce::bt_widen<S>(convControl), ptosim_cce::kBtUnits);
}

template <class D, class S>
inline void copy_cbuf_to_fbuf(__fbuf__ D* dst, __cbuf__ S* src, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::copy_l1_to_fb(ptosim_cce::here(w), "copy_cbuf_to_fbuf", ptosim_cce::off(dst), ptosim_cce::off(src),
                               {nBurst, lenBurst, srcGap, dstGap}, ptosim_cce::kFbUnits);
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
