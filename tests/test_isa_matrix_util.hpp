// Shared by the matrix tests (test_isa_matrix*.cpp, one binary per target):
// reference decoders of the A5 low-precision formats and the HiFloat8
// rounding reference.
#pragma once
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;

namespace matrix_test {

// Reference decoders, written from the format definitions field by field.
inline double ref_ieee8(unsigned code, int ebits, int mbits, bool fn) {
    const int bias = (1 << (ebits - 1)) - 1;
    const unsigned e = (code >> mbits) & ((1u << ebits) - 1), m = code & ((1u << mbits) - 1);
    const double sign = (code & 0x80u) ? -1.0 : 1.0;
    const unsigned emax = (1u << ebits) - 1;
    if (fn && e == emax && m == (1u << mbits) - 1) return NAN;
    if (!fn && e == emax) return m ? NAN : sign * INFINITY;
    if (e == 0) return sign * m * std::pow(2.0, 1 - bias - mbits);
    return sign * (1.0 + m / std::pow(2.0, mbits)) * std::pow(2.0, static_cast<int>(e) - bias);
}

// HiFloat8 by its dot-field table: prefix, exponent width, mantissa width.
inline double ref_hif8(unsigned code) {
    if (code == 0x00) return 0.0;
    if (code == 0x80) return NAN;
    const double sign = (code & 0x80u) ? -1.0 : 1.0;
    if ((code & 0x7f) == 0x6f) return sign * INFINITY;
    const unsigned body = code & 0x7f;  // 7 bits after the sign
    struct Dot {
        unsigned prefix, len;
        int d, m;
    };
    const Dot dots[] = {{0b11, 2, 4, 1}, {0b10, 2, 3, 2}, {0b01, 2, 2, 3}, {0b001, 3, 1, 3}, {0b0001, 4, 0, 3}};
    for (const Dot& dot : dots) {
        if ((body >> (7 - dot.len)) != dot.prefix) continue;
        const unsigned rest = body & ((1u << (7 - dot.len)) - 1);
        const unsigned mant = rest & ((1u << dot.m) - 1);
        int e = 0;
        if (dot.d > 0) {
            const unsigned ef = rest >> dot.m;  // d bits: exponent sign, then d-1 magnitude bits below an implicit 1
            const bool eneg = ef >> (dot.d - 1);
            const int mag = static_cast<int>((1u << (dot.d - 1)) | (ef & ((1u << (dot.d - 1)) - 1)));
            e = eneg ? -mag : mag;
        }
        return sign * std::ldexp(1.0 + mant / std::pow(2.0, dot.m), e);
    }
    return sign * std::pow(2.0, static_cast<int>(body & 7) - 23);  // dot 0000: denormals
}

inline double ref_fp4(unsigned code, int ebits) {
    const int mbits = 3 - ebits, bias = 1;
    const unsigned e = (code >> mbits) & ((1u << ebits) - 1), m = code & ((1u << mbits) - 1);
    const double sign = (code & 8u) ? -1.0 : 1.0;
    if (e == 0) return sign * m * std::pow(2.0, 1 - bias - mbits);
    return sign * (1.0 + m / std::pow(2.0, mbits)) * std::pow(2.0, static_cast<int>(e) - bias);
}

template <class T>
inline double to_double_fp8(T v) {
    if constexpr (std::is_same_v<T, float8_e4m3_t>) return ref_ieee8(v.bits, 4, 3, true);
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return ref_ieee8(v.bits, 5, 2, false);
    else return ref_hif8(v.bits);
}

template <class T>
uint8_t bits8(T v) {
    return v.bits;
}

inline bool same_value(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

// HiFloat8 rounding: ties away from zero on the grid of |x|'s binade.
inline double ref_round_hif8(double x) {
    const double a = std::fabs(x);
    if (a < std::ldexp(1.0, -23)) return 0.0;  // the only zero is +0
    if (a < std::ldexp(1.0, -22)) return std::copysign(std::ldexp(1.0, -22), x);
    const int e = std::ilogb(a);
    if (e < -15) {  // denormals are the powers of two 2^-22 .. 2^-16
        const double lo = std::ldexp(1.0, e);
        return std::copysign(a >= 1.5 * lo ? 2 * lo : lo, x);
    }
    const int ae = std::abs(e);
    const int mbits = ae <= 3 ? 3 : ae <= 7 ? 2 : 1;
    const double q = std::ldexp(1.0, e - mbits);
    return std::copysign(std::floor(a / q + 0.5) * q, x);
}

}  // namespace matrix_test

using namespace matrix_test;
