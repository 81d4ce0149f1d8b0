// A5's gathers and scatters between UB and a vector register
// (docs/intrinsics/a5-vreg.md, "Gathers and scatters"):
// vgather2(dst, base, index, mask) and vscatter(src, base, index, mask),
// the indices counting elements of base's type.
#pragma once
#include <cce/a5/registers.hpp>

template <class D, class T, class I>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<I>)
inline void vgather2(D&& dst, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vgather(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base), int(sizeof(T)),
                             ptosim_cce::vr(index), int(sizeof(ptosim_cce::elem_of<I>)), m);
}
template <class S, class T, class I>
    requires(ptosim_cce::vreg_like<S> && ptosim_cce::vreg_like<I>)
inline void vscatter(S&& src, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vscatter(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), int(sizeof(T)),
                              ptosim_cce::vr(index), int(sizeof(ptosim_cce::elem_of<I>)), m);
}

// vgatherb(dst, base, index, mask): 32-byte block k of dst from UB at
// base + index[k] bytes (uint32 indices, 32-byte aligned; asc-devkit GatherB).
template <class D, class T, class I>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<I>)
inline void vgatherb(D&& dst, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    static_assert(sizeof(ptosim_cce::elem_of<I>) == 4, "vgatherb: the indices are uint32_t byte offsets");
    ptosim::cce::a5::vgatherb(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base),
                              int(sizeof(ptosim_cce::elem_of<D>)), ptosim_cce::vr(index), m);
}
