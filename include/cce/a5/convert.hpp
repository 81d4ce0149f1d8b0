// A5's register conversions (docs/intrinsics/a5-vreg.md, "Conversions"):
// vcvt(dst, src, mask, options...) between element types, the options a
// rounding (ROUND_* or __cce_simd::Round*Type()), a saturation (RS_*), a part
// (PART_*) and a mode (MODE_*) in any order, as pto-isa and asc-devkit pass
// them; vtrc(dst, src, rounding, mask[, mode]) rounds float elements to
// integral values. Each call is one operation over the register.
#pragma once
#include <cce/a5/enums.hpp>
#include <cce/a5/registers.hpp>
#include <ptosim/numerics.hpp>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace ptosim_cce {
// The conversion's element type of T.
template <class T>
constexpr ptosim::cce::a5::Ct ct() {
    using C = ptosim::cce::a5::Ct;
    if constexpr (std::is_same_v<T, float8_e4m3_t>) return C::E4M3;
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return C::E5M2;
    else if constexpr (std::is_same_v<T, hifloat8_t>) return C::HiF8;
    else if constexpr (std::is_same_v<T, float8_e8m0_t>) return C::E8M0;
    else if constexpr (std::is_same_v<T, float4_e2m1x2_t>) return C::E2M1;
    else if constexpr (std::is_same_v<T, float4_e1m2x2_t>) return C::E1M2;
    else return static_cast<C>(static_cast<int>(ptosim::cce::dt_of<T>()));
}

struct cvt_opts {
    ptosim::cce::Round round = ptosim::cce::Round::None;
    bool sat = false;
    int part = 0;
    bool merging = false;
};
inline ptosim::cce::Round round_of(cce_round_mode r) {
    using R = ptosim::cce::Round;
    switch (r) {
    case CCE_ROUND_R: return R::Rint;
    case CCE_ROUND_A: return R::Away;
    case CCE_ROUND_F: return R::Floor;
    case CCE_ROUND_C: return R::Ceil;
    case CCE_ROUND_Z: return R::Trunc;
    case CCE_ROUND_O: return R::Odd;
    default: return R::Away;  // ROUND_H, HiFloat8's rounding: ties away
    }
}
inline void cvt_opt(cvt_opts& o, cce_round_mode r) { o.round = round_of(r); }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundRType) { o.round = ptosim::cce::Round::Rint; }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundAType) { o.round = ptosim::cce::Round::Away; }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundFType) { o.round = ptosim::cce::Round::Floor; }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundCType) { o.round = ptosim::cce::Round::Ceil; }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundZType) { o.round = ptosim::cce::Round::Trunc; }
inline void cvt_opt(cvt_opts& o, __cce_simd::RoundOType) { o.round = ptosim::cce::Round::Odd; }
inline void cvt_opt(cvt_opts& o, SatMode s) { o.sat = s == RS_ENABLE; }
inline void cvt_opt(cvt_opts& o, PartMode p) { o.part = p == PART_ODD ? 1 : p >= PART_P0 ? p - PART_P0 : 0; }
inline void cvt_opt(cvt_opts& o, Mode m) { o.merging = m == MODE_MERGING; }
template <class O>
concept cvt_option = requires(cvt_opts& o, O v) { cvt_opt(o, v); };

#if defined(__x86_64__)
// A whole register's float <-> half conversion in AVX2 and F16C registers,
// where the host has both: vcvtps2ph rounding to nearest even is the row
// conversion's own instruction (bit-identical to its element loop for
// every float); vcvtph2ps quiets a signalling NaN where the row conversion
// does not, so a register holding a half infinity or NaN is left to the
// row conversion.
// (CPUID leaf 1: ECX bit 29 F16C, 28 AVX, 27 OSXSAVE, with XCR0 saying the
// OS keeps the YMM state; leaf 7: EBX bit 5 AVX2.)
inline const bool light_cvt_host = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    if ((c & (1u << 29)) == 0 || (c & (1u << 28)) == 0 || (c & (1u << 27)) == 0) return false;
    unsigned xcr0_lo, xcr0_hi;
    __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    if ((xcr0_lo & 6u) != 6u) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 5)) != 0;
}();
// Registers are read and written sixteen bytes at a time, as the kernel's
// own code (an SSE build) reads and writes them: a 32-byte load of two
// 16-byte stores still in the store buffer waits for them to reach the
// cache.
// The 64 floats of `from` to halves in the low (part 0) or high (part 1)
// half of each 32-bit slot of `to`, the other half zero. Each eight are
// read before they are written, so `to` may be `from`.
__attribute__((target("avx2,f16c"))) inline void light_narrow_words(const uint8_t* from, uint8_t* to, int part) {
    const __m128i shift = _mm_cvtsi32_si128(16 * part);
    for (int t = 0; t < 64; t += 8) {
        const __m256 f = _mm256_set_m128(_mm_loadu_ps(reinterpret_cast<const float*>(from + 4 * t + 16)),
                                         _mm_loadu_ps(reinterpret_cast<const float*>(from + 4 * t)));
        const __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 4 * t), _mm_sll_epi32(_mm_cvtepu16_epi32(h), shift));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 4 * t + 16),
                         _mm_sll_epi32(_mm_cvtepu16_epi32(_mm_unpackhi_epi64(h, h)), shift));
    }
    _mm256_zeroupper();
}
// The 64 floats of `from` to 64 halves side by side at `to` (a register's
// compact halves, registers.hpp). Each eight are read before their halves
// are written, and the halves of the floats [8t, 8t + 8) land on bytes the
// floats before them held, so `to` may be `from`.
__attribute__((target("avx2,f16c"))) inline void light_narrow_halves(const uint8_t* from, uint8_t* to) {
    for (int t = 0; t < 64; t += 8) {
        const __m256 f = _mm256_set_m128(_mm_loadu_ps(reinterpret_cast<const float*>(from + 4 * t + 16)),
                                         _mm_loadu_ps(reinterpret_cast<const float*>(from + 4 * t)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 2 * t), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
    }
    _mm256_zeroupper();
}
// Whether none of the 64 halves side by side at `from` is an infinity or NaN.
inline bool light_halves_finite(const uint8_t* from) {
    const __m128i exp_mask = _mm_set1_epi16(0x7c00);
    __m128i special = _mm_setzero_si128();
    for (int t = 0; t < 8; ++t) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16 * t));
        special = _mm_or_si128(special, _mm_cmpeq_epi16(_mm_and_si128(h, exp_mask), exp_mask));
    }
    return _mm_movemask_epi8(special) == 0;
}
// The halves in the low (part 0) or high (part 1) half of the 64 slots of
// `from` to floats in `to`, all read before any is written; false, with
// nothing written, when one is an infinity or NaN.
__attribute__((target("avx2,f16c"))) inline bool light_widen_words(const uint8_t* from, uint8_t* to, int part) {
    const __m128i shift = _mm_cvtsi32_si128(16 * part);
    const __m128i low = _mm_set1_epi32(0xffff);
    const __m128i exp_mask = _mm_set1_epi16(0x7c00);
    __m128i h[8], special = _mm_setzero_si128();
    for (int t = 0; t < 8; ++t) {
        const __m128i w0 = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 32 * t)), shift), low);
        const __m128i w1 =
            _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 32 * t + 16)), shift), low);
        h[t] = _mm_packus_epi32(w0, w1);
        special = _mm_or_si128(special, _mm_cmpeq_epi16(_mm_and_si128(h[t], exp_mask), exp_mask));
    }
    if (_mm_movemask_epi8(special) != 0) {
        _mm256_zeroupper();
        return false;
    }
    for (int t = 0; t < 8; ++t) _mm256_storeu_ps(reinterpret_cast<float*>(to + 32 * t), _mm256_cvtph_ps(h[t]));
    _mm256_zeroupper();
    return true;
}
#endif

// The light path of vcvt between float and half (ptosim/cce_a5.hpp), as the
// full path's own fast path computes it: every source element active, no
// saturation, float -> half rounding to nearest even; through the same row
// conversions (F16C where the host has it, above), the halves in the low
// (PART_EVEN) or high (PART_ODD) half of each 32-bit slot, the other half
// zero.
template <class D, class S>
[[gnu::always_inline]] inline bool light_vcvt(D& dst, S& src, const vector_bool& m, const cvt_opts& o,
                                              const where_t& w) {
    namespace a5 = ptosim::cce::a5;
    using From = elem_of<S>;
    using To = elem_of<D>;
    constexpr bool narrow = std::is_same_v<From, float> && std::is_same_v<To, half>;
    constexpr bool widen = std::is_same_v<From, half> && std::is_same_v<To, float>;
    if constexpr (!narrow && !widen) {
        return false;
    } else {
        if (o.sat || o.part > 1) return false;
        if (narrow && o.round != ptosim::cce::Round::None && o.round != ptosim::cce::Round::Rint) return false;
        if (a5::active_prefix(m, sizeof(From)) != a5::kVL / int(sizeof(From))) return false;
        ptosim::Core* c = a5::light_core();
        if (!c) return false;
        a5::light_pass(*c, "vcvt", light_here(w));
        const int shift = 16 * o.part;
#if defined(__x86_64__)
        if (light_cvt_host) {
            if constexpr (narrow) {
                // The halves side by side, the register's bytes written
                // when something else reads them (registers.hpp).
                const uint8_t* from = vr(src).b;
                vreg_store& d = vs(dst);
                light_narrow_halves(from, d.raw);
                d.lazy = vreg_store::Halves;
                d.width = 0;  // finiteness not known
                d.part = static_cast<uint8_t>(o.part);
                return true;
            } else {
                // Halves side by side (an UNPK_B16 load, a narrowing vcvt)
                // of the part asked for, none an infinity or NaN: the
                // destination keeps them and stands for their floats
                // (registers.hpp, Widened).
                vreg_store& f = vs(src);
                if (f.lazy == vreg_store::Halves && f.part == o.part &&
                    (f.width == 1 || light_halves_finite(f.raw))) {
                    vreg_store& d = vs(dst);
                    if (&d != &f) light_copy(d.raw, f.raw, a5::kVL / 2);
                    d.lazy = vreg_store::Widened;
                    return true;
                }
            }
        }
#endif
        // The source is read before the destination, which may be it, is
        // declared written whole (registers.hpp, vw).
        const uint8_t* from = vr(src).b;
        uint8_t* to = vw(dst).b;
#if defined(__x86_64__)
        if (light_cvt_host) {
            if constexpr (narrow) {
                light_narrow_words(from, to, o.part);
                return true;
            } else {
                if (light_widen_words(from, to, o.part)) return true;
            }
        }
#endif
        // The row conversion reads the source register and writes the
        // destination's in place, through a buffer of the 64 halves (so a
        // destination that is the source is read before it is written).
        uint16_t halves[a5::kVL / 4];
        if constexpr (narrow) {
            ptosim::float_to_half_row(reinterpret_cast<const float*>(from), reinterpret_cast<uint8_t*>(halves),
                                      a5::kVL / 4);
            for (int t = 0; t < a5::kVL / 4; ++t) {
                const uint32_t word = uint32_t(halves[t]) << shift;
                __builtin_memcpy(to + 4 * t, &word, 4);
            }
        } else {
            for (int t = 0; t < a5::kVL / 4; ++t) {
                uint32_t word;
                __builtin_memcpy(&word, from + 4 * t, 4);
                halves[t] = static_cast<uint16_t>(word >> shift);
            }
            ptosim::half_row_to_float(reinterpret_cast<const uint8_t*>(halves), reinterpret_cast<float*>(to),
                                      a5::kVL / 4);
        }
        return true;
    }
}

template <class D, class S>
[[gnu::always_inline]] inline void vcvt_do(D& dst, S& src, const vector_bool& m, const cvt_opts& o, where_t w) {
    read_src(w, "vcvt", 2, src);
    if (light_vcvt(dst, src, m, o, w)) return;
    const ptosim::cce::a5::Cvt c{ct<elem_of<S>>(), ct<elem_of<D>>(), o.round, o.sat, o.part, o.merging};
    ptosim::cce::a5::vconvert(here(w), c, vr(dst), vr(src), m);
}
}  // namespace ptosim_cce

template <class D, class S>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
[[gnu::always_inline]] inline void vcvt(D&& dst, S&& src, const vector_bool& m, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::vcvt_do(dst, src, m, {}, w);
}
template <class D, class S, ptosim_cce::cvt_option A>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
[[gnu::always_inline]] inline void vcvt(D&& dst, S&& src, const vector_bool& m, A a,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::cvt_opts o;
    cvt_opt(o, a);
    ptosim_cce::vcvt_do(dst, src, m, o, w);
}
template <class D, class S, ptosim_cce::cvt_option A, ptosim_cce::cvt_option B>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
[[gnu::always_inline]] inline void vcvt(D&& dst, S&& src, const vector_bool& m, A a, B b,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::cvt_opts o;
    cvt_opt(o, a);
    cvt_opt(o, b);
    ptosim_cce::vcvt_do(dst, src, m, o, w);
}
template <class D, class S, ptosim_cce::cvt_option A, ptosim_cce::cvt_option B, ptosim_cce::cvt_option C>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
[[gnu::always_inline]] inline void vcvt(D&& dst, S&& src, const vector_bool& m, A a, B b, C c,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::cvt_opts o;
    cvt_opt(o, a);
    cvt_opt(o, b);
    cvt_opt(o, c);
    ptosim_cce::vcvt_do(dst, src, m, o, w);
}
template <class D, class S, ptosim_cce::cvt_option A, ptosim_cce::cvt_option B, ptosim_cce::cvt_option C,
          ptosim_cce::cvt_option E>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
[[gnu::always_inline]] inline void vcvt(D&& dst, S&& src, const vector_bool& m, A a, B b, C c, E e,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::cvt_opts o;
    cvt_opt(o, a);
    cvt_opt(o, b);
    cvt_opt(o, c);
    cvt_opt(o, e);
    ptosim_cce::vcvt_do(dst, src, m, o, w);
}

// vtrc(dst, src, rounding, mask[, mode]): each active element rounded to an
// integral value in its own float type.
template <class D, class S, ptosim_cce::cvt_option R>
    requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)
inline void vtrc(D&& dst, S&& src, R r, const vector_bool& m, Mode mode = MODE_ZEROING,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim_cce::cvt_opts o;
    cvt_opt(o, r);
    ptosim_cce::read_src(w, "vtrc", 2, src);
    ptosim::cce::a5::vtruncate(ptosim_cce::here(w), ptosim_cce::dt<ptosim_cce::elem_of<D>>(), o.round,
                               ptosim_cce::vr(dst), ptosim_cce::vr(src), m, mode == MODE_MERGING);
}
