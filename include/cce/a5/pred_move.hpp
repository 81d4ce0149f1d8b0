// A5's predicate moves (docs/intrinsics/a5-vreg.md, "Predicate loads,
// stores, packs"): plds(pred, base, offset, NORM|US|DS[, POST_UPDATE]) and
// psts(pred, base, offset, NORM|PK[, POST_UPDATE]) between UB and a
// predicate, the offset in bytes; ppack/punpack(dst, src, LOWER|HIGHER).
#pragma once
#include <cce/a5/enums.hpp>
#include <cce/a5/registers.hpp>

namespace ptosim_cce {
inline ptosim::cce::a5::PDist pdist(Dist d) {
    using P = ptosim::cce::a5::PDist;
    return d == DIST_US ? P::Us : d == DIST_DS ? P::Ds : P::Norm;
}
template <class T>
inline uint64_t ub_bytes(__ubuf__ T* base, int64_t offset_bytes) {
    return off(base) + static_cast<uint64_t>(offset_bytes);
}
}  // namespace ptosim_cce

template <class T>
inline void plds(vector_bool& dst, __ubuf__ T* base, int64_t offset, Dist d,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pload(ptosim_cce::here(w), dst, ptosim_cce::ub_bytes(base, offset), ptosim_cce::pdist(d));
}
// plds(pred, base, step, dist, POST_UPDATE): from base, then base += step elements.
template <class T>
inline void plds(vector_bool& dst, __ubuf__ T*& base, int64_t step, Dist d, PostUpdate,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pload(ptosim_cce::here(w), dst, ptosim_cce::ub_bytes(base, 0), ptosim_cce::pdist(d));
    base += step;
}
template <class T>
inline void psts(const vector_bool& src, __ubuf__ T* base, int64_t offset, Dist,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pstore(ptosim_cce::here(w), src, ptosim_cce::ub_bytes(base, offset),
                            ptosim::cce::a5::PDist::Norm);
}
template <class T>
inline void psts(const vector_bool& src, __ubuf__ T* base, int64_t offset, PredStoreDist,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pstore(ptosim_cce::here(w), src, ptosim_cce::ub_bytes(base, offset), ptosim::cce::a5::PDist::Pk);
}
template <class T>
inline void psts(const vector_bool& src, __ubuf__ T*& base, int64_t step, Dist, PostUpdate,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pstore(ptosim_cce::here(w), src, ptosim_cce::ub_bytes(base, 0), ptosim::cce::a5::PDist::Norm);
    base += step;
}
template <class T>
inline void psts(const vector_bool& src, __ubuf__ T*& base, int64_t step, PredStoreDist, PostUpdate,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::pstore(ptosim_cce::here(w), src, ptosim_cce::ub_bytes(base, 0), ptosim::cce::a5::PDist::Pk);
    base += step;
}

inline void ppack(vector_bool& dst, const vector_bool& src, PackHalf h,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const vector_bool s = src;
    ptosim::cce::a5::ppack(ptosim_cce::here(w), "ppack", false, h == HIGHER, dst, s);
}
inline void punpack(vector_bool& dst, const vector_bool& src, PackHalf h,
                    ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const vector_bool s = src;
    ptosim::cce::a5::ppack(ptosim_cce::here(w), "punpack", true, h == HIGHER, dst, s);
}
