// A5's register arithmetic: element-wise operations on vector registers
// under a predicate, with scalar operands, broadcasts, compares and
// selects, whole-register reductions and the index vector
// (docs/intrinsics/a5-vreg.md, "Arithmetic"). The element type is the
// destination register's; each call is one operation over the register.
#pragma once
#include <cce/a5/registers.hpp>

namespace ptosim_cce {
template <class T, class S>
inline uint64_t elem_bits(S s) {
    T v;
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, float>) v = static_cast<T>(s);
    else v = T(static_cast<float>(s));
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &v, sizeof(T));
    return bits;
}
}  // namespace ptosim_cce

#define PTOSIM_CCE_VBIN(name, op)                                                                                 \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,                       \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim::cce::a5::vbinary(ptosim_cce::here(w), #name, ptosim::cce::Bin::op,                                \
                                 ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a), \
                                 ptosim_cce::vr(b), m, mode == MODE_MERGING);                                     \
    }
PTOSIM_CCE_VBIN(vadd, Add)
PTOSIM_CCE_VBIN(vsub, Sub)
PTOSIM_CCE_VBIN(vmul, Mul)
PTOSIM_CCE_VBIN(vdiv, Div)
PTOSIM_CCE_VBIN(vmax, Max)
PTOSIM_CCE_VBIN(vmin, Min)
PTOSIM_CCE_VBIN(vand, And)
PTOSIM_CCE_VBIN(vor, Or)
PTOSIM_CCE_VBIN(vxor, Xor)
PTOSIM_CCE_VBIN(vprelu, Prelu)
PTOSIM_CCE_VBIN(vshl, Shl)
PTOSIM_CCE_VBIN(vshr, Shr)
// vmod: the remainder with the divisor's sign (a5-vreg.md, "Arithmetic").
PTOSIM_CCE_VBIN(vmod, Mod)
#undef PTOSIM_CCE_VBIN

#define PTOSIM_CCE_VUN(name, op)                                                                                  \
    template <class D, class A>                                                                                   \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(D&& dst, A&& a, const vector_bool& m, Mode mode = MODE_ZEROING,                              \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim::cce::a5::vunary(ptosim_cce::here(w), #name, ptosim::cce::Una::op,                                 \
                                ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a), \
                                m, mode == MODE_MERGING);                                                        \
    }
PTOSIM_CCE_VUN(vexp, Exp)
PTOSIM_CCE_VUN(vln, Ln)
PTOSIM_CCE_VUN(vabs, Abs)
PTOSIM_CCE_VUN(vsqrt, Sqrt)
PTOSIM_CCE_VUN(vrsqrt, Rsqrt)
PTOSIM_CCE_VUN(vrec, Rec)
PTOSIM_CCE_VUN(vrelu, Relu)
PTOSIM_CCE_VUN(vnot, Not)
PTOSIM_CCE_VUN(vneg, Neg)
PTOSIM_CCE_VUN(vmov, Copy)
#undef PTOSIM_CCE_VUN

#define PTOSIM_CCE_VSCA(name, op)                                                                                 \
    template <class D, class A, class S>                                                                          \
        requires(ptosim_cce::vreg_like<D> && !ptosim_cce::vreg_like<S>)                                           \
    inline void name(D&& dst, A&& a, S scalar, const vector_bool& m, Mode mode = MODE_ZEROING,                    \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        using T = ptosim_cce::elem_of<D>;                                                                         \
        ptosim::cce::a5::vscalar(ptosim_cce::here(w), #name, ptosim::cce::Sca::op, ptosim_cce::dt<T>(),           \
                                 ptosim_cce::vr(dst), ptosim_cce::vr(a), ptosim_cce::elem_bits<T>(scalar), m,     \
                                 mode == MODE_MERGING);                                                          \
    }
PTOSIM_CCE_VSCA(vadds, Add)
PTOSIM_CCE_VSCA(vmuls, Mul)
PTOSIM_CCE_VSCA(vmaxs, Max)
PTOSIM_CCE_VSCA(vmins, Min)
PTOSIM_CCE_VSCA(vlrelu, Lrelu)
// vaxpy(dst, src, scalar, mask, mode): dst + src * scalar.
PTOSIM_CCE_VSCA(vaxpy, Axpy)
#undef PTOSIM_CCE_VSCA

// vmov(dst, src): every element, no predicate.
template <class D, class A>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<A>)
inline void vmov(D&& dst, A&& src, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    vector_bool all;
    __builtin_memset(all.b, 0xff, sizeof(all.b));
    ptosim::cce::a5::vunary(ptosim_cce::here(w), "vmov", ptosim::cce::Una::Copy,
                            ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(src), all,
                            false);
}

// Shifts by a scalar count whatever the element type.
#define PTOSIM_CCE_VSHIFT(name, op)                                                                               \
    template <class D, class A>                                                                                   \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(D&& dst, A&& a, int16_t count, const vector_bool& m, Mode mode = MODE_ZEROING,              \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim::cce::a5::vscalar(ptosim_cce::here(w), #name, ptosim::cce::Sca::op,                                \
                                 ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a), \
                                 static_cast<uint64_t>(static_cast<int64_t>(count)), m, mode == MODE_MERGING);    \
    }
PTOSIM_CCE_VSHIFT(vshls, Shl)
PTOSIM_CCE_VSHIFT(vshrs, Shr)
#undef PTOSIM_CCE_VSHIFT

// vdup(dst, scalar, mask, mode): the scalar in every active element.
template <class D, class S>
    requires(ptosim_cce::vreg_like<D> && !ptosim_cce::vreg_like<S>)
inline void vdup(D&& dst, S scalar, const vector_bool& m, Mode mode = MODE_ZEROING,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    auto& d = ptosim_cce::vr(dst);
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vdup", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d,
                             ptosim_cce::elem_bits<T>(scalar), m, mode == MODE_MERGING);
}
// vdup(dst, src, mask, POS_LOWEST|POS_HIGHEST, mode): one element of src in
// every active element.
template <class D, class A>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<A>)
inline void vdup(D&& dst, A&& src, const vector_bool& m, DupPos pos, Mode mode = MODE_ZEROING,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    const auto& s = ptosim_cce::vr(src);
    const int n = ptosim::cce::a5::kVL / int(sizeof(T));
    uint64_t bits = 0;
    __builtin_memcpy(&bits, s.b + (pos == POS_LOWEST ? 0 : (n - 1) * int(sizeof(T))), sizeof(T));
    auto& d = ptosim_cce::vr(dst);
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vdup", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d, bits, m,
                             mode == MODE_MERGING);
}
// vbr(dst, scalar): the scalar in every element.
template <class D, class S>
    requires ptosim_cce::vreg_like<D>
inline void vbr(D&& dst, S scalar, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    vector_bool all;
    __builtin_memset(all.b, 0xff, sizeof(all.b));
    auto& d = ptosim_cce::vr(dst);
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vbr", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d,
                             ptosim_cce::elem_bits<T>(scalar), all, false);
}
// vci(dst, start, INC_ORDER): element i = start + i; DEC_ORDER: start + n - 1 - i.
template <class D, class S>
    requires ptosim_cce::vreg_like<D>
inline void vci(D&& dst, S start, IndexOrder order = INC_ORDER,
                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    ptosim::cce::a5::vindex(ptosim_cce::here(w), ptosim_cce::dt<T>(), ptosim_cce::vr(dst),
                            ptosim_cce::elem_bits<T>(start), order == DEC_ORDER);
}

// Compares into a predicate: vcmp_<op>(dst, a, b, mask), vcmps_<op>(dst, a, scalar, mask).
#define PTOSIM_CCE_VCMP(suffix, op)                                                                               \
    template <class A, class B>                                                                                   \
        requires(ptosim_cce::vreg_like<A> && ptosim_cce::vreg_like<B>)                                            \
    inline void vcmp_##suffix(vector_bool& dst, A&& a, B&& b, const vector_bool& m,                              \
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                           \
        ptosim::cce::a5::vcompare(ptosim_cce::here(w), "vcmp_" #suffix, ptosim::cce::Cmp::op,                     \
                                  ptosim_cce::dt<ptosim_cce::elem_of<A>>(), dst, ptosim_cce::vr(a),               \
                                  ptosim_cce::vr(b), m);                                                         \
    }                                                                                                             \
    template <class A, class S>                                                                                   \
        requires(ptosim_cce::vreg_like<A> && !ptosim_cce::vreg_like<S>)                                           \
    inline void vcmps_##suffix(vector_bool& dst, A&& a, S scalar, const vector_bool& m,                          \
                               ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                          \
        using T = ptosim_cce::elem_of<A>;                                                                         \
        ptosim::cce::a5::vcompare_scalar(ptosim_cce::here(w), "vcmps_" #suffix, ptosim::cce::Cmp::op,             \
                                         ptosim_cce::dt<T>(), dst, ptosim_cce::vr(a),                             \
                                         ptosim_cce::elem_bits<T>(scalar), m);                                   \
    }
PTOSIM_CCE_VCMP(eq, Eq)
PTOSIM_CCE_VCMP(ne, Ne)
PTOSIM_CCE_VCMP(lt, Lt)
PTOSIM_CCE_VCMP(le, Le)
PTOSIM_CCE_VCMP(gt, Gt)
PTOSIM_CCE_VCMP(ge, Ge)
#undef PTOSIM_CCE_VCMP

// vsel(dst, a, b, sel): a where sel is set, b elsewhere.
template <class D, class A, class B>
    requires ptosim_cce::vreg_like<D>
inline void vsel(D&& dst, A&& a, B&& b, const vector_bool& sel,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vselect(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst),
                             ptosim_cce::vr(a), ptosim_cce::vr(b), sel);
}

// Whole-register reductions of the active elements, into element 0.
#define PTOSIM_CCE_VRED(name, op)                                                                                 \
    template <class D, class A>                                                                                   \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(D&& dst, A&& a, const vector_bool& m, Mode = MODE_ZEROING,                                   \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim::cce::a5::vreduce(ptosim_cce::here(w), #name, ptosim::cce::Red::op,                                \
                                 ptosim_cce::dt<ptosim_cce::elem_of<A>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a), \
                                 m);                                                                             \
    }
PTOSIM_CCE_VRED(vcadd, Add)
PTOSIM_CCE_VRED(vcmax, Max)
PTOSIM_CCE_VRED(vcmin, Min)
#undef PTOSIM_CCE_VRED

// Per 32-byte block: block k's sum, maximum or minimum into element k.
#define PTOSIM_CCE_VGRED(name, op)                                                                                \
    template <class D, class A>                                                                                   \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(D&& dst, A&& a, const vector_bool& m, Mode = MODE_ZEROING,                                   \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim::cce::a5::vreduce_blocks(ptosim_cce::here(w), #name, ptosim::cce::Red::op,                         \
                                        ptosim_cce::dt<ptosim_cce::elem_of<A>>(), ptosim_cce::vr(dst),            \
                                        ptosim_cce::vr(a), m);                                                   \
    }
PTOSIM_CCE_VGRED(vcgadd, Add)
PTOSIM_CCE_VGRED(vcgmax, Max)
PTOSIM_CCE_VGRED(vcgmin, Min)
#undef PTOSIM_CCE_VGRED

// Adjacent pairs summed into the low half (TPAIRREDUCESUM); inactive
// elements count as 0, the high half is 0.
template <class D, class A>
    requires ptosim_cce::vreg_like<D>
inline void vcpadd(D&& dst, A&& a, const vector_bool& m, Mode = MODE_ZEROING,
                   ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vpair_add(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<A>>(), ptosim_cce::vr(dst),
                               ptosim_cce::vr(a), m);
}

// Carry arithmetic for 64-bit integers built from 32-bit halves:
// vaddc/vsubc(carry, dst, a, b, mask) and vaddcs/vsubcs(carry, dst, a, b,
// carry_in, mask).
#define PTOSIM_CCE_VCARRY(name, sub)                                                                              \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name(vector_bool& carry, D&& dst, A&& a, B&& b, const vector_bool& m,                             \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        static_assert(sizeof(ptosim_cce::elem_of<D>) == 4, #name " takes 32-bit elements");                       \
        ptosim::cce::a5::vcarry(ptosim_cce::here(w), #name, sub, carry, ptosim_cce::vr(dst), ptosim_cce::vr(a),   \
                                ptosim_cce::vr(b), nullptr, m);                                                  \
    }                                                                                                             \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name##s(vector_bool& carry, D&& dst, A&& a, B&& b, const vector_bool& in, const vector_bool& m,   \
                        ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                 \
        static_assert(sizeof(ptosim_cce::elem_of<D>) == 4, #name "s takes 32-bit elements");                      \
        const vector_bool carry_in = in;                                                                          \
        ptosim::cce::a5::vcarry(ptosim_cce::here(w), #name "s", sub, carry, ptosim_cce::vr(dst),                  \
                                ptosim_cce::vr(a), ptosim_cce::vr(b), &carry_in, m);                             \
    }
PTOSIM_CCE_VCARRY(vaddc, false)
PTOSIM_CCE_VCARRY(vsubc, true)
#undef PTOSIM_CCE_VCARRY

// vmull(lo, hi, a, b, mask): the full 64-bit product of 32-bit elements.
template <class L, class H, class A, class B>
    requires(ptosim_cce::vreg_like<L> && ptosim_cce::vreg_like<H>)
inline void vmull(L&& lo, H&& hi, A&& a, B&& b, const vector_bool& m,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<A>;
    static_assert(sizeof(T) == 4, "vmull takes 32-bit elements");
    ptosim::cce::a5::vmull(ptosim_cce::here(w), std::is_signed_v<T>, ptosim_cce::vr(lo), ptosim_cce::vr(hi),
                           ptosim_cce::vr(a), ptosim_cce::vr(b), m);
}
// vmadd(dst, a, b, mask, mode): dst * a + b.
template <class D, class A, class B>
    requires ptosim_cce::vreg_like<D>
inline void vmadd(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vbinary(ptosim_cce::here(w), "vmadd", ptosim::cce::Bin::MulAdd,
                             ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a),
                             ptosim_cce::vr(b), m, mode == MODE_MERGING);
}
// vmula(dst, a, b, mask, mode): dst + a * b in the element type.
template <class D, class A, class B>
    requires ptosim_cce::vreg_like<D>
inline void vmula(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vbinary(ptosim_cce::here(w), "vmula", ptosim::cce::Bin::MulAddDst,
                             ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a),
                             ptosim_cce::vr(b), m, mode == MODE_MERGING);
}

// vexpdif(dst, a, b, mask, PART_EVEN|PART_ODD[, mode]): float e^(a - b), from
// half sources' even or odd elements.
template <class D, class A, class B>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<A>)
inline void vexpdif(D&& dst, A&& a, B&& b, const vector_bool& m, PartMode part, Mode mode = MODE_ZEROING,
                    ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::vexpdif(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<A>>(), part == PART_ODD ? 1 : 0,
                             ptosim_cce::vr(dst), ptosim_cce::vr(a), ptosim_cce::vr(b), m, mode == MODE_MERGING);
}
