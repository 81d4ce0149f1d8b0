#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {
// C[m x n] += A[m x k] * B[k x n], row-major; products rounded, then summed in ascending k.
void gemm_accumulate(int m, int n, int k, const float* a, const float* b, float* c);
void gemm_accumulate(int m, int n, int k, const int32_t* a, const int32_t* b, int32_t* c);

// Operand element types the fractal path reads.
enum class GemmType : uint8_t { F32, F16, BF16 };

// A boxed tile layout, as tile_element_offset computes it: element (r, c)
// lives in block (r / inner_rows, c / inner_cols) of inner_rows x inner_cols
// elements, blocks and their insides each row- or column-major.
struct GemmLayout {
    int inner_rows, inner_cols;
    int blocks_r, blocks_c;
    bool blocks_row_major, inner_row_major;
};

struct GemmOperand {
    const uint8_t* base;
    GemmLayout layout;
};

// The Cube on tiles in their L0 layouts: C = start + A[m x k] * B[k x n], with
// start = (cin or 0) + bias[j] when bias is given, products rounded to float
// and added in ascending k, exactly as gemm_accumulate. C (and cin, same
// layout) is float Nz with 16-column fractals: (i, j) at
// (j / 16) * c_panel + i * 16 + j % 16. Only the m x n region of C is
// written. Returns false, touching nothing, when the host lacks AVX2/FMA/F16C;
// the caller then takes the portable path.
bool gemm_fractal(GemmType type, int m, int n, int k, const GemmOperand& a, const GemmOperand& b, float* c,
                  const float* cin, size_t c_panel, const float* bias);
}  // namespace ptosim
