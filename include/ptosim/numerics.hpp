// Element numerics of the runtime, below the ISA layer: rounding of exact
// values to narrower binary formats and to integers, and whole-row
// conversions between binary16 and float. The ISA headers (sim_support.hpp)
// and the runtime both call these; the implementations, including the one
// that uses the host's F16C instructions, live in src/sim/numerics.cpp so
// that no kernel translation unit pays for <immintrin.h>.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ptosim {

// The rounding modes of TCVT (docs/semantics.md, "TCVT"); the values are
// pto::RoundMode's, which sim_support.hpp checks.
enum class Rounding : uint8_t { None = 0, Rint = 1, Round = 2, Floor = 3, Ceil = 4, Trunc = 5, Odd = 6 };

// Rounds x (finite, non-zero) to a binary format with `precision` significand
// bits, minimum normal exponent emin and largest finite value maxv.
double round_to_format(double x, int precision, int emin, double maxv, Rounding mode);
// Rounds x to an integral value; NaN and infinities are returned unchanged.
double round_to_integer(double x, Rounding mode);

// n binary16 elements (unaligned little-endian bytes) to float and back,
// bit-identical to half_bits_to_float / float_to_half_bits per element
// (signalling NaNs stay signalling; float -> half rounds to nearest even).
void half_row_to_float(const uint8_t* src, float* dst, int n);
void float_to_half_row(const float* src, uint8_t* dst, int n);

// out[k] = a[k] op b[k] over n binary16 elements, computed in float and
// rounded once to nearest even: what the element-wise path computes per
// element, eight at a time with the host's F16C/AVX where it has them.
enum class RowBinary : uint8_t { Add, Sub, Mul };
void half_binary_row(RowBinary op, const uint8_t* a, const uint8_t* b, uint8_t* out, int n);

// out[r] = the fold of row r of a rows x cols float matrix whose row r
// starts at in + r * row_bytes (unaligned), for r < rows: the accumulator
// starts as the row's first element and takes the others in ascending column
// order, in float. Sum adds (acc + v), Prod multiplies (acc * v); Max and Min
// keep the current value unless v is NaN or strictly beyond it, and never
// leave a NaN (the row's first NaN wins, its bits kept; of equal extremes,
// -0 and +0 included, the first stays): the row reductions' rules
// (pto/common/vec_op.hpp, vop::rd). Eight rows at a time with the host's AVX
// where it has it: the same IEEE operations in the same order per row.
enum class RowFold : uint8_t { Sum, Prod, Max, Min };
void float_row_fold(RowFold op, const uint8_t* in, size_t row_bytes, int rows, int cols, float* out);
// The same folds down the columns: out[c] = the fold of column c, rows in
// ascending order from row 0 (the column reductions), eight columns at a
// time with AVX.
void float_col_fold(RowFold op, const uint8_t* in, size_t row_bytes, int rows, int cols, float* out);
// out[r] = row r's sum as pto-isa's A5 TROWSUM forms it on the device: each
// 64-element part of the row (one vector register) summed as vcadd sums it,
// a binary tree of adjacent pairs with the columns past the row's end as
// +0, and the parts' sums added in order to +0; every addition in float,
// two NaNs giving the first's, quieted (ptosim/nan_rule.hpp). Eight rows at
// a time with the host's AVX where it has it, bit for bit the same.
void float_row_tree_sum(const uint8_t* in, size_t row_bytes, int rows, int cols, float* out);

}  // namespace ptosim
