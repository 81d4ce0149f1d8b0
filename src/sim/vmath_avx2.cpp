// ptosim::vmath_f32 for hosts with AVX2 and FMA, eight floats at a time: exp
// by a short double-precision evaluation with a rounding test (lanes it
// cannot decide go to the C library's exp), log by SLEEF's double-precision
// log (1 ulp), sqrt by vsqrtpd. This file is built with -mavx2 -mfma and only
// entered after vmath.cpp checked the host (and found no AVX-512).
#include <ptosim/vmath.hpp>

#include <immintrin.h>
#include <sleef.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "vmath_x86.hpp"

namespace ptosim {

float vmath_to_float(double r, bool to_odd);  // vmath.cpp

namespace {
// vsqrtpd is the IEEE square root, as the C library's sqrt (sqrtsd).
inline __m256d apply4(VMath f, __m256d x) {
    return f == VMath::Log ? Sleef_logd4_u10avx2(x) : _mm256_sqrt_pd(x);
}

// exp of four floats in the normal float range, in double, accurate enough
// to round as exp(x) does unless exp(x) is near a float rounding boundary.
// x = (32m + j) ln2/32 + r with |r| <= ln2/64, exp(x) = 2^m 2^(j/32) exp(r),
// exp(r) by its Taylor polynomial of degree 4: the truncation is below
// 2^-39.5 relative, the table, reduction and FMA steps add below 2^-45, so y
// is within 2^-39.4 of exp(x): 2^13.6 units of y's last place at most. A
// float rounding boundary (a float, for round to odd, or a midpoint between
// two, for nearest) lies at a multiple of 2^28 in y's low 29 fraction bits;
// when y is 2^16 units or more from every boundary, exp(x) is on y's side of
// it. `near` flags the lanes that are not: about one in 2^11.
inline __m256d exp_near_float(__m256d x, const double* fractions, int& near) {
    const __m256d shifter = _mm256_set1_pd(0x1.8p52);  // adding it rounds to an integer in the low bits
    const __m256d kd = _mm256_fmadd_pd(x, _mm256_set1_pd(32 / 0x1.62e42fefa39efp-1), shifter);
    const __m256d k = _mm256_sub_pd(kd, shifter);
    // The rounding of ln2/32 costs |k| 2^-59 < 2^-46 in r.
    const __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.62e42fefa39efp-1 / 32), x);
    // 1 + r + r^2 (1/2 + r/6) + r^4/24, grouped for a short dependency chain.
    const __m256d r2 = _mm256_mul_pd(r, r);
    const __m256d mid = _mm256_fmadd_pd(r, _mm256_set1_pd(1.0 / 6), _mm256_set1_pd(0.5));
    const __m256d low_terms = _mm256_fmadd_pd(r2, mid, _mm256_add_pd(r, _mm256_set1_pd(1.0)));
    const __m256d p = _mm256_fmadd_pd(_mm256_mul_pd(r2, r2), _mm256_set1_pd(1.0 / 24), low_terms);
    // 2^(j/32) with m added to its exponent (k's integer is in kd's low bits).
    const __m256i kbits = _mm256_castpd_si256(kd);
    const __m256d t = _mm256_i64gather_pd(fractions, _mm256_and_si256(kbits, _mm256_set1_epi64x(31)), 8);
    const __m256i scaled = _mm256_add_epi64(_mm256_castpd_si256(t), _mm256_slli_epi64(_mm256_srli_epi64(kbits, 5), 52));
    const __m256d y = _mm256_mul_pd(_mm256_castsi256_pd(scaled), p);
    const __m256i low = _mm256_and_si256(_mm256_add_epi64(_mm256_castpd_si256(y), _mm256_set1_epi64x(1 << 16)),
                                         _mm256_set1_epi64x((1 << 28) - 1));
    near = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(1 << 17), low)));
    return y;
}

// Four positive doubles to floats rounded to nearest, or to odd (the fraction
// cut to float's and its last bit set: exp of a float is never exactly a
// float but at x = 0, which exp8_quick sets apart).
template <bool ToOdd>
inline __m128 narrow_positive(__m256d y) {
    if constexpr (!ToOdd) return _mm256_cvtpd_ps(y);
    const __m256d cut = _mm256_and_pd(y, _mm256_castsi256_pd(_mm256_set1_epi64x(~((1ll << 29) - 1))));
    return _mm_castsi128_ps(_mm_or_si128(_mm_castps_si128(_mm256_cvtpd_ps(cut)), _mm_set1_epi32(1)));
}

// exp of eight floats, stored to out, for the lanes where that is quick; the
// result has a bit set for each of the others, whose out the caller fills.
// Quick are the normal range unless exp_near_float flags the lane, x = 0
// (exactly 1), and x < -104, where exp(x) < 2^-150: 0 rounded to nearest;
// rounded to odd, the smallest subnormal, or 0 where double's exp underflows
// as well (x < -745.14; the caller takes -746 <= x < -745).
template <bool ToOdd>
inline int exp8_quick(const float* in, float* out, const double* fractions) {
    const __m256 x = _mm256_loadu_ps(in);
    const int in_range = _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(-87.0f), _CMP_GE_OQ),
                                                          _mm256_cmp_ps(x, _mm256_set1_ps(88.5f), _CMP_LE_OQ)));
    const __m256 tiny = _mm256_cmp_ps(x, _mm256_set1_ps(-104.0f), _CMP_LT_OQ);
    const __m256 one = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ);
    // Lanes below -104 compute exp(-104), which narrows to 0 (nearest) or
    // the smallest subnormal (odd).
    const __m256 xc = _mm256_max_ps(x, _mm256_set1_ps(-104.0f));
    int near_lo, near_hi;
    const __m256d lo = exp_near_float(_mm256_cvtps_pd(_mm256_castps256_ps128(xc)), fractions, near_lo);
    const __m256d hi = exp_near_float(_mm256_cvtps_pd(_mm256_extractf128_ps(xc, 1)), fractions, near_hi);
    __m256 r = _mm256_set_m128(narrow_positive<ToOdd>(hi), narrow_positive<ToOdd>(lo));
    int quick = (in_range & ~(near_lo | near_hi << 4)) | _mm256_movemask_ps(_mm256_or_ps(tiny, one));
    if constexpr (ToOdd) {
        r = _mm256_blendv_ps(r, _mm256_set1_ps(1.0f), one);
        const __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-746.0f), _CMP_LT_OQ);
        r = _mm256_andnot_ps(underflow, r);
        quick &= ~_mm256_movemask_ps(_mm256_andnot_ps(underflow, _mm256_cmp_ps(x, _mm256_set1_ps(-745.0f), _CMP_LT_OQ)));
    }
    _mm256_storeu_ps(out, r);
    return ~quick & 0xff;
}

// exp over a row: eight at a time where exp8_quick can, then the other lanes
// (a few in 2^11, and the subnormal, overflow and NaN cases) one by one
// through the C library.
template <bool ToOdd>
void exp_f32_avx2(const float* in, float* out, size_t n) {
    const double* fractions = exp2_fractions();
    constexpr size_t chunk = 512;
    uint8_t slow[chunk / 8];
    float kept[chunk];  // the chunk's inputs, when out overwrites them
    for (size_t base = 0; base < n; base += chunk) {
        const size_t len = std::min(chunk, n - base), blocks = len / 8;
        const float* src = in + base;
        if (in == out) src = static_cast<const float*>(std::memcpy(kept, in + base, len * sizeof(float)));
        int any = 0;
        for (size_t b = 0; b < blocks; ++b)
            any |= slow[b] = static_cast<uint8_t>(exp8_quick<ToOdd>(src + 8 * b, out + base + 8 * b, fractions));
        for (size_t i = 8 * blocks; i < len; ++i) out[base + i] = vmath_to_float(std::exp(double{src[i]}), ToOdd);
        if (!any) continue;
        for (size_t b = 0; b < blocks; ++b)
            for (int lanes = slow[b]; lanes; lanes &= lanes - 1) {
                const size_t i = 8 * b + static_cast<size_t>(__builtin_ctz(lanes));
                out[base + i] = vmath_to_float(std::exp(double{src[i]}), ToOdd);
            }
    }
}
}  // namespace

void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd) {
    if (f == VMath::Exp) return to_odd ? exp_f32_avx2<true>(in, out, n) : exp_f32_avx2<false>(in, out, n);
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
        out[i] = vmath_to_float(lg ? std::log(x) : std::sqrt(x), to_odd);
    }
}

}  // namespace ptosim
