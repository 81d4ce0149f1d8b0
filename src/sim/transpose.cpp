// ptosim::transpose: 16 x 16 blocks of elements, so that the lines of both
// arrays stay in the cache while a block is copied (walking the destination
// row by row would read a new source line for every element); 4-byte
// elements on AVX hosts in 8 x 8 register transposes.
#include <ptosim/transpose.hpp>

#include <algorithm>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PTOSIM_TRANSPOSE_AVX 1
#endif

namespace ptosim {
namespace {

template <class U>
void transpose_block(U* d, const U* s, int j0, int j1, int i0, int i1, size_t dp, size_t sp) {
    for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j) d[i * dp + j] = s[j * sp + i];
}

template <class U>
void transpose_blocked(U* d, const U* s, int rows, int cols, size_t dp, size_t sp) {
    constexpr int B = 16;
    for (int i0 = 0; i0 < cols; i0 += B)
        for (int j0 = 0; j0 < rows; j0 += B)
            transpose_block(d, s, j0, std::min(rows, j0 + B), i0, std::min(cols, i0 + B), dp, sp);
}

#if PTOSIM_TRANSPOSE_AVX
// Rows j0 .. j0 + 7 of src from column i0 become rows i0 .. i0 + 7 of dst
// from column j0.
__attribute__((target("avx"))) inline void transpose8x8(float* d, const float* s, size_t dp, size_t sp) {
    __m256 r[8], t[8];
    for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(s + k * sp);
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        r[k] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int k = 0; k < 4; ++k) {
        _mm256_storeu_ps(d + k * dp, _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
        _mm256_storeu_ps(d + (k + 4) * dp, _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
    }
}

__attribute__((target("avx"))) void transpose32_avx(float* d, const float* s, int rows, int cols, size_t dp,
                                                    size_t sp) {
    constexpr int B = 16;
    for (int i0 = 0; i0 < cols; i0 += B)
        for (int j0 = 0; j0 < rows; j0 += B) {
            const int i1 = std::min(cols, i0 + B), j1 = std::min(rows, j0 + B);
            int i = i0;
            for (; i + 8 <= i1; i += 8) {
                int j = j0;
                for (; j + 8 <= j1; j += 8) transpose8x8(d + i * dp + j, s + j * sp + i, dp, sp);
                transpose_block(d, s, j, j1, i, i + 8, dp, sp);
            }
            transpose_block(d, s, j0, j1, i, i1, dp, sp);
        }
}

bool host_has_avx() {
    static const bool ok = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx");
    }();
    return ok;
}
#endif

}  // namespace

void transpose(void* dst, const void* src, int rows, int cols, size_t dst_pitch, size_t src_pitch, int bytes) {
    switch (bytes) {
        case 4:
#if PTOSIM_TRANSPOSE_AVX
            // Moved as floats bit for bit: loads, shuffles and stores do not
            // look at the values.
            if (host_has_avx())
                return transpose32_avx(static_cast<float*>(dst), static_cast<const float*>(src), rows, cols, dst_pitch,
                                       src_pitch);
#endif
            return transpose_blocked(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), rows, cols,
                                     dst_pitch, src_pitch);
        case 2:
            return transpose_blocked(static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), rows, cols,
                                     dst_pitch, src_pitch);
        default:
            return transpose_blocked(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), rows, cols,
                                     dst_pitch, src_pitch);
    }
}

}  // namespace ptosim
