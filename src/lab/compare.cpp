#include <ptolab/compare.hpp>

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <queue>

namespace ptolab {

namespace {

struct DTypeInfo {
    DType d;
    const char* name;
    size_t size;
    std::vector<const char*> aliases;
};

const std::vector<DTypeInfo>& dtypes() {
    static const std::vector<DTypeInfo> t = {
        {DType::Float16, "float16", 2, {"float16", "half", "fp16", "f16", "f2"}},
        {DType::BFloat16, "bfloat16", 2, {"bfloat16", "bf16"}},
        {DType::Float32, "float32", 4, {"float32", "float", "fp32", "f32", "f4"}},
        {DType::Float64, "float64", 8, {"float64", "double", "fp64", "f64", "f8"}},
        {DType::Int8, "int8", 1, {"int8", "i1"}},
        {DType::Int16, "int16", 2, {"int16", "short", "i2"}},
        {DType::Int32, "int32", 4, {"int32", "int", "i4"}},
        {DType::Int64, "int64", 8, {"int64", "long", "i8"}},
        {DType::UInt8, "uint8", 1, {"uint8", "u1"}},
        {DType::UInt16, "uint16", 2, {"uint16", "u2"}},
        {DType::UInt32, "uint32", 4, {"uint32", "u4"}},
        {DType::UInt64, "uint64", 8, {"uint64", "u8"}},
        {DType::Bool, "bool", 1, {"bool", "b1"}},
    };
    return t;
}

const DTypeInfo& info(DType d) {
    for (const auto& i : dtypes())
        if (i.d == d) return i;
    throw CompareError("internal error: dtype without a table entry");
}

// How many significant bits a dtype carries, to pick the looser tolerance
// when two dtypes are compared with check_dtype off.
int precision_rank(DType d) {
    switch (d) {
    case DType::BFloat16: return 8;
    case DType::Float16: return 11;
    case DType::Float32: return 24;
    case DType::Float64: return 53;
    default: return 64;  // integers are compared exactly
    }
}

std::string num(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.6g}", v);
}

// R² near 1 is the interesting range, so it gets more digits than errors do.
std::string r2str(double v) { return std::isfinite(v) ? fmt::format("{:.9g}", v) : num(v); }

std::string index_string(const std::vector<int64_t>& idx) {
    std::string s = "[";
    for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
    return s + "]";
}

// Element values keep NaN/inf visible in JSON as strings.
nlohmann::json value_json(double v) {
    if (std::isfinite(v)) return v;
    return num(v);
}

nlohmann::json finite_or_null(double v) {
    if (std::isfinite(v)) return v;
    return nullptr;  // JSON has no NaN/inf; readers treat null as "undefined"
}

}  // namespace

std::optional<DType> parse_dtype(std::string_view name) {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const std::string_view prefix : {"torch.", "np.", "numpy."})
        if (n.rfind(prefix, 0) == 0) n = n.substr(prefix.size());
    for (const auto& i : dtypes())
        for (const char* a : i.aliases)
            if (n == a) return i.d;
    return std::nullopt;
}

const char* dtype_name(DType d) { return info(d).name; }
size_t dtype_size(DType d) { return info(d).size; }
bool is_floating(DType d) {
    return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64;
}
const char* dtype_choices() {
    return "float16 (half, fp16), bfloat16 (bf16), float32 (float, fp32), float64 (double), int8, int16, int32, "
           "int64, uint8, uint16, uint32, uint64, bool";
}

Tolerance default_tolerance(DType d) {
    switch (d) {
    case DType::Float16: return {1e-3, 1e-5};
    case DType::BFloat16: return {1.6e-2, 1e-5};
    case DType::Float32: return {1.3e-6, 1e-5};
    case DType::Float64: return {1e-7, 1e-7};
    default: return {0.0, 0.0};
    }
}

int64_t element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t s : shape) {
        if (s < 0) throw CompareError("negative dimension " + std::to_string(s) + " in shape " + shape_string(shape));
        if (s != 0 && n > std::numeric_limits<int64_t>::max() / s)
            throw CompareError("shape " + shape_string(shape) + " has more elements than fit in 64 bits");
        n *= s;
    }
    return n;
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) s += ",";
    return s + ")";
}

float f16_to_float(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1f;
    const uint32_t man = h & 0x3ff;
    float f;
    if (exp == 0) {
        f = std::ldexp(static_cast<float>(man), -24);  // zero and subnormals
        return sign ? -f : f;
    }
    uint32_t bits = exp == 31 ? (sign | 0x7f800000u | (man << 13)) : (sign | ((exp + 112) << 23) | (man << 13));
    std::memcpy(&f, &bits, 4);
    return f;
}

float bf16_to_float(uint16_t b) {
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

uint16_t float_to_bf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((bits >> 16) | 0x40);
    bits += 0x7fff + ((bits >> 16) & 1);
    return static_cast<uint16_t>(bits >> 16);
}

double load_element(const void* data, DType d, int64_t i) {
    const auto* p = static_cast<const unsigned char*>(data) + i * static_cast<int64_t>(dtype_size(d));
    auto get = [p](auto v) {
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    switch (d) {
    case DType::Float16: return f16_to_float(get(uint16_t{}));
    case DType::BFloat16: return bf16_to_float(get(uint16_t{}));
    case DType::Float32: return get(float{});
    case DType::Float64: return get(double{});
    case DType::Int8: return get(int8_t{});
    case DType::Int16: return get(int16_t{});
    case DType::Int32: return get(int32_t{});
    case DType::Int64: return static_cast<double>(get(int64_t{}));
    case DType::UInt8: return get(uint8_t{});
    case DType::UInt16: return get(uint16_t{});
    case DType::UInt32: return get(uint32_t{});
    case DType::UInt64: return static_cast<double>(get(uint64_t{}));
    case DType::Bool: return get(uint8_t{}) ? 1.0 : 0.0;
    }
    return 0;
}

Report compare(const ArrayView& a, const ArrayView& e, const CompareOptions& opt) {
    if (a.shape != e.shape)
        throw CompareError("shape mismatch: actual has shape " + shape_string(a.shape) + ", expected has shape " +
                           shape_string(e.shape) + "; reshape one of them (or pass the right --shape for .bin files)");
    if (opt.check_dtype && a.dtype != e.dtype)
        throw CompareError(std::string("dtype mismatch: actual is ") + dtype_name(a.dtype) + ", expected is " +
                           dtype_name(e.dtype) + "; cast the reference to the kernel's output dtype (e.g. "
                           "expected.astype(actual.dtype)) or pass check_dtype=False / --no-check-dtype");
    const int64_t n = element_count(a.shape);
    if (n > 0 && (!a.data || !e.data)) throw CompareError("array data pointer is null");
    const DType tol_dtype = precision_rank(a.dtype) <= precision_rank(e.dtype) ? a.dtype : e.dtype;
    const Tolerance def = default_tolerance(tol_dtype);
    Report r;
    r.dtype = a.dtype;
    r.expected_dtype = e.dtype;
    r.shape = a.shape;
    r.count = n;
    r.rtol = opt.rtol.value_or(def.rtol);
    r.atol = opt.atol.value_or(def.atol);
    r.default_tolerance = !opt.rtol && !opt.atol;
    if (!(r.rtol >= 0) || !(r.atol >= 0) || std::isinf(r.rtol) || std::isinf(r.atol))
        throw CompareError("rtol and atol must be finite and non-negative (got rtol " + num(r.rtol) + ", atol " +
                           num(r.atol) + ")");
    const int worst_k = std::max(0, opt.worst_count);

    // Rank: mismatches before matches, then larger (NaN/inf-aware) error first.
    auto key = [](const Element& x) {
        double err = std::isnan(x.abs_err) ? std::numeric_limits<double>::infinity() : x.abs_err;
        return std::pair<int, double>(x.mismatched ? 1 : 0, err);
    };
    auto worse = [&](const Element& x, const Element& y) {
        auto kx = key(x), ky = key(y);
        if (kx != ky) return kx > ky;
        return x.flat < y.flat;
    };
    std::priority_queue<Element, std::vector<Element>, decltype(worse)> heap(worse);  // top = least bad kept

    long double ss_res = 0, sum_e = 0, sum_e2 = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double av = load_element(a.data, a.dtype, i);
        const double ev = load_element(e.data, e.dtype, i);
        Element x;
        x.flat = i;
        x.actual = av;
        x.expected = ev;
        const bool fin = std::isfinite(av) && std::isfinite(ev);
        bool ok;
        if (av == ev) {
            ok = true;  // also equal infinities
            x.abs_err = 0;
        } else if (std::isnan(av) || std::isnan(ev)) {
            ok = opt.equal_nan && std::isnan(av) && std::isnan(ev);
            x.abs_err = ok ? 0 : std::numeric_limits<double>::quiet_NaN();
        } else if (!fin) {
            ok = false;
            x.abs_err = std::numeric_limits<double>::infinity();
        } else {
            x.abs_err = std::fabs(av - ev);
            ok = x.abs_err <= r.atol + r.rtol * std::fabs(ev);
        }
        x.rel_err = ev != 0 ? x.abs_err / std::fabs(ev) : (x.abs_err == 0 ? 0 : std::numeric_limits<double>::infinity());
        x.mismatched = !ok;
        if (!ok) ++r.mismatches;
        if (!fin) {
            ++r.nonfinite;
        } else {
            ++finite;
            const long double d = static_cast<long double>(av) - ev;
            ss_res += d * d;
            sum_e += ev;
            sum_e2 += static_cast<long double>(ev) * ev;
            r.max_abs_err = std::max(r.max_abs_err, x.abs_err);
            if (std::isfinite(x.rel_err)) r.max_rel_err = std::max(r.max_rel_err, x.rel_err);
            else if (x.abs_err > 0) r.max_rel_err = std::numeric_limits<double>::infinity();
        }
        if (!ok && !fin) r.max_abs_err = std::numeric_limits<double>::infinity();
        if (worst_k > 0 && (x.mismatched || x.abs_err > 0)) {
            if (static_cast<int>(heap.size()) < worst_k) {
                heap.push(std::move(x));
            } else if (worse(x, heap.top())) {
                heap.pop();
                heap.push(std::move(x));
            }
        }
    }
    if (finite > 0) {
        r.rmse = static_cast<double>(std::sqrt(ss_res / finite));
        r.rms_expected = static_cast<double>(std::sqrt(sum_e2 / finite));
        r.relative_rmse = r.rms_expected > 0 ? r.rmse / r.rms_expected
                                             : (r.rmse == 0 ? 0 : std::numeric_limits<double>::infinity());
        const long double mean = sum_e / finite;
        const long double ss_tot = sum_e2 - finite * mean * mean;
        if (ss_tot > 0) r.r2 = static_cast<double>(1 - ss_res / ss_tot);
        else r.r2 = ss_res == 0 ? 1.0 : std::numeric_limits<double>::quiet_NaN();
    }
    r.passed = r.mismatches == 0;
    while (!heap.empty()) {
        r.worst.push_back(heap.top());
        heap.pop();
    }
    std::reverse(r.worst.begin(), r.worst.end());
    for (Element& x : r.worst) {
        x.index.assign(a.shape.size(), 0);
        int64_t rem = x.flat;
        for (size_t d = a.shape.size(); d-- > 0;) {
            x.index[d] = a.shape[d] ? rem % a.shape[d] : 0;
            rem = a.shape[d] ? rem / a.shape[d] : 0;
        }
    }
    return r;
}

std::string summary_line(const Report& r, std::string_view label) {
    std::string dt = dtype_name(r.dtype);
    if (r.expected_dtype != r.dtype) dt += std::string(" vs ") + dtype_name(r.expected_dtype);
    if (r.passed)
        return fmt::format("PASS {}: {} elements {} {}, max abs err {}, rel RMSE {}, R2 {} (rtol {}, atol {})", label,
                           r.count, dt, shape_string(r.shape), num(r.max_abs_err), num(r.relative_rmse), r2str(r.r2),
                           num(r.rtol), num(r.atol));
    return fmt::format("FAIL {}: {} of {} elements mismatched ({:.4g}%), {} {}, max abs err {} (rtol {}, atol {})",
                       label, r.mismatches, r.count, r.count ? 100.0 * r.mismatches / r.count : 0.0, dt,
                       shape_string(r.shape), num(r.max_abs_err), num(r.rtol), num(r.atol));
}

std::string format_report(const Report& r, std::string_view label) {
    std::string s = summary_line(r, label) + "\n";
    s += fmt::format("  tolerance: |actual - expected| <= atol + rtol * |expected|, rtol {}, atol {} ({})\n", num(r.rtol),
                     num(r.atol), r.default_tolerance ? std::string("defaults for ") + dtype_name(r.dtype)
                                                      : std::string("explicit override"));
    s += fmt::format("  mismatches: {} of {}; pairs with NaN/inf: {}\n", r.mismatches, r.count, r.nonfinite);
    if (!r.worst.empty()) {
        s += r.passed ? "  largest errors:\n" : "  worst elements:\n";
        s += fmt::format("    {:<18} {:>14} {:>14} {:>12} {:>12}\n", "index", "actual", "expected", "abs err",
                         "rel err");
        for (const Element& x : r.worst)
            s += fmt::format("    {:<18} {:>14} {:>14} {:>12} {:>12}{}\n", index_string(x.index), num(x.actual),
                             num(x.expected), num(x.abs_err), num(x.rel_err), x.mismatched ? "  <- mismatch" : "");
    }
    s += fmt::format("  RMSE {} = {} of RMS(expected) {}; R2 {}; max rel err {}", num(r.rmse), num(r.relative_rmse),
                     num(r.rms_expected), r2str(r.r2), num(r.max_rel_err));
    return s;
}

std::string report_json(const Report& r, std::string_view label, int indent) {
    nlohmann::json j;
    j["name"] = std::string(label);
    j["status"] = r.passed ? "PASS" : "FAIL";
    j["passed"] = r.passed;
    j["dtype"] = dtype_name(r.dtype);
    j["expected_dtype"] = dtype_name(r.expected_dtype);
    j["shape"] = r.shape;
    j["count"] = r.count;
    j["mismatches"] = r.mismatches;
    j["nonfinite"] = r.nonfinite;
    j["rtol"] = r.rtol;
    j["atol"] = r.atol;
    j["default_tolerance"] = r.default_tolerance;
    j["max_abs_err"] = finite_or_null(r.max_abs_err);
    j["max_rel_err"] = finite_or_null(r.max_rel_err);
    j["rmse"] = finite_or_null(r.rmse);
    j["rms_expected"] = finite_or_null(r.rms_expected);
    j["relative_rmse"] = finite_or_null(r.relative_rmse);
    j["r2"] = finite_or_null(r.r2);
    nlohmann::json w = nlohmann::json::array();
    for (const Element& x : r.worst)
        w.push_back({{"index", x.index},
                     {"flat_index", x.flat},
                     {"actual", value_json(x.actual)},
                     {"expected", value_json(x.expected)},
                     {"abs_err", value_json(x.abs_err)},
                     {"rel_err", value_json(x.rel_err)},
                     {"mismatched", x.mismatched}});
    j["worst"] = w;
    return j.dump(indent);
}

}  // namespace ptolab
