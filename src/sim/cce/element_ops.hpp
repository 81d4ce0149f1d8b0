// The arithmetic of one element, shared by A2A3's repeat-addressed vector
// intrinsics (vector.cpp) and A5's register operations (a5/vreg.cpp), so both
// targets compute an element the same way (docs/intrinsics/README.md,
// "Arithmetic").
#pragma once
#include "repeat.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace ptosim::cce::detail {

template <class T>
inline T binary(Bin op, T a, T b, T d) {
    if constexpr (is_float_v<T>) {
        const double x = to_double(a), y = to_double(b), z = to_double(d);
        switch (op) {
        case Bin::Add: return from_double<T>(x + y);
        case Bin::Sub: return from_double<T>(x - y);
        case Bin::Mul: return from_double<T>(x * y);
        case Bin::Div: return from_double<T>(x / y);
        case Bin::Max: return std::isnan(x) || x > y ? a : b;
        case Bin::Min: return std::isnan(x) || x < y ? a : b;
        case Bin::AddRelu: return from_double<T>(std::max(x + y, 0.0));
        case Bin::SubRelu: return from_double<T>(std::max(x - y, 0.0));
        // The multiply-adds round the product to the element type, then the
        // sum: not fused (pto-isa's TFUSEDMULADD, TMULADDDST and TAXPY goldens
        // compute in the element type one operation at a time;
        // docs/intrinsics/README.md, "Arithmetic").
        case Bin::MulAddDst: return from_double<T>(to_double(from_double<T>(x * y)) + z);
        case Bin::MulAdd: return from_double<T>(to_double(from_double<T>(x * z)) + y);
        case Bin::MulAddRelu: return from_double<T>(std::max(to_double(from_double<T>(x * z)) + y, 0.0));
        case Bin::Prelu: return x >= 0 ? a : from_double<T>(x * y);
        default: {
            // Bitwise operations on float elements act on their bit patterns.
            using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
            U ua, ub;
            std::memcpy(&ua, &a, sizeof(T));
            std::memcpy(&ub, &b, sizeof(T));
            U r = op == Bin::And ? U(ua & ub) : op == Bin::Or ? U(ua | ub) : U(ua ^ ub);
            T out;
            std::memcpy(&out, &r, sizeof(T));
            return out;
        }
        }
    } else {
        // Integers wrap, as the vector unit's integer arithmetic does without saturation.
        const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b), z = static_cast<int64_t>(d);
        switch (op) {
        case Bin::Add: return static_cast<T>(x + y);
        case Bin::Sub: return static_cast<T>(x - y);
        case Bin::Mul: return static_cast<T>(x * y);
        case Bin::Div: return y == 0 ? T(-1) : static_cast<T>(x / y);
        case Bin::Max: return x > y ? a : b;
        case Bin::Min: return x < y ? a : b;
        case Bin::And: return static_cast<T>(a & b);
        case Bin::Or: return static_cast<T>(a | b);
        case Bin::Xor: return static_cast<T>(a ^ b);
        case Bin::AddRelu: return static_cast<T>(std::max<int64_t>(x + y, 0));
        case Bin::SubRelu: return static_cast<T>(std::max<int64_t>(x - y, 0));
        case Bin::MulAddDst: return static_cast<T>(x * y + z);
        case Bin::MulAdd: return static_cast<T>(x * z + y);
        case Bin::MulAddRelu: return static_cast<T>(std::max<int64_t>(x * z + y, 0));
        case Bin::Prelu: return x >= 0 ? a : static_cast<T>(x * y);
        // A count of the element's width or more shifts every bit out: zero,
        // or the sign for an arithmetic right shift (not documented, chosen;
        // pto-isa's A5 int64 shifts rely on it for counts of 32 and more).
        case Bin::Shl: {
            const uint64_t n = static_cast<uint64_t>(y);
            if (n >= sizeof(T) * 8) return T(0);
            return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << n);
        }
        default: {
            const uint64_t n = static_cast<uint64_t>(y);
            if (n >= sizeof(T) * 8) return std::is_signed_v<T> && a < 0 ? T(-1) : T(0);
            return static_cast<T>(a >> n);
        }
        }
    }
}

template <class T>
inline T unary(Una op, T a) {
    if (op == Una::Copy) return a;
    if constexpr (is_float_v<T>) {
        const double x = to_double(a);
        switch (op) {
        case Una::Exp: return from_double<T>(std::exp(x));
        case Una::Ln: return from_double<T>(std::log(x));
        case Una::Abs: return from_double<T>(std::fabs(x));
        case Una::Sqrt: return from_double<T>(std::sqrt(x));
        case Una::Rsqrt: return from_double<T>(1.0 / std::sqrt(x));
        case Una::Rec: return from_double<T>(1.0 / x);
        case Una::Relu: return x > 0 ? a : T(0.0f);
        case Una::Neg: return from_double<T>(-x);
        default: {
            using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
            U u;
            std::memcpy(&u, &a, sizeof(T));
            u = static_cast<U>(~u);
            T out;
            std::memcpy(&out, &u, sizeof(T));
            return out;
        }
        }
    } else {
        switch (op) {
        case Una::Abs: return static_cast<T>(a < 0 ? -static_cast<int64_t>(a) : a);
        case Una::Relu: return a > 0 ? a : T(0);
        case Una::Not: return static_cast<T>(~a);
        case Una::Neg: return static_cast<T>(-static_cast<int64_t>(a));
        default: return a;  // transcendental ops have no integer form: the element passes
        }
    }
}

template <class T>
inline T with_scalar(Sca op, T a, T s, T d) {
    switch (op) {
    case Sca::Add: return binary(Bin::Add, a, s, d);
    case Sca::Mul: return binary(Bin::Mul, a, s, d);
    case Sca::Max: return binary(Bin::Max, a, s, d);
    case Sca::Min: return binary(Bin::Min, a, s, d);
    case Sca::Lrelu: return binary(Bin::Prelu, a, s, d);
    case Sca::Axpy: return binary(Bin::MulAddDst, a, s, d);
    case Sca::Shl: return binary(Bin::Shl, a, s, d);
    case Sca::Shr: return binary(Bin::Shr, a, s, d);
    default: return s;
    }
}

}  // namespace ptosim::cce::detail
