// Rounding of exact values to narrower binary formats and to integers, in
// every rounding mode the TCVT page lists (docs/semantics.md, "TCVT"), and
// the binary16 row conversions under every fp16 element-wise op.
#include <ptosim/float16.hpp>
#include <ptosim/nan_rule.hpp>
#include <ptosim/numerics.hpp>
#include <cmath>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PTOSIM_HAVE_F16C_PATH 1
#endif

// GCC's -O2 cost model skips vectorising loops with runtime trip counts.
#if defined(__GNUC__) && !defined(__clang__)
#define PTOSIM_VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define PTOSIM_VECTORIZE
#endif

namespace ptosim {

namespace {
double round_scaled(double n, bool negative, Rounding mode) {
    // n >= 0 is the magnitude in units of the target quantum.
    double fl = std::floor(n);
    double frac = n - fl;
    switch (mode) {
        case Rounding::Trunc: return fl;
        case Rounding::Floor: return negative ? (frac > 0 ? fl + 1 : fl) : fl;
        case Rounding::Ceil: return negative ? fl : (frac > 0 ? fl + 1 : fl);
        case Rounding::Round: return frac >= 0.5 ? fl + 1 : fl;
        case Rounding::Odd:
            if (frac == 0) return fl;
            return std::fmod(fl, 2.0) == 0 ? fl + 1 : fl;
        case Rounding::None:
        case Rounding::Rint:
        default:
            if (frac > 0.5) return fl + 1;
            if (frac < 0.5) return fl;
            return std::fmod(fl, 2.0) == 0 ? fl : fl + 1;
    }
}
}  // namespace

double round_to_integer(double x, Rounding mode) {
    if (!std::isfinite(x)) return x;
    double r = round_scaled(std::fabs(x), x < 0, mode);
    return x < 0 ? -r : r;
}

double round_to_format(double x, int precision, int emin, double maxv, Rounding mode) {
    const bool neg = x < 0;
    const double a = std::fabs(x);
    int e;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    int exp = e - 1;
    if (exp < emin) exp = emin;  // subnormal range keeps the minimum quantum
    const double quantum = std::ldexp(1.0, exp - (precision - 1));
    double r = round_scaled(a / quantum, neg, mode) * quantum;
    if (r > maxv) {
        const bool to_inf = mode == Rounding::Rint || mode == Rounding::None || mode == Rounding::Round ||
                            (mode == Rounding::Ceil && !neg) || (mode == Rounding::Floor && neg);
        r = to_inf ? INFINITY : maxv;
    }
    return neg ? -r : r;
}

namespace {
PTOSIM_VECTORIZE void half_row_to_float_plain(const uint8_t* src, float* dst, int n) {
    for (int k = 0; k < n; ++k) {
        uint16_t b;
        std::memcpy(&b, src + 2 * k, 2);
        dst[k] = half_bits_to_float(b);
    }
}
PTOSIM_VECTORIZE void float_to_half_row_plain(const float* src, uint8_t* dst, int n) {
    for (int k = 0; k < n; ++k) {
        const uint16_t b = float_to_half_bits(src[k]);
        std::memcpy(dst + 2 * k, &b, 2);
    }
}

inline float apply(RowBinary op, float x, float y) {
    switch (op) {
        case RowBinary::Add: return x + y;
        case RowBinary::Sub: return x - y;
        case RowBinary::Mul: return x * y;
    }
    return 0;
}
void half_binary_row_plain(RowBinary op, const uint8_t* a, const uint8_t* b, uint8_t* out, int n) {
    for (int k = 0; k < n; ++k) {
        uint16_t x, y;
        std::memcpy(&x, a + 2 * k, 2);
        std::memcpy(&y, b + 2 * k, 2);
        const uint16_t r = float_to_half_bits(apply(op, half_bits_to_float(x), half_bits_to_float(y)));
        std::memcpy(out + 2 * k, &r, 2);
    }
}

#ifdef PTOSIM_HAVE_F16C_PATH
// Rounding float to binary16 costs most of an fp16 element-wise op even when
// vectorised in plain SSE2. F16C's vcvtps2ph with round-to-nearest-even gives
// bit-identical results for every float input (NaN payloads included), so it
// is used where the host has it. Its half->float direction (vcvtph2ps)
// quiets signalling NaNs, which half_bits_to_float does not, so a group of
// eight with a signalling NaN takes the plain path.
__attribute__((target("avx,f16c"))) void half_row_to_float_f16c(const uint8_t* src, float* dst, int n) {
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * k));
        const __m128i nan_exp = _mm_cmpeq_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7e00)), _mm_set1_epi16(0x7c00));
        const __m128i no_payload = _mm_cmpeq_epi16(_mm_and_si128(h, _mm_set1_epi16(0x01ff)), _mm_setzero_si128());
        if (_mm_movemask_epi8(_mm_andnot_si128(no_payload, nan_exp)) == 0)
            _mm256_storeu_ps(dst + k, _mm256_cvtph_ps(h));
        else
            half_row_to_float_plain(src + 2 * k, dst + k, 8);
    }
    _mm256_zeroupper();  // see half_binary_row_f16c
    half_row_to_float_plain(src + 2 * k, dst + k, n - k);
}
// With AVX2, sixteen elements are tested at once, and only for an all-ones
// exponent (infinities and NaNs, rare in data): a group holding one takes
// the eight-wide path above, which tells signalling NaNs apart.
__attribute__((target("avx2,f16c"))) void half_row_to_float_avx2(const uint8_t* src, float* dst, int n) {
    int k = 0;
    const __m256i exp_mask = _mm256_set1_epi16(0x7c00);
    for (; k + 16 <= n; k += 16) {
        const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 2 * k));
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(h, exp_mask), exp_mask)) == 0) {
            _mm256_storeu_ps(dst + k, _mm256_cvtph_ps(_mm256_castsi256_si128(h)));
            _mm256_storeu_ps(dst + k + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)));
        } else {
            half_row_to_float_f16c(src + 2 * k, dst + k, 16);
        }
    }
    half_row_to_float_f16c(src + 2 * k, dst + k, n - k);
}
__attribute__((target("avx,f16c"))) void float_to_half_row_f16c(const float* src, uint8_t* dst, int n) {
    int k = 0;
    for (; k + 8 <= n; k += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * k),
                         _mm256_cvtps_ph(_mm256_loadu_ps(src + k), _MM_FROUND_TO_NEAREST_INT));
    _mm256_zeroupper();  // see half_binary_row_f16c
    float_to_half_row_plain(src + k, dst + 2 * k, n - k);
}
// Groups of eight without an infinity or NaN in either operand are
// converted, combined and rounded in vector registers (IEEE arithmetic, the
// same per element); the others take the plain path, which keeps NaN
// payloads exactly as the element-wise path does.
template <RowBinary Op>
__attribute__((target("avx,f16c"))) void half_binary_row_f16c(const uint8_t* a, const uint8_t* b, uint8_t* out, int n) {
    const __m128i exp_mask = _mm_set1_epi16(0x7c00);
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 2 * k));
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * k));
        const __m128i special = _mm_or_si128(_mm_cmpeq_epi16(_mm_and_si128(x, exp_mask), exp_mask),
                                             _mm_cmpeq_epi16(_mm_and_si128(y, exp_mask), exp_mask));
        if (_mm_movemask_epi8(special) != 0) {
            half_binary_row_plain(Op, a + 2 * k, b + 2 * k, out + 2 * k, 8);
            continue;
        }
        const __m256 fx = _mm256_cvtph_ps(x), fy = _mm256_cvtph_ps(y);
        __m256 r;
        if constexpr (Op == RowBinary::Add) r = _mm256_add_ps(fx, fy);
        else if constexpr (Op == RowBinary::Sub) r = _mm256_sub_ps(fx, fy);
        else r = _mm256_mul_ps(fx, fy);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * k), _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT));
    }
    // GCC omits vzeroupper before a tail call: without it, the caller's SSE
    // code runs with dirty upper halves and slows down several times.
    _mm256_zeroupper();
    half_binary_row_plain(Op, a + 2 * k, b + 2 * k, out + 2 * k, n - k);
}
// With AVX2, sixteen elements per step: one special-value test for both
// operands' sixteen, a group holding an infinity or NaN goes to the
// eight-wide path above.
template <RowBinary Op>
__attribute__((target("avx2,f16c"))) void half_binary_row_avx2(const uint8_t* a, const uint8_t* b, uint8_t* out, int n) {
    const __m256i exp_mask = _mm256_set1_epi16(0x7c00);
    int k = 0;
    for (; k + 16 <= n; k += 16) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 2 * k));
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 2 * k));
        const __m256i special = _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_and_si256(x, exp_mask), exp_mask),
                                                _mm256_cmpeq_epi16(_mm256_and_si256(y, exp_mask), exp_mask));
        if (_mm256_movemask_epi8(special) != 0) {
            half_binary_row_f16c<Op>(a + 2 * k, b + 2 * k, out + 2 * k, 16);
            continue;
        }
        const __m256 xl = _mm256_cvtph_ps(_mm256_castsi256_si128(x)), yl = _mm256_cvtph_ps(_mm256_castsi256_si128(y));
        const __m256 xh = _mm256_cvtph_ps(_mm256_extracti128_si256(x, 1)), yh = _mm256_cvtph_ps(_mm256_extracti128_si256(y, 1));
        __m256 lo, hi;
        if constexpr (Op == RowBinary::Add) lo = _mm256_add_ps(xl, yl), hi = _mm256_add_ps(xh, yh);
        else if constexpr (Op == RowBinary::Sub) lo = _mm256_sub_ps(xl, yl), hi = _mm256_sub_ps(xh, yh);
        else lo = _mm256_mul_ps(xl, yl), hi = _mm256_mul_ps(xh, yh);
        const __m256i r = _mm256_set_m128i(_mm256_cvtps_ph(hi, _MM_FROUND_TO_NEAREST_INT),
                                           _mm256_cvtps_ph(lo, _MM_FROUND_TO_NEAREST_INT));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * k), r);
    }
    half_binary_row_f16c<Op>(a + 2 * k, b + 2 * k, out + 2 * k, n - k);
}
const bool host_has_f16c = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
}();
const bool host_has_avx2 = host_has_f16c && __builtin_cpu_supports("avx2");
const bool host_has_avx = __builtin_cpu_supports("avx");
#endif
}  // namespace

void half_row_to_float(const uint8_t* src, float* dst, int n) {
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_avx2) return half_row_to_float_avx2(src, dst, n);
    if (host_has_f16c) return half_row_to_float_f16c(src, dst, n);
#endif
    half_row_to_float_plain(src, dst, n);
}

void half_binary_row(RowBinary op, const uint8_t* a, const uint8_t* b, uint8_t* out, int n) {
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_avx2) {
        switch (op) {
            case RowBinary::Add: return half_binary_row_avx2<RowBinary::Add>(a, b, out, n);
            case RowBinary::Sub: return half_binary_row_avx2<RowBinary::Sub>(a, b, out, n);
            case RowBinary::Mul: return half_binary_row_avx2<RowBinary::Mul>(a, b, out, n);
        }
    }
    if (host_has_f16c) {
        switch (op) {
            case RowBinary::Add: return half_binary_row_f16c<RowBinary::Add>(a, b, out, n);
            case RowBinary::Sub: return half_binary_row_f16c<RowBinary::Sub>(a, b, out, n);
            case RowBinary::Mul: return half_binary_row_f16c<RowBinary::Mul>(a, b, out, n);
        }
    }
#endif
    half_binary_row_plain(op, a, b, out, n);
}

namespace {
inline float load_float(const uint8_t* p) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
}
// One step of a fold: vop::rd's add, mul, max and min on floats.
template <RowFold Op>
inline float fold_step(float acc, float v) {
    if constexpr (Op == RowFold::Sum) return acc + v;
    else if constexpr (Op == RowFold::Prod) return acc * v;
    else if constexpr (Op == RowFold::Max) return acc == acc && (v != v || v > acc) ? v : acc;
    else return acc == acc && (v != v || v < acc) ? v : acc;
}
// Four rows at a time: four independent chains instead of one.
template <RowFold Op>
void float_row_fold_plain(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        const uint8_t* p = in + r * row_bytes;
        float a0 = load_float(p), a1 = load_float(p + row_bytes), a2 = load_float(p + 2 * row_bytes),
              a3 = load_float(p + 3 * row_bytes);
        for (int c = 1; c < cols; ++c) {
            a0 = fold_step<Op>(a0, load_float(p + 4 * c));
            a1 = fold_step<Op>(a1, load_float(p + row_bytes + 4 * c));
            a2 = fold_step<Op>(a2, load_float(p + 2 * row_bytes + 4 * c));
            a3 = fold_step<Op>(a3, load_float(p + 3 * row_bytes + 4 * c));
        }
        out[r] = a0, out[r + 1] = a1, out[r + 2] = a2, out[r + 3] = a3;
    }
    for (; r < rows; ++r) {
        const uint8_t* p = in + r * row_bytes;
        float a = load_float(p);
        for (int c = 1; c < cols; ++c) a = fold_step<Op>(a, load_float(p + 4 * c));
        out[r] = a;
    }
}

#ifdef PTOSIM_HAVE_F16C_PATH
template <RowFold Op>
__attribute__((target("avx"))) inline __m256 fold_step8(__m256 acc, __m256 v) {
    if constexpr (Op == RowFold::Sum) {
        return _mm256_add_ps(acc, v);
    } else if constexpr (Op == RowFold::Prod) {
        return _mm256_mul_ps(acc, v);
    } else {
        const __m256 beyond = Op == RowFold::Max ? _mm256_cmp_ps(v, acc, _CMP_GT_OQ) : _mm256_cmp_ps(v, acc, _CMP_LT_OQ);
        const __m256 take = _mm256_andnot_ps(_mm256_cmp_ps(acc, acc, _CMP_UNORD_Q),
                                             _mm256_or_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), beyond));
        return _mm256_blendv_ps(acc, v, take);
    }
}
// Max/Min over a block without NaN inputs: vmaxps/vminps (v, acc) is
// "v beyond acc ? v : acc", and returns acc when acc is NaN, as the rule does;
// only a NaN v needs fold_step8's blend, which is twice as long a chain.
template <RowFold Op>
__attribute__((target("avx"))) inline __m256 fold_step8_no_nan(__m256 acc, __m256 v) {
    if constexpr (Op == RowFold::Max) return _mm256_max_ps(v, acc);
    else if constexpr (Op == RowFold::Min) return _mm256_min_ps(v, acc);
    else return fold_step8<Op>(acc, v);
}
// Columns c .. c + 7 of eight rows starting at p, one vector per column
// with lane k from row k: the 8 x 8 block transposed (moves only, every bit
// kept).
__attribute__((target("avx"))) inline void load_columns8(const uint8_t* p, size_t row_bytes, int c, __m256 col[8]) {
    __m256 x[8];
    for (int k = 0; k < 8; ++k) x[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(p + k * row_bytes + 4 * c));
    const __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]);
    const __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]);
    const __m256 t4 = _mm256_unpacklo_ps(x[4], x[5]), t5 = _mm256_unpackhi_ps(x[4], x[5]);
    const __m256 t6 = _mm256_unpacklo_ps(x[6], x[7]), t7 = _mm256_unpackhi_ps(x[6], x[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    col[0] = _mm256_permute2f128_ps(u0, u4, 0x20), col[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    col[2] = _mm256_permute2f128_ps(u2, u6, 0x20), col[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    col[4] = _mm256_permute2f128_ps(u0, u4, 0x31), col[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    col[6] = _mm256_permute2f128_ps(u2, u6, 0x31), col[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}
// Lane k of the accumulator is row k of a group of eight; each 8 x 8 block
// of the group is transposed so that a column is one vector, and the
// columns are folded in order.
template <RowFold Op>
__attribute__((target("avx"))) void float_row_fold_avx(const uint8_t* in, size_t row_bytes, int rows, int cols,
                                                       float* out) {
    int r = 0;
    for (; r + 8 <= rows; r += 8) {
        const uint8_t* p = in + r * row_bytes;
        __m256 acc = _mm256_setzero_ps();
        int c = 0;
        for (; c + 8 <= cols; c += 8) {
            __m256 col[8];
            load_columns8(p, row_bytes, c, col);
            int k = 0;
            if (c == 0) acc = col[0], k = 1;
            bool nan = false;
            if constexpr (Op == RowFold::Max || Op == RowFold::Min) {
                __m256 any = _mm256_cmp_ps(col[0], col[1], _CMP_UNORD_Q);
                for (int j = 2; j < 8; j += 2) any = _mm256_or_ps(any, _mm256_cmp_ps(col[j], col[j + 1], _CMP_UNORD_Q));
                nan = _mm256_movemask_ps(any) != 0;
            }
            if (nan)
                for (; k < 8; ++k) acc = fold_step8<Op>(acc, col[k]);
            else
                for (; k < 8; ++k) acc = fold_step8_no_nan<Op>(acc, col[k]);
        }
        for (; c < cols; ++c) {
            float v[8];
            for (int k = 0; k < 8; ++k) v[k] = load_float(p + k * row_bytes + 4 * c);
            const __m256 x = _mm256_loadu_ps(v);
            acc = c == 0 ? x : fold_step8<Op>(acc, x);
        }
        _mm256_storeu_ps(out + r, acc);
    }
    _mm256_zeroupper();  // see half_binary_row_f16c
    float_row_fold_plain<Op>(in + r * row_bytes, row_bytes, rows - r, cols, out + r);
}
#endif

template <RowFold Op>
void float_col_fold_plain(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    for (int c = 0; c < cols; ++c) out[c] = load_float(in + 4 * c);
    for (int r = 1; r < rows; ++r)
        for (int c = 0; c < cols; ++c) out[c] = fold_step<Op>(out[c], load_float(in + r * row_bytes + 4 * c));
}

#ifdef PTOSIM_HAVE_F16C_PATH
// Lane k is column c + k; rows are folded in order. A vector without NaN
// takes the short Max/Min step (fold_step8_no_nan).
template <RowFold Op>
__attribute__((target("avx"))) void float_col_fold_avx(const uint8_t* in, size_t row_bytes, int rows, int cols,
                                                       float* out) {
    int c = 0;
    for (; c + 8 <= cols; c += 8) {
        __m256 acc = _mm256_loadu_ps(reinterpret_cast<const float*>(in + 4 * c));
        for (int r = 1; r < rows; ++r) {
            const __m256 v = _mm256_loadu_ps(reinterpret_cast<const float*>(in + r * row_bytes + 4 * c));
            if constexpr (Op == RowFold::Max || Op == RowFold::Min) {
                if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) == 0) {
                    acc = fold_step8_no_nan<Op>(acc, v);
                    continue;
                }
            }
            acc = fold_step8<Op>(acc, v);
        }
        _mm256_storeu_ps(out + c, acc);
    }
    _mm256_zeroupper();  // see half_binary_row_f16c
    if (c < cols) float_col_fold_plain<Op>(in + 4 * c, row_bytes, rows, cols - c, out + c);
}
#endif

template <RowFold Op>
void float_col_fold_as(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    if (rows <= 0 || cols <= 0) return;
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_avx) return float_col_fold_avx<Op>(in, row_bytes, rows, cols, out);
#endif
    float_col_fold_plain<Op>(in, row_bytes, rows, cols, out);
}

// One row of float_row_tree_sum.
float row_tree_sum(const uint8_t* p, int cols) {
    constexpr int kPart = 64;  // the floats of one 256-byte vector register
    float acc = 0.0f;
    for (int c0 = 0; c0 < cols; c0 += kPart) {
        float v[kPart];
        for (int j = 0; j < kPart; ++j) v[j] = c0 + j < cols ? load_float(p + 4 * (c0 + j)) : 0.0f;
        for (int n = kPart; n > 1; n /= 2)
            for (int i = 0; i < n / 2; ++i) v[i] = first_nan(v[2 * i] + v[2 * i + 1], v[2 * i], v[2 * i + 1]);
        acc = first_nan(acc + v[0], acc, v[0]);
    }
    return acc;
}

#ifdef PTOSIM_HAVE_F16C_PATH
// ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7)): three levels of the tree.
__attribute__((target("avx"))) inline __m256 tree8(const __m256 v[8]) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(v[0], v[1]), _mm256_add_ps(v[2], v[3])),
                         _mm256_add_ps(_mm256_add_ps(v[4], v[5]), _mm256_add_ps(v[6], v[7])));
}
// Lane k is row k of a group of eight: a part's 64 columns as eight blocks
// of eight (load_columns8), each block's tree, then the tree of the eight
// (the six levels of the part's tree). A row whose sum is NaN is summed
// again by row_tree_sum, which keeps the first NaN where the compiler may
// have swapped an addition's operands.
__attribute__((target("avx"))) void float_row_tree_sum_avx(const uint8_t* in, size_t row_bytes, int rows, int cols,
                                                           float* out) {
    int r = 0;
    for (; r + 8 <= rows; r += 8) {
        const uint8_t* p = in + r * row_bytes;
        __m256 acc = _mm256_setzero_ps();
        for (int c0 = 0; c0 < cols; c0 += 64) {
            __m256 block[8];
            for (int b = 0; b < 8; ++b) {
                const int c = c0 + 8 * b;
                __m256 col[8];
                if (c + 8 <= cols) {
                    load_columns8(p, row_bytes, c, col);
                } else {
                    for (int j = 0; j < 8; ++j) {
                        float v[8];
                        for (int k = 0; k < 8; ++k) v[k] = c + j < cols ? load_float(p + k * row_bytes + 4 * (c + j)) : 0.0f;
                        col[j] = _mm256_loadu_ps(v);
                    }
                }
                block[b] = tree8(col);
            }
            acc = _mm256_add_ps(acc, tree8(block));
        }
        float sums[8];
        _mm256_storeu_ps(sums, acc);
        for (int k = 0; k < 8; ++k) out[r + k] = sums[k] == sums[k] ? sums[k] : row_tree_sum(p + k * row_bytes, cols);
    }
    _mm256_zeroupper();  // see half_binary_row_f16c
    for (; r < rows; ++r) out[r] = row_tree_sum(in + r * row_bytes, cols);
}
#endif

template <RowFold Op>
void float_row_fold_as(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    if (rows <= 0 || cols <= 0) return;
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_avx) return float_row_fold_avx<Op>(in, row_bytes, rows, cols, out);
#endif
    float_row_fold_plain<Op>(in, row_bytes, rows, cols, out);
}
}  // namespace

void float_row_fold(RowFold op, const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    switch (op) {
        case RowFold::Sum: return float_row_fold_as<RowFold::Sum>(in, row_bytes, rows, cols, out);
        case RowFold::Prod: return float_row_fold_as<RowFold::Prod>(in, row_bytes, rows, cols, out);
        case RowFold::Max: return float_row_fold_as<RowFold::Max>(in, row_bytes, rows, cols, out);
        case RowFold::Min: return float_row_fold_as<RowFold::Min>(in, row_bytes, rows, cols, out);
    }
}

void float_row_tree_sum(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    if (rows <= 0 || cols <= 0) return;
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_avx) return float_row_tree_sum_avx(in, row_bytes, rows, cols, out);
#endif
    for (int r = 0; r < rows; ++r) out[r] = row_tree_sum(in + r * row_bytes, cols);
}

void float_col_fold(RowFold op, const uint8_t* in, size_t row_bytes, int rows, int cols, float* out) {
    switch (op) {
        case RowFold::Sum: return float_col_fold_as<RowFold::Sum>(in, row_bytes, rows, cols, out);
        case RowFold::Prod: return float_col_fold_as<RowFold::Prod>(in, row_bytes, rows, cols, out);
        case RowFold::Max: return float_col_fold_as<RowFold::Max>(in, row_bytes, rows, cols, out);
        case RowFold::Min: return float_col_fold_as<RowFold::Min>(in, row_bytes, rows, cols, out);
    }
}

void float_to_half_row(const float* src, uint8_t* dst, int n) {
#ifdef PTOSIM_HAVE_F16C_PATH
    if (host_has_f16c) return float_to_half_row_f16c(src, dst, n);
#endif
    float_to_half_row_plain(src, dst, n);
}

}  // namespace ptosim
