// 16-bit floating-point element types of the Ascend vector and cube units.
// half follows IEEE 754 binary16; bfloat16_t keeps float's exponent with a
// 7-bit fraction. Every conversion from a wider type rounds to nearest, ties
// to even (docs/semantics.md, "Element types").
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ptosim {

inline uint32_t float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bits_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

inline uint16_t float_to_half_bits(float f) {
    uint32_t x = float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u)  // Inf or NaN; NaN keeps a quiet payload bit
        return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0u));
    if (absx >= 0x477ff000u)  // rounds to >= 65520: overflow to Inf
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (absx < 0x38800000u) {  // result is subnormal or zero in binary16
        if (absx < 0x33000000u) return static_cast<uint16_t>(sign);  // < 2^-25 rounds to 0
        uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
        int shift = 126 - static_cast<int>(absx >> 23);  // 14 .. 24
        uint32_t r = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return static_cast<uint16_t>(sign | r);
    }
    uint32_t r = absx - 0x38000000u;  // rebias exponent 127 -> 15
    uint32_t rem = r & 0x1fffu;
    r >>= 13;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
}

inline float half_bits_to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1fu) return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        if (mant == 0) return bits_float(sign);
        // subnormal: value = mant * 2^-24, exact in float
        float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

// Every binary16 value as float, filled once at start-up: a load instead of
// the branches above on the element loops' hot path. Same values bit for bit.
struct HalfToFloatTable {
    float v[65536];
    HalfToFloatTable() {
        for (uint32_t h = 0; h < 65536; ++h) v[h] = half_bits_to_float(static_cast<uint16_t>(h));
    }
};
inline const HalfToFloatTable half_to_float_table{};

inline uint16_t float_to_bf16_bits(float f) {
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

inline float bf16_bits_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

// The two types convert implicitly to and from arithmetic types, so kernel
// scalar code reads like it does under bisheng; arithmetic happens in float
// and rounds back on assignment.
template <class Traits>
struct float16_base {
    uint16_t bits = 0;
    constexpr float16_base() = default;
    template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
    float16_base(T v) : bits(Traits::from_float(static_cast<float>(v))) {}
    static float16_base from_bits(uint16_t b) { float16_base h; h.bits = b; return h; }
    operator float() const { return Traits::to_float(bits); }
};

struct half_traits {
    static uint16_t from_float(float f) { return float_to_half_bits(f); }
    static float to_float(uint16_t b) { return half_to_float_table.v[b]; }
};
struct bf16_traits {
    static uint16_t from_float(float f) { return float_to_bf16_bits(f); }
    static float to_float(uint16_t b) { return bf16_bits_to_float(b); }
};

}  // namespace ptosim

using half = ptosim::float16_base<ptosim::half_traits>;
using bfloat16_t = ptosim::float16_base<ptosim::bf16_traits>;
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
