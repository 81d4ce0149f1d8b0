// Math functions over float rows for the element-wise instructions, built
// once in libptosim (SLEEF's vector code where the host has AVX2 and FMA).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {

enum class VMath : uint8_t { Exp, Log, Sqrt };

// out[i] = (float)f((double)in[i]) for i < n, with f correctly rounded in
// double within 1 ulp of double (SLEEF u10, or the C library; Sqrt is the
// IEEE square root, exact to the double's rounding, on every path): the same
// float as the C library's double exp/log rounded to float except when the
// exact value lies within about 2^-52 relative of a float rounding boundary.
// NaN inputs give the input, quieted; log and sqrt of a negative number give
// the default NaN (sign set), as the C library does on x86. in and out may be
// the same array. With to_odd, a finite inexact result is instead the float
// toward zero with its last bit set (round to odd), so that a later
// nearest-even rounding to half or bfloat16 is the single correct rounding of
// the double (what the element-wise instructions' from_double<half> does).
void vmath_f32(VMath f, const float* in, float* out, size_t n, bool to_odd = false);

}  // namespace ptosim
