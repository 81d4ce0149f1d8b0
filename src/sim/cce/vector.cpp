// A2A3's element-wise vector intrinsics (vadd ... vmaddrelu, vexp ... vcopy,
// vadds ... vector_dup): each is one line of arithmetic over the shared
// repeat loop (docs/intrinsics/vector.md).
#include "repeat.hpp"

#include <bit>
#include <cmath>
#include <type_traits>

namespace ptosim::cce {
namespace {
using namespace detail;

template <class T>
T binary(Bin op, T a, T b, T d) {
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
            U r = op == Bin::And ? U(ua & ub) : U(ua | ub);
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
        case Bin::AddRelu: return static_cast<T>(std::max<int64_t>(x + y, 0));
        case Bin::SubRelu: return static_cast<T>(std::max<int64_t>(x - y, 0));
        case Bin::MulAddDst: return static_cast<T>(x * y + z);
        case Bin::MulAdd: return static_cast<T>(x * z + y);
        case Bin::MulAddRelu: return static_cast<T>(std::max<int64_t>(x * z + y, 0));
        case Bin::Prelu: return x >= 0 ? a : static_cast<T>(x * y);
        case Bin::Shl: return static_cast<T>(a << (y & 63));
        default: return static_cast<T>(a >> (y & 63));
        }
    }
}

template <class T>
T unary(Una op, T a) {
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
        default: return a;  // transcendental ops have no integer form: the element passes
        }
    }
}

template <class T>
T with_scalar(Sca op, T a, T s, T d) {
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

// Plans, bounds-checks, records and dispatches a vector instruction whose
// operands share one element type; `sources` of src0/src1 are read.
struct Issued {
    Plan p;
    Operand dst, src0, src1;
    uint8_t* ub;
};
Issued issue(const SourceLoc& loc, const char* op, Dt d, const Shape& sh, uint64_t dst, int sources, uint64_t s0,
             uint64_t s1) {
    Core& c = core();
    const int size = size_of(d);
    Issued i{plan(c, sh.repeat, size), {dst, sh.dst_blk, sh.dst_rep, size}, {s0, sh.src0_blk, sh.src0_rep, size},
             {s1, sh.src1_blk, sh.src1_rep, size}, c.mem[static_cast<int>(Space::UB)]};
    OpRecord r = vector_record(op, d, i.p, loc);
    r.write(Space::UB, dst, span(c, i.p, i.dst, op, "dst", loc).bytes);
    if (sources > 0) r.read(Space::UB, s0, span(c, i.p, i.src0, op, sources > 1 ? "src0" : "src", loc).bytes);
    if (sources > 1) r.read(Space::UB, s1, span(c, i.p, i.src1, op, "src1", loc).bytes);
    dispatch(c, r);
    return i;
}

}  // namespace

void vbinary(const SourceLoc& loc, const char* op, Bin b, Dt d, uint64_t dst, uint64_t s0, uint64_t s1, const Shape& sh) {
    const Issued i = issue(loc, op, d, sh, dst, 2, s0, s1);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        each_element(i.p, [&](uint32_t r, uint32_t j) {
            const uint64_t at = i.dst.at(r, j);
            store(i.ub, at, binary<T>(b, load<T>(i.ub, i.src0.at(r, j)), load<T>(i.ub, i.src1.at(r, j)), load<T>(i.ub, at)));
        });
    });
}

void vunary(const SourceLoc& loc, const char* op, Una u, Dt d, uint64_t dst, uint64_t src, const Shape& sh) {
    const Issued i = issue(loc, op, d, sh, dst, 1, src, 0);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        each_element(i.p, [&](uint32_t r, uint32_t j) {
            store(i.ub, i.dst.at(r, j), unary<T>(u, load<T>(i.ub, i.src0.at(r, j))));
        });
    });
}

void vscalar(const SourceLoc& loc, const char* op, Sca s, Dt d, uint64_t dst, uint64_t src, uint64_t scalar, const Shape& sh) {
    const Issued i = issue(loc, op, d, sh, dst, s == Sca::Dup ? 0 : 1, src, 0);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T sv;
        std::memcpy(&sv, &scalar, sizeof(T));
        each_element(i.p, [&](uint32_t r, uint32_t j) {
            const uint64_t at = i.dst.at(r, j);
            const T a = s == Sca::Dup ? sv : load<T>(i.ub, i.src0.at(r, j));
            store(i.ub, at, with_scalar<T>(s, a, sv, load<T>(i.ub, at)));
        });
    });
}

void vaxpy_widen(const SourceLoc& loc, uint64_t dst, uint64_t src, uint64_t scalar_half_bits, const Shape& sh) {
    Core& c = core();
    const Plan p = plan(c, sh.repeat, 4);
    const Operand od{dst, sh.dst_blk, sh.dst_rep, 4}, os{src, sh.src0_blk, sh.src0_rep, 2};
    OpRecord r = vector_record("vaxpy", Dt::F32, p, loc);
    r.src_dtype = to_string(Dt::F16);
    r.write(Space::UB, dst, span(c, p, od, "vaxpy", "dst", loc).bytes);
    r.read(Space::UB, dst, span(c, p, od, "vaxpy", "dst", loc).bytes);
    r.read(Space::UB, src, span(c, p, os, "vaxpy", "src", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    const double a = to_double(half::from_bits(static_cast<uint16_t>(scalar_half_bits)));
    // The product and sum round once to float (not documented; the halves
    // are exact in float, and pto-isa's golden adds in float32).
    each_element(p, [&](uint32_t rr, uint32_t j) {
        const uint64_t at = od.at(rr, j);
        store(ub, at, static_cast<float>(to_double(load<half>(ub, os.at(rr, j))) * a + load<float>(ub, at)));
    });
}

}  // namespace ptosim::cce
