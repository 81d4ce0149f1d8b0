// The Cube unit's arithmetic core: C[m x n] += A[m x k] * B[k x n], row-major,
// with every product rounded before it is added, in ascending k. Kept out of
// the headers so it is built once, optimised, whatever flags kernels use.
#include <ptosim/gemm.hpp>

namespace ptosim {

namespace {
template <class T>
[[gnu::always_inline]] inline void gemm_rows(int rows, int n, int k, const T* __restrict a, const T* __restrict b,
                                             T* __restrict c) {
    // Four rows share each load of B; the j loop vectorises.
    int i = 0;
    for (; i + 4 <= rows; i += 4) {
        T* c0 = c + static_cast<size_t>(i) * n;
        T* c1 = c0 + n;
        T* c2 = c1 + n;
        T* c3 = c2 + n;
        const T* a0 = a + static_cast<size_t>(i) * k;
        for (int p = 0; p < k; ++p) {
            const T x0 = a0[p], x1 = a0[k + p], x2 = a0[2 * k + p], x3 = a0[3 * k + p];
            const T* bp = b + static_cast<size_t>(p) * n;
            for (int j = 0; j < n; ++j) {
                const T bj = bp[j];
                c0[j] += x0 * bj;
                c1[j] += x1 * bj;
                c2[j] += x2 * bj;
                c3[j] += x3 * bj;
            }
        }
    }
    for (; i < rows; ++i) {
        T* ci = c + static_cast<size_t>(i) * n;
        const T* ai = a + static_cast<size_t>(i) * k;
        for (int p = 0; p < k; ++p) {
            const T x = ai[p];
            const T* bp = b + static_cast<size_t>(p) * n;
            for (int j = 0; j < n; ++j) ci[j] += x * bp[j];
        }
    }
}
}  // namespace

[[gnu::target_clones("avx2", "default")]] void gemm_accumulate(int m, int n, int k, const float* a, const float* b,
                                                                float* c) {
    gemm_rows(m, n, k, a, b, c);
}

[[gnu::target_clones("avx2", "default")]] void gemm_accumulate(int m, int n, int k, const int32_t* a, const int32_t* b,
                                                                int32_t* c) {
    gemm_rows(m, n, k, a, b, c);
}

}  // namespace ptosim

// ------------------------------------------------------------ fractal path
//
// TMATMUL on tiles in their L0 layouts without the element-by-element
// gathers: each operand run that is contiguous in its fractal is converted
// eight elements at a time (F16C for half, a shift for bfloat16), A becomes
// row-major float, B 16-column panels (k x 16 each), and a 6 x 16 register
// kernel updates the Nz accumulator in place, one 16-column panel at a time.
// Numerics equal gemm_accumulate: per output, start value, then each product
// rounded to float and added in ascending k. Half products are exact in float
// (11 x 11 significant bits, exponents far inside float's range), so for half
// a fused multiply-add gives the same bits; bfloat16 and float products can
// round or underflow, so they keep a separate multiply and add (this file is
// built with -ffp-contract=off, so nothing else fuses them).
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <cstring>
#include <vector>

namespace ptosim {

namespace {

#define PTOSIM_GEMM_TARGET __attribute__((target("avx2,fma,f16c")))

bool host_has_simd() {
    static const bool ok = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
    }();
    return ok;
}

// count elements of type T at src, converted exactly to float.
template <GemmType T>
PTOSIM_GEMM_TARGET inline void to_float(const uint8_t* src, float* dst, int count) {
    if constexpr (T == GemmType::F32) {
        std::memcpy(dst, src, static_cast<size_t>(count) * 4);
    } else {
        int i = 0;
        for (; i + 8 <= count; i += 8) {
            const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
            if constexpr (T == GemmType::F16)
                _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
            else
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
        }
        if (i < count) {
            alignas(16) uint16_t in[8] = {};
            std::memcpy(in, src + 2 * i, static_cast<size_t>(count - i) * 2);
            const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i*>(in));
            alignas(32) float out[8];
            if constexpr (T == GemmType::F16)
                _mm256_store_ps(out, _mm256_cvtph_ps(h));
            else
                _mm256_store_si256(reinterpret_cast<__m256i*>(out), _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
            std::memcpy(dst + i, out, static_cast<size_t>(count - i) * 4);
        }
    }
}

// Calls f(r0, c0, along_rows, len, src) for every run of elements contiguous
// in memory inside the rows x cols region: along a row (along_rows false:
// elements (r0, c0 .. c0+len)) or down a column (true: (r0 .. r0+len, c0)).
template <class F>
PTOSIM_GEMM_TARGET inline void for_each_run(const GemmOperand& op, size_t esize, int rows, int cols, F&& f) {
    const GemmLayout& l = op.layout;
    const int ir = l.inner_rows, ic = l.inner_cols;
    const size_t box = static_cast<size_t>(ir) * ic;
    for (int br = 0; br * ir < rows; ++br)
        for (int bc = 0; bc * ic < cols; ++bc) {
            const size_t block = l.blocks_row_major ? static_cast<size_t>(br) * l.blocks_c + bc
                                                    : static_cast<size_t>(bc) * l.blocks_r + br;
            const uint8_t* fb = op.base + block * box * esize;
            const int r0 = br * ir, c0 = bc * ic;
            const int nr = rows - r0 < ir ? rows - r0 : ir, nc = cols - c0 < ic ? cols - c0 : ic;
            if (l.inner_row_major)
                for (int x = 0; x < nr; ++x) f(r0 + x, c0, false, nc, fb + static_cast<size_t>(x) * ic * esize);
            else
                for (int y = 0; y < nc; ++y) f(r0, c0 + y, true, nr, fb + static_cast<size_t>(y) * ir * esize);
        }
}

constexpr int kPanel = 16;  // columns per B panel and per accumulator fractal
constexpr int kRows = 6;    // accumulator rows the register kernel holds

// c<r>l, c<r>h hold C(i + r, j0 .. j0 + 7) and C(i + r, j0 + 8 .. j0 + 15):
// named variables, not an array, so the compiler keeps all twelve in
// registers. mask_lo/hi select the columns below n in the last, partial panel.
#define PTOSIM_GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
template <bool Partial>
PTOSIM_GEMM_TARGET inline __m256 load(const float* p, __m256i mask) {
    return Partial ? _mm256_maskload_ps(p, mask) : _mm256_loadu_ps(p);
}
template <bool Partial>
PTOSIM_GEMM_TARGET inline void store(float* p, __m256i mask, __m256 v) {
    if (Partial) _mm256_maskstore_ps(p, mask, v);
    else _mm256_storeu_ps(p, v);
}
template <int R, bool Fused, bool Partial>
PTOSIM_GEMM_TARGET inline void panel_rows(int k, const float* a, int lda, const float* bp, float* c, const float* cin,
                                          const float* bias, __m256i mask_lo, __m256i mask_hi) {
    static_assert(R >= 1 && R <= kRows);
    const __m256 bias_lo = bias ? load<Partial>(bias, mask_lo) : _mm256_setzero_ps();
    const __m256 bias_hi = bias ? load<Partial>(bias + 8, mask_hi) : _mm256_setzero_ps();
#define PTOSIM_GEMM_DECL(r) __m256 c##r##l = _mm256_setzero_ps(), c##r##h = _mm256_setzero_ps();
#define PTOSIM_GEMM_START(r)                                                              \
    if constexpr (R > r) {                                                                \
        if (cin) {                                                                        \
            c##r##l = load<Partial>(cin + r * kPanel, mask_lo);                           \
            c##r##h = load<Partial>(cin + r * kPanel + 8, mask_hi);                       \
        }                                                                                 \
        if (bias) {                                                                       \
            c##r##l = _mm256_add_ps(c##r##l, bias_lo);                                    \
            c##r##h = _mm256_add_ps(c##r##h, bias_hi);                                    \
        }                                                                                 \
    }
    PTOSIM_GEMM_ROWS(PTOSIM_GEMM_DECL)
    PTOSIM_GEMM_ROWS(PTOSIM_GEMM_START)
    const float* ar = a;
    for (int p = 0; p < k; ++p, ++ar) {
        const __m256 b0 = _mm256_loadu_ps(bp + p * kPanel), b1 = _mm256_loadu_ps(bp + p * kPanel + 8);
#define PTOSIM_GEMM_STEP(r)                                                   \
    if constexpr (R > r) {                                                    \
        const __m256 x = _mm256_broadcast_ss(ar + static_cast<size_t>(r) * lda); \
        if constexpr (Fused) {                                                \
            c##r##l = _mm256_fmadd_ps(x, b0, c##r##l);                        \
            c##r##h = _mm256_fmadd_ps(x, b1, c##r##h);                        \
        } else {                                                              \
            c##r##l = _mm256_add_ps(c##r##l, _mm256_mul_ps(x, b0));           \
            c##r##h = _mm256_add_ps(c##r##h, _mm256_mul_ps(x, b1));           \
        }                                                                     \
    }
        PTOSIM_GEMM_ROWS(PTOSIM_GEMM_STEP)
    }
#define PTOSIM_GEMM_STORE(r)                                \
    if constexpr (R > r) {                                  \
        store<Partial>(c + r * kPanel, mask_lo, c##r##l);   \
        store<Partial>(c + r * kPanel + 8, mask_hi, c##r##h); \
    }
    PTOSIM_GEMM_ROWS(PTOSIM_GEMM_STORE)
#undef PTOSIM_GEMM_DECL
#undef PTOSIM_GEMM_START
#undef PTOSIM_GEMM_STEP
#undef PTOSIM_GEMM_STORE
}
#undef PTOSIM_GEMM_ROWS

template <bool Fused, bool Partial>
PTOSIM_GEMM_TARGET void panel(int m, int k, const float* a, int lda, const float* bp, float* c, const float* cin,
                              const float* bias, __m256i lo, __m256i hi) {
    int i = 0;
    for (; i + kRows <= m; i += kRows) {
        const size_t off = static_cast<size_t>(i) * kPanel;
        panel_rows<kRows, Fused, Partial>(k, a + static_cast<size_t>(i) * lda, lda, bp, c + off, cin ? cin + off : nullptr,
                                          bias, lo, hi);
    }
    const size_t off = static_cast<size_t>(i) * kPanel;
    const float* ai = a + static_cast<size_t>(i) * lda;
    const float* ci = cin ? cin + off : nullptr;
    switch (m - i) {
        case 5: panel_rows<5, Fused, Partial>(k, ai, lda, bp, c + off, ci, bias, lo, hi); break;
        case 4: panel_rows<4, Fused, Partial>(k, ai, lda, bp, c + off, ci, bias, lo, hi); break;
        case 3: panel_rows<3, Fused, Partial>(k, ai, lda, bp, c + off, ci, bias, lo, hi); break;
        case 2: panel_rows<2, Fused, Partial>(k, ai, lda, bp, c + off, ci, bias, lo, hi); break;
        case 1: panel_rows<1, Fused, Partial>(k, ai, lda, bp, c + off, ci, bias, lo, hi); break;
        default: break;
    }
}

template <bool Fused>
PTOSIM_GEMM_TARGET void run_panels(int m, int n, int k, const float* a, const float* bpanels, float* c,
                                   const float* cin, size_t c_panel, const float* bias) {
    const __m256i full = _mm256_set1_epi32(-1);
    for (int jp = 0; jp * kPanel < n; ++jp) {
        const int j0 = jp * kPanel, w = n - j0;
        const float* bp = bpanels + static_cast<size_t>(jp) * k * kPanel;
        float* cp = c + jp * c_panel;
        const float* cinp = cin ? cin + jp * c_panel : nullptr;
        const float* bj = bias ? bias + j0 : nullptr;
        if (w >= kPanel) {
            panel<Fused, false>(m, k, a, k, bp, cp, cinp, bj, full, full);
        } else {
            const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            const __m256i lo = _mm256_cmpgt_epi32(_mm256_set1_epi32(w), idx);
            const __m256i hi = _mm256_cmpgt_epi32(_mm256_set1_epi32(w - 8), idx);
            panel<Fused, true>(m, k, a, k, bp, cp, cinp, bj, lo, hi);
        }
    }
}

}  // namespace

namespace {

// A as row-major m x k floats; B as panels: panel jp holds columns
// 16 jp .. 16 jp + 15 as k rows of 16, the columns of the last panel past n
// zero (their sums are never stored).
template <GemmType T>
PTOSIM_GEMM_TARGET void pack(int m, int n, int k, const GemmOperand& a, const GemmOperand& b, float* ap, float* bp) {
    constexpr size_t es = T == GemmType::F32 ? 4 : 2;
    float tmp[64];  // one fractal row or column: at most 16 elements here
    for_each_run(a, es, m, k, [&](int r, int col, bool down, int len, const uint8_t* src) PTOSIM_GEMM_TARGET {
        if (!down) {
            to_float<T>(src, ap + static_cast<size_t>(r) * k + col, len);
            return;
        }
        to_float<T>(src, tmp, len);
        for (int x = 0; x < len; ++x) ap[static_cast<size_t>(r + x) * k + col] = tmp[x];
    });
    const int panels = (n + kPanel - 1) / kPanel;
    if (n % kPanel) std::memset(bp + static_cast<size_t>(panels - 1) * k * kPanel, 0, static_cast<size_t>(k) * kPanel * 4);
    auto at = [&](int p, int j) { return bp + (static_cast<size_t>(j / kPanel) * k + p) * kPanel + j % kPanel; };
    for_each_run(b, es, k, n, [&](int p, int j, bool down, int len, const uint8_t* src) PTOSIM_GEMM_TARGET {
        if (!down && j % kPanel + len <= kPanel) {
            to_float<T>(src, at(p, j), len);
            return;
        }
        to_float<T>(src, tmp, len);
        if (down) {
            float* d = at(p, j);
            for (int x = 0; x < len; ++x) d[x * kPanel] = tmp[x];
        } else {
            for (int x = 0; x < len; ++x) *at(p, j + x) = tmp[x];
        }
    });
}

}  // namespace

bool gemm_fractal(GemmType type, int m, int n, int k, const GemmOperand& a, const GemmOperand& b, float* c,
                  const float* cin, size_t c_panel, const float* bias) {
    if (!host_has_simd()) return false;
    thread_local std::vector<float> ap, bp;
    ap.resize(static_cast<size_t>(m) * k);
    bp.resize(static_cast<size_t>((n + kPanel - 1) / kPanel) * k * kPanel);
    switch (type) {
        case GemmType::F16: pack<GemmType::F16>(m, n, k, a, b, ap.data(), bp.data()); break;
        case GemmType::BF16: pack<GemmType::BF16>(m, n, k, a, b, ap.data(), bp.data()); break;
        case GemmType::F32: pack<GemmType::F32>(m, n, k, a, b, ap.data(), bp.data()); break;
    }
    if (type == GemmType::F16)
        run_panels<true>(m, n, k, ap.data(), bp.data(), c, cin, c_panel, bias);
    else
        run_panels<false>(m, n, k, ap.data(), bp.data(), c, cin, c_panel, bias);
    return true;
}

}  // namespace ptosim

#else

namespace ptosim {
bool gemm_fractal(GemmType, int, int, int, const GemmOperand&, const GemmOperand&, float*, const float*, size_t,
                  const float*) {
    return false;
}
}  // namespace ptosim

#endif
