// The A5 low-precision element types: 8-bit floats (OCP FP8 E4M3 and E5M2,
// Huawei HiFloat8, the MX scale E8M0) and the packed pairs of 4-bit floats
// (E2M1, E1M2). Every code decodes exactly to a double; encoding picks a
// neighbour on the format's value grid with an explicit rounding rule and
// overflow policy (docs/isa/matrix.md, "Low-precision element types").
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ptosim {

enum class MiniFormat : uint8_t { E4M3, E5M2, HiF8, E8M0, E2M1, E1M2 };
enum class MiniRound : uint8_t { NearestEven, NearestAway, Floor, Ceil, Trunc, Odd };

constexpr int mini_code_count(MiniFormat f) { return f == MiniFormat::E2M1 || f == MiniFormat::E1M2 ? 16 : 256; }
constexpr bool mini_has_sign(MiniFormat f) { return f != MiniFormat::E8M0; }
constexpr unsigned mini_sign_bit(MiniFormat f) { return mini_code_count(f) == 16 ? 0x8u : 0x80u; }

// HiFloat8 (Ascend HiFloat8 paper, "Format"): after the sign, a prefix-coded
// dot field gives the exponent width D; the exponent is sign-magnitude with
// an implicit leading 1, and the remaining bits are the mantissa. Dot 0000
// holds the denormals 2^(m - 23).
inline double hif8_decode(unsigned code) {
    const double sign = code & 0x80u ? -1.0 : 1.0;
    const unsigned v = code & 0x7fu;
    if (code == 0x80u) return NAN;
    if (v == 0) return 0.0 * sign;
    if (v == 0x6fu) return sign * INFINITY;
    int exp_mag = 0, mant_bits = 3;
    bool exp_neg = false;
    unsigned mant = v & 7u;
    if ((v >> 5) == 3) {  // dot 11: D = 4
        exp_neg = v & 0x10u;
        exp_mag = 8 + static_cast<int>((v >> 1) & 7u);
        mant_bits = 1;
        mant = v & 1u;
    } else if ((v >> 5) == 2) {  // dot 10: D = 3
        exp_neg = v & 0x10u;
        exp_mag = 4 + static_cast<int>((v >> 2) & 3u);
        mant_bits = 2;
        mant = v & 3u;
    } else if ((v >> 5) == 1) {  // dot 01: D = 2
        exp_neg = v & 0x10u;
        exp_mag = 2 + static_cast<int>((v >> 3) & 1u);
    } else if ((v >> 4) == 1) {  // dot 001: D = 1
        exp_neg = v & 0x08u;
        exp_mag = 1;
    } else if ((v >> 3) == 1) {  // dot 0001: D = 0
        exp_mag = 0;
    } else {  // dot 0000: denormal
        return sign * std::ldexp(1.0, static_cast<int>(mant) - 23);
    }
    const int e = exp_neg ? -exp_mag : exp_mag;
    return sign * std::ldexp(1.0 + static_cast<double>(mant) / (1 << mant_bits), e);
}

// Exact value of a code; NaN codes give NaN.
inline double mini_decode(MiniFormat f, unsigned code) {
    const bool neg = mini_has_sign(f) && (code & mini_sign_bit(f));
    const double s = neg ? -1.0 : 1.0;
    switch (f) {
        case MiniFormat::E4M3: {
            const unsigned e = (code >> 3) & 15u, m = code & 7u;
            if (e == 15 && m == 7) return NAN;
            return s * (e == 0 ? std::ldexp(m, -9) : std::ldexp(8.0 + m, static_cast<int>(e) - 10));
        }
        case MiniFormat::E5M2: {
            const unsigned e = (code >> 2) & 31u, m = code & 3u;
            if (e == 31) return m == 0 ? s * INFINITY : NAN;
            return s * (e == 0 ? std::ldexp(m, -16) : std::ldexp(4.0 + m, static_cast<int>(e) - 17));
        }
        case MiniFormat::HiF8: return hif8_decode(code);
        case MiniFormat::E8M0: return (code & 0xffu) == 0xffu ? NAN : std::ldexp(1.0, static_cast<int>(code & 0xffu) - 127);
        case MiniFormat::E2M1: {
            const unsigned e = (code >> 1) & 3u, m = code & 1u;
            return s * (e == 0 ? 0.5 * m : std::ldexp(2.0 + m, static_cast<int>(e) - 2));
        }
        case MiniFormat::E1M2: {
            const unsigned e = (code >> 2) & 1u, m = code & 3u;
            return s * (e == 0 ? 0.25 * m : 1.0 + 0.25 * m);
        }
    }
    return NAN;
}

// The non-negative finite values of a format, ascending, with their codes.
struct MiniGrid {
    std::array<double, 256> value{};
    std::array<uint8_t, 256> code{};
    int count = 0;
};

inline MiniGrid make_mini_grid(MiniFormat f) {
    MiniGrid g;
    std::array<std::pair<double, uint8_t>, 256> all{};
    int n = 0;
    for (int c = 0; c < mini_code_count(f); ++c) {
        if (mini_has_sign(f) && (c & mini_sign_bit(f))) continue;
        const double v = mini_decode(f, static_cast<unsigned>(c));
        if (std::isfinite(v)) all[n++] = {v, static_cast<uint8_t>(c)};
    }
    std::sort(all.begin(), all.begin() + n);
    for (int i = 0; i < n; ++i) {
        g.value[i] = all[i].first;
        g.code[i] = all[i].second;
    }
    g.count = n;
    return g;
}

inline const MiniGrid& mini_grid(MiniFormat f) {
    static const std::array<MiniGrid, 6> grids = [] {
        std::array<MiniGrid, 6> a;
        for (int i = 0; i < 6; ++i) a[i] = make_mini_grid(static_cast<MiniFormat>(i));
        return a;
    }();
    return grids[static_cast<int>(f)];
}

// The code a NaN, or an overflow without saturation, turns into. E4M3 has
// no Inf and overflows to NaN (OCP "FN" behaviour); the 4-bit formats have
// neither and saturate (CANN float4 types: no NaN, infinity() is max).
inline unsigned mini_nan_code(MiniFormat f, bool neg) {
    switch (f) {
        case MiniFormat::E4M3: return neg ? 0xffu : 0x7fu;
        case MiniFormat::E5M2: return neg ? 0xfeu : 0x7eu;
        case MiniFormat::HiF8: return 0x80u;
        case MiniFormat::E8M0: return 0xffu;
        default: return 0u;
    }
}
inline bool mini_has_inf(MiniFormat f) { return f == MiniFormat::E5M2 || f == MiniFormat::HiF8; }
inline unsigned mini_inf_code(MiniFormat f, bool neg) {
    const unsigned pos = f == MiniFormat::E5M2 ? 0x7cu : 0x6fu;
    return neg ? pos | 0x80u : pos;
}

// Encodes x: exact values keep their code; others take the lower or upper
// grid neighbour by `round` (directed modes act on the signed value).
// Finite values beyond the largest finite one overflow as IEEE rounding
// says (to the virtual next grid point); the overflow then saturates to the
// largest finite value when `saturate` is set or the format cannot encode
// Inf/NaN, and otherwise becomes Inf (NaN for E4M3). Inf inputs stay Inf
// where the format has it. E8M0 has no sign and no zero: negative inputs
// give NaN, tiny ones its smallest value.
inline unsigned mini_encode_signed(MiniFormat f, double x, MiniRound round, bool saturate) {
    const bool neg = std::signbit(x);
    if (std::isnan(x)) return mini_nan_code(f, neg);
    if (!mini_has_sign(f) && neg && x != 0.0) return mini_nan_code(f, false);
    const unsigned sign = mini_has_sign(f) && neg ? mini_sign_bit(f) : 0u;
    const MiniGrid& g = mini_grid(f);
    const double maxv = g.value[g.count - 1];
    const bool no_specials = f == MiniFormat::E2M1 || f == MiniFormat::E1M2;
    auto overflow = [&]() -> unsigned {
        if (saturate || no_specials) return sign | g.code[g.count - 1];
        return mini_has_inf(f) ? mini_inf_code(f, neg) : mini_nan_code(f, neg);
    };
    const double a = std::fabs(x);
    if (std::isinf(a)) {
        if (mini_has_inf(f)) return mini_inf_code(f, neg);
        return overflow();
    }
    // Directed rounding of the magnitude: toward zero, or away from it.
    MiniRound r = round;
    if (neg && r == MiniRound::Floor) r = MiniRound::Ceil;
    else if (neg && r == MiniRound::Ceil) r = MiniRound::Floor;
    const double* first = g.value.data();
    const double* last = first + g.count;
    const double* hi_it = std::upper_bound(first, last, a);
    if (hi_it != first && *(hi_it - 1) == a) return sign | g.code[hi_it - 1 - first];
    if (hi_it == first) return g.code[0];  // E8M0 below 2^-127
    const int lo_i = static_cast<int>(hi_it - first) - 1;
    const double lo = g.value[lo_i];
    const bool beyond = hi_it == last;
    // The grid point after the largest finite value, had the format one more
    // code: one step further in the same binade, except where the largest
    // value opens a binade (HiFloat8's 2^15 with its 1-bit mantissa, E8M0).
    const double next_after_max = f == MiniFormat::HiF8   ? 1.5 * maxv
                                  : f == MiniFormat::E8M0 ? 2 * maxv
                                                          : maxv + (maxv - g.value[g.count - 2]);
    const double hi = beyond ? next_after_max : *hi_it;
    const unsigned lo_code = g.code[lo_i], hi_code = beyond ? 0u : g.code[lo_i + 1];
    bool up = false;
    switch (r) {
        case MiniRound::Floor:
        case MiniRound::Trunc: up = false; break;
        case MiniRound::Ceil: up = true; break;
        case MiniRound::Odd: up = (lo_code & 1u) == 0; break;
        case MiniRound::NearestAway: up = a - lo >= hi - a; break;
        case MiniRound::NearestEven:
            up = a - lo > hi - a || (a - lo == hi - a && (lo_code & 1u) != 0);
            break;
    }
    if (!up) return sign | lo_code;
    if (beyond) return overflow();
    return sign | hi_code;
}

inline unsigned mini_encode(MiniFormat f, double x, MiniRound round, bool saturate) {
    const unsigned code = mini_encode_signed(f, x, round, saturate);
    // HiFloat8 has a single zero; its 0x80 is NaN, so a negative zero is +0.
    if (f == MiniFormat::HiF8 && code == 0x80u && !std::isnan(x)) return 0u;
    return code;
}

// A one-byte float element. Conversions from arithmetic types round to
// nearest (ties to even; ties away for HiFloat8, its only hardware mode) and
// do not saturate; arithmetic happens in float.
template <MiniFormat F>
struct minifloat8 {
    uint8_t bits = 0;
    static constexpr MiniFormat format = F;
    static constexpr MiniRound default_round = F == MiniFormat::HiF8 ? MiniRound::NearestAway : MiniRound::NearestEven;
    static constexpr const char* ptosim_dtype_name = F == MiniFormat::E4M3   ? "float8_e4m3_t"
                                                     : F == MiniFormat::E5M2 ? "float8_e5m2_t"
                                                     : F == MiniFormat::HiF8 ? "hifloat8_t"
                                                                             : "float8_e8m0_t";
    constexpr minifloat8() = default;
    template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
    minifloat8(T v) : bits(static_cast<uint8_t>(mini_encode(F, static_cast<double>(v), default_round, false))) {}
    static minifloat8 from_bits(uint8_t b) {
        minifloat8 m;
        m.bits = b;
        return m;
    }
    operator float() const { return static_cast<float>(mini_decode(F, bits)); }
};

// Two 4-bit floats in one byte: element 2i in the low nibble, 2i+1 in the
// high one. The pair has no scalar value, so there is no float conversion.
template <MiniFormat F>
struct minifloat4x2 {
    uint8_t bits = 0;
    static constexpr MiniFormat format = F;
    static constexpr const char* ptosim_dtype_name = F == MiniFormat::E2M1 ? "float4_e2m1x2_t" : "float4_e1m2x2_t";
    static minifloat4x2 from_bits(uint8_t b) {
        minifloat4x2 m;
        m.bits = b;
        return m;
    }
    static minifloat4x2 pack(double lo, double hi, MiniRound r = MiniRound::NearestEven) {
        return from_bits(static_cast<uint8_t>(mini_encode(F, lo, r, true) | (mini_encode(F, hi, r, true) << 4)));
    }
    double lo() const { return mini_decode(F, bits & 0xfu); }
    double hi() const { return mini_decode(F, bits >> 4); }
};

using float8_e4m3 = minifloat8<MiniFormat::E4M3>;
using float8_e5m2 = minifloat8<MiniFormat::E5M2>;
using hifloat8 = minifloat8<MiniFormat::HiF8>;
using float8_e8m0 = minifloat8<MiniFormat::E8M0>;
using float4_e2m1x2 = minifloat4x2<MiniFormat::E2M1>;
using float4_e1m2x2 = minifloat4x2<MiniFormat::E1M2>;

template <class T>
struct is_minifloat8 : std::false_type {};
template <MiniFormat F>
struct is_minifloat8<minifloat8<F>> : std::true_type {};
template <class T>
struct is_minifloat4x2 : std::false_type {};
template <MiniFormat F>
struct is_minifloat4x2<minifloat4x2<F>> : std::true_type {};

}  // namespace ptosim
