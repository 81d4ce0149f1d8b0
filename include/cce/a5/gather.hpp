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
    light_copy(in, idx.b, sizeof(in));
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
// Indices that step by a constant: the first k are first + i * step (i <
// k) with step >= 0 and no wrap past the index type, as the vci, vmuls,
// vadds sequence of pto-isa's TTRANS makes them. Then the span is known
// from the ends, and the elements move at a fixed stride; the same
// elements in the same order (a step of 0: the last one stays).
template <class E>
[[gnu::always_inline]] inline bool light_index_steps(const ptosim::cce::a5::VReg& idx, int k, uint64_t& first,
                                                     uint64_t& step) {
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    E in[all];
    light_copy(in, idx.b, sizeof(in));
    const E f = in[0], d = k > 1 ? E(in[1] - f) : E(0);
    // Equality in the index type's wrapping arithmetic: a whole register
    // sixteen bytes of indices at a time, a shorter prefix one by one.
    if (k == all) {
        constexpr int lanes = 16 / int(sizeof(E));
        typedef E vec __attribute__((vector_size(16)));
        vec expect, off = {};
        for (int j = 0; j < lanes; ++j) expect[j] = E(f + E(j) * d);
        const vec step = vec{} + E(E(lanes) * d);
        for (int i = 0; i < all; i += lanes) {
            vec q;
            __builtin_memcpy(&q, in + i, 16);
            off |= q ^ expect;
            expect += step;
        }
        for (int j = 0; j < lanes; ++j)
            if (off[j] != 0) return false;
    } else {
        E off = 0, expect = f;
        for (int i = 0; i < k; ++i) {
            off |= E(in[i] ^ expect);
            expect = E(expect + d);
        }
        if (off != 0) return false;
    }
    first = f;
    step = d;
    // No wrap: the last index, computed without wrapping, is an E.
    return first + uint64_t(k - 1) * step <= uint64_t(E(~E(0)));
}
template <class E>
[[gnu::always_inline]] inline void light_scatter_elems(uint8_t* ub, const ptosim::cce::a5::VReg& src,
                                                       const ptosim::cce::a5::VReg& idx, int k) {
    E in[ptosim::cce::a5::kVL / sizeof(E)], at[ptosim::cce::a5::kVL / sizeof(E)];
    light_copy(in, src.b, sizeof(in));
    light_copy(at, idx.b, sizeof(at));
    const auto run = [&](int n) {
        for (int i = 0; i < n; ++i) __builtin_memcpy(ub + uint64_t(at[i]) * sizeof(E), &in[i], sizeof(E));
    };
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    if (k == all) run(all);
    else run(k);
}
// The same for indices first + i * step.
template <class E>
[[gnu::always_inline]] inline void light_scatter_steps(uint8_t* ub, const ptosim::cce::a5::VReg& src, int k,
                                                       uint64_t first, uint64_t step) {
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    uint8_t* to = ub + first * sizeof(E);
    const uint64_t stride = step * sizeof(E);
    const auto run = [&](int n) {
        for (int i = 0; i < n; ++i) __builtin_memcpy(to + uint64_t(i) * stride, src.b + i * sizeof(E), sizeof(E));
    };
    if (k == all) run(all);
    else run(k);
}
template <class E>
[[gnu::always_inline]] inline void light_gather_elems(ptosim::cce::a5::VReg& dst, const uint8_t* ub,
                                                      const ptosim::cce::a5::VReg& idx, int k) {
    E out[ptosim::cce::a5::kVL / sizeof(E)] = {}, at[ptosim::cce::a5::kVL / sizeof(E)];
    light_copy(at, idx.b, sizeof(at));
    for (int i = 0; i < k; ++i) __builtin_memcpy(&out[i], ub + uint64_t(at[i]) * sizeof(E), sizeof(E));
    light_copy(dst.b, out, sizeof(out));
}
template <class E>
[[gnu::always_inline]] inline void light_gather_steps(ptosim::cce::a5::VReg& dst, const uint8_t* ub, int k,
                                                      uint64_t first, uint64_t step) {
    constexpr int all = ptosim::cce::a5::kVL / int(sizeof(E));
    E out[all] = {};
    const uint8_t* from = ub + first * sizeof(E);
    const uint64_t stride = step * sizeof(E);
    const auto run = [&](int n) {
        for (int i = 0; i < n; ++i) __builtin_memcpy(&out[i], from + uint64_t(i) * stride, sizeof(E));
    };
    if (k == all) run(all);
    else run(k);
    light_copy(dst.b, out, sizeof(out));
}
// The active prefix k and the UB bytes [lo, hi) its indices reach, when the
// light path applies; k < 0 otherwise. `steps` tells whether the indices
// are first + i * step.
[[gnu::always_inline]] inline int light_indexed(ptosim::Core*& c, uint64_t ub, int elem,
                                                const ptosim::cce::a5::VReg& idx, int idx_width,
                                                const preg& m, bool& steps, uint64_t& first, uint64_t& step) {
    namespace a5 = ptosim::cce::a5;
    steps = false;
    if (elem != idx_width || (elem != 2 && elem != 4)) return -1;
    const int k = a5::active_prefix(m, elem);
    if (k < 0 || !(c = a5::light_core())) return -1;
    if (k == 0) return 0;
    uint64_t lo_i = 0, hi_i = 0;
    steps = elem == 4 ? light_index_steps<uint32_t>(idx, k, first, step)
                      : light_index_steps<uint16_t>(idx, k, first, step);
    if (steps) {
        lo_i = first;
        hi_i = first + uint64_t(k - 1) * step;
    } else if (elem == 4) {
        light_index_span<uint32_t>(idx, k, lo_i, hi_i);
    } else {
        light_index_span<uint16_t>(idx, k, lo_i, hi_i);
    }
    const uint64_t lo = ub + lo_i * uint64_t(elem), hi = ub + hi_i * uint64_t(elem) + uint64_t(elem);
    return a5::light_in_ub(*c, lo, hi - lo) ? k : -1;
}
[[gnu::always_inline]] inline bool light_scatter(const where_t& w, const ptosim::cce::a5::VReg& src, uint64_t ub,
                                                 int elem, const ptosim::cce::a5::VReg& idx, int idx_width,
                                                 const preg& m) {
    namespace a5 = ptosim::cce::a5;
    if (ub % 32 != 0) return false;
    ptosim::Core* c = nullptr;
    bool steps;
    uint64_t first = 0, step = 0;
    const int k = light_indexed(c, ub, elem, idx, idx_width, m, steps, first, step);
    if (k < 0) return false;
    a5::light_pass(*c, "vscatter", light_here(w));
    if (steps) {
        if (elem == 4) light_scatter_steps<uint32_t>(a5::light_ub(*c, ub), src, k, first, step);
        else light_scatter_steps<uint16_t>(a5::light_ub(*c, ub), src, k, first, step);
    } else if (elem == 4) {
        light_scatter_elems<uint32_t>(a5::light_ub(*c, ub), src, idx, k);
    } else {
        light_scatter_elems<uint16_t>(a5::light_ub(*c, ub), src, idx, k);
    }
    return true;
}
[[gnu::always_inline]] inline bool light_gather(const where_t& w, ptosim::cce::a5::VReg& dst, uint64_t ub, int elem,
                                                const ptosim::cce::a5::VReg& idx, int idx_width, const preg& m) {
    namespace a5 = ptosim::cce::a5;
    ptosim::Core* c = nullptr;
    bool steps;
    uint64_t first = 0, step = 0;
    const int k = light_indexed(c, ub, elem, idx, idx_width, m, steps, first, step);
    if (k < 0) return false;
    a5::light_pass(*c, "vgather2", light_here(w));
    if (steps) {
        if (elem == 4) light_gather_steps<uint32_t>(dst, a5::light_ub(*c, ub), k, first, step);
        else light_gather_steps<uint16_t>(dst, a5::light_ub(*c, ub), k, first, step);
    } else if (elem == 4) {
        light_gather_elems<uint32_t>(dst, a5::light_ub(*c, ub), idx, k);
    } else {
        light_gather_elems<uint16_t>(dst, a5::light_ub(*c, ub), idx, k);
    }
    return true;
}
// The same with indices kept as a line (registers.hpp, vci and the scalar
// arithmetic after it): first + i * step for the active prefix, without
// reading the index register's bytes; a line that wraps past the index
// type takes the paths above.
[[gnu::always_inline]] inline int light_line_indexed(ptosim::Core*& c, uint64_t ub, int elem, const vreg_store& idx,
                                                     int idx_width, const preg& m) {
    namespace a5 = ptosim::cce::a5;
    if (idx.lazy != vreg_store::Line || idx.width != idx_width) return -1;
    if (elem != idx_width || (elem != 2 && elem != 4)) return -1;
    const int k = a5::active_prefix(m, elem);
    if (k < 0) return -1;
    const uint64_t last = idx.first + uint64_t(k > 0 ? k - 1 : 0) * idx.step;
    if (last > (elem == 4 ? uint64_t(0xffffffffu) : uint64_t(0xffffu))) return -1;
    if (!(c = a5::light_core())) return -1;
    if (k == 0) return 0;
    const uint64_t lo = ub + idx.first * uint64_t(elem), hi = ub + last * uint64_t(elem) + uint64_t(elem);
    return a5::light_in_ub(*c, lo, hi - lo) ? k : -1;
}
[[gnu::always_inline]] inline bool light_scatter_line(const where_t& w, const ptosim::cce::a5::VReg& src,
                                                      uint64_t ub, int elem, const vreg_store& idx, int idx_width,
                                                      const preg& m) {
    namespace a5 = ptosim::cce::a5;
    if (ub % 32 != 0) return false;
    ptosim::Core* c = nullptr;
    const int k = light_line_indexed(c, ub, elem, idx, idx_width, m);
    if (k < 0) return false;
    a5::light_pass(*c, "vscatter", light_here(w));
    if (elem == 4) light_scatter_steps<uint32_t>(a5::light_ub(*c, ub), src, k, idx.first, idx.step);
    else light_scatter_steps<uint16_t>(a5::light_ub(*c, ub), src, k, idx.first, idx.step);
    return true;
}
[[gnu::always_inline]] inline bool light_gather_line(const where_t& w, vreg_store& dst, uint64_t ub, int elem,
                                                     const vreg_store& idx, int idx_width, const preg& m) {
    namespace a5 = ptosim::cce::a5;
    ptosim::Core* c = nullptr;
    const int k = light_line_indexed(c, ub, elem, idx, idx_width, m);
    if (k < 0) return false;
    a5::light_pass(*c, "vgather2", light_here(w));
    // The index line is read (above) before the destination, which may be
    // the index register, is written whole.
    const uint64_t first = idx.first, step = idx.step;
    if (elem == 4) light_gather_steps<uint32_t>(vw(dst), a5::light_ub(*c, ub), k, first, step);
    else light_gather_steps<uint16_t>(vw(dst), a5::light_ub(*c, ub), k, first, step);
    return true;
}
}  // namespace ptosim_cce

template <class D, class T, class I>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<I>)
[[gnu::always_inline]] inline void vgather2(D&& dst, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vgather2", 3, index);
    if (ptosim_cce::light_gather_line(w, ptosim_cce::vs(dst), ptosim_cce::off(base), sizeof(T), ptosim_cce::vs(index),
                                      sizeof(ptosim_cce::elem_of<I>), m))
        return;
    if (ptosim_cce::light_gather(w, ptosim_cce::vr(dst), ptosim_cce::off(base), sizeof(T), ptosim_cce::vr(index),
                                 sizeof(ptosim_cce::elem_of<I>), m))
        return;
    ptosim::cce::a5::vgather(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base), int(sizeof(T)),
                             ptosim_cce::vr(index), int(sizeof(ptosim_cce::elem_of<I>)), m);
}
template <class S, class T, class I>
    requires(ptosim_cce::vreg_like<S> && ptosim_cce::vreg_like<I>)
[[gnu::always_inline]] inline void vscatter(S&& src, __ubuf__ T* base, I&& index, const vector_bool& m,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vscatter", 1, src);
    ptosim_cce::read_src(w, "vscatter", 3, index);
    if (ptosim_cce::light_scatter_line(w, ptosim_cce::vr(src), ptosim_cce::off(base), sizeof(T),
                                       ptosim_cce::vs(index), sizeof(ptosim_cce::elem_of<I>), m))
        return;
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
    ptosim_cce::read_src(w, "vgatherb", 3, index);
    ptosim::cce::a5::vgatherb(ptosim_cce::here(w), ptosim_cce::vr(dst), ptosim_cce::off(base),
                              int(sizeof(ptosim_cce::elem_of<D>)), ptosim_cce::vr(index), m);
}
