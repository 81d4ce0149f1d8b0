// ptosim::vmath_f32 for hosts with AVX-512F, sixteen floats at a time: exp
// by vmath_avx2.cpp's double-precision evaluation and rounding test on eight
// lanes (the table read by permutes instead of a gather), log by SLEEF's
// eight-lane double log (Sleef_logd8_u10avx512f), sqrt by vsqrtpd. log
// returns the same double as the four-lane AVX2 function for every float
// input (all 2^32 checked; it differs only in the payload of NaNs, which
// finish8 replaces), and exp decides the same lanes by the same bound, so
// the results are bit-identical to the AVX2 path's and to the C library's
// (tests/test_vmath.cpp). This file is built with -mavx512f -mavx2 -mfma and
// only entered after vmath.cpp checked the host.
#include <ptosim/vmath.hpp>

#include <immintrin.h>
#include <sleef.h>

#include <algorithm>
#include <cstring>

#include "vmath_x86.hpp"

namespace ptosim {

void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd);  // vmath_avx2.cpp
float vmath_to_float(double r, bool to_odd);                                      // vmath.cpp

namespace {
// vsqrtpd is the IEEE square root, as the C library's sqrt (sqrtsd).
inline __m512d apply8(VMath f, __m512d x) {
    return f == VMath::Log ? Sleef_logd8_u10avx512f(x) : _mm512_sqrt_pd(x);
}

// 2^(j/32), j < 32, in four registers of eight.
struct Fractions {
    __m512d q[4];
    Fractions() {
        const double* t = exp2_fractions();
        for (int i = 0; i < 4; ++i) q[i] = _mm512_loadu_pd(t + 8 * i);
    }
};

// vmath_avx2.cpp's exp_near_float on eight lanes: the same reduction,
// polynomial and bound (y within 2^-39.4 of exp(x)), so `near` flags the
// same lanes. Bits 0-3 of k pick one of sixteen table entries from a pair of
// registers, bit 4 the pair.
inline __m512d exp_near_float8(__m512d x, const Fractions& f, __mmask8& near) {
    const __m512d shifter = _mm512_set1_pd(0x1.8p52);
    const __m512d kd = _mm512_fmadd_pd(x, _mm512_set1_pd(32 / 0x1.62e42fefa39efp-1), shifter);
    const __m512d k = _mm512_sub_pd(kd, shifter);
    const __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa39efp-1 / 32), x);
    const __m512d r2 = _mm512_mul_pd(r, r);
    const __m512d mid = _mm512_fmadd_pd(r, _mm512_set1_pd(1.0 / 6), _mm512_set1_pd(0.5));
    const __m512d low_terms = _mm512_fmadd_pd(r2, mid, _mm512_add_pd(r, _mm512_set1_pd(1.0)));
    const __m512d p = _mm512_fmadd_pd(_mm512_mul_pd(r2, r2), _mm512_set1_pd(1.0 / 24), low_terms);
    const __m512i kbits = _mm512_castpd_si512(kd);
    const __m512d t = _mm512_mask_blend_pd(_mm512_test_epi64_mask(kbits, _mm512_set1_epi64(16)),
                                           _mm512_permutex2var_pd(f.q[0], kbits, f.q[1]),
                                           _mm512_permutex2var_pd(f.q[2], kbits, f.q[3]));
    const __m512i scaled = _mm512_add_epi64(_mm512_castpd_si512(t), _mm512_slli_epi64(_mm512_srli_epi64(kbits, 5), 52));
    const __m512d y = _mm512_mul_pd(_mm512_castsi512_pd(scaled), p);
    const __m512i low = _mm512_and_si512(_mm512_add_epi64(_mm512_castpd_si512(y), _mm512_set1_epi64(1 << 16)),
                                         _mm512_set1_epi64((1 << 28) - 1));
    near = _mm512_cmplt_epi64_mask(low, _mm512_set1_epi64(1 << 17));
    return y;
}

// Eight positive doubles to floats, rounded to nearest or to odd (as
// vmath_avx2.cpp's narrow_positive).
template <bool ToOdd>
inline __m256 narrow_positive8(__m512d y) {
    if constexpr (!ToOdd) return _mm512_cvtpd_ps(y);
    const __m512d cut = _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(y), _mm512_set1_epi64(~((1ll << 29) - 1))));
    return _mm256_castsi256_ps(_mm256_or_si256(_mm256_castps_si256(_mm512_cvtpd_ps(cut)), _mm256_set1_epi32(1)));
}

// vmath_avx2.cpp's exp8_quick on sixteen floats: the same quick lanes, the
// same values; returns the lanes the caller fills through the C library.
template <bool ToOdd>
inline unsigned exp16_quick(const float* in, float* out, const Fractions& f) {
    const __m512 x = _mm512_loadu_ps(in);
    const __mmask16 in_range = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.0f), _CMP_GE_OQ) &
                               _mm512_cmp_ps_mask(x, _mm512_set1_ps(88.5f), _CMP_LE_OQ);
    const __mmask16 tiny = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-104.0f), _CMP_LT_OQ);
    const __mmask16 one = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ);
    const __m512 xc = _mm512_max_ps(x, _mm512_set1_ps(-104.0f));
    __mmask8 near_lo, near_hi;
    const __m512d lo = exp_near_float8(_mm512_cvtps_pd(_mm512_castps512_ps256(xc)), f, near_lo);
    const __m512d hi = exp_near_float8(
        _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(xc), 1))), f, near_hi);
    __m512 r = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(narrow_positive8<ToOdd>(lo))),
                                                   _mm256_castps_pd(narrow_positive8<ToOdd>(hi)), 1));
    unsigned quick = (in_range & ~(static_cast<unsigned>(near_lo) | static_cast<unsigned>(near_hi) << 8)) | tiny | one;
    if constexpr (ToOdd) {
        r = _mm512_mask_blend_ps(one, r, _mm512_set1_ps(1.0f));
        const __mmask16 underflow = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-746.0f), _CMP_LT_OQ);
        r = _mm512_maskz_mov_ps(static_cast<__mmask16>(~underflow), r);
        quick &= ~static_cast<unsigned>(static_cast<__mmask16>(
            ~underflow & _mm512_cmp_ps_mask(x, _mm512_set1_ps(-745.0f), _CMP_LT_OQ)));
    }
    _mm512_storeu_ps(out, r);
    return ~quick & 0xffffu;
}

// exp over a row: sixteen at a time where exp16_quick can, then the other
// lanes one by one through the C library.
template <bool ToOdd>
void exp_f32_avx512(const float* in, float* out, size_t n) {
    const Fractions f;
    constexpr size_t chunk = 512;
    uint16_t slow[chunk / 16];
    float kept[chunk];  // the chunk's inputs, when out overwrites them
    size_t base = 0;
    for (; base + 16 <= n; base += chunk) {
        const size_t len = std::min(chunk, n - base) / 16 * 16, blocks = len / 16;
        const float* src = in + base;
        if (in == out) src = static_cast<const float*>(std::memcpy(kept, in + base, len * sizeof(float)));
        unsigned any = 0;
        for (size_t b = 0; b < blocks; ++b)
            any |= slow[b] = static_cast<uint16_t>(exp16_quick<ToOdd>(src + 16 * b, out + base + 16 * b, f));
        if (any)
            for (size_t b = 0; b < blocks; ++b)
                for (unsigned lanes = slow[b]; lanes; lanes &= lanes - 1) {
                    const size_t i = 16 * b + static_cast<size_t>(__builtin_ctz(lanes));
                    out[base + i] = vmath_to_float(std::exp(double{src[i]}), ToOdd);
                }
        if (len < chunk) {
            base += len;
            break;
        }
    }
    _mm256_zeroupper();
    if (base < n) vmath_f32_avx2(VMath::Exp, in + base, out + base, n - base, ToOdd);
}
}  // namespace

void vmath_f32_avx512(VMath f, const float* in, float* out, size_t n, bool to_odd) {
    if (f == VMath::Exp) return to_odd ? exp_f32_avx512<true>(in, out, n) : exp_f32_avx512<false>(in, out, n);
    const bool lg = f == VMath::Log;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 x0 = _mm256_loadu_ps(in + i), x1 = _mm256_loadu_ps(in + i + 8);
        const __m512d w0 = apply8(f, _mm512_cvtps_pd(x0)), w1 = apply8(f, _mm512_cvtps_pd(x1));
        _mm256_storeu_ps(out + i, finish8(x0, _mm512_castpd512_pd256(w0), _mm512_extractf64x4_pd(w0, 1), lg, to_odd));
        _mm256_storeu_ps(out + i + 8, finish8(x1, _mm512_castpd512_pd256(w1), _mm512_extractf64x4_pd(w1, 1), lg, to_odd));
    }
    _mm256_zeroupper();
    vmath_f32_avx2(f, in + i, out + i, n - i, to_odd);
}

}  // namespace ptosim
