// ptosim::vmath_f32 for hosts with AVX2 and FMA: SLEEF's double-precision
// exp and log (1 ulp), eight floats at a time. This file is built with
// -mavx2 -mfma and only entered after vmath.cpp checked the host.
#include <ptosim/vmath.hpp>

#include <immintrin.h>
#include <sleef.h>

#include <cmath>

#include "vmath_x86.hpp"

namespace ptosim {

float vmath_to_float(double r, bool to_odd);  // vmath.cpp

namespace {
// vsqrtpd is the IEEE square root, as the C library's sqrt (sqrtsd).
inline __m256d apply4(VMath f, __m256d x) {
    switch (f) {
        case VMath::Exp: return Sleef_expd4_u10avx2(x);
        case VMath::Log: return Sleef_logd4_u10avx2(x);
        case VMath::Sqrt: return _mm256_sqrt_pd(x);
    }
    return x;
}
}  // namespace

void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd) {
    const bool lg = f == VMath::Log;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(in + i);
        __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        lo = apply4(f, lo);
        hi = apply4(f, hi);
        _mm256_storeu_ps(out + i, finish8(x, lo, hi, lg, to_odd));
    }
    for (; i < n; ++i) {
        const double x = in[i];
        out[i] = vmath_to_float(f == VMath::Exp ? std::exp(x) : f == VMath::Log ? std::log(x) : std::sqrt(x), to_odd);
    }
}

}  // namespace ptosim
