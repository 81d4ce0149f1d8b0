// A2A3's element-wise vector intrinsics (vadd ... vmaddrelu, vexp ... vcopy,
// vadds ... vector_dup): each is one line of arithmetic over the shared
// repeat loop (docs/intrinsics/vector.md).
#include "element_ops.hpp"
#include "repeat.hpp"

#include <ptosim/numerics.hpp>
#include <ptosim/vmath.hpp>

#include <bit>
#include <cmath>
#include <type_traits>
#include <vector>

namespace ptosim::cce {
namespace {
using namespace detail;

// Plans, bounds-checks, records and dispatches a vector instruction whose
// operands share one element type; `sources` of src0/src1 are read.
struct Issued {
    Plan p;
    Operand dst, src0, src1;
    uint8_t* ub;
};
Issued issue(const SourceLoc& loc, const char* op, Dt d, const Shape& sh, uint64_t dst, int sources, uint64_t s0,
             uint64_t s1, const Plan* given = nullptr) {
    Core& c = core();
    const int size = size_of(d);
    Issued i{given ? *given : plan(c, sh.repeat, size), {dst, sh.dst_blk, sh.dst_rep, size},
             {s0, sh.src0_blk, sh.src0_rep, size}, {s1, sh.src1_blk, sh.src1_rep, size},
             c.mem[static_cast<int>(Space::UB)]};
    const uint64_t dst_bytes = span(c, i.p, i.dst, op, "dst", loc).bytes;
    const uint64_t s0_bytes = sources > 0 ? span(c, i.p, i.src0, op, sources > 1 ? "src0" : "src", loc).bytes : 0;
    const uint64_t s1_bytes = sources > 1 ? span(c, i.p, i.src1, op, "src1", loc).bytes : 0;
    if (dispatch_unrecorded(c, op, loc)) return i;
    OpRecord r = vector_record(op, d, i.p, loc);
    r.write(Space::UB, dst, dst_bytes);
    if (sources > 0) r.read(Space::UB, s0, s0_bytes);
    if (sources > 1) r.read(Space::UB, s1, s1_bytes);
    dispatch(c, r);
    return i;
}

}  // namespace

namespace {
#if defined(__x86_64__) && defined(__GNUC__)
// float_chunks eight lanes at a time on hosts with AVX: float_op's
// expressions (element_ops.hpp) on eight lanes, the tail one by one through
// float_op itself.
typedef float float8_v __attribute__((vector_size(32)));
// keep_first_nan (element_ops.hpp) on eight lanes, compiled for AVX as
// its callers are (the generic one would pass 32-byte vectors without AVX).
__attribute__((target("avx"))) inline float8_v keep_first_nan8(float8_v r, float8_v a) {
    typedef int32_t lanes8_v __attribute__((vector_size(32)));
    return a != a ? (float8_v)((lanes8_v)a | 0x00400000) : r;
}
template <Bin B>
__attribute__((target("avx"))) inline float8_v float_op8(float8_v a, float8_v b) {
    if constexpr (B == Bin::Add) return keep_first_nan8(a + b, a);
    else if constexpr (B == Bin::Sub) return keep_first_nan8(a - b, a);
    else if constexpr (B == Bin::Mul) return keep_first_nan8(a * b, a);
    else if constexpr (B == Bin::Div) return keep_first_nan8(a / b, a);
    else if constexpr (B == Bin::Max) return (a != a) | (a > b) ? a : b;
    else return (a != a) | (a < b) ? a : b;
}
template <Bin B>
__attribute__((target("avx"))) void float_run_avx(uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t n) {
    uint32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        float8_v x, y;
        std::memcpy(&x, a + k * 4, sizeof x);
        std::memcpy(&y, b + k * 4, sizeof y);
        const float8_v r = float_op8<B>(x, y);
        std::memcpy(d + k * 4, &r, sizeof r);
    }
    for (; k < n; ++k) {
        float x, y;
        std::memcpy(&x, a + k * 4, 4);
        std::memcpy(&y, b + k * 4, 4);
        const float r = float_op<B>(x, y);
        std::memcpy(d + k * 4, &r, 4);
    }
}
const bool host_has_avx = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
}();
#endif
template <Bin B>
inline void float_run(uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t n) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (host_has_avx) return float_run_avx<B>(d, a, b, n);
#endif
    float_chunks(d, a, b, 0.0f, n, FloatOp<B>{});
}

// Float +, -, *, /, max and min over one contiguous run with nothing
// subscribed (light_run): the chunked loop the general path below runs on
// that run, without its per-instruction machinery. pto-isa's TCOLSUM is a
// vadd of one row per source row in counter mode. False: take the general path.
bool light_float_binary(const SourceLoc& loc, const char* op, Bin b, uint64_t dst, uint64_t s0, uint64_t s1,
                        const Shape& sh) {
    if (!(b == Bin::Add || b == Bin::Sub || b == Bin::Mul || b == Bin::Div || b == Bin::Max || b == Bin::Min))
        return false;
    Core& c = core();
    const uint64_t n = light_run<3>(c, sh, 4, {sh.dst_blk, sh.src0_blk, sh.src1_blk}, {sh.dst_rep, sh.src0_rep, sh.src1_rep},
                                    {4, 4, 4}, {dst, s0, s1});
    if (n == 0) return false;
    uint8_t* const ub = c.mem[static_cast<int>(Space::UB)];
    uint8_t* const d = ub + dst;
    const uint8_t *const a = ub + s0, *const e = ub + s1;
    if (!chunkable(d, a, n * 4) || !chunkable(d, e, n * 4)) return false;
    pass_unrecorded(c, op, loc);
    const uint32_t count = static_cast<uint32_t>(n);
    switch (b) {
    case Bin::Add: float_run<Bin::Add>(d, a, e, count); break;
    case Bin::Sub: float_run<Bin::Sub>(d, a, e, count); break;
    case Bin::Mul: float_run<Bin::Mul>(d, a, e, count); break;
    case Bin::Div: float_run<Bin::Div>(d, a, e, count); break;
    case Bin::Max: float_run<Bin::Max>(d, a, e, count); break;
    default: float_run<Bin::Min>(d, a, e, count); break;
    }
    return true;
}
}  // namespace

void vbinary(const SourceLoc& loc, const char* op, Bin b, Dt d, uint64_t dst, uint64_t s0, uint64_t s1, const Shape& sh) {
    if (d == Dt::F32 && light_float_binary(loc, op, b, dst, s0, s1, sh)) return;
    const Issued i = issue(loc, op, d, sh, dst, 2, s0, s1);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        with_bin(b, [&](auto bo) {
            // src1 one block that every block of its repeat reads (block
            // stride 0: pto-isa's row-expand instructions read a row's
            // broadcast value so): dst and src0 go a repeat at a time, src1's
            // eight values repeating every block, instead of block by block.
            if constexpr (std::is_same_v<T, float> && !std::is_same_v<decltype(bo), Bin>) {
                constexpr Bin B = decltype(bo)::value;
                if constexpr (float_fast_v<B>) {
                    if (i.src1.blk == 0 && i.dst.blk == 1 && i.src0.blk == 1) {
                        each_run(i.p, 4, Adjoin{true, false}, [&](uint32_t r, uint32_t j0, uint32_t n) {
                            uint8_t* const d = i.ub + i.dst.at(r, j0);
                            const uint8_t* const a = i.ub + i.src0.at(r, j0);
                            const uint8_t* const c = i.ub + i.src1.at(r, 0);
                            const uint64_t bytes = uint64_t(n) * 4;
                            if (chunkable(d, a, bytes) && (c + kBlock <= d || d + bytes <= c)) {
                                float vals[8], y[256];
                                std::memcpy(vals, c, sizeof vals);
                                if (j0 % 8 == 0 && n % 8 == 0) {
                                    // The run starts at a block: src1's eight
                                    // values are two vector registers' worth,
                                    // each taking its half of every block.
                                    float4_v lo, hi;
                                    std::memcpy(&lo, vals, sizeof lo);
                                    std::memcpy(&hi, vals + 4, sizeof hi);
                                    for (uint64_t k = 0; k < bytes; k += kBlock) {
                                        float4_v x0, x1;
                                        std::memcpy(&x0, a + k, sizeof x0);
                                        std::memcpy(&x1, a + k + 16, sizeof x1);
                                        const float4_v r0 = float_op<B>(x0, lo), r1 = float_op<B>(x1, hi);
                                        std::memcpy(d + k, &r0, sizeof r0);
                                        std::memcpy(d + k + 16, &r1, sizeof r1);
                                    }
                                    return;
                                }
                                for (uint32_t k = 0; k < n; ++k) y[k] = vals[(j0 + k) % 8];
                                return float_chunks(d, a, reinterpret_cast<const uint8_t*>(y), 0.0f, n, FloatOp<B>{});
                            }
                            for (uint32_t k = 0; k < n; ++k)
                                store(d, k * 4u,
                                      binary<float>(bo, load<float>(a, k * 4u), load<float>(i.ub, i.src1.at(r, j0 + k)),
                                                    load<float>(d, k * 4u)));
                        });
                        return;
                    }
                }
            }
            each_run(i.p, sizeof(T), adjoin({&i.dst, &i.src0, &i.src1}), [&](uint32_t r, uint32_t j0, uint32_t n) {
                uint8_t* const d = i.ub + i.dst.at(r, j0);
                const uint8_t *const a = i.ub + i.src0.at(r, j0), *const c = i.ub + i.src1.at(r, j0);
                if constexpr (std::is_same_v<T, float> && !std::is_same_v<decltype(bo), Bin>) {
                    if constexpr (float_fast_v<decltype(bo)::value>) {
                        if (chunkable(d, a, uint64_t(n) * 4) && chunkable(d, c, uint64_t(n) * 4))
                            return float_chunks(d, a, c, 0.0f, n, FloatOp<decltype(bo)::value>{});
                    }
                }
                // Half +, - and *: the row operation ptolab's own fp16 TADD,
                // TSUB and TMUL use (numerics.hpp: in float, rounded once to
                // half; F16C where the host has it). Bit-identical to
                // binary<half>: the float result of two halves' sum or
                // difference rounds to half as the exact one does (float
                // holds more than twice half's 11 bits), a product is exact
                // in float, and NaNs propagate alike.
                if constexpr (std::is_same_v<T, half> && !std::is_same_v<decltype(bo), Bin>) {
                    constexpr Bin B = decltype(bo)::value;
                    if constexpr (B == Bin::Add || B == Bin::Sub || B == Bin::Mul) {
                        if (chunkable(d, a, uint64_t(n) * 2) && chunkable(d, c, uint64_t(n) * 2))
                            return half_binary_row(B == Bin::Add   ? RowBinary::Add
                                                   : B == Bin::Sub ? RowBinary::Sub
                                                                   : RowBinary::Mul,
                                                   a, c, d, static_cast<int>(n));
                    }
                }
                for (uint64_t k = 0; k < n * sizeof(T); k += sizeof(T))
                    store(d, k, binary<T>(bo, load<T>(a, k), load<T>(c, k), load<T>(d, k)));
            });
        });
    });
}

namespace {
// vcopy in counter mode with a repeat operand above one: the count applies to
// each repeat, the repeats stepping by the repeat strides, and a count wider
// than a repeat's 256 bytes continues in the following 256 bytes (one pass per
// 256 bytes, each a normal-mode instruction masked to its part of the count).
// Not the reference's rule for counter mode (docs/intrinsics/README.md,
// "Mask"); the rule pto-isa's TFILLPAD/TEXTRACT/TINSERT copy rows by, which
// passes on Huawei's CA model (docs/intrinsics/vector.md, "vcopy").
void copy_rows_counted(const SourceLoc& loc, const char* op, Dt d, uint64_t dst, uint64_t src, const Shape& sh) {
    const int size = size_of(d);
    const uint64_t count = core().vec.mask[0];
    const uint32_t per_pass = static_cast<uint32_t>(kRepeatBytes) / size;
    for (uint64_t done = 0; done < count; done += per_pass) {
        const Plan p = first_slots(sh.repeat, size, static_cast<uint32_t>(std::min<uint64_t>(per_pass, count - done)));
        const uint64_t shift = done * size;
        const Issued i = issue(loc, op, d, sh, dst + shift, 1, src + shift, 0, &p);
        each_run(i.p, size, adjoin({&i.dst, &i.src0}), [&](uint32_t r, uint32_t j0, uint32_t n) {
            uint8_t* const to = i.ub + i.dst.at(r, j0);
            const uint8_t* const from = i.ub + i.src0.at(r, j0);
            for (uint64_t k = 0; k < uint64_t(n) * size; ++k) to[k] = from[k];  // in element order, as vunary
        });
    }
}

}  // namespace

void vunary(const SourceLoc& loc, const char* op, Una u, Dt d, uint64_t dst, uint64_t src, const Shape& sh) {
    if (u == Una::Copy && sh.repeat > 1 && core().vec.counter) return copy_rows_counted(loc, op, d, dst, src, sh);
    const Issued i = issue(loc, op, d, sh, dst, 1, src, 0);
    // vexp/vln/vsqrt on floats: a run at a time through vmath_f32, the row
    // routine ptolab's own TEXP/TLOG/TSQRT use, which gives each element
    // (float)f((double)x) as unary<float> does. Only where a run reads and
    // writes the same bytes or none in common: a destination shifted against
    // its source keeps the element order of the loop below.
    if (d == Dt::F32 && (u == Una::Exp || u == Una::Ln || u == Una::Sqrt)) {
        const VMath f = u == Una::Exp ? VMath::Exp : u == Una::Ln ? VMath::Log : VMath::Sqrt;
        each_run(i.p, 4, adjoin({&i.dst, &i.src0}), [&](uint32_t r, uint32_t j0, uint32_t n) {
            const uint64_t to = i.dst.at(r, j0), from = i.src0.at(r, j0), bytes = uint64_t(n) * 4;
            if (to == from || to + bytes <= from || from + bytes <= to) {
                thread_local std::vector<float> row;
                row.resize(n);
                std::memcpy(row.data(), i.ub + from, bytes);
                vmath_f32(f, row.data(), row.data(), n);
                std::memcpy(i.ub + to, row.data(), bytes);
                return;
            }
            for (uint64_t k = 0; k < bytes; k += 4) store(i.ub + to, k, unary<float>(u, load<float>(i.ub + from, k)));
        });
        return;
    }
    with_type(d, [&](auto t) {
        using T = decltype(t);
        with_una(u, [&](auto uo) {
            each_run(i.p, sizeof(T), adjoin({&i.dst, &i.src0}), [&](uint32_t r, uint32_t j0, uint32_t n) {
                uint8_t* const d = i.ub + i.dst.at(r, j0);
                const uint8_t* const a = i.ub + i.src0.at(r, j0);
                for (uint64_t k = 0; k < n * sizeof(T); k += sizeof(T)) store(d, k, unary<T>(uo, load<T>(a, k)));
            });
        });
    });
}

void vscalar(const SourceLoc& loc, const char* op, Sca s, Dt d, uint64_t dst, uint64_t src, uint64_t scalar, const Shape& sh) {
    const Issued i = issue(loc, op, d, sh, dst, s == Sca::Dup ? 0 : 1, src, 0);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T sv;
        std::memcpy(&sv, &scalar, sizeof(T));
        const Adjoin adj = s == Sca::Dup ? adjoin({&i.dst}) : adjoin({&i.dst, &i.src0});
        with_sca(s, [&](auto so) {
            each_run(i.p, sizeof(T), adj, [&](uint32_t r, uint32_t j0, uint32_t n) {
                uint8_t* const d = i.ub + i.dst.at(r, j0);
                const uint8_t* const a = i.ub + i.src0.at(r, j0);
                // The scalar forms of add, mul, max and min: the binary
                // operation with the scalar as its second operand (with_scalar).
                if constexpr (std::is_same_v<T, float> && !std::is_same_v<decltype(so), Sca>) {
                    constexpr Sca S = decltype(so)::value;
                    constexpr Bin B = S == Sca::Add ? Bin::Add : S == Sca::Mul ? Bin::Mul : S == Sca::Max ? Bin::Max : Bin::Min;
                    if constexpr (S == Sca::Add || S == Sca::Mul || S == Sca::Max || S == Sca::Min) {
                        if (chunkable(d, a, uint64_t(n) * 4)) return float_chunks(d, a, nullptr, sv, n, FloatOp<B>{});
                    }
                }
                for (uint64_t k = 0; k < n * sizeof(T); k += sizeof(T)) {
                    const T x = so == Sca::Dup ? sv : load<T>(a, k);
                    store(d, k, with_scalar<T>(so, x, sv, load<T>(d, k)));
                }
            });
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
