// A2A3's sorts (docs/intrinsics/sort.md): vbitsort, vmrgsort4, get_vms4_sr.
// The runtime side is src/sim/cce/sort.cpp.
#pragma once
#include <cce/operands.hpp>

template <class T>
inline void vbitsort(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* idx, uint8_t repeat,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::vbitsort(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), ptosim_cce::off(src),
                          ptosim_cce::off(idx), repeat);
}

// addrArray is the kernel's own array of UB pointers (2 to 4 of them); only
// the lists config's valid bits name are read from it.
template <class T, class P>
inline void vmrgsort4(__ubuf__ T* dst, P* addrArray, uint64_t count, uint64_t config,
                      ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    uint64_t src[4] = {0, 0, 0, 0};
    for (int l = 0; l < 4; ++l)
        if (config >> (8 + l) & 1) src[l] = ptosim_cce::off(addrArray[l]);
    ptosim::cce::vmrgsort4(ptosim_cce::here(w), ptosim::cce::dt_of<T>(), ptosim_cce::off(dst), src, count, config);
}

inline int64_t get_vms4_sr() { return static_cast<int64_t>(ptosim::cce::get_vms4_sr()); }
