// A5's register arithmetic: element-wise operations on vector registers
// under a predicate, with scalar operands, broadcasts, compares and
// selects, whole-register reductions and the index vector
// (docs/intrinsics/a5-vreg.md, "Arithmetic"). The element type is the
// destination register's; each call is one operation over the register.
#pragma once
#include <ptosim/nan_rule.hpp>
#include <cce/a5/registers.hpp>
#include <ptosim/vmath.hpp>

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

// The light paths of the most frequent arithmetic (ptosim/cce_a5.hpp): add,
// subtract, multiply, maximum and minimum (and divide, for float) of float,
// 32-bit and 16-bit integer elements under a prefix predicate, with a
// register or a scalar operand, computed in place. Each is the element
// arithmetic of the full path (src/sim/cce/element_ops.hpp): for float the
// double result rounded once, which is the float operation's own result for
// these four; maximum and minimum keep a NaN first operand; integers wrap.
// The same elements in the same order; inactive elements become zero or
// keep their value as there.
template <class T>
inline constexpr bool light_type = std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
                                   std::is_same_v<T, uint32_t> || std::is_same_v<T, int16_t> ||
                                   std::is_same_v<T, uint16_t>;
template <class T, ptosim::cce::Bin B>
inline constexpr bool light_op = light_type<T> &&
                                 (B == ptosim::cce::Bin::Add || B == ptosim::cce::Bin::Sub ||
                                  B == ptosim::cce::Bin::Mul || B == ptosim::cce::Bin::Max ||
                                  B == ptosim::cce::Bin::Min || (B == ptosim::cce::Bin::Div && std::is_same_v<T, float>));
template <class T, ptosim::cce::Bin B>
[[gnu::always_inline]] inline T light_elem(T x, T y) {
    using ptosim::cce::Bin;
    if constexpr (std::is_same_v<T, float>) {
        if constexpr (B == Bin::Add) return x + y;
        else if constexpr (B == Bin::Sub) return x - y;
        else if constexpr (B == Bin::Mul) return x * y;
        else if constexpr (B == Bin::Div) return x / y;
        else if constexpr (B == Bin::Max) return x != x || x > y ? x : y;
        else return x != x || x < y ? x : y;
    } else {
        const int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
        if constexpr (B == Bin::Add) return static_cast<T>(a + b);
        else if constexpr (B == Bin::Sub) return static_cast<T>(a - b);
        else if constexpr (B == Bin::Mul) return static_cast<T>(a * b);
        else if constexpr (B == Bin::Max) return a > b ? x : y;
        else return a < b ? x : y;
    }
}
// Element i of the result from the register x and the register (or, with
// y == nullptr, the scalar s) operand.
template <class T, ptosim::cce::Bin B>
[[gnu::always_inline]] inline bool light_bin(const where_t& w, const char* op, ptosim::cce::a5::VReg& dst,
                                             const ptosim::cce::a5::VReg& x, const ptosim::cce::a5::VReg* y, T s,
                                             const vector_bool& m, bool merging) {
    namespace a5 = ptosim::cce::a5;
    constexpr int e = sizeof(T);
    const int k = a5::active_prefix(m, e);
    if (k < 0) return false;
    ptosim::Core* c = a5::light_core();
    if (!c) return false;
    a5::light_pass(*c, op, light_here(w));
    // A whole register is a loop of fixed length (the compiler keeps it in
    // vector registers), a shorter prefix one of k. A float result with a
    // NaN is redone element by element with the rule for two NaN operands
    // (ptosim/nan_rule.hpp), from the operands, which the destination may
    // be: the check stays in vector registers.
    constexpr bool nan_rule = std::is_same_v<T, float> && B != ptosim::cce::Bin::Max && B != ptosim::cce::Bin::Min;
    const auto run = [&](int n) {
        if constexpr (!nan_rule) {
            for (int i = 0; i < n; ++i) {
                T a, b = s, r;
                __builtin_memcpy(&a, x.b + e * i, e);
                if (y) __builtin_memcpy(&b, y->b + e * i, e);
                r = light_elem<T, B>(a, b);
                __builtin_memcpy(dst.b + e * i, &r, e);
            }
        } else {
            T out[a5::kVL / e];
            bool nan = false;
            for (int i = 0; i < n; ++i) {
                T a, b = s;
                __builtin_memcpy(&a, x.b + e * i, e);
                if (y) __builtin_memcpy(&b, y->b + e * i, e);
                out[i] = light_elem<T, B>(a, b);
                nan |= out[i] != out[i];
            }
            if (__builtin_expect(nan, 0))
                for (int i = 0; i < n; ++i) {
                    T a, b = s;
                    __builtin_memcpy(&a, x.b + e * i, e);
                    if (y) __builtin_memcpy(&b, y->b + e * i, e);
                    out[i] = ptosim::first_nan(out[i], a, b);
                }
            light_copy(dst.b, out, size_t(e) * n);
        }
    };
    constexpr int all = a5::kVL / e;
    if constexpr (nan_rule) {
        // A whole float register into a destination that is neither
        // operand (registers are the same object or apart): four lanes at
        // a time straight into it, the operands left as they were for the
        // NaN rule's redo.
        if (k == all && &dst != &x && &dst != y) {
            typedef float f4 __attribute__((vector_size(16)));
            typedef int32_t i4 __attribute__((vector_size(16)));
            const auto whole = [&](auto scalar) {
                i4 nan = {};
                const f4 sv = {s, s, s, s};
                for (int j = 0; j < all / 4; ++j) {
                    f4 a, b = sv, r;
                    __builtin_memcpy(&a, x.b + 16 * j, 16);
                    if constexpr (!decltype(scalar)::value) __builtin_memcpy(&b, y->b + 16 * j, 16);
                    if constexpr (B == ptosim::cce::Bin::Add) r = a + b;
                    else if constexpr (B == ptosim::cce::Bin::Sub) r = a - b;
                    else if constexpr (B == ptosim::cce::Bin::Mul) r = a * b;
                    else r = a / b;
                    nan |= r != r;
                    __builtin_memcpy(dst.b + 16 * j, &r, 16);
                }
                return ((nan[0] | nan[1]) | (nan[2] | nan[3])) != 0;
            };
            const bool nan = y ? whole(std::false_type{}) : whole(std::true_type{});
            if (__builtin_expect(nan, 0))
                for (int i = 0; i < all; ++i) {
                    T a, b = s, r;
                    __builtin_memcpy(&a, x.b + e * i, e);
                    if (y) __builtin_memcpy(&b, y->b + e * i, e);
                    __builtin_memcpy(&r, dst.b + e * i, e);
                    r = ptosim::first_nan(r, a, b);
                    __builtin_memcpy(dst.b + e * i, &r, e);
                }
            return true;
        }
    }
    if (k == all) {
        run(all);
        return true;
    }
    run(k);
    if (!merging) __builtin_memset(dst.b + e * k, 0, size_t(a5::kVL - e * k));
    return true;
}
// The scalar forms with a light path, and the operation each is.
template <ptosim::cce::Sca S>
inline constexpr bool light_scalar_op = S == ptosim::cce::Sca::Add || S == ptosim::cce::Sca::Mul ||
                                        S == ptosim::cce::Sca::Max || S == ptosim::cce::Sca::Min;
template <ptosim::cce::Sca S>
inline constexpr ptosim::cce::Bin light_scalar_bin = S == ptosim::cce::Sca::Add   ? ptosim::cce::Bin::Add
                                                     : S == ptosim::cce::Sca::Mul ? ptosim::cce::Bin::Mul
                                                     : S == ptosim::cce::Sca::Max ? ptosim::cce::Bin::Max
                                                                                  : ptosim::cce::Bin::Min;
// A scalar add or multiply (or an unsigned minimum that changes nothing)
// of a line (registers.hpp) of 16- or 32-bit integers with every element
// active: the result is a line again, first and step in the same wrapping
// arithmetic as element by element (light_elem), and its bytes are not
// written. Anything else takes the paths below, which read the bytes.
template <class T, ptosim::cce::Sca S>
inline constexpr bool light_line_op = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 2) &&
                                      (S == ptosim::cce::Sca::Add || S == ptosim::cce::Sca::Mul ||
                                       (S == ptosim::cce::Sca::Min && std::is_unsigned_v<T>));
template <class T, ptosim::cce::Sca S>
[[gnu::always_inline]] inline bool light_line_scalar(const where_t& w, const char* op, vreg_store& dst,
                                                     const vreg_store& x, T s, const vector_bool& m) {
    namespace a5 = ptosim::cce::a5;
    using U = std::make_unsigned_t<T>;
    constexpr int all = a5::kVL / int(sizeof(T));
    if (x.lazy != vreg_store::Line || x.width != sizeof(T)) return false;
    if (a5::active_prefix(m, sizeof(T)) != all) return false;
    uint64_t first = x.first, step = x.step;
    if constexpr (S == ptosim::cce::Sca::Add) {
        first = U(first + uint64_t(U(s)));
    } else if constexpr (S == ptosim::cce::Sca::Mul) {
        first = U(first * uint64_t(U(s)));
        step = U(step * uint64_t(U(s)));
    } else {
        // Unchanged when no element wraps (the line rises from first) and
        // the last is at most s.
        const uint64_t last = first + uint64_t(all - 1) * step;
        if (last > uint64_t(U(~U(0))) || last > uint64_t(U(s))) return false;
    }
    ptosim::Core* c = a5::light_core();
    if (!c) return false;
    a5::light_pass(*c, op, light_here(w));
    dst.lazy = vreg_store::Line;
    dst.width = sizeof(T);
    dst.first = first;
    dst.step = step;
    return true;
}
// The light paths of the float reductions (vcadd, vcmax, vcmin) under a
// prefix predicate of at least one element, computing what vreduce
// computes (a5-vreg.md, "Arithmetic"): the sum as a binary tree, the
// inactive elements as +0, rounded after every addition; the extreme as
// the first NaN and its index, else the extreme value at its first index,
// a maximum of zero +0 when any of the zeros is +0; the result in element
// 0 (and the index in element 1), the rest of the register zero.
template <ptosim::cce::Red R>
[[gnu::always_inline]] inline bool light_reduce(const where_t& w, const char* op, ptosim::cce::a5::VReg& dst,
                                                const ptosim::cce::a5::VReg& x, const vector_bool& m) {
    namespace a5 = ptosim::cce::a5;
    using ptosim::cce::Red;
    constexpr int all = a5::kVL / 4;
    const int k = a5::active_prefix(m, 4);
    if (k <= 0) return false;
    ptosim::Core* c = a5::light_core();
    if (!c) return false;
    a5::light_pass(*c, op, light_here(w));
    // The elements are read from the source's bytes where they are (the
    // destination, which may be the source, is written after the last read).
    const auto v = [&x](int i) {
        float f;
        __builtin_memcpy(&f, x.b + 4 * i, 4);
        return f;
    };
    float acc;
    uint32_t idx = 0;
    if constexpr (R == Red::Add) {
        // vreduce's binary tree, four lanes at a time: each level adds the
        // even lanes to the odd ones, pairs side by side, so the level's
        // sums come out in order (16 vectors, then 8, 4, 2, 1; then the last
        // four values).
        typedef float f4 __attribute__((vector_size(16)));
        f4 q[all / 4];
        for (int j = 0; j < all / 4; ++j) __builtin_memcpy(&q[j], x.b + 16 * j, 16);
        for (int i = k; i < all; ++i) q[i / 4][i % 4] = 0.0f;
        for (int n = all / 4; n > 1; n /= 2)
            for (int j = 0; j < n / 2; ++j)
                q[j] = __builtin_shufflevector(q[2 * j], q[2 * j + 1], 0, 2, 4, 6) +
                       __builtin_shufflevector(q[2 * j], q[2 * j + 1], 1, 3, 5, 7);
        acc = (q[0][0] + q[0][1]) + (q[0][2] + q[0][3]);
        // A NaN reached the sum: again, keeping the first NaN (nan_rule.hpp).
        if (__builtin_expect(acc != acc, 0)) {
            float t[all];
            for (int i = 0; i < all; ++i) t[i] = i < k ? v(i) : 0.0f;
            for (int n = all; n > 1; n /= 2)
                for (int i = 0; i < n / 2; ++i) t[i] = ptosim::first_nan(t[2 * i] + t[2 * i + 1], t[2 * i], t[2 * i + 1]);
            acc = t[0];
        }
    } else {
        typedef float f4 __attribute__((vector_size(16)));
        typedef int32_t i4 __attribute__((vector_size(16)));
        const auto q = [&x](int j) {
            f4 f;
            __builtin_memcpy(&f, x.b + 16 * j, 16);
            return f;
        };
        int nan_at = -1;
        bool any_nan = false;
        float ext;
        if (k == all) {
            // Four lanes at a time: whether there is a NaN and, without one,
            // the extreme value (exact in any order; only the value is used).
            i4 nan = {};
            for (int j = 0; j < all / 4; ++j) nan |= q(j) != q(j);
            any_nan = (nan[0] | nan[1] | nan[2] | nan[3]) != 0;
            if (!any_nan) {
                f4 l[4] = {q(0), q(1), q(2), q(3)};
                for (int j = 4; j < all / 4; ++j) {
                    const f4 qj = q(j);
                    const i4 take = R == Red::Max ? qj > l[j & 3] : qj < l[j & 3];
                    l[j & 3] = reinterpret_cast<f4>((reinterpret_cast<i4>(qj) & take) |
                                                    (reinterpret_cast<i4>(l[j & 3]) & ~take));
                }
                ext = l[0][0];
                for (int j = 0; j < 4; ++j)
                    for (int e = 0; e < 4; ++e)
                        ext = R == Red::Max ? (l[j][e] > ext ? l[j][e] : ext) : (l[j][e] < ext ? l[j][e] : ext);
            }
        } else {
            for (int i = 0; i < k; ++i) any_nan |= v(i) != v(i);
            if (!any_nan) {
                ext = v(0);
                for (int i = 1; i < k; ++i) ext = R == Red::Max ? (v(i) > ext ? v(i) : ext) : (v(i) < ext ? v(i) : ext);
            }
        }
        if (any_nan) {
            for (int i = 0; i < k && nan_at < 0; ++i)
                if (v(i) != v(i)) nan_at = i;
            acc = v(nan_at);
            idx = uint32_t(nan_at);
        } else {
            // The first index holding the extreme: four lanes at a time
            // while a whole group of four is active (ext is among the k).
            int first = 0;
            const f4 e4 = {ext, ext, ext, ext};
            while (first + 4 <= k) {
                const i4 eq = q(first / 4) == e4;
                if ((eq[0] | eq[1] | eq[2] | eq[3]) != 0) break;
                first += 4;
            }
            while (v(first) != ext) ++first;
            acc = v(first);
            idx = uint32_t(first);
            if (R == Red::Max && ext == 0.0f)
                for (int i = first; i < k; ++i)
                    if (v(i) == 0.0f && !__builtin_signbit(v(i))) acc = 0.0f;
        }
    }
    light_zero(dst.b, a5::kVL);
    __builtin_memcpy(dst.b, &acc, 4);
    if constexpr (R != Red::Add) __builtin_memcpy(dst.b + 4, &idx, 4);
    return true;
}
// The light path of vdup and vbr (a scalar's bits in every active
// element) for 16- and 32-bit elements under a prefix predicate, as
// vscalar's Dup computes it: the inactive elements zero, or kept when
// merging.
template <class T>
[[gnu::always_inline]] inline bool light_dup(const where_t& w, const char* op, ptosim::cce::a5::VReg& dst,
                                             uint64_t bits, const vector_bool& m, bool merging) {
    namespace a5 = ptosim::cce::a5;
    constexpr int e = sizeof(T);
    if constexpr (e != 2 && e != 4) {
        return false;
    } else {
        using U = std::conditional_t<e == 2, uint16_t, uint32_t>;
        const int k = a5::active_prefix(m, e);
        if (k < 0) return false;
        ptosim::Core* c = a5::light_core();
        if (!c) return false;
        a5::light_pass(*c, op, light_here(w));
        const U v = static_cast<U>(bits);
        constexpr int all = a5::kVL / e;
        if (k == all) {
            for (int i = 0; i < all; ++i) __builtin_memcpy(dst.b + e * i, &v, e);
            return true;
        }
        for (int i = 0; i < k; ++i) __builtin_memcpy(dst.b + e * i, &v, e);
        if (!merging) __builtin_memset(dst.b + e * k, 0, size_t(a5::kVL - e * k));
        return true;
    }
}
// The light path of vexp on a whole float register: vmath_f32 over the 64
// elements, as vunary computes it.
[[gnu::always_inline]] inline bool light_exp(const where_t& w, ptosim::cce::a5::VReg& dst,
                                             const ptosim::cce::a5::VReg& x, const vector_bool& m) {
    namespace a5 = ptosim::cce::a5;
    if (a5::active_prefix(m, 4) != a5::kVL / 4) return false;
    ptosim::Core* c = a5::light_core();
    if (!c) return false;
    a5::light_pass(*c, "vexp", light_here(w));
    ptosim::vmath_f32(ptosim::VMath::Exp, reinterpret_cast<const float*>(x.b), reinterpret_cast<float*>(dst.b),
                      size_t(a5::kVL / 4));
    return true;
}
}  // namespace ptosim_cce

#define PTOSIM_CCE_VBIN(name, op)                                                                                 \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,                       \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        using T = ptosim_cce::elem_of<D>;                                                                         \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
        ptosim_cce::read_src(w, #name, 3, b);                                                                     \
        if constexpr (ptosim_cce::light_op<T, ptosim::cce::Bin::op>)                                              \
            if (ptosim_cce::light_bin<T, ptosim::cce::Bin::op>(w, #name, ptosim_cce::vr(dst), ptosim_cce::vr(a),  \
                                                               &ptosim_cce::vr(b), T{}, m, mode == MODE_MERGING))  \
                return;                                                                                           \
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
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, const vector_bool& m, Mode mode = MODE_ZEROING,                              \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
        ptosim::cce::a5::vunary(ptosim_cce::here(w), #name, ptosim::cce::Una::op,                                 \
                                ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a), \
                                m, mode == MODE_MERGING);                                                        \
    }
// vexp: a whole float register takes the light path.
template <class D, class A>
    requires ptosim_cce::vreg_like<D>
[[gnu::always_inline]] inline void vexp(D&& dst, A&& a, const vector_bool& m, Mode mode = MODE_ZEROING,
                                        ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vexp", 2, a);
    if constexpr (std::is_same_v<ptosim_cce::elem_of<D>, float> && std::is_same_v<ptosim_cce::elem_of<A>, float>)
        if (ptosim_cce::light_exp(w, ptosim_cce::vr(dst), ptosim_cce::vr(a), m)) return;
    ptosim::cce::a5::vunary(ptosim_cce::here(w), "vexp", ptosim::cce::Una::Exp, ptosim_cce::dt<ptosim_cce::elem_of<D>>(),
                            ptosim_cce::vr(dst), ptosim_cce::vr(a), m, mode == MODE_MERGING);
}
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
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, S scalar, const vector_bool& m, Mode mode = MODE_ZEROING,                    \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        using T = ptosim_cce::elem_of<D>;                                                                         \
        if constexpr (ptosim::cce::Sca::op == ptosim::cce::Sca::Axpy) ptosim_cce::read_src(w, #name, 1, dst);     \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
        if constexpr (ptosim_cce::light_line_op<T, ptosim::cce::Sca::op> && std::is_arithmetic_v<S>)             \
            if (ptosim_cce::light_line_scalar<T, ptosim::cce::Sca::op>(w, #name, ptosim_cce::vs(dst),            \
                                                                      ptosim_cce::vs(a), static_cast<T>(scalar), m)) \
                return;                                                                                           \
        if constexpr (ptosim_cce::light_scalar_op<ptosim::cce::Sca::op> && std::is_arithmetic_v<S> &&            \
                      ptosim_cce::light_op<T, ptosim_cce::light_scalar_bin<ptosim::cce::Sca::op>>)                \
            if (ptosim_cce::light_bin<T, ptosim_cce::light_scalar_bin<ptosim::cce::Sca::op>>(                    \
                    w, #name, ptosim_cce::vr(dst), ptosim_cce::vr(a), nullptr, static_cast<T>(scalar), m,         \
                    mode == MODE_MERGING))                                                                        \
                return;                                                                                           \
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
    ptosim_cce::read_src(w, "vmov", 2, src);
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
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, int16_t count, const vector_bool& m, Mode mode = MODE_ZEROING,              \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
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
[[gnu::always_inline]] inline void vdup(D&& dst, S scalar, const vector_bool& m, Mode mode = MODE_ZEROING,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    auto& d = ptosim_cce::vr(dst);
    if (ptosim_cce::light_dup<T>(w, "vdup", d, ptosim_cce::elem_bits<T>(scalar), m, mode == MODE_MERGING)) return;
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vdup", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d,
                             ptosim_cce::elem_bits<T>(scalar), m, mode == MODE_MERGING);
}
// vdup(dst, src, mask, POS_LOWEST|POS_HIGHEST, mode): one element of src in
// every active element.
template <class D, class A>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<A>)
[[gnu::always_inline]] inline void vdup(D&& dst, A&& src, const vector_bool& m, DupPos pos, Mode mode = MODE_ZEROING,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    ptosim_cce::read_src(w, "vdup", 2, src);
    const auto& s = ptosim_cce::vr(src);
    const int n = ptosim::cce::a5::kVL / int(sizeof(T));
    uint64_t bits = 0;
    __builtin_memcpy(&bits, s.b + (pos == POS_LOWEST ? 0 : (n - 1) * int(sizeof(T))), sizeof(T));
    auto& d = ptosim_cce::vr(dst);
    if (ptosim_cce::light_dup<T>(w, "vdup", d, bits, m, mode == MODE_MERGING)) return;
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vdup", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d, bits, m,
                             mode == MODE_MERGING);
}
// vbr(dst, scalar): the scalar in every element.
template <class D, class S>
    requires ptosim_cce::vreg_like<D>
[[gnu::always_inline]] inline void vbr(D&& dst, S scalar, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    vector_bool all;
    __builtin_memset(all.b, 0xff, sizeof(all.b));
    auto& d = ptosim_cce::vr(dst);
    if (ptosim_cce::light_dup<T>(w, "vbr", d, ptosim_cce::elem_bits<T>(scalar), all, false)) return;
    ptosim::cce::a5::vscalar(ptosim_cce::here(w), "vbr", ptosim::cce::Sca::Dup, ptosim_cce::dt<T>(), d, d,
                             ptosim_cce::elem_bits<T>(scalar), all, false);
}
// vci(dst, start, INC_ORDER): element i = start + i; DEC_ORDER: start + n - 1 - i.
template <class D, class S>
    requires ptosim_cce::vreg_like<D>
[[gnu::always_inline]] inline void vci(D&& dst, S start, IndexOrder order = INC_ORDER,
                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using T = ptosim_cce::elem_of<D>;
    // The light path for 32- and 16-bit integer indices, as vindex computes them.
    if constexpr (std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 2) && std::is_arithmetic_v<S>) {
        if (ptosim::Core* c = ptosim::cce::a5::light_core()) {
            ptosim::cce::a5::light_pass(*c, "vci", ptosim_cce::light_here(w));
            const T s = static_cast<T>(start);
            constexpr int n = ptosim::cce::a5::kVL / int(sizeof(T));
            // Element i is s + i (s + n - 1 - i) in T's wrapping
            // arithmetic: kept as the line's first element and step
            // (registers.hpp), its bytes written when something reads them.
            using U = std::make_unsigned_t<T>;
            auto& d = ptosim_cce::vs(dst);
            d.lazy = ptosim_cce::vreg_store::Line;
            d.width = sizeof(T);
            d.first = order == DEC_ORDER ? U(U(s) + U(n - 1)) : U(s);
            d.step = order == DEC_ORDER ? U(~U(0)) : U(1);
            return;
        }
    }
    ptosim::cce::a5::vindex(ptosim_cce::here(w), ptosim_cce::dt<T>(), ptosim_cce::vr(dst),
                            ptosim_cce::elem_bits<T>(start), order == DEC_ORDER);
}

// Compares into a predicate: vcmp_<op>(dst, a, b, mask), vcmps_<op>(dst, a, scalar, mask).
#define PTOSIM_CCE_VCMP(suffix, op)                                                                               \
    template <class A, class B>                                                                                   \
        requires(ptosim_cce::vreg_like<A> && ptosim_cce::vreg_like<B>)                                            \
    inline void vcmp_##suffix(vector_bool& dst, A&& a, B&& b, const vector_bool& m,                              \
                              ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                           \
        ptosim_cce::read_src(w, "vcmp_" #suffix, 2, a);                                                           \
        ptosim_cce::read_src(w, "vcmp_" #suffix, 3, b);                                                           \
        ptosim::cce::a5::vcompare(ptosim_cce::here(w), "vcmp_" #suffix, ptosim::cce::Cmp::op,                     \
                                  ptosim_cce::dt<ptosim_cce::elem_of<A>>(), dst, ptosim_cce::vr(a),               \
                                  ptosim_cce::vr(b), m);                                                         \
    }                                                                                                             \
    template <class A, class S>                                                                                   \
        requires(ptosim_cce::vreg_like<A> && !ptosim_cce::vreg_like<S>)                                           \
    inline void vcmps_##suffix(vector_bool& dst, A&& a, S scalar, const vector_bool& m,                          \
                               ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                          \
        using T = ptosim_cce::elem_of<A>;                                                                         \
        ptosim_cce::read_src(w, "vcmps_" #suffix, 2, a);                                                          \
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
    ptosim_cce::read_src(w, "vsel", 2, a);
    ptosim_cce::read_src(w, "vsel", 3, b);
    ptosim::cce::a5::vselect(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst),
                             ptosim_cce::vr(a), ptosim_cce::vr(b), sel);
}

// Whole-register reductions of the active elements, into element 0.
#define PTOSIM_CCE_VRED(name, op)                                                                                 \
    template <class D, class A>                                                                                   \
        requires ptosim_cce::vreg_like<D>                                                                         \
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, const vector_bool& m, Mode = MODE_ZEROING,                                   \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
        if constexpr (std::is_same_v<ptosim_cce::elem_of<A>, float> && std::is_same_v<ptosim_cce::elem_of<D>, float>) \
            if (ptosim_cce::light_reduce<ptosim::cce::Red::op>(w, #name, ptosim_cce::vr(dst), ptosim_cce::vr(a), m)) \
                return;                                                                                           \
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
    [[gnu::always_inline]] inline void name(D&& dst, A&& a, const vector_bool& m, Mode = MODE_ZEROING,                                   \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        ptosim_cce::read_src(w, #name, 2, a);                                                                     \
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
    ptosim_cce::read_src(w, "vcpadd", 2, a);
    ptosim::cce::a5::vpair_add(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<A>>(), ptosim_cce::vr(dst),
                               ptosim_cce::vr(a), m);
}

// Carry arithmetic for 64-bit integers built from 32-bit halves:
// vaddc/vsubc(carry, dst, a, b, mask) and vaddcs/vsubcs(carry, dst, a, b,
// carry_in, mask).
#define PTOSIM_CCE_VCARRY(name, sub)                                                                              \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    [[gnu::always_inline]] inline void name(vector_bool& carry, D&& dst, A&& a, B&& b, const vector_bool& m,                             \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                    \
        static_assert(sizeof(ptosim_cce::elem_of<D>) == 4, #name " takes 32-bit elements");                       \
        ptosim_cce::read_src(w, #name, 3, a);                                                                     \
        ptosim_cce::read_src(w, #name, 4, b);                                                                     \
        ptosim::cce::a5::vcarry(ptosim_cce::here(w), #name, sub, carry, ptosim_cce::vr(dst), ptosim_cce::vr(a),   \
                                ptosim_cce::vr(b), nullptr, m);                                                  \
    }                                                                                                             \
    template <class D, class A, class B>                                                                          \
        requires ptosim_cce::vreg_like<D>                                                                         \
    inline void name##s(vector_bool& carry, D&& dst, A&& a, B&& b, const vector_bool& in, const vector_bool& m,   \
                        ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                 \
        static_assert(sizeof(ptosim_cce::elem_of<D>) == 4, #name "s takes 32-bit elements");                      \
        ptosim_cce::read_src(w, #name "s", 3, a);                                                                 \
        ptosim_cce::read_src(w, #name "s", 4, b);                                                                 \
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
    ptosim_cce::read_src(w, "vmull", 3, a);
    ptosim_cce::read_src(w, "vmull", 4, b);
    ptosim::cce::a5::vmull(ptosim_cce::here(w), std::is_signed_v<T>, ptosim_cce::vr(lo), ptosim_cce::vr(hi),
                           ptosim_cce::vr(a), ptosim_cce::vr(b), m);
}
// vmadd(dst, a, b, mask, mode): dst * a + b.
template <class D, class A, class B>
    requires ptosim_cce::vreg_like<D>
inline void vmadd(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vmadd", 1, dst);
    ptosim_cce::read_src(w, "vmadd", 2, a);
    ptosim_cce::read_src(w, "vmadd", 3, b);
    ptosim::cce::a5::vbinary(ptosim_cce::here(w), "vmadd", ptosim::cce::Bin::MulAdd,
                             ptosim_cce::dt<ptosim_cce::elem_of<D>>(), ptosim_cce::vr(dst), ptosim_cce::vr(a),
                             ptosim_cce::vr(b), m, mode == MODE_MERGING);
}
// vmula(dst, a, b, mask, mode): dst + a * b in the element type.
template <class D, class A, class B>
    requires ptosim_cce::vreg_like<D>
inline void vmula(D&& dst, A&& a, B&& b, const vector_bool& m, Mode mode = MODE_ZEROING,
                  ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::read_src(w, "vmula", 1, dst);
    ptosim_cce::read_src(w, "vmula", 2, a);
    ptosim_cce::read_src(w, "vmula", 3, b);
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
    ptosim_cce::read_src(w, "vexpdif", 2, a);
    ptosim_cce::read_src(w, "vexpdif", 3, b);
    ptosim::cce::a5::vexpdif(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<A>>(), part == PART_ODD ? 1 : 0,
                             ptosim_cce::vr(dst), ptosim_cce::vr(a), ptosim_cce::vr(b), m, mode == MODE_MERGING);
}
