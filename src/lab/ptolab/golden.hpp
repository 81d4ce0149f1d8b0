// Golden-file readers for `ptolab compare` and ptolab.load_golden: NumPy .npy
// (format versions 1-3) and raw .bin files whose dtype and shape are given.
// Anything that does not add up (bad magic, malformed header, big-endian or
// Fortran data, a size that disagrees with the header) is a GoldenError
// naming the file and how to fix it, never a partial array.
#pragma once
#include <ptolab/compare.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptolab {

struct GoldenError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Array {
    DType dtype = DType::Float32;
    std::vector<int64_t> shape;
    std::vector<unsigned char> bytes;
    ArrayView view() const { return {bytes.data(), dtype, shape}; }
};

// "2,3", "2x3", "(2, 3)" or "[2,3]"; "" or "()" is a scalar.
std::vector<int64_t> parse_shape(const std::string& text);

// dtype: when set, must agree with the file, except that bfloat16 may be
// requested for 2-byte raw data ('<u2', '<i2', '|V2'), which is how bfloat16
// arrays are usually saved without ml_dtypes.
Array read_npy(const std::string& path, std::optional<DType> dtype = std::nullopt);
Array read_bin(const std::string& path, DType dtype, const std::vector<int64_t>& shape);
// By extension: .npy, else raw (which then needs dtype; shape defaults to flat).
Array read_golden(const std::string& path, std::optional<DType> dtype, std::optional<std::vector<int64_t>> shape);

// Writes version 1.0 .npy (bfloat16 as '<u2' bits).
void write_npy(const std::string& path, const Array& a);

}  // namespace ptolab
