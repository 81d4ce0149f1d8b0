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
