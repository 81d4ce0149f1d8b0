// Scalar references for the instruction tests. They are written from the ISA
// definitions alone (IEEE binary16 via the compiler's _Float16, bfloat16 by
// hand, integer rounding via <cmath>) so they do not share code with the
// simulator they check.
#pragma once
#include "sim_test_util.hpp"
#include <gtest/gtest.h>
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace ref {

using namespace pto;

template <class T>
constexpr bool is_half = std::is_same_v<T, half>;
template <class T>
constexpr bool is_bf16 = std::is_same_v<T, bfloat16_t>;
template <class T>
constexpr bool is_f16 = is_half<T> || is_bf16<T>;
template <class T>
constexpr bool is_fp = is_f16<T> || std::is_floating_point_v<T>;

inline uint16_t bits16(half h) { return h.bits; }
inline uint16_t bits16(bfloat16_t h) { return h.bits; }
inline half half_from_bits(uint16_t b) { half h; h.bits = b; return h; }
inline bfloat16_t bf16_from_bits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }

inline _Float16 f16_from_bits(uint16_t b) { _Float16 f; std::memcpy(&f, &b, 2); return f; }
inline uint16_t f16_bits(_Float16 f) { uint16_t b; std::memcpy(&b, &f, 2); return b; }

// float -> bfloat16, round to nearest even; NaN stays NaN.
inline uint16_t bf16_rne(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
    const uint32_t low = u & 0xffff, hi = u >> 16;
    if (low > 0x8000 || (low == 0x8000 && (hi & 1))) return static_cast<uint16_t>(hi + 1);
    return static_cast<uint16_t>(hi);
}
inline float bf16_to_float(uint16_t b) {
    uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Element value as double (exact for every element type used here).
template <class T>
double to_double(T v) {
    if constexpr (is_half<T>) return static_cast<double>(f16_from_bits(v.bits));
    else if constexpr (is_bf16<T>) return static_cast<double>(bf16_to_float(v.bits));
    else return static_cast<double>(v);
}

// Builds an element from a float with the format's nearest-even rounding.
template <class T>
T from_float(float f) {
    if constexpr (is_half<T>) return half_from_bits(f16_bits(static_cast<_Float16>(f)));
    else if constexpr (is_bf16<T>) return bf16_from_bits(bf16_rne(f));
    else return static_cast<T>(f);
}

template <class T>
uint64_t raw_bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T>
bool is_nan(T v) {
    if constexpr (is_fp<T>) return std::isnan(to_double(v));
    else return false;
}

// Bit-exact equality, any NaN matching any NaN.
template <class T>
bool same(T a, T b) {
    if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b);
    return raw_bits(a) == raw_bits(b);
}

template <class T>
std::string show(T v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.17g (0x%llx)", to_double(v), static_cast<unsigned long long>(raw_bits(v)));
    return buf;
}

// Every element of a tile's output against a sentinel run: want(r, c, w)
// sets w for the elements inside the written region and leaves the
// sentinel elsewhere.
template <class T, class Want>
void expect_region(const std::vector<T>& out, const std::vector<T>& sentinel, int cols, Want want) {
    for (size_t i = 0; i < out.size(); ++i) {
        const int r = static_cast<int>(i) / cols, c = static_cast<int>(i) % cols;
        T w = sentinel[i];
        want(r, c, w);
        ASSERT_TRUE(same(out[i], w)) << "(" << r << "," << c << ") got " << show(out[i]) << " want " << show(w);
    }
}

template <class T>
const char* type_name() {
    if constexpr (is_half<T>) return "half";
    else if constexpr (is_bf16<T>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else return "?";
}

// A distinct, recognisable element per index: fills GM inputs and sentinels.
template <class T>
T pattern(uint64_t i, uint64_t salt) {
    const uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ull ^ (salt * 0xc2b2ae3d27d4eb4full);
    if constexpr (is_fp<T>) return from_float<T>(static_cast<float>(static_cast<int64_t>(h % 2001) - 1000) / 8.0f);
    else return static_cast<T>(h >> 17);
}

// Pipe hand-off inside a kernel body: producer pipe -> consumer pipe.
#define ISA_SYNC(src, dst)                  \
    do {                                    \
        set_flag(src, dst, EVENT_ID0);      \
        wait_flag(src, dst, EVENT_ID0);     \
    } while (0)

// ND global tensor of rows x cols with row stride ld (elements).
template <class T>
using GmND = GlobalTensor<T, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
template <class T>
GmND<T> gm_nd(T* p, int rows, int cols, int ld) {
    return GmND<T>(p, Shape<1, 1, 1, DYNAMIC, DYNAMIC>(rows, cols), Stride<1, 1, 1, DYNAMIC, 1>(ld));
}
// DN (column-major) global tensor; element (r, c) at r + c * ld.
template <class T>
using GmDN = GlobalTensor<T, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, 1, DYNAMIC>, Layout::DN>;
template <class T>
GmDN<T> gm_dn(T* p, int rows, int cols, int ld) {
    return GmDN<T>(p, Shape<1, 1, 1, DYNAMIC, DYNAMIC>(rows, cols), Stride<1, 1, 1, 1, DYNAMIC>(ld));
}

// Whole-tile transfers between a tile and a packed rows x cols vector.
template <class Tl, class T>
void load(Tl& t, std::vector<T>& v, int rows, int cols) {
    auto g = gm_nd(v.data(), rows, cols, cols);
    TLOAD(t, g);
}
template <class Tl, class T>
void store(std::vector<T>& v, Tl& t, int rows, int cols) {
    auto g = gm_nd(v.data(), rows, cols, cols);
    TSTORE(g, t);
}

// The type list of a typed suite per compiled target: TL((A2A3 types), (A5 types)).
#define UNP(...) __VA_ARGS__
#if PTOSIM_TARGET_A5
#define TL(a2a3, a5) ::testing::Types<UNP a5>
#else
#define TL(a2a3, a5) ::testing::Types<UNP a2a3>
#endif

// A typed test suite over one element type per test.
#define TYPED_SUITE(SUITE, TYPES)            \
    template <class T>                       \
    class SUITE : public ::testing::Test {}; \
    TYPED_TEST_SUITE(SUITE, TYPES)

// Operands of exact matmul references: (In, Acc) element pairs, and inputs
// that are small multiples of 1/8 (integers for int8), so every product and
// partial sum is exact in the accumulator and the reference is order
// independent.
template <class A, class C>
struct MM {
    using In = A;
    using Acc = C;
};
template <class T>
std::vector<T> operand(int rows, int cols, uint64_t salt) {
    std::vector<T> v(static_cast<size_t>(rows) * cols);
    testutil::Rng rng;
    rng.s ^= salt * 0x100000001b3ull;
    for (auto& x : v) {
        const int q = static_cast<int>(rng.next() % 31) - 15;
        if constexpr (std::is_same_v<T, int8_t>) x = static_cast<int8_t>(q * 8 + static_cast<int>(rng.next() % 8));
        else x = from_float<T>(static_cast<float>(q) / 8.0f);
    }
    return v;
}

// NZ byte order of an R-row matrix, the formula the ISA documents.
template <class T>
size_t nz_index(int r, int c, int R) {
    constexpr int C0 = 32 / sizeof(T);
    return (static_cast<size_t>(c / C0) * R + r) * C0 + c % C0;
}

// ------------------------------------------------------------ rounding

inline double round_int(double x, RoundMode m) {
    switch (m) {
        case RoundMode::CAST_ROUND: return std::round(x);
        case RoundMode::CAST_FLOOR: return std::floor(x);
        case RoundMode::CAST_CEIL: return std::ceil(x);
        case RoundMode::CAST_TRUNC: return std::trunc(x);
        case RoundMode::CAST_ODD: {
            const double f = std::floor(x);
            if (f == x) return x;
            return std::fmod(f, 2.0) != 0 ? f : f + 1;
        }
        default: return std::nearbyint(x);  // CAST_RINT, CAST_NONE: the default FE_TONEAREST
    }
}

// Chooses between the neighbours lo < x < hi of a grid; lo_even says which
// of the two has an even last significand bit.
inline double pick(double x, double lo, double hi, bool lo_even, RoundMode m) {
    const double dl = x - lo, dh = hi - x;
    switch (m) {
        case RoundMode::CAST_FLOOR: return lo;
        case RoundMode::CAST_CEIL: return hi;
        case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
        case RoundMode::CAST_ODD: return lo_even ? hi : lo;
        case RoundMode::CAST_ROUND:
            if (dl != dh) return dl < dh ? lo : hi;
            return x > 0 ? hi : lo;
        default:
            if (dl != dh) return dl < dh ? lo : hi;
            return lo_even ? lo : hi;
    }
}

// All finite values of a 16-bit float format plus +-Inf placed at the next
// binade (2^16 for half, 2^128 for bfloat16) so overflow rounds like IEEE.
struct Grid16 {
    std::vector<double> v;      // ascending
    std::vector<uint16_t> bits;  // same order
    uint16_t pos_inf, neg_inf;
};
inline Grid16 make_grid(bool bf) {
    Grid16 g;
    std::vector<std::pair<double, uint16_t>> all;
    for (uint32_t b = 0; b < 65536; ++b) {
        const uint16_t u = static_cast<uint16_t>(b);
        const double d = bf ? bf16_to_float(u) : static_cast<double>(f16_from_bits(u));
        if (std::isnan(d) || std::isinf(d)) continue;
        if (d == 0 && (u & 0x8000)) continue;  // -0 shares +0's place
        all.push_back({d, u});
    }
    const double edge = bf ? std::ldexp(1.0, 128) : 65536.0;
    g.pos_inf = bf ? 0x7f80 : 0x7c00;
    g.neg_inf = bf ? 0xff80 : 0xfc00;
    all.push_back({edge, g.pos_inf});
    all.push_back({-edge, g.neg_inf});
    std::sort(all.begin(), all.end());
    for (auto& [d, u] : all) {
        g.v.push_back(d);
        g.bits.push_back(u);
    }
    return g;
}
inline const Grid16& grid(bool bf) {
    static const Grid16 h = make_grid(false), b = make_grid(true);
    return bf ? b : h;
}

// Exact value x rounded into half/bfloat16 in mode m, as bits.
inline uint16_t round16(double x, RoundMode m, bool bf) {
    const Grid16& g = grid(bf);
    if (std::isnan(x)) return bf ? 0x7fc0 : 0x7e00;
    if (std::isinf(x)) return x > 0 ? g.pos_inf : g.neg_inf;
    if (x == 0) return std::signbit(x) ? 0x8000 : 0;
    size_t lo, hi;
    if (x >= g.v.back()) {  // past the largest finite value: between it and Inf
        hi = g.v.size() - 1;
        lo = hi - 1;
    } else if (x <= g.v.front()) {
        lo = 0;
        hi = 1;
    } else {
        auto it = std::lower_bound(g.v.begin(), g.v.end(), x);
        hi = static_cast<size_t>(it - g.v.begin());
        if (*it == x) return g.bits[hi];
        lo = hi - 1;
    }
    const bool lo_even = (g.bits[lo] & 1) == 0;
    const double r = pick(x, g.v[lo], g.v[hi], lo_even, m);
    uint16_t out = r == g.v[lo] ? g.bits[lo] : g.bits[hi];
    if ((out & 0x7fff) == 0 && x < 0) out = 0x8000;  // a negative value rounding to zero keeps its sign
    return out;
}

// Exact value x rounded into float in mode m.
inline float round_f32(double x, RoundMode m) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return static_cast<float>(x);
    const float n = static_cast<float>(x);  // nearest even
    if (static_cast<double>(n) == x) return n;
    float lo, hi;
    if (static_cast<double>(n) < x) {
        lo = n;
        hi = std::nextafter(n, std::numeric_limits<float>::infinity());
    } else {
        hi = n;
        lo = std::nextafter(n, -std::numeric_limits<float>::infinity());
    }
    uint32_t lb;
    std::memcpy(&lb, &lo, 4);
    double l = lo, h = hi;
    if (std::isinf(hi)) h = std::ldexp(1.0, 128);
    if (std::isinf(lo)) l = -std::ldexp(1.0, 128);
    const double r = pick(x, l, h, (lb & 1) == 0, m);
    return r == l ? lo : hi;
}

// TCVT reference: source value (exact double) -> destination element.
template <class D>
D cvt(double x, RoundMode m, SaturationMode sat = SaturationMode::ON) {
    if constexpr (is_half<D>) return half_from_bits(round16(x, m, false));
    else if constexpr (is_bf16<D>) return bf16_from_bits(round16(x, m, true));
    else if constexpr (std::is_same_v<D, float>) return round_f32(x, m);
    else {
        if (std::isnan(x)) return D(0);
        const double r = std::isinf(x) ? x : round_int(x, m);
        constexpr double lo = static_cast<double>(std::numeric_limits<D>::min());
        constexpr double hi = static_cast<double>(std::numeric_limits<D>::max());
        if (sat == SaturationMode::ON) {
            if (r <= lo) return std::numeric_limits<D>::min();
            if (r >= hi) return std::numeric_limits<D>::max();
            return static_cast<D>(r);
        }
        // Without saturation the low bits of the two's complement integer
        // remain; +-Inf give 0 (pto-isa's tcvt golden, gen_data.py).
        if (std::isinf(r)) return D(0);
        return static_cast<D>(static_cast<uint64_t>(static_cast<int64_t>(r)));
    }
}

inline const RoundMode kAllModes[] = {RoundMode::CAST_RINT, RoundMode::CAST_ROUND, RoundMode::CAST_FLOOR,
                                      RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD,
                                      RoundMode::CAST_NONE};
inline const char* mode_name(RoundMode m) {
    static const char* n[] = {"CAST_NONE", "CAST_RINT", "CAST_ROUND", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC", "CAST_ODD"};
    return n[static_cast<int>(m)];
}

}  // namespace ref
