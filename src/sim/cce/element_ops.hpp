// The arithmetic of one element, shared by A2A3's repeat-addressed vector
// intrinsics (vector.cpp) and A5's register operations (a5/vreg.cpp), so both
// targets compute an element the same way (docs/intrinsics/README.md,
// "Arithmetic").
#pragma once
#include "repeat.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <cstring>
#include <type_traits>

namespace ptosim::cce::detail {

template <class T, bool Round>
inline double product(double p) {
    if constexpr (Round) return to_double(from_double<T>(p));
    else return p;
}

// `RoundProduct`: whether a multiply-add rounds its product to the element
// type before the sum (A2A3's vector unit) or rounds once (A5's registers).
// Two NaN operands give the first one's NaN (ptosim/nan_rule.hpp): a NaN
// element converted to double and back keeps its payload. The quiet bit is
// set here, not left to the conversions: GCC, which assumes no signalling
// NaNs, may fold a float's round trip through double away, and a signalling
// NaN would then come out as it went in where the light paths quiet it.
template <class T>
inline T first_nan(T r, double x, double y) {
    if (!std::isnan(x) && !std::isnan(y)) return r;
    const double n = std::isnan(x) ? x : y;
    return from_double<T>(std::bit_cast<double>(std::bit_cast<uint64_t>(n) | (uint64_t{1} << 51)));
}

template <class T, bool RoundProduct = true>
inline T binary(Bin op, T a, T b, T d) {
    if constexpr (is_float_v<T>) {
        const double x = to_double(a), y = to_double(b), z = to_double(d);
        switch (op) {
        case Bin::Add: return first_nan(from_double<T>(x + y), x, y);
        case Bin::Sub: return first_nan(from_double<T>(x - y), x, y);
        case Bin::Mul: return first_nan(from_double<T>(x * y), x, y);
        case Bin::Div: return first_nan(from_double<T>(x / y), x, y);
        case Bin::Max: return std::isnan(x) || x > y ? a : b;
        case Bin::Min: return std::isnan(x) || x < y ? a : b;
        case Bin::AddRelu: return from_double<T>(std::max(x + y, 0.0));
        case Bin::SubRelu: return from_double<T>(std::max(x - y, 0.0));
        // On A2A3 the multiply-adds round the product to the element type,
        // then the sum: pto-isa's A2A3 TFUSEDMULADD, TMULADDDST and TAXPY
        // goldens compute in the element type one operation at a time. Its A5
        // TAXPY golden wants one rounding (docs/intrinsics/README.md,
        // "Arithmetic"; a5-vreg.md).
        case Bin::MulAddDst: return from_double<T>(product<T, RoundProduct>(x * y) + z);
        case Bin::MulAdd: return from_double<T>(product<T, RoundProduct>(x * z) + y);
        case Bin::MulAddRelu: return from_double<T>(std::max(product<T, RoundProduct>(x * z) + y, 0.0));
        case Bin::Prelu: return x >= 0 ? a : from_double<T>(x * y);
        case Bin::Mod: {
            // The remainder with the divisor's sign (A5's vmod, chosen: see
            // a5-vreg.md, "Arithmetic").
            double r = std::fmod(x, y);
            if (r != 0 && (r < 0) != (y < 0)) r += y;
            return from_double<T>(r);
        }
        default: {
            // Bitwise operations on float elements act on their bit patterns.
            using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
            U ua, ub;
            std::memcpy(&ua, &a, sizeof(T));
            std::memcpy(&ub, &b, sizeof(T));
            U r = op == Bin::And ? U(ua & ub) : op == Bin::Or ? U(ua | ub) : U(ua ^ ub);
            T out;
            std::memcpy(&out, &r, sizeof(T));
            return out;
        }
        }
    } else {
        // Integers wrap, as the vector unit's integer arithmetic does without saturation.
        const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b), z = static_cast<int64_t>(d);
        switch (op) {
        case Bin::Add: return static_cast<T>(x + y);
        case Bin::Sub: return static_cast<T>(x - y);
        case Bin::Mul: return static_cast<T>(x * y);
        case Bin::Div: return y == 0 ? T(-1) : static_cast<T>(x / y);
        case Bin::Max: return x > y ? a : b;
        case Bin::Min: return x < y ? a : b;
        case Bin::And: return static_cast<T>(a & b);
        case Bin::Or: return static_cast<T>(a | b);
        case Bin::Xor: return static_cast<T>(a ^ b);
        case Bin::AddRelu: return static_cast<T>(std::max<int64_t>(x + y, 0));
        case Bin::SubRelu: return static_cast<T>(std::max<int64_t>(x - y, 0));
        case Bin::MulAddDst: return static_cast<T>(x * y + z);
        case Bin::MulAdd: return static_cast<T>(x * z + y);
        case Bin::MulAddRelu: return static_cast<T>(std::max<int64_t>(x * z + y, 0));
        case Bin::Prelu: return x >= 0 ? a : static_cast<T>(x * y);
        case Bin::Mod: {
            // The remainder with the divisor's sign; by zero, zero (A5's
            // vmod, chosen: see a5-vreg.md, "Arithmetic").
            if (y == 0) return T(0);
            if constexpr (std::is_unsigned_v<T>) return static_cast<T>(static_cast<uint64_t>(a) % static_cast<uint64_t>(b));
            else {
                int64_t r = x % y;
                if (r != 0 && (r < 0) != (y < 0)) r += y;
                return static_cast<T>(r);
            }
        }
        // A count of the element's width or more shifts every bit out: zero,
        // or the sign for an arithmetic right shift (not documented, chosen;
        // pto-isa's A5 int64 shifts rely on it for counts of 32 and more).
        case Bin::Shl: {
            const uint64_t n = static_cast<uint64_t>(y);
            if (n >= sizeof(T) * 8) return T(0);
            return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << n);
        }
        default: {
            const uint64_t n = static_cast<uint64_t>(y);
            if (n >= sizeof(T) * 8) return std::is_signed_v<T> && a < 0 ? T(-1) : T(0);
            return static_cast<T>(a >> n);
        }
        }
    }
}

template <class T>
inline T unary(Una op, T a) {
    if (op == Una::Copy) return a;
    if constexpr (is_float_v<T>) {
        const double x = to_double(a);
        switch (op) {
        case Una::Exp: return from_double<T>(std::exp(x));
        case Una::Ln: return from_double<T>(std::log(x));
        case Una::Abs: return from_double<T>(std::fabs(x));
        case Una::Sqrt: return from_double<T>(std::sqrt(x));
        case Una::Rsqrt: return from_double<T>(1.0 / std::sqrt(x));
        case Una::Rec: return from_double<T>(1.0 / x);
        case Una::Relu: return x > 0 ? a : T(0.0f);
        case Una::Neg: return from_double<T>(-x);
        default: {
            using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
            U u;
            std::memcpy(&u, &a, sizeof(T));
            u = static_cast<U>(~u);
            T out;
            std::memcpy(&out, &u, sizeof(T));
            return out;
        }
        }
    } else {
        switch (op) {
        case Una::Abs: return static_cast<T>(a < 0 ? -static_cast<int64_t>(a) : a);
        case Una::Relu: return a > 0 ? a : T(0);
        case Una::Not: return static_cast<T>(~a);
        case Una::Neg: return static_cast<T>(-static_cast<int64_t>(a));
        default: return a;  // transcendental ops have no integer form: the element passes
        }
    }
}

template <class T, bool RoundProduct = true>
inline T with_scalar(Sca op, T a, T s, T d) {
    const auto bin = [&](Bin b) { return binary<T, RoundProduct>(b, a, s, d); };
    switch (op) {
    case Sca::Add: return bin(Bin::Add);
    case Sca::Mul: return bin(Bin::Mul);
    case Sca::Max: return bin(Bin::Max);
    case Sca::Min: return bin(Bin::Min);
    case Sca::Lrelu: return bin(Bin::Prelu);
    case Sca::Axpy: return bin(Bin::MulAddDst);
    case Sca::Shl: return bin(Bin::Shl);
    case Sca::Shr: return bin(Bin::Shr);
    default: return s;
    }
}


// The float forms of the frequent binary operations in float arithmetic:
// binary<float> computes them in double and rounds once to float, which for
// +, -, * and / is the float operation's own correctly rounded result (a
// double holds more than twice float's 24 bits, so the double rounding is
// innocuous), NaNs and infinities included; max and min compare the same
// values. Bit-identical, and plain enough for the compiler's vector code.
template <Bin B>
constexpr bool float_fast_v = B == Bin::Add || B == Bin::Sub || B == Bin::Mul || B == Bin::Div || B == Bin::Max ||
                              B == Bin::Min;
// Four floats in one SSE register (GCC/clang vector extension): the
// chunked loops below keep their operands in registers, where an array of
// locals went through the stack (about three times slower on a run of 128).
typedef float float4_v __attribute__((vector_size(16)));

// `r`, computed from `a` and another operand, with a NaN `a` kept quieted
// in each lane: the two-NaN rule (ptosim/nan_rule.hpp) without a branch.
// Where only one operand is a NaN the host's arithmetic already returns it
// quieted, and a NaN made from numbers is r itself; so only a NaN `a`
// needs writing out, whichever operand order the compiler chose.
template <class V>
[[gnu::always_inline]] inline V keep_first_nan(V r, V a) {
    if constexpr (std::is_same_v<V, float>) {
        return a != a ? std::bit_cast<float>(std::bit_cast<uint32_t>(a) | 0x00400000u) : r;
    } else {
        typedef int32_t lanes_v __attribute__((vector_size(sizeof(V))));
        const lanes_v quiet = (lanes_v)a | 0x00400000;
        return a != a ? (V)quiet : r;
    }
}

// float_op on one float or on four lanes at once (the same comparison and
// select per lane, so the same bits as binary<float>, NaNs included).
template <Bin B, class V>
inline V float_op(V a, V b) {
    if constexpr (B == Bin::Add) return keep_first_nan<V>(a + b, a);
    else if constexpr (B == Bin::Sub) return keep_first_nan<V>(a - b, a);
    else if constexpr (B == Bin::Mul) return keep_first_nan<V>(a * b, a);
    else if constexpr (B == Bin::Div) return keep_first_nan<V>(a / b, a);
    // `|` rather than `||`: one select, no branch, for the vector code.
    else if constexpr (B == Bin::Max) return (a != a) | (a > b) ? a : b;
    else return (a != a) | (a < b) ? a : b;
}
template <Bin B>
struct FloatOp {
    template <class V>
    V operator()(V a, V b) const { return float_op<B>(a, b); }
};

// Whether a run of `bytes` at d can be worked a chunk of elements at a time
// and give what the element loop gives: the source is the destination
// itself (each element is read before it is written) or lies apart from it.
// A destination shifted against its source keeps the element loop.
inline bool chunkable(const uint8_t* d, const uint8_t* s, uint64_t bytes) {
    return d == s || d + bytes <= s || s + bytes <= d;
}

// d[k] = f(a[k], b[k]) for k < n floats (b: null for a scalar operand `sv`),
// four at a time in a vector register, the rest one by one; f takes floats
// and float4_v alike. Callers check chunkable() for every source.
template <class F>
inline void float_chunks(uint8_t* d, const uint8_t* a, const uint8_t* b, float sv, uint32_t n, F&& f) {
    uint32_t k = 0;
    if (b) {
        for (; k + 4 <= n; k += 4) {
            float4_v x, y;
            std::memcpy(&x, a + k * 4, sizeof x);
            std::memcpy(&y, b + k * 4, sizeof y);
            const float4_v r = f(x, y);
            std::memcpy(d + k * 4, &r, sizeof r);
        }
    } else {
        const float4_v s = float4_v{} + sv;
        for (; k + 4 <= n; k += 4) {
            float4_v x;
            std::memcpy(&x, a + k * 4, sizeof x);
            const float4_v r = f(x, s);
            std::memcpy(d + k * 4, &r, sizeof r);
        }
    }
    for (; k < n; ++k) {
        float x, y = sv;
        std::memcpy(&x, a + k * 4, 4);
        if (b) std::memcpy(&y, b + k * 4, 4);
        const float r = f(x, y);
        std::memcpy(d + k * 4, &r, 4);
    }
}

// The operation as a compile-time constant for the frequent ones, so that
// binary/unary/with_scalar fold to one expression and the loop over a run
// of elements has no switch in it (the vector code of each_run); the rest
// pass as runtime values. Same results either way: the same inline function
// computes them.
template <class E, E... Hot, class F>
void with_hot(E op, F&& f) {
    if (!((op == Hot ? (f(std::integral_constant<E, Hot>{}), true) : false) || ...)) f(op);
}
template <class F>
void with_bin(Bin b, F&& f) {
    with_hot<Bin, Bin::Add, Bin::Sub, Bin::Mul, Bin::Div, Bin::Max, Bin::Min>(b, f);
}
template <class F>
void with_una(Una u, F&& f) {
    with_hot<Una, Una::Abs, Una::Relu, Una::Copy, Una::Neg, Una::Rec>(u, f);
}
template <class F>
void with_sca(Sca s, F&& f) {
    with_hot<Sca, Sca::Add, Sca::Mul, Sca::Max, Sca::Min, Sca::Dup>(s, f);
}

// ---- Conversions of one element (A2A3's vconv_*, A5's vcvt; README.md,
// "Conversion rounding").

// What a conversion to an integer does with a value outside the type.
enum class Overflow : uint8_t { Saturate, Wrap, WrapInfToLimit };

// x rounded to an integral value in the rounding the suffix names; no suffix
// on a lossy conversion rounds to nearest even (Ascend C's CAST_NONE).
inline double round_integral(double x, Round r) {
    switch (r) {
    case Round::Away: return std::round(x);
    case Round::Floor: return std::floor(x);
    case Round::Ceil: return std::ceil(x);
    case Round::Trunc: return std::trunc(x);
    default: return std::nearbyint(x);  // the host's default mode: to nearest, ties to even
    }
}

// The 16-bit float next to h away from zero (up = true) or toward it.
template <class H>
inline H step(H h, bool away) {
    return H::from_bits(static_cast<uint16_t>(away ? h.bits + 1 : h.bits - 1));
}

// A finite double as a 16-bit float in rounding r (exact below 2^-24
// relative, which every float source is).
template <class H>
inline H to_f16(double x, Round r) {
    if (std::isnan(x)) return H(static_cast<float>(x));
    // The double rounded to odd as float: one nearest-even rounding to H from
    // it is H's correct nearest-even rounding of x.
    float f = static_cast<float>(x);
    if (std::isfinite(f) && static_cast<double>(f) != x) {
        if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
        f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
    }
    H h(f);
    const double back = static_cast<double>(static_cast<float>(h));
    if (back == x || std::isinf(x)) return h;
    const bool above = std::fabs(back) > std::fabs(x);  // h lies farther from zero than x
    switch (r) {
    case Round::Trunc: return above ? step(h, false) : h;
    case Round::Floor: return (x > 0) == above ? (x > 0 ? step(h, false) : h) : (x > 0 ? h : step(h, true));
    case Round::Ceil: return (x > 0) == above ? (x > 0 ? h : step(h, false)) : (x > 0 ? step(h, true) : h);
    case Round::Odd: {
        H t = above ? step(h, false) : h;
        return H::from_bits(static_cast<uint16_t>(t.bits | 1u));
    }
    case Round::Away: {
        // Nearest with ties away from zero: only a tie differs from nearest-even.
        const H other = above ? step(h, false) : step(h, true);
        const double ob = static_cast<double>(static_cast<float>(other));
        if (std::fabs(ob - x) == std::fabs(back - x)) return std::fabs(ob) > std::fabs(back) ? other : h;
        return h;
    }
    default: return h;
    }
}

inline float to_f32(double x, Round r) {
    if (!std::isfinite(x)) return static_cast<float>(x);
    float f = static_cast<float>(x);
    if (static_cast<double>(f) == x) return f;
    const bool above = std::fabs(static_cast<double>(f)) > std::fabs(x);
    const float toward = std::nextafter(f, 0.0f), away = std::nextafter(f, f > 0 ? INFINITY : -INFINITY);
    switch (r) {
    case Round::Trunc: return above ? toward : f;
    case Round::Floor: return x > 0 ? (above ? toward : f) : (above ? f : away);
    case Round::Ceil: return x > 0 ? (above ? f : away) : (above ? toward : f);
    case Round::Odd: {
        const float t = above ? toward : f;
        return std::bit_cast<float>(std::bit_cast<uint32_t>(t) | 1u);
    }
    case Round::Away: {
        const float other = above ? toward : away;
        if (std::fabs(double(other) - x) == std::fabs(double(f) - x)) return std::fabs(other) > std::fabs(f) ? other : f;
        return f;
    }
    default: return f;
    }
}

template <class To>
inline To convert(double x, bool from_float, Round r, Overflow overflow = Overflow::Saturate) {
    if constexpr (std::is_same_v<To, float>) {
        // f32 -> f32 with a rounding suffix rounds to an integral value.
        return to_f32(from_float && r != Round::None ? round_integral(x, r) : x, r);
    } else if constexpr (is_float_v<To>) {
        return to_f16<To>(x, r);
    } else {
        // Float to integer rounds, then saturates; NaN gives 0. With A2A3's
        // CTRL[59] set (Overflow::Wrap) the rounded value keeps its low bits
        // instead, and NaN and infinities give 0 (pto-isa's A2A3 TCVT and its
        // test data). A5's non-saturating conversions (Overflow::WrapInfToLimit,
        // asc-devkit "rounding_mode.md") keep the low bits too, but an
        // infinity gives the type's limit of its sign.
        if (std::isnan(x)) return To(0);
        const double v = from_float ? round_integral(x, r) : x;
        if (overflow == Overflow::Wrap) {
            if (!std::isfinite(v) || std::fabs(v) >= 9223372036854775808.0) return To(0);
            return static_cast<To>(static_cast<uint64_t>(static_cast<int64_t>(v)));
        }
        if (overflow == Overflow::WrapInfToLimit) {
            if (std::isinf(v)) return v > 0 ? std::numeric_limits<To>::max() : std::numeric_limits<To>::min();
            // The integer's low 64 bits: |v| modulo 2^64 (exact in double),
            // negated modulo 2^64 for a negative v.
            const double m = std::fmod(std::fabs(v), 18446744073709551616.0);
            uint64_t low = m >= 9223372036854775808.0
                               ? static_cast<uint64_t>(m - 9223372036854775808.0) + (uint64_t(1) << 63)
                               : static_cast<uint64_t>(m);
            if (v < 0) low = ~low + 1;
            return static_cast<To>(low);
        }
        if (v <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
        if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    }
}

}  // namespace ptosim::cce::detail
