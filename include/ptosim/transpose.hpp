// Transposition of row-major element arrays, built once in libptosim (8 x 8
// blocks in vector registers where the host has AVX) for TTRANS.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {

// dst[i * dst_pitch + j] = src[j * src_pitch + i] for j < rows, i < cols,
// elements of `bytes` bytes (1, 2 or 4); pitches in elements. dst and src do
// not overlap.
void transpose(void* dst, const void* src, int rows, int cols, size_t dst_pitch, size_t src_pitch, int bytes);

}  // namespace ptosim
