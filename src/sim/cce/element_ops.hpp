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

template <class T, bool Round>
inline double product(double p) {
    if constexpr (Round) return to_double(from_double<T>(p));
    else return p;
}

// `RoundProduct`: whether a multiply-add rounds its product to the element
// type before the sum (A2A3's vector unit) or rounds once (A5's registers).
template <class T, bool RoundProduct = true>
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
        // On A2A3 the multiply-adds round the product to the element type,
        // then the sum: pto-isa's A2A3 TFUSEDMULADD, TMULADDDST and TAXPY
        // goldens compute in the element type one operation at a time. Its A5
        // TAXPY golden wants one rounding (docs/intrinsics/README.md,
        // "Arithmetic"; a5-vreg.md).
        case Bin::MulAddDst: return from_double<T>(product<T, RoundProduct>(x * y) + z);
        case Bin::MulAdd: return from_double<T>(product<T, RoundProduct>(x * z) + y);
        case Bin::MulAddRelu: return from_double<T>(std::max(product<T, RoundProduct>(x * z) + y, 0.0));
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

template <class T, bool RoundProduct = true>
inline T with_scalar(Sca op, T a, T s, T d) {
    const auto bin = [&](Bin b) { return binary<T, RoundProduct>(b, a, s, d); };
    switch (op) {
    case Sca::Add: return bin(Bin::Add);
    case Sca::Mul: return bin(Bin::Mul);
    case Sca::Max: return bin(Bin::Max);
    case Sca::Min: return bin(Bin::Min);
    case Sca::Lrelu: return bin(Bin::Prelu);
    case Sca::Axpy: return bin(Bin::MulAddDst);
    case Sca::Shl: return bin(Bin::Shl);
    case Sca::Shr: return bin(Bin::Shr);
    default: return s;
    }
}

}  // namespace ptosim::cce::detail
