// A5's interleaves (docs/intrinsics/a5-vreg.md, "Interleaves"):
// vintlv(d0, d1, s0, s1) puts s0's and s1's elements side by side across
// d0 then d1; vdintlv(d0, d1, s0, s1) splits s0 then s1 into their even
// (d0) and odd (d1) elements. pintlv_b*/pdintlv_b* do the same over
// predicates, an element being 1, 2 or 4 bits (b8, b16, b32).
#pragma once
#include <cce/a5/registers.hpp>

#define PTOSIM_CCE_VINTLV(name, de)                                                                               \
    template <class D0, class D1, class S0, class S1>                                                            \
        requires(ptosim_cce::vreg_like<D0> && ptosim_cce::vreg_like<D1>)                                          \
    inline void name(D0&& d0, D1&& d1, S0&& s0, S1&& s1, ptosim_cce::where_t w = ptosim_cce::where_t::current()) { \
        ptosim_cce::read_src(w, #name, 3, s0);                                                                    \
        ptosim_cce::read_src(w, #name, 4, s1);                                                                    \
        const ptosim::cce::a5::VReg a = ptosim_cce::vr(s0), b = ptosim_cce::vr(s1);                               \
        ptosim::cce::a5::vinterleave(ptosim_cce::here(w), #name, de, int(sizeof(ptosim_cce::elem_of<D0>)),        \
                                     ptosim_cce::vr(d0), ptosim_cce::vr(d1), a, b);                               \
    }
PTOSIM_CCE_VINTLV(vintlv, false)
PTOSIM_CCE_VINTLV(vdintlv, true)
#undef PTOSIM_CCE_VINTLV

#define PTOSIM_CCE_PINTLV(name, de, bits)                                                                         \
    inline void name(vector_bool& d0, vector_bool& d1, const vector_bool& s0, const vector_bool& s1,             \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                   \
        const vector_bool a = s0, b = s1;                                                                         \
        ptosim::cce::a5::pinterleave(ptosim_cce::here(w), #name, de, bits, d0, d1, a, b);                         \
    }
PTOSIM_CCE_PINTLV(pintlv_b8, false, 1)
PTOSIM_CCE_PINTLV(pintlv_b16, false, 2)
PTOSIM_CCE_PINTLV(pintlv_b32, false, 4)
PTOSIM_CCE_PINTLV(pdintlv_b8, true, 1)
PTOSIM_CCE_PINTLV(pdintlv_b16, true, 2)
PTOSIM_CCE_PINTLV(pdintlv_b32, true, 4)
#undef PTOSIM_CCE_PINTLV

// vselr(dst, src, idx): element i of dst is element idx[i] of src.
template <class D, class S, class I>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<I>)
inline void vselr(D&& dst, S&& src, I&& idx, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vselr", 2, src);
    ptosim_cce::read_src(w, "vselr", 3, idx);
    ptosim::cce::a5::vselect_index(ptosim_cce::here(w), int(sizeof(ptosim_cce::elem_of<D>)), ptosim_cce::vr(dst),
                                   ptosim_cce::vr(src), ptosim_cce::vr(idx));
}

// vpack(dst, src, LOWER|HIGHER[, mode]): the low half of each of src's
// elements into dst's lower or higher half; vunpack(dst, src, LOWER|HIGHER):
// the elements of src's lower or higher half, widened (sign-extended for
// signed element types).
template <class D, class S>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
inline void vpack(D&& dst, S&& src, PackHalf h, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<S>;
    ptosim_cce::read_src(w, "vpack", 2, src);
    ptosim::cce::a5::vpack(ptosim_cce::here(w), "vpack", false, h == HIGHER, int(sizeof(T)), false,
                           ptosim_cce::vr(dst), ptosim_cce::vr(src));
}
template <class D, class S>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
inline void vunpack(D&& dst, S&& src, PackHalf h, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<S>;
    ptosim_cce::read_src(w, "vunpack", 2, src);
    ptosim::cce::a5::vpack(ptosim_cce::here(w), "vunpack", true, h == HIGHER, int(sizeof(T)),
                           std::is_signed_v<T> && std::is_integral_v<T>, ptosim_cce::vr(dst), ptosim_cce::vr(src));
}
