// A5's squeeze and the stores that follow it (docs/intrinsics/a5-squeeze.md):
// vsqz(dst, src, mask, mode) packs the active elements of src into the low
// end of dst; with MODE_STORED it also leaves their byte count for the next
// vstur(areg, reg, base[, POST_UPDATE]), which stores that many bytes at
// base + AR (POST_UPDATE: AR advances by them). vstar(areg, base) ends the
// stream; sprclr(SPR_AR) zeroes AR and sprsts(SPR_AR, base, offset) stores
// it at base + offset bytes.
#pragma once
#include <cce/a5/enums.hpp>
#include <cce/a5/registers.hpp>

template <class D, class S>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
inline void vsqz(D&& dst, S&& src, const vector_bool& m, Mode mode,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vsqz", 2, src);
    ptosim::cce::a5::vsqueeze(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::vr(src),
                              int(sizeof(ptosim_cce::elem_of<D>)), m, mode == MODE_STORED);
}
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vstur(vector_align&, R&& src, __ubuf__ T* base, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vstur", 2, src);
    ptosim::cce::a5::vstore_squeezed(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), false);
}
// POST_UPDATE advances AR, not base (base + AR is the next address).
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vstur(vector_align&, R&& src, __ubuf__ T* base, PostUpdate,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vstur", 2, src);
    ptosim::cce::a5::vstore_squeezed(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), true);
}
template <class T>
inline void vstar(vector_align&, __ubuf__ T*, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::unaligned_step(ptosim_cce::here(w), "vstar");
}
inline void sprclr(Spr spr, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::spr_clear(ptosim_cce::here(w), int(spr));
}
template <class T>
inline void sprsts(Spr spr, __ubuf__ T* base, int64_t offset, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::spr_store(ptosim_cce::here(w), int(spr), ptosim_cce::off(base) + uint64_t(offset));
}
