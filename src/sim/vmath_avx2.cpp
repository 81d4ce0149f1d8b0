// ptosim::vmath_f32 for hosts with AVX2 and FMA: SLEEF's double-precision
// exp and log (1 ulp), eight floats at a time. This file is built with
// -mavx2 -mfma and only entered after vmath.cpp checked the host.
#include <ptosim/vmath.hpp>

#include <immintrin.h>
#include <sleef.h>

#include <cmath>

namespace ptosim {

void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n) {
    const bool lg = f == VMath::Log;
    // x86's default NaN: what the C library's log returns for x < 0.
    const __m256 default_nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xffc00000u)));
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(in + i);
        __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        lo = lg ? Sleef_logd4_u10avx2(lo) : Sleef_expd4_u10avx2(lo);
        hi = lg ? Sleef_logd4_u10avx2(hi) : Sleef_expd4_u10avx2(hi);
        __m256 r = _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
        if (lg) r = _mm256_blendv_ps(r, default_nan, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
        // A NaN input comes out as itself, quieted (the float -> double -> float round trip).
        const __m256 q = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))),
                                         _mm256_cvtpd_ps(_mm256_cvtps_pd(_mm256_castps256_ps128(x))));
        r = _mm256_blendv_ps(r, q, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        _mm256_storeu_ps(out + i, r);
    }
    for (; i < n; ++i) {
        const double x = in[i];
        out[i] = static_cast<float>(lg ? std::log(x) : std::exp(x));
    }
}

}  // namespace ptosim
