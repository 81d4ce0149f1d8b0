// Shared by the reduction tests (test_isa_reduce_*.cpp, one binary per
// target, split so the translation units build in parallel): scalar
// references, inputs, tile shapes and the element types per group.
//
// References follow the documented order: 16-bit floats accumulate in float,
// ascending index, rounded once; integers wrap. Binary half ops use _Float16.
#pragma once
#include <pto/inst/reduce.hpp>
#include "test_isa_ref.hpp"
#include <mutex>

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace reduce_test {
constexpr int kR = 16, kC = 64;

template <class T>
constexpr int kBlock = static_cast<int>(32 / sizeof(T));

// ------------------------------------------------------------ references

enum class Rop { Sum, Max, Min, Prod };
enum class Bop { Add, Sub, Mul, Div, Max, Min, ExpDif };

template <class T>
float fval(T v) { return static_cast<float>(to_double(v)); }

// max/min: NaN wins; on ties the earlier operand stays (so -0 vs +0 keeps the first).
inline bool takes_max(float cur, float v) { return !std::isnan(cur) && (std::isnan(v) || v > cur); }
inline bool takes_min(float cur, float v) { return !std::isnan(cur) && (std::isnan(v) || v < cur); }

template <class T>
uint64_t wide(T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

// A5's TROWSUM (docs/isa/reduce.md): each 256-byte part of the row summed
// as a binary tree of adjacent pairs, the part's elements past the row as
// +0, the parts' sums added in order to +0, every addition in the element
// type (_Float16 for half).
template <class T>
T ref_a5_row_sum(const std::vector<T>& v) {
    using E = std::conditional_t<is_half<T>, _Float16, float>;
    constexpr size_t part = 256 / sizeof(T);
    E acc = 0;
    for (size_t c0 = 0; c0 < v.size(); c0 += part) {
        E t[part];
        for (size_t j = 0; j < part; ++j) t[j] = c0 + j < v.size() ? E(fval(v[c0 + j])) : E(0);
        for (size_t n = part; n > 1; n /= 2)
            for (size_t i = 0; i < n / 2; ++i) t[i] = t[2 * i] + t[2 * i + 1];
        acc = acc + t[0];
    }
    if constexpr (is_half<T>) return half_from_bits(f16_bits(acc));
    else return from_float<T>(acc);
}

template <class T>
T ref_fold(Rop op, const std::vector<T>& v) {
    if constexpr (is_fp<T>) {
        float acc = fval(v[0]);
        for (size_t i = 1; i < v.size(); ++i) {
            const float x = fval(v[i]);
            if (op == Rop::Sum) acc += x;
            else if (op == Rop::Prod) acc *= x;
            else if (op == Rop::Max ? takes_max(acc, x) : takes_min(acc, x)) acc = x;
        }
        return from_float<T>(acc);
    } else {
        uint64_t acc = wide(v[0]);
        T best = v[0];
        for (size_t i = 1; i < v.size(); ++i) {
            if (op == Rop::Sum) acc += wide(v[i]);
            else if (op == Rop::Prod) acc *= wide(v[i]);
            else if (op == Rop::Max ? v[i] > best : v[i] < best) best = v[i];
        }
        return op == Rop::Max || op == Rop::Min ? best : static_cast<T>(acc);
    }
}

// A row reduction's fold: ref_fold, except A5's float sums (ref_a5_row_sum).
template <class T>
T ref_row_fold(Rop op, const std::vector<T>& v) {
#if PTOSIM_TARGET_A5
    if constexpr (is_fp<T>)
        if (op == Rop::Sum) return ref_a5_row_sum(v);
#endif
    return ref_fold(op, v);
}

template <class T>
T ref_bin(Bop op, T a, T b) {
    if constexpr (is_half<T>) {
        const _Float16 x = f16_from_bits(a.bits), y = f16_from_bits(b.bits);
        switch (op) {
            case Bop::Add: return half_from_bits(f16_bits(x + y));
            case Bop::Sub: return half_from_bits(f16_bits(x - y));
            case Bop::Mul: return half_from_bits(f16_bits(x * y));
            case Bop::Div: return half_from_bits(f16_bits(x / y));
            case Bop::ExpDif: {
                // vsub then vexp on half registers: the difference is a half,
                // its exponential rounded once from double.
                const _Float16 d = x - y;
                return half_from_bits(f16_bits(static_cast<_Float16>(std::exp(static_cast<double>(d)))));
            }
            default: break;
        }
    }
    if constexpr (is_fp<T>) {
        const float x = fval(a), y = fval(b);
        switch (op) {
            case Bop::Add: return from_float<T>(x + y);
            case Bop::Sub: return from_float<T>(x - y);
            case Bop::Mul: return from_float<T>(x * y);
            case Bop::Div: return from_float<T>(x / y);
            case Bop::Max: return takes_max(x, y) ? b : a;
            case Bop::Min: return takes_min(x, y) ? b : a;
            case Bop::ExpDif: return from_float<T>(static_cast<float>(std::exp(static_cast<double>(x - y))));
        }
    } else {
        switch (op) {
            case Bop::Add: return static_cast<T>(wide(a) + wide(b));
            case Bop::Sub: return static_cast<T>(wide(a) - wide(b));
            case Bop::Mul: return static_cast<T>(wide(a) * wide(b));
            case Bop::Max: return b > a ? b : a;
            case Bop::Min: return b < a ? b : a;
            default: break;
        }
    }
    return a;
}

// ------------------------------------------------------------ inputs

enum class Vals { Plain, Specials, NearOne };

template <class T>
std::vector<T> input(size_t n, uint64_t salt, Vals kind = Vals::Specials) {
    std::vector<T> v(n);
    testutil::Rng rng = testutil::Rng::salted(salt);
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 60000.0f, -60000.0f};
            if (kind == Vals::Specials && h % 16 == 0) x = from_float<T>(specials[(h >> 8) % 7]);
            else if (kind == Vals::NearOne) x = from_float<T>(static_cast<float>((h & 1 ? -1 : 1) * rng.uniform(0.5, 2.0)));
            else x = from_float<T>(static_cast<float>(rng.uniform(-100, 100)));
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            const T ends[] = {lo, static_cast<T>(lo + 1), hi, static_cast<T>(hi - 1), T(0), T(1)};
            x = h % 4 == 0 ? ends[(h >> 8) % 6] : static_cast<T>(h >> 11);
        }
    }
    return v;
}

inline std::string shape(int r, int c) { return std::to_string(r) + "x" + std::to_string(c); }

inline const std::pair<int, int> kShapes[] = {{1, 1}, {7, 13}, {16, 64}, {3, 64}, {16, 1}, {5, 33}};

template <class T>
using Full = Tile<TileType::Vec, T, kR, kC>;
template <class T>
using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using RowVecDN = Tile<TileType::Vec, T, kR, 1, BLayout::ColMajor, DYNAMIC, 1>;  // one value per row
template <class T>
using RowVecDNBytes = Tile<TileType::Vec, T, 1, kR>;                           // the same bytes, ND
template <class T>
using RowBlock = Tile<TileType::Vec, T, kR, kBlock<T>, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using RowBlockFull = Tile<TileType::Vec, T, kR, kBlock<T>>;
template <class T>
using ColVec = Tile<TileType::Vec, T, 1, kC, BLayout::RowMajor, 1, DYNAMIC>;
template <class T>
using ColVecFull = Tile<TileType::Vec, T, 1, kC>;

// Rows built to hit NaN, Inf - Inf, signed zeros and 16-bit overflow that
// only the final rounding produces.
template <class T>
std::vector<T> special_rows() {
    const float rows[][4] = {{1, NAN, 2, 3},           {INFINITY, -INFINITY, 1, 1}, {INFINITY, 5, -7, 1},
                             {-0.0f, 0.0f, -0.0f, 0.0f}, {0.0f, -0.0f, 0.0f, -0.0f}, {60000, 60000, -60000, 1},
                             {NAN, INFINITY, -INFINITY, 0}, {-INFINITY, -1, -2, -3}, {3, 3, 3, 3}};
    std::vector<T> v = input<T>(kR * kC, 5, Vals::Plain);
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 4; ++c) v[r * kC + c] = from_float<T>(rows[r][c]);
    return v;
}

#if PTOSIM_TARGET_A5
using RowMinMaxTypes = ::testing::Types<half, float, int16_t, int32_t, int8_t, uint8_t>;
using ColReduceTypes = ::testing::Types<half, float, int16_t, int32_t, int8_t, uint8_t, uint16_t, uint32_t, bfloat16_t>;
using ColProdTypes = ::testing::Types<half, float, int16_t, int32_t, bfloat16_t, uint16_t, uint32_t>;
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t, uint16_t, uint32_t, bfloat16_t, int8_t, uint8_t>;
#else
using RowMinMaxTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ColReduceTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ColProdTypes = ::testing::Types<half, float, int16_t, int32_t>;
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t>;
#endif
using FloatTypes = ::testing::Types<half, float>;
using Base4Types = ::testing::Types<half, float, int16_t, int32_t>;
using CopyTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
}  // namespace reduce_test

using namespace reduce_test;
