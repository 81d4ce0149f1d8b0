// A2A3's VA-register transposes (docs/intrinsics/transpose.md):
// set_va_reg_sb and scatter_vnchwconv_b8/b16/b32. The runtime side is
// src/sim/cce/transpose.cpp.
#pragma once
#include <cce/operands.hpp>

// addrs: the kernel's own array of eight UB addresses (a pointer's value).
template <class A>
inline void set_va_reg_sb(ub_addr8_t reg, A* addrs, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    uint64_t a[8];
    for (int i = 0; i < 8; ++i) a[i] = static_cast<uint64_t>(addrs[i]);
    ptosim::cce::set_va_reg_sb(ptosim_cce::here(w), reg, a);
}

inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                 bool dstHighHalf, bool srcHighHalf,
                                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::scatter_vnchwconv(ptosim_cce::here(w), 8, dst, src, repeat, dstStride, srcStride, dstHighHalf,
                                   srcHighHalf);
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::scatter_vnchwconv(ptosim_cce::here(w), 16, dst, src, repeat, dstStride, srcStride, false, false);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::scatter_vnchwconv(ptosim_cce::here(w), 32, dst, src, repeat, dstStride, srcStride, false, false);
}
