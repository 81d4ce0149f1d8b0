// ptosim::vmath_f32 for hosts with AVX2 and FMA: SLEEF's double-precision
// exp and log (1 ulp), eight floats at a time. This file is built with
// -mavx2 -mfma and only entered after vmath.cpp checked the host.
#include <ptosim/vmath.hpp>

#include <immintrin.h>
#include <sleef.h>

#include <cmath>

namespace ptosim {

float vmath_to_float(double r, bool to_odd);  // vmath.cpp

namespace {
// Four doubles to floats, rounded to nearest or (to_odd) to odd.
inline __m128 narrow(__m256d r, bool to_odd) {
    const __m128 f = _mm256_cvtpd_ps(r);
    if (!to_odd) return f;
    const __m256d back = _mm256_cvtps_pd(f);
    const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffll));
    const __m128 finite = _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), f), _mm_set1_ps(INFINITY));
    const __m128 inexact = _mm_and_ps(finite, _mm256_cvtpd_ps(_mm256_cmp_pd(back, r, _CMP_NEQ_UQ)));
    const __m128 larger = _mm_and_ps(inexact, _mm256_cvtpd_ps(_mm256_cmp_pd(_mm256_and_pd(back, abs_mask),
                                                                             _mm256_and_pd(r, abs_mask), _CMP_GT_OQ)));
    // The comparison masks are all-ones doubles; narrowed they are NaNs whose
    // sign bit is set: test that bit.
    const __m128i one = _mm_set1_epi32(1);
    const __m128i dec = _mm_and_si128(_mm_srli_epi32(_mm_castps_si128(larger), 31), one);
    const __m128i odd = _mm_and_si128(_mm_srli_epi32(_mm_castps_si128(inexact), 31), one);
    return _mm_castsi128_ps(_mm_or_si128(_mm_sub_epi32(_mm_castps_si128(f), dec), odd));
}
}  // namespace

void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd) {
    const bool lg = f == VMath::Log;
    // x86's default NaN: what the C library's log returns for x < 0.
    const __m256 default_nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xffc00000u)));
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(in + i);
        __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        lo = lg ? Sleef_logd4_u10avx2(lo) : Sleef_expd4_u10avx2(lo);
        hi = lg ? Sleef_logd4_u10avx2(hi) : Sleef_expd4_u10avx2(hi);
        __m256 r = _mm256_set_m128(narrow(hi, to_odd), narrow(lo, to_odd));
        if (lg) r = _mm256_blendv_ps(r, default_nan, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
        // A NaN input comes out as itself, quieted (the float -> double -> float round trip).
        const __m256 q = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))),
                                         _mm256_cvtpd_ps(_mm256_cvtps_pd(_mm256_castps256_ps128(x))));
        r = _mm256_blendv_ps(r, q, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        _mm256_storeu_ps(out + i, r);
    }
    for (; i < n; ++i) {
        const double x = in[i];
        out[i] = vmath_to_float(lg ? std::log(x) : std::exp(x), to_odd);
    }
}

}  // namespace ptosim
