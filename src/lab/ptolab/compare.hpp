// The comparison engine behind ptolab.assert_close, quality_report and
// `ptolab compare`: one implementation, so Python and the CLI agree on every
// number. Rules (the seed's Correctness Rules): torch.testing.assert_close's
// elementwise test |actual - expected| <= atol + rtol * |expected| with the
// seed's per-dtype defaults; overrides are explicit arguments only.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ptolab {

enum class DType { Float16, BFloat16, Float32, Float64, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Bool };

// Accepts numpy/torch spellings: float16/half/fp16, bfloat16/bf16, float32/float/fp32, ...
std::optional<DType> parse_dtype(std::string_view name);
const char* dtype_name(DType d);
size_t dtype_size(DType d);
bool is_floating(DType d);
// Every spelling parse_dtype accepts, for error messages.
const char* dtype_choices();

struct Tolerance {
    double rtol;
    double atol;
};
// float16 1e-3, bfloat16 1.6e-2, float32 1.3e-6 (atol 1e-5 each); float64
// 1e-7/1e-7 and integers/bool exact, as torch.testing.assert_close.
Tolerance default_tolerance(DType d);

// A C-contiguous array somebody else owns.
struct ArrayView {
    const void* data = nullptr;
    DType dtype = DType::Float32;
    std::vector<int64_t> shape;
};
int64_t element_count(const std::vector<int64_t>& shape);
std::string shape_string(const std::vector<int64_t>& shape);  // "(2, 3)"

// Bad arguments (shape or dtype mismatch, bad tolerance): never a verdict.
struct CompareError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CompareOptions {
    std::optional<double> rtol, atol;  // unset: default_tolerance of the dtype
    bool equal_nan = false;
    int worst_count = 8;
    // torch requires equal dtypes; false compares values, with the tolerance
    // of the less precise of the two dtypes.
    bool check_dtype = true;
};

struct Element {
    int64_t flat = 0;
    std::vector<int64_t> index;
    double actual = 0, expected = 0, abs_err = 0, rel_err = 0;
    bool mismatched = false;
};

struct Report {
    DType dtype = DType::Float32;           // actual's
    DType expected_dtype = DType::Float32;
    std::vector<int64_t> shape;
    int64_t count = 0;
    int64_t mismatches = 0;
    int64_t nonfinite = 0;       // pairs where either side is NaN or infinite
    double rtol = 0, atol = 0;
    bool default_tolerance = true;
    double max_abs_err = 0, max_rel_err = 0;
    // Over pairs where both sides are finite. relative_rmse = rmse / rms(expected);
    // r2 = 1 - SS_res / SS_tot (NaN when expected is constant and the
    // residual is not zero: the figure is undefined there).
    double rmse = 0, rms_expected = 0, relative_rmse = 0, r2 = 1;
    std::vector<Element> worst;  // mismatches first, then by absolute error
    bool passed = true;
};

Report compare(const ArrayView& actual, const ArrayView& expected, const CompareOptions& opt = {});

// "PASS <label>: ..." or "FAIL <label>: ..." on one line.
std::string summary_line(const Report& r, std::string_view label);
// The failure message: summary, tolerances, the worst elements, RMSE and R².
std::string format_report(const Report& r, std::string_view label);
std::string report_json(const Report& r, std::string_view label, int indent = 2);

// Element conversion used by the engine (exposed for the golden readers'
// tests and for bfloat16 round-trips without extra packages).
double load_element(const void* data, DType d, int64_t i);
float bf16_to_float(uint16_t bits);
uint16_t float_to_bf16(float f);  // round to nearest even, NaN kept quiet
float f16_to_float(uint16_t bits);

}  // namespace ptolab
