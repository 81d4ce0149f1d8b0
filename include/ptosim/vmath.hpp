// Math functions over float rows for the element-wise instructions, built
// once in libptosim (vector code where the host has AVX2 and FMA).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {

enum class VMath : uint8_t { Exp, Log, Sqrt };

// out[i] = (float)f((double)in[i]) for i < n: the C library's double exp or
// log rounded to float, which is what pto-isa's CPU simulation computes
// (include/pto/cpu/TExp.hpp); Sqrt is the IEEE square root, exact to the
// double's rounding, on every path. The vector code gets the same floats:
// with AVX-512, SLEEF's double exp/log (u10); with AVX2, exp to 2^-39 with a
// test that the result is far enough from a float rounding boundary (else the
// C library decides the lane) and SLEEF's log. SLEEF's results equal the C
// library's rounded to float but when the exact value lies within about
// 2^-52 relative of a float rounding boundary.
// NaN inputs give the input, quieted; log and sqrt of a negative number give
// the default NaN (sign set), as the C library does on x86. in and out may be
// the same array. With to_odd, a finite inexact result is instead the float
// toward zero with its last bit set (round to odd), so that a later
// nearest-even rounding to half or bfloat16 is the single correct rounding of
// the double (what the element-wise instructions' from_double<half> does).
void vmath_f32(VMath f, const float* in, float* out, size_t n, bool to_odd = false);

}  // namespace ptosim
