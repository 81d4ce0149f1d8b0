// 16-bit floating-point element types of the Ascend vector and cube units.
// half follows IEEE 754 binary16; bfloat16_t keeps float's exponent with a
// 7-bit fraction. Every conversion from a wider type rounds to nearest, ties
// to even (docs/semantics.md, "Element types").
#pragma once
#include <cstdint>
#include <type_traits>

namespace ptosim {

// constexpr throughout, so half/bfloat16_t constants fold at compile time
// (kernels write `constexpr half kScale = 2;`). The builtin rather than
// std::bit_cast: host programs include this header as C++17.
constexpr uint32_t float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float bits_float(uint32_t u) { return __builtin_bit_cast(float, u); }

// Both binary16 conversions are straight-line bit arithmetic with mask
// selects instead of branches (a ?: on a float result stays a branch under
// -ftrapping-math), so the element loops (PTOSIM_VECTORIZE) vectorise
// through them; a lookup table or a branch per element would keep every
// fp16 loop scalar. The float additions in the subnormal paths are exact or
// round to nearest even exactly where binary16 must, under the default
// rounding mode (every case is pinned by the exhaustive tests in
// tests/test_float16.cpp).
constexpr uint16_t float_to_half_bits(float f) {
    const uint32_t x = float_bits(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t a = x & 0x7fffffffu;
    // Normal result: rebias the exponent 127 -> 15, round the 13 dropped bits
    // to nearest even; a carry into exponent 31 gives Inf, as it must.
    const uint32_t normal = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
    // Subnormal or zero result (|f| < 2^-14): adding 0.5 puts the binary16
    // subnormal step 2^-24 at float's last place, so the FPU rounds for us.
    const uint32_t sub = float_bits(bits_float(a) + 0.5f) - 0x3f000000u;
    // Inf stays Inf, NaN keeps its top payload bits and is made quiet;
    // anything from 2^16 up overflows to Inf.
    const uint32_t is_nan = 0u - static_cast<uint32_t>(a > 0x7f800000u);
    const uint32_t big = 0x7c00u | (is_nan & (0x200u | ((a >> 13) & 0x3ffu)));
    const uint32_t is_big = 0u - static_cast<uint32_t>(a >= 0x47800000u);
    const uint32_t is_sub = 0u - static_cast<uint32_t>(a < 0x38800000u);
    const uint32_t r = (is_big & big) | (~is_big & ((is_sub & sub) | (~is_sub & normal)));
    return static_cast<uint16_t>(sign | r);
}

constexpr float half_bits_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t shifted = static_cast<uint32_t>(h & 0x7fffu) << 13;
    const uint32_t exp = shifted & 0x0f800000u;
    const uint32_t normal = shifted + 0x38000000u;  // rebias 15 -> 127
    const uint32_t infnan = shifted + 0x70000000u;  // exponent 31 -> 255, payload kept
    // Subnormal or zero: mant * 2^-24 is exact in float; build 2^-14 * (1 + mant/1024)
    // and subtract 2^-14.
    const float sub = bits_float(shifted + 0x38800000u) - 6.103515625e-05f;
    const uint32_t is_special = 0u - static_cast<uint32_t>(exp == 0x0f800000u);
    const uint32_t is_sub = 0u - static_cast<uint32_t>(exp == 0);
    const uint32_t r = (is_special & infnan) | (~is_special & ((is_sub & float_bits(sub)) | (~is_sub & normal)));
    return bits_float(sign | r);
}

constexpr uint16_t float_to_bf16_bits(float f) {
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

constexpr float bf16_bits_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

// The two types convert implicitly to and from arithmetic types, so kernel
// scalar code reads like it does under bisheng; arithmetic happens in float
// and rounds back on assignment.
template <class Traits>
struct float16_base {
    // Trivially constructible like bisheng's built-in half: pto-isa keeps it
    // in unions. `half h{}` is zero; `half h;` holds no value yet.
    uint16_t bits;
    constexpr float16_base() = default;
#if defined(__clang__) && defined(PTOSIM_CCE)
    // The executed-pto-isa build's half is clang's __fp16 (below), which
    // std::is_arithmetic does not know; bfloat16_t converts from it as from
    // any other number.
    template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, __fp16>>>
#else
    template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
#endif
    constexpr float16_base(T v) : bits(Traits::from_float(static_cast<float>(v))) {}
#if defined(__clang__) && defined(PTOSIM_CCE)
    // A value read through a UB or GM pointer of the executed-pto-isa build
    // (x86 address spaces 256 and 1) copies its bits, as the scalar unit's
    // load does; the implicit copy takes only generic references. Templates,
    // so that they are no copy constructors and the type stays trivially
    // copyable.
    template <class U, class = std::enable_if_t<std::is_same_v<U, float16_base>>>
    constexpr float16_base(const __attribute__((address_space(256))) U& o) : bits(o.bits) {}
    template <class U, class = std::enable_if_t<std::is_same_v<U, float16_base>>>
    constexpr float16_base(const __attribute__((address_space(1))) U& o) : bits(o.bits) {}
#endif
    static constexpr float16_base from_bits(uint16_t b) { float16_base h; h.bits = b; return h; }
    constexpr operator float() const { return Traits::to_float(bits); }
};

struct half_traits {
    static constexpr uint16_t from_float(float f) { return float_to_half_bits(f); }
    static constexpr float to_float(uint16_t b) { return half_bits_to_float(b); }
};
struct bf16_traits {
    static constexpr uint16_t from_float(float f) { return float_to_bf16_bits(f); }
    static constexpr float to_float(uint16_t b) { return bf16_bits_to_float(b); }
};

}  // namespace ptosim

#if defined(__clang__) && defined(PTOSIM_CCE)
// The executed-pto-isa build: half is clang's binary16 scalar type, as
// bisheng's half is a built-in scalar. pto-isa's scalar code stores halves
// through UB and GM pointers (`dst[i] = src[j]`), and clang 14 gives no class
// an assignment callable on an object in another address space; a scalar
// type needs none. ptocc passes -fnative-half-arguments-and-returns so that
// it travels by value; arithmetic promotes to float and rounds back on
// assignment, as the class does (docs/intrinsics/README.md, "half").
using half = __fp16;
#else
using half = ptosim::float16_base<ptosim::half_traits>;
static_assert(half(1).bits == 0x3c00, "16-bit constants fold at compile time");
#endif
using bfloat16_t = ptosim::float16_base<ptosim::bf16_traits>;
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
static_assert(bfloat16_t(-2).bits == 0xc000, "16-bit constants fold at compile time");
