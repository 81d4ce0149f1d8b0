// A5's unaligned moves (docs/intrinsics/a5-vreg.md, "Unaligned loads and
// stores"): vldas(areg, base) then vldus(reg, areg, base) load 256 bytes
// from any UB address; vstus(areg, count, reg, base[, POST_UPDATE]) stores
// the register's first `count` elements at any address and vstas(areg,
// base, offset[, POST_UPDATE]) ends the sequence.
#pragma once
#include <cce/a5/registers.hpp>

template <class T>
inline void vldas(vector_align&, __ubuf__ T*, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::unaligned_step(ptosim_cce::here(w), "vldas");
}
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vldus(R&& dst, vector_align&, __ubuf__ T* base, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vload_unaligned(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base));
}
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vstus(vector_align&, uint32_t count, R&& src, __ubuf__ T* base,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vstus", 3, src);
    ptosim::cce::a5::vstore_unaligned(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base),
                                      uint64_t(count) * sizeof(ptosim_cce::elem_of<R>));
}
// POST_UPDATE: base moves past the elements stored.
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vstus(vector_align&, uint32_t count, R&& src, __ubuf__ T*& base, PostUpdate,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const uint64_t bytes = uint64_t(count) * sizeof(ptosim_cce::elem_of<R>);
    ptosim_cce::read_src(w, "vstus", 3, src);
    ptosim::cce::a5::vstore_unaligned(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), bytes);
    base = (__ubuf__ T*)((__ubuf__ uint8_t*)base + bytes);
}
template <class T>
inline void vstas(vector_align&, __ubuf__ T*, int32_t, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::unaligned_step(ptosim_cce::here(w), "vstas");
}
template <class T>
inline void vstas(vector_align&, __ubuf__ T*& base, int32_t offset, PostUpdate,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::unaligned_step(ptosim_cce::here(w), "vstas");
    base += offset;
}
