// A5's moves between UB and vector registers: vlds (CANN "LoadAlign") and
// vsts ("StoreAlign"), with an element offset or a post-updated pointer
// (docs/intrinsics/a5-vreg.md, "Loads and stores").
#pragma once
#include <cce/a5/registers.hpp>

namespace ptosim_cce {
// The load distribution and the element width it names.
[[gnu::always_inline]] inline ptosim::cce::a5::Ld ld_dist(Dist d, int& elem) {
    using ptosim::cce::a5::Ld;
    switch (d) {
    case DIST_NORM: return Ld::Norm;
    case DIST_BRC_B8: elem = 1; return Ld::Brc;
    case DIST_BRC_B16: elem = 2; return Ld::Brc;
    case DIST_BRC_B32: elem = 4; return Ld::Brc;
    case DIST_US_B8: elem = 1; return Ld::Us;
    case DIST_US_B16: elem = 2; return Ld::Us;
    case DIST_DS_B8: elem = 1; return Ld::Ds;
    case DIST_DS_B16: elem = 2; return Ld::Ds;
    case DIST_UNPK_B8: elem = 1; return Ld::Unpk;
    case DIST_UNPK_B16: elem = 2; return Ld::Unpk;
    case DIST_UNPK_B32: elem = 4; return Ld::Unpk;
    case DIST_BLK: return Ld::Blk;
    case DIST_UNPK4_B8: elem = 1; return Ld::Unpk4;
    case DIST_E2B_B16: elem = 2; return Ld::E2b;
    case DIST_E2B_B32: elem = 4; return Ld::E2b;
    default: return Ld::Unsupported;
    }
}
[[gnu::always_inline]] inline ptosim::cce::a5::St st_dist(DistVST d, int& elem) {
    using ptosim::cce::a5::St;
    switch (d) {
    case VST_NORM_B8: elem = 1; return St::Norm;
    case VST_NORM_B16: elem = 2; return St::Norm;
    case VST_NORM_B32: elem = 4; return St::Norm;
    case VST_ONEPT_B8: elem = 1; return St::OnePt;
    case VST_ONEPT_B16: elem = 2; return St::OnePt;
    case VST_ONEPT_B32: elem = 4; return St::OnePt;
    case VST_PK_B16: elem = 2; return St::Pk;
    case VST_PK_B32: elem = 4; return St::Pk;
    case VST_PK_B64: elem = 8; return St::Pk;
    case VST_PK4_B32: elem = 4; return St::Pk4;
    default: return St::Unsupported;
    }
}
template <class T>
inline uint64_t ub_at(__ubuf__ T* base, int64_t offset_elems) {
    return off(base) + static_cast<uint64_t>(offset_elems * static_cast<int64_t>(sizeof(T)));
}
template <class R, class T>
[[gnu::always_inline]] inline void load(const where_t& w, R& dst, __ubuf__ T* base, int64_t offset, Dist d) {
    namespace a5 = ptosim::cce::a5;
    // The light path (ptosim/cce_a5.hpp): an aligned NORM load inside UB;
    // anything else, or a fault to raise, takes the full path.
    if (d == DIST_NORM) {
        const uint64_t ub = ub_at(base, offset);
        if (ptosim::Core* c = a5::light_core(); c && ub % 32 == 0 && a5::light_in_ub(*c, ub, a5::kVL)) {
            a5::light_pass(*c, "vlds", light_here(w));
            light_copy(vw(dst).b, a5::light_ub(*c, ub), a5::kVL);
            return;
        }
    }
    // BRC_B8/B16/B32: one element in every slot; BLK: one 32-byte block in
    // every block.
    if (d == DIST_BRC_B8 || d == DIST_BRC_B16 || d == DIST_BRC_B32 || d == DIST_BLK) {
        const uint64_t ub = ub_at(base, offset);
        const int e = d == DIST_BRC_B8 ? 1 : d == DIST_BRC_B16 ? 2 : d == DIST_BRC_B32 ? 4 : 32;
        if (ptosim::Core* c = a5::light_core(); c && a5::light_in_ub(*c, ub, uint64_t(e))) {
            a5::light_pass(*c, "vlds", light_here(w));
            const uint8_t* from = a5::light_ub(*c, ub);
            uint8_t* to = vw(dst).b;
            const auto fill = [&](auto unit) {
                decltype(unit) v;
                __builtin_memcpy(&v, from, sizeof(v));
                for (int i = 0; i < a5::kVL / int(sizeof(v)); ++i) __builtin_memcpy(to + i * sizeof(v), &v, sizeof(v));
            };
            struct block {
                uint64_t q[4];
            };
            if (e == 1) fill(uint8_t{});
            else if (e == 2) fill(uint16_t{});
            else if (e == 4) fill(uint32_t{});
            else fill(block{});
            return;
        }
    }
    // UNPK_B8/B16/B32: 128 bytes, element i into the low half of slot i of
    // twice the width, the high half zero.
    if (d == DIST_UNPK_B8 || d == DIST_UNPK_B16 || d == DIST_UNPK_B32) {
        const uint64_t ub = ub_at(base, offset);
        if (ptosim::Core* c = a5::light_core(); c && a5::light_in_ub(*c, ub, a5::kVL / 2)) {
            a5::light_pass(*c, "vlds", light_here(w));
            if (d == DIST_UNPK_B16) {
                // 64 halves, each in the low 16 bits of its slot: kept side
                // by side (registers.hpp, Halves).
                vreg_store& v = vs(dst);
#if defined(__x86_64__)
                v.width = light_copy_halves_finite(v.raw, a5::light_ub(*c, ub)) ? 1 : 0;
#else
                light_copy(v.raw, a5::light_ub(*c, ub), a5::kVL / 2);
                v.width = 0;
#endif
                v.lazy = vreg_store::Halves;
                v.part = 0;
                return;
            }
            const uint8_t* from = a5::light_ub(*c, ub);
            uint8_t* to = vw(dst).b;
            // Zero-extending each element to twice its width writes the
            // zero high half with it.
            // Element by element from UB into the register (they never
            // overlap), a loop of fixed length the compiler widens in
            // vector registers.
            const auto unpack = [&](auto narrow, auto wide) {
                using N = decltype(narrow);
                using W = decltype(wide);
                for (size_t i = 0; i < a5::kVL / sizeof(W); ++i) {
                    N x;
                    __builtin_memcpy(&x, from + i * sizeof(N), sizeof(N));
                    const W y = static_cast<W>(x);
                    __builtin_memcpy(to + i * sizeof(W), &y, sizeof(W));
                }
            };
            if (d == DIST_UNPK_B8) unpack(uint8_t{}, uint16_t{});
            else if (d == DIST_UNPK_B16) unpack(uint16_t{}, uint32_t{});
            else unpack(uint32_t{}, uint64_t{});
            return;
        }
    }
    int elem = sizeof(T);
    const ptosim::cce::a5::Ld how = ld_dist(d, elem);
    ptosim::cce::a5::vload(here(w), "vlds", vr(dst), ub_at(base, offset), how, elem);
}
template <class R, class T>
[[gnu::always_inline]] inline void store(const where_t& w, R& src, __ubuf__ T* base, int64_t offset, DistVST d, const vector_bool& m) {
    namespace a5 = ptosim::cce::a5;
    read_src(w, "vsts", 1, src);
    int elem = sizeof(T);
    const a5::St how = st_dist(d, elem);
    // The light path: a NORM store of an active prefix inside UB.
    if (how == a5::St::Norm) {
        const uint64_t ub = ub_at(base, offset);
        const int k = a5::active_prefix(m, elem);
        if (ptosim::Core* c = k >= 0 ? a5::light_core() : nullptr;
            c && (k == 0 || a5::light_in_ub(*c, ub, uint64_t(k) * elem))) {
            a5::light_pass(*c, "vsts", light_here(w));
#if defined(__x86_64__)
            // The floats of a widening vcvt, converted into UB (registers.hpp).
            if (k * elem == a5::kVL && vs(src).lazy == vreg_store::Widened) {
                light_widen_finite(vs(src).raw, a5::light_ub(*c, ub));
                return;
            }
#endif
            if (k * elem == a5::kVL) light_copy(a5::light_ub(*c, ub), vr(src).b, a5::kVL);
            else if (k > 0) light_copy(a5::light_ub(*c, ub), vr(src).b, size_t(k) * elem);
            return;
        }
    }
    // ONEPT: element 0 when it is active (pto-isa's row reductions store
    // each row's result so), as vstore does; nothing otherwise.
    if (how == a5::St::OnePt) {
        const uint64_t ub = ub_at(base, offset);
        const bool on = m.lane(0);
        if (ptosim::Core* c = a5::light_core(); c && (!on || a5::light_in_ub(*c, ub, uint64_t(elem)))) {
            a5::light_pass(*c, "vsts", light_here(w));
            if (on) __builtin_memcpy(a5::light_ub(*c, ub), vr(src).b, size_t(elem));
            return;
        }
    }
    // PK_B32 of halves kept side by side in the low 16 bits of each slot
    // (registers.hpp): the first k of them as they are.
    if (how == a5::St::Pk && elem == 4) {
        const vreg_store& v = vs(src);
        if (v.lazy == vreg_store::Halves && v.part == 0) {
            const uint64_t ub = ub_at(base, offset);
            const int k = a5::active_prefix(m, elem);
            if (ptosim::Core* c = k >= 0 ? a5::light_core() : nullptr;
                c && (k == 0 || a5::light_in_ub(*c, ub, uint64_t(k) * 2))) {
                a5::light_pass(*c, "vsts", light_here(w));
                if (k == a5::kVL / 4) light_copy(a5::light_ub(*c, ub), v.raw, a5::kVL / 2);
                else if (k > 0) __builtin_memcpy(a5::light_ub(*c, ub), v.raw, size_t(k) * 2);
                return;
            }
        }
    }
    // PK_B16/B32/B64 of an active prefix: the low half of each element, packed.
    if (how == a5::St::Pk) {
        const uint64_t ub = ub_at(base, offset);
        const int k = a5::active_prefix(m, elem);
        if (ptosim::Core* c = k >= 0 ? a5::light_core() : nullptr;
            c && (k == 0 || a5::light_in_ub(*c, ub, uint64_t(k) * elem / 2))) {
            a5::light_pass(*c, "vsts", light_here(w));
            uint8_t* to = a5::light_ub(*c, ub);
            const uint8_t* from = vr(src).b;
            // The low half of each element is its truncation (little-endian host).
            // Element by element from the register into UB (they never
            // overlap); a whole register is a loop of fixed length the
            // compiler narrows in vector registers.
            const auto pack = [&](auto half, auto whole) {
                using H = decltype(half);
                using W = decltype(whole);
                const auto run = [&](int n) {
                    for (int i = 0; i < n; ++i) {
                        W x;
                        __builtin_memcpy(&x, from + i * sizeof(W), sizeof(W));
                        const H y = static_cast<H>(x);
                        __builtin_memcpy(to + i * sizeof(H), &y, sizeof(H));
                    }
                };
                constexpr int all = a5::kVL / int(sizeof(W));
                if (k == all) run(all);
                else run(k);
            };
            if (elem == 2) pack(uint8_t{}, uint16_t{});
            else if (elem == 4) pack(uint16_t{}, uint32_t{});
            else pack(uint32_t{}, uint64_t{});
            return;
        }
    }
    ptosim::cce::a5::vstore(here(w), "vsts", vr(src), ub_at(base, offset), how, elem, m);
}
}  // namespace ptosim_cce

// vlds(reg, base, offset, dist): the register from UB at base + offset elements.
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
[[gnu::always_inline]] inline void vlds(R&& dst, __ubuf__ T* base, int64_t offset, Dist d,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::load(w, dst, base, offset, d);
}
// vlds(reg, base, step, dist, POST_UPDATE): from UB at base, then base += step.
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
[[gnu::always_inline]] inline void vlds(R&& dst, __ubuf__ T*& base, int64_t step, Dist d, PostUpdate,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::load(w, dst, base, 0, d);
    base += step;
}
// vsts(reg, base, offset, dist, mask): the active elements to UB.
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
[[gnu::always_inline]] inline void vsts(R&& src, __ubuf__ T* base, int64_t offset, DistVST d, const vector_bool& m,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::store(w, src, base, offset, d, m);
}
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
[[gnu::always_inline]] inline void vsts(R&& src, __ubuf__ T*& base, int64_t step, DistVST d, const vector_bool& m, PostUpdate,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::store(w, src, base, 0, d, m);
    base += step;
}

// vsstb(reg, base, config, mask): 32-byte block k of the register to
// base + k * config[31:16] blocks; with POST_UPDATE, base then advances by
// config[15:0] blocks (asc-devkit StoreAlign, DataBlock mode, whose 3510
// implementation packs the two strides so).
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vsstb(R&& src, __ubuf__ T* base, uint32_t config, const vector_bool& m,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vsstb", 1, src);
    ptosim::cce::a5::vstore_blocks(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), config >> 16,
                                   int(sizeof(ptosim_cce::elem_of<R>)), m);
}
template <class R, class T>
    requires ptosim_cce::vreg_like<R>
inline void vsstb(R&& src, __ubuf__ T*& base, uint32_t config, const vector_bool& m, PostUpdate,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vsstb", 1, src);
    ptosim::cce::a5::vstore_blocks(ptosim_cce::here(w), ptosim_cce::vr(src), ptosim_cce::off(base), config >> 16,
                                   int(sizeof(ptosim_cce::elem_of<R>)), m);
    base += (config & 0xffffu) * 32 / sizeof(T);
}

// vlds(lo, hi, base, offset, DINTLV_B*): 2*VL bytes split into even and odd elements.
template <class L, class H, class T>
    requires(ptosim_cce::vreg_like<L> && ptosim_cce::vreg_like<H>)
inline void vlds(L&& lo, H&& hi, __ubuf__ T* base, int64_t offset, Dist d,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const int elem = d == DIST_DINTLV_B8 ? 1 : d == DIST_DINTLV_B16 ? 2 : d == DIST_DINTLV_B32 ? 4 : 0;
    if (elem == 0)
        ptosim::fault(ptosim_cce::here(w), "vlds into two registers takes DINTLV_B8, DINTLV_B16 or DINTLV_B32");
    ptosim::cce::a5::vload2(ptosim_cce::here(w), "vlds", ptosim_cce::vr(lo), ptosim_cce::vr(hi),
                            ptosim_cce::ub_at(base, offset), elem);
}
// vsts(lo, hi, base, offset, INTLV_B*, mask): the two registers interleaved.
template <class L, class H, class T>
    requires(ptosim_cce::vreg_like<L> && ptosim_cce::vreg_like<H>)
inline void vsts(L&& lo, H&& hi, __ubuf__ T* base, int64_t offset, DistVST d, const vector_bool& m,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const int elem = d == VST_INTLV_B8 ? 1 : d == VST_INTLV_B16 ? 2 : d == VST_INTLV_B32 ? 4 : 0;
    if (elem == 0)
        ptosim::fault(ptosim_cce::here(w), "vsts from two registers takes INTLV_B8, INTLV_B16 or INTLV_B32");
    ptosim_cce::read_src(w, "vsts", 1, lo);
    ptosim_cce::read_src(w, "vsts", 2, hi);
    ptosim::cce::a5::vstore2(ptosim_cce::here(w), "vsts", ptosim_cce::vr(lo), ptosim_cce::vr(hi),
                             ptosim_cce::ub_at(base, offset), elem, m);
}
