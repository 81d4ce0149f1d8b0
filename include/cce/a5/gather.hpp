// A5's gathers and scatters between UB and a vector register
// (docs/intrinsics/a5-vreg.md, "Gathers and scatters"):
// vgather2(dst, base, index, mask) and vscatter(src, base, index, mask),
// the indices counting elements of base's type.
#pragma once
#include <cce/a5/registers.hpp>

namespace ptosim_cce {
// The light paths of vgather2 and vscatter (ptosim/cce_a5.hpp): 16- or
// 32-bit elements indexed by indices of their own width under a prefix
// predicate, every element inside UB (and, for vscatter, an aligned base).
// They compute what the full path computes: the active elements in element
// order (of repeated scatter indices the last stays), inactive gathered
// elements zero. Anything else, or a fault to raise, takes the full path.
template <class E>
[[gnu::always_inline]] inline bool light_index_span(const ptosim::cce::a5::VReg& idx, int k, uint64_t& lo_i,
                                                    uint64_t& hi_i) {
    E in[ptosim::cce::a5::kVL / sizeof(E)];
    __builtin_memcpy(in, idx.b, sizeof(in));
    E lo = in[0], hi = in[0];
    // A whole register is a loop of fixed length the compiler keeps in
    // vector registers.
    const auto span = [&](int n) {
        for (int i = 1; i < n; ++i) {
            lo = in[i] < lo ? in[i] : lo;
            hi = in[i] > hi ? in[i] : hi;
        }
    };
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    if (k == all) span(all);
    else span(k);
    lo_i = lo;
    hi_i = hi;
    return true;
}
template <class E>
[[gnu::always_inline]] inline void light_scatter_elems(uint8_t* ub, const ptosim::cce::a5::VReg& src,
                                                       const ptosim::cce::a5::VReg& idx, int k) {
    E in[ptosim::cce::a5::kVL / sizeof(E)], at[ptosim::cce::a5::kVL / sizeof(E)];
    __builtin_memcpy(in, src.b, sizeof(in));
    __builtin_memcpy(at, idx.b, sizeof(at));
    const auto run = [&](int n) {
        for (int i = 0; i < n; ++i) __builtin_memcpy(ub + uint64_t(at[i]) * sizeof(E), &in[i], sizeof(E));
    };
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    if (k == all) run(all);
    else run(k);
}
template <class E>
[[gnu::always_inline]] inline void light_gather_elems(ptosim::cce::a5::VReg& dst, const uint8_t* ub,
                                                      const ptosim::cce::a5::VReg& idx, int k) {
    E out[ptosim::cce::a5::kVL / sizeof(E)] = {}, at[ptosim::cce::a5::kVL / sizeof(E)];
    __builtin_memcpy(at, idx.b, sizeof(at));
    for (int i = 0; i < k; ++i) __builtin_memcpy(&out[i], ub + uint64_t(at[i]) * sizeof(E), sizeof(E));
    __builtin_memcpy(dst.b, out, sizeof(out));
}
// The active prefix k and the UB bytes [lo, hi) its indices reach, when the
// light path applies; k < 0 otherwise.
[[gnu::always_inline]] inline int light_indexed(ptosim::Core*& c, uint64_t ub, int elem,
                                                const ptosim::cce::a5::VReg& idx, int idx_width,
                                                const preg& m) {
    namespace a5 = ptosim::cce::a5;
    if (elem != idx_width || (elem != 2 && elem != 4)) return -1;
    const int k = a5::active_prefix(m, elem);
    if (k < 0 || !(c = a5::light_core())) return -1;
    if (k == 0) return 0;
    uint64_t lo_i = 0, hi_i = 0;
    if (elem == 4) light_index_span<uint32_t>(idx, k, lo_i, hi_i);
    else light_index_span<uint16_t>(idx, k, lo_i, hi_i);
    const uint64_t lo = ub + lo_i * uint64_t(elem), hi = ub + hi_i * uint64_t(elem) + uint64_t(elem);
    return a5::light_in_ub(*c, lo, hi - lo) ? k : -1;
}
[[gnu::always_inline]] inline bool light_scatter(const where_t& w, const ptosim::cce::a5::VReg& src, uint64_t ub,
                                                 int elem, const ptosim::cce::a5::VReg& idx, int idx_width,
                                                 const preg& m) {
    namespace a5 = ptosim::cce::a5;
    if (ub % 32 != 0) return false;
    ptosim::Core* c = nullptr;
    const int k = light_indexed(c, ub, elem, idx, idx_width, m);
    if (k < 0) return false;
    a5::light_pass(*c, "vscatter", light_here(w));
    if (elem == 4) light_scatter_elems<uint32_t>(a5::light_ub(*c, ub), src, idx, k);
    else light_scatter_elems<uint16_t>(a5::light_ub(*c, ub), src, idx, k);
    return true;
}
[[gnu::always_inline]] inline bool light_gather(const where_t& w, ptosim::cce::a5::VReg& dst, uint64_t ub, int elem,
                                                const ptosim::cce::a5::VReg& idx, int idx_width, const preg& m) {
    namespace a5 = ptosim::cce::a5;
    ptosim::Core* c = nullptr;
    const int k = light_indexed(c, ub, elem, idx, idx_width, m);
    if (k < 0) return false;
    a5::light_pass(*c, "vgather2", light_here(w));
    if (elem == 4) light_gather_elems<uint32_t>(dst, a5::light_ub(*c, ub), idx, k);
    else light_gather_elems<uint16_t>(dst, a5::light_ub(*c, ub), idx, k);
    return true;
}
}  // namespace ptosim_cce

template <class D, class T, class I>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<I>)
inline void vgather2(D&& dst, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (ptosim_cce::light_gather(w, ptosim_cce::vr(dst), ptosim_cce::off(base), sizeof(T), ptosim_cce::vr(index),
                                 sizeof(ptosim_cce::elem_of<I>), m))
        return;
    ptosim::cce::a5::vgather(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base), int(sizeof(T)),
                             ptosim_cce::vr(index), int(sizeof(ptosim_cce::elem_of<I>)), m);
}
template <class S, class T, class I>
    requires(ptosim_cce::vreg_like<S> && ptosim_cce::vreg_like<I>)
inline void vscatter(S&& src, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    if (ptosim_cce::light_scatter(w, ptosim_cce::vr(src), ptosim_cce::off(base), sizeof(T), ptosim_cce::vr(index),
                                  sizeof(ptosim_cce::elem_of<I>), m))
        return;
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
