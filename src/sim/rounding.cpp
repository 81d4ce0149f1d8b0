// Rounding of exact values to narrower binary formats and to integers, in
// every RoundMode the TCVT page lists (docs/semantics.md, "TCVT").
#include <pto/common/type.hpp>
#include <cmath>

namespace pto::ptosim_impl {

namespace {
double round_scaled(double n, bool negative, RoundMode mode) {
    // n >= 0 is the magnitude in units of the target quantum.
    double fl = std::floor(n);
    double frac = n - fl;
    switch (mode) {
        case RoundMode::CAST_TRUNC: return fl;
        case RoundMode::CAST_FLOOR: return negative ? (frac > 0 ? fl + 1 : fl) : fl;
        case RoundMode::CAST_CEIL: return negative ? fl : (frac > 0 ? fl + 1 : fl);
        case RoundMode::CAST_ROUND: return frac >= 0.5 ? fl + 1 : fl;
        case RoundMode::CAST_ODD:
            if (frac == 0) return fl;
            return std::fmod(fl, 2.0) == 0 ? fl + 1 : fl;
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT:
        default:
            if (frac > 0.5) return fl + 1;
            if (frac < 0.5) return fl;
            return std::fmod(fl, 2.0) == 0 ? fl : fl + 1;
    }
}
}  // namespace

double round_to_integer(double x, RoundMode mode) {
    if (!std::isfinite(x)) return x;
    double r = round_scaled(std::fabs(x), x < 0, mode);
    return x < 0 ? -r : r;
}

double round_to_format(double x, int precision, int emin, double maxv, RoundMode mode) {
    const bool neg = x < 0;
    const double a = std::fabs(x);
    int e;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    int exp = e - 1;
    if (exp < emin) exp = emin;  // subnormal range keeps the minimum quantum
    const double quantum = std::ldexp(1.0, exp - (precision - 1));
    double r = round_scaled(a / quantum, neg, mode) * quantum;
    if (r > maxv) {
        const bool to_inf = mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_ROUND ||
                            (mode == RoundMode::CAST_CEIL && !neg) || (mode == RoundMode::CAST_FLOOR && neg);
        r = to_inf ? INFINITY : maxv;
    }
    return neg ? -r : r;
}

}  // namespace pto::ptosim_impl
