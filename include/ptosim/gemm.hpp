#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {
// C[m x n] += A[m x k] * B[k x n], row-major; products rounded, then summed in ascending k.
void gemm_accumulate(int m, int n, int k, const float* a, const float* b, float* c);
void gemm_accumulate(int m, int n, int k, const int32_t* a, const int32_t* b, int32_t* c);
}  // namespace ptosim
