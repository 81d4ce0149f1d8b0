// The parts of ptosim::vmath_f32's x86 paths both instruction sets share:
// exp's table, and after SLEEF's double results the rounding to float
// (nearest or odd) and the NaN rules, eight floats at a time. Included by vmath_avx2.cpp and vmath_avx512.cpp, each built with its
// own instruction set: everything here has internal linkage, so neither
// file's copy can stand in for the other's.
#pragma once
#include <immintrin.h>

#include <array>
#include <cmath>

namespace ptosim {
namespace {

// 2^(j/32) for j < 32, within half an ulp of double: the table of the exp
// evaluations (vmath_avx2.cpp's exp_near_float, vmath_avx512.cpp's).
inline const double* exp2_fractions() {
    alignas(64) static const auto table = [] {
        std::array<double, 32> t{};
        for (size_t j = 0; j < t.size(); ++j) t[j] = std::exp2(static_cast<double>(j) / 32);
        return t;
    }();
    return table.data();
}

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

// Eight results from the inputs x and f's double results for x's low (lo)
// and high (hi) four lanes.
inline __m256 finish8(__m256 x, __m256d lo, __m256d hi, bool lg, bool to_odd) {
    // x86's default NaN: what the C library's log returns for x < 0.
    const __m256 default_nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xffc00000u)));
    __m256 r = _mm256_set_m128(narrow(hi, to_odd), narrow(lo, to_odd));
    if (lg) r = _mm256_blendv_ps(r, default_nan, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ));
    // A NaN input comes out as itself, quieted: the quiet bit set, what the
    // float -> double -> float round trip gives. (Written as that round trip,
    // GCC drops it when AVX-512 is enabled: it assumes no signalling NaNs.)
    const __m256 q = _mm256_or_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000)));
    return _mm256_blendv_ps(r, q, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

}  // namespace
}  // namespace ptosim
