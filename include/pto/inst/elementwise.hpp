// Element-wise vector instructions: the valid-region loop, the instruction
// shapes (unary, binary, scalar, ...) as macros, and the arithmetic helpers
// the bodies share. Each body is one line of math (docs/isa/elementwise.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/elementwise.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/vec_op.hpp>
#include <ptosim/vmath.hpp>
#include <array>
#include <string_view>
#include <utility>

namespace pto {

// Algorithm choices of the math instructions, as pto-isa names them
// (include/pto/common/type.hpp). They pick the hardware's speed/accuracy
// trade-off; ptosim accepts every value and computes the same exact result.
enum class PowAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class DivAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class SqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RsqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RecipAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class ExpAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class LogAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class FmodAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class FmodSAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RemAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RemSAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };

namespace ptosim_impl {

// Element types of TADD/TADDS/TMULS (pto-isa docs/isa/TADD.md).
template <class E>
constexpr bool vec_arith_type = PTOSIM_TARGET_A5 ? one_of<E, half, float, int16_t, int32_t, bfloat16_t, uint32_t,
                                                          uint16_t, int8_t, uint8_t>
                                                : one_of<E, half, float, int16_t, int32_t>;

// The 16-bit float path of elementwise(): each row goes through float
// buffers in chunks, so that the conversions and f run as three plain loops
// over arrays the vectoriser handles. Per element it computes exactly what
// the generic loop does (widen, f in float, round to nearest even).
template <class Dst, class... Src, class F, size_t... I>
PTOSIM_VECTORIZE void f16_rows(uint8_t* d, const std::array<const uint8_t*, sizeof...(Src)>& s, int vr, int vc, F& f,
                               std::index_sequence<I...>) {
    using D = typename Dst::DType;
    constexpr int kChunk = 256;
    float in[sizeof...(Src) + 1][kChunk];
    float out[kChunk];
    for (int r = 0; r < vr; ++r) {
        uint8_t* drow = at<Dst>(d, r, 0);
        const std::array<const uint8_t*, sizeof...(Src)> srow{at<Src>(const_cast<uint8_t*>(s[I]), r, 0)...};
        for (int c0 = 0; c0 < vc; c0 += kChunk) {
            const int n = std::min(kChunk, vc - c0);
            (f16_to_float<D>(srow[I] + c0 * sizeof(D), in[I], n), ...);
            if constexpr (requires { F::vmath; } && sizeof...(Src) == 1)
                ptosim::vmath_f32(F::vmath, in[0], out, static_cast<size_t>(n), true);  // = from_double<D>
            else
                for (int k = 0; k < n; ++k) out[k] = static_cast<float>(f(in[I][k]...));
            float_to_f16<D>(out, drow + c0 * sizeof(D), n);
        }
    }
}

// A row of the tile is contiguous in memory (row-major, no boxes).
template <class T>
constexpr bool row_contiguous() {
    return !T::isBoxedLayout && T::isRowMajor;
}

// An element function that libptosim also computes over whole float rows
// (ptosim::vmath_f32), with the same results.
template <ptosim::VMath V, class F>
struct RowMath : F {
    static constexpr ptosim::VMath vmath = V;
};
template <ptosim::VMath V, class F>
RowMath<V, F> row_math(F f) {
    return RowMath<V, F>{f};
}

// A binary element function libptosim also computes over whole binary16
// rows (ptosim::half_binary_row), with the same results; TADD, TSUB and
// TMUL name theirs by the instruction's name.
template <ptosim::RowBinary B, class F>
struct RowBinaryFn : F {
    static constexpr ptosim::RowBinary vbin = B;
};
enum class RowBinaryOf : uint8_t { None, Add, Sub, Mul };
constexpr RowBinaryOf row_binary_of(std::string_view op) {
    return op == "TADD" ? RowBinaryOf::Add : op == "TSUB" ? RowBinaryOf::Sub : op == "TMUL" ? RowBinaryOf::Mul : RowBinaryOf::None;
}
template <RowBinaryOf B, class F>
auto row_binary(F f) {
    if constexpr (B == RowBinaryOf::None) return f;
    else if constexpr (B == RowBinaryOf::Add) return RowBinaryFn<ptosim::RowBinary::Add, F>{f};
    else if constexpr (B == RowBinaryOf::Sub) return RowBinaryFn<ptosim::RowBinary::Sub, F>{f};
    else return RowBinaryFn<ptosim::RowBinary::Mul, F>{f};
}

// How elementwise() hands elements to f: as values (widened to compute_t,
// the result rounded back), or as their storage bits (unsigned integers of
// the element's size, for bitwise instructions on any element type).
enum class Operands { Values, Bits };

// The unsigned integer with an element's storage size.
template <class E>
using bits_t = std::conditional_t<sizeof(E) == 1, uint8_t,
                                  std::conditional_t<sizeof(E) == 2, uint16_t,
                                                     std::conditional_t<sizeof(E) == 4, uint32_t, uint64_t>>>;

// pto-isa's element-wise ops state that every source has dst's valid shape,
// with PTO_ASSERT only (TAdd.hpp, TUnaryOp.hpp, TAddS.hpp, ... on both
// targets; docs/debug-contracts.md). TCVT asserts nothing and TPACK keeps
// ptolab's own check, so they are left out.
constexpr bool elementwise_shape_rule(std::string_view op) { return op != "TCVT" && op != "TPACK"; }

// The A2A3 scalar ops whose release build runs only when the source's valid
// shape is dst's and otherwise writes nothing (a2a3/TAddS.hpp, TSubS.hpp,
// TDivS.hpp both forms, TMins.hpp, TAxpy.hpp: `if (... ==
// src.GetValidRow() ...) ... else PTO_ASSERT(false, ...)`; TMulS.hpp only
// asserts). The others, and every A5 op, loop over dst's valid shape.
constexpr bool elementwise_mismatch_skips(std::string_view op) {
    return !PTOSIM_TARGET_A5 && (op == "TADDS" || op == "TSUBS" || op == "TDIVS" || op == "TMINS" || op == "TAXPY");
}

// Checks each source's valid shape against dst's (a source that is dst
// itself, as the fused ops pass it, agrees by construction). A mismatch is a
// debug-only-contract report: the release build reads the source over dst's
// valid shape (faulting past its storage), or for the ops above writes
// nothing, when this returns false.
template <class Dst, class... Src>
bool elementwise_shapes(CallSite cs, const char* op, const Dst& dst, const Src&... src) {
    if (!elementwise_shape_rule(op)) return true;
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    bool runs = true, reported = false;
    int index = 0;
    auto one = [&](const auto& t) {
        const int i = index++;
        if (reported || static_cast<const void*>(&t) == static_cast<const void*>(&dst) || vop::same_valid(t, vr, vc)) return;
        reported = true;
        const std::string name = sizeof...(Src) == 1 ? std::string("src") : "src" + std::to_string(i);
        const std::string fix = "give " + name + " dst's valid shape " + vop::shape_str(vr, vc);
        if (elementwise_mismatch_skips(op)) {
            vop::debug_contract(loc_of(cs), op, Pipe::V,
                                name + "'s valid shape " + vop::shape_str(t.GetValidRow(), t.GetValidCol()) +
                                    " differs from " + vop::shape_str(vr, vc) + " (dst's valid shape)",
                                "the release build writes nothing to dst", fix);
            runs = false;
            return;
        }
        vop::region_contract(cs, op, t, name.c_str(), vr, vc, "dst's valid shape", "read", fix);
    };
    (one(src), ...);
    (void)one;
    return runs;
}

// dst(r, c) = f(src_i(r, c)...) over dst's valid region, computed in
// compute_t and rounded back into dst's element type. With no sources f()
// is a constant (TEXPANDS).
template <Operands Mode = Operands::Values, class Dst, class F, class... Src>
PTOSIM_VECTORIZE void elementwise(CallSite cs, const char* op, Dst& dst, F f, Src&... src) {
    check_vec_operand<Dst>();
    (check_vec_operand<Src>(), ...);
    const bool runs = elementwise_shapes(cs, op, dst, src...);
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    const std::array<const uint8_t*, sizeof...(Src)> s{tile_base(c, src, op, "source", loc)...};
    const int vr = runs ? dst.GetValidRow() : 0, vc = runs ? dst.GetValidCol() : 0;
    OpRecord rec = make_record(op, Pipe::V, cs);
    (record_tile(rec, false, src), ...);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.flops = rec.elements;
    rec.bytes = rec.elements * sizeof(typename Dst::DType) * (1 + sizeof...(Src));
    ptosim::dispatch(c, rec);
    using D = typename Dst::DType;
    if constexpr (Mode == Operands::Bits) {
        [&]<size_t... I>(std::index_sequence<I...>) {
            for (int r = 0; r < vr; ++r) {
                uint8_t* drow = at<Dst>(d, r, 0);
                const std::array<const uint8_t*, sizeof...(Src)> srow{at<Src>(const_cast<uint8_t*>(s[I]), r, 0)...};
                for (int col = 0; col < vc; ++col)
                    store_elem(drow + col * sizeof(D),
                               static_cast<bits_t<D>>(f(load_elem<bits_t<typename Src::DType>>(
                                   srow[I] + col * sizeof(typename Src::DType))...)));
            }
        }(std::index_sequence_for<Src...>{});
    } else if constexpr (requires { F::vmath; } && sizeof...(Src) == 1 && std::is_same_v<D, float> &&
                         same_elem<D, typename Src::DType...> && row_contiguous<Dst>() && (row_contiguous<Src>() && ...)) {
        // A math function libptosim computes a row at a time (same results).
        [&]<size_t... I>(std::index_sequence<I...>) {
            for (int r = 0; r < vr; ++r)
                ptosim::vmath_f32(F::vmath, reinterpret_cast<const float*>(at<Src>(const_cast<uint8_t*>(s[I]), r, 0))...,
                                  reinterpret_cast<float*>(at<Dst>(d, r, 0)), static_cast<size_t>(vc));
        }(std::index_sequence_for<Src...>{});
    } else if constexpr (requires { F::vbin; } && sizeof...(Src) == 2 && std::is_same_v<D, half> &&
                         same_elem<D, typename Src::DType...> && row_contiguous<Dst>() && (row_contiguous<Src>() && ...)) {
        [&]<size_t... I>(std::index_sequence<I...>) {
            for (int r = 0; r < vr; ++r)
                ptosim::half_binary_row(F::vbin, at<Src>(const_cast<uint8_t*>(s[I]), r, 0)..., at<Dst>(d, r, 0), vc);
        }(std::index_sequence_for<Src...>{});
    } else if constexpr (is_f16<D> && same_elem<D, typename Src::DType...>) {
        f16_rows<Dst, Src...>(d, s, vr, vc, f, std::index_sequence_for<Src...>{});
    } else {
        // A conversion the runtime also does a row at a time (same results),
        // where f says it applies to this call.
        if constexpr (requires { F::convert_row; } && sizeof...(Src) == 1 && row_contiguous<Dst>() &&
                      (row_contiguous<Src>() && ...)) {
            if (f.rows_apply) {
                [&]<size_t... I>(std::index_sequence<I...>) {
                    for (int r = 0; r < vr; ++r)
                        F::convert_row(at<Src>(const_cast<uint8_t*>(s[I]), r, 0)..., at<Dst>(d, r, 0), vc);
                }(std::index_sequence_for<Src...>{});
                return;
            }
        }
        [&]<size_t... I>(std::index_sequence<I...>) {
            for (int r = 0; r < vr; ++r) {
                uint8_t* drow = at<Dst>(d, r, 0);
                const std::array<const uint8_t*, sizeof...(Src)> srow{at<Src>(const_cast<uint8_t*>(s[I]), r, 0)...};
                (void)srow;
                for (int col = 0; col < vc; ++col)
                    store_elem(drow + col * sizeof(D),
                               narrow<D>(f(widen(load_elem<typename Src::DType>(srow[I] + col * sizeof(typename Src::DType)))...)));
            }
        }(std::index_sequence_for<Src...>{});
    }
}

}  // namespace ptosim_impl

// Instruction shapes. TYPES names a ptosim_impl:: predicate on the element type. The
// body EXPR sees the widened operands a, b, c, the widened scalar s and the
// destination element type D; every operand shares D.
#define PTOSIM_CHECK_TYPES(NAME, TYPES, D, ...)                                                                  \
    static_assert(ptosim_impl::TYPES<D>, #NAME ": unsupported element type on this target (see docs/isa/elementwise.md)"); \
    static_assert(ptosim_impl::same_elem<D, __VA_ARGS__>, #NAME ": all operands must have the destination's element type")

// Every shape comes in two forms. The plain one (PTOSIM_UNARY_OP, ...) has no
// template parameter of its own: pto-isa's signature, so explicit arguments
// (`TFMOD<Dst, Src0, Src1>(...)`) name the tile types. PTOSIM_WITH_ALGO(SHAPE,
// NAME, ENUM, ...) adds a second form with a leading `auto PrecisionType`, so
// `TDIV<DivAlgorithm::HIGH_PRECISION>(...)` compiles too; the value only
// selects the hardware's algorithm and ptosim computes the same result for
// every value (docs/isa/elementwise.md). A type can never bind to the value
// parameter, nor a value to a type, so each call matches one form.
// ALGO is a parenthesised template-parameter prefix, FWD the explicit
// argument list the call-site-less overload forwards, CHECK a statement.
#define PTOSIM_UNPAREN(...) __VA_ARGS__
#define PTOSIM_WITH_ALGO(SHAPE, NAME, ENUM, ...)                                                                 \
    SHAPE(NAME, (), , (void)0, __VA_ARGS__)                                                                      \
    SHAPE(NAME, (auto PrecisionType, ), <PrecisionType>,                                                         \
          static_assert(std::is_same_v<decltype(PrecisionType), ENUM>, #NAME ": PrecisionType must be a " #ENUM " value"), \
          __VA_ARGS__)

#define PTOSIM_UNARY_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                                  \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {          \
        ptosim_impl::wait_events(cs, events...);                                                                         \
        using D = typename TileDataDst::DType;                                                                    \
        CHECK;                                                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc::DType);                                          \
        ptosim_impl::elementwise(cs, #NAME, dst, [](auto a) { return EXPR; }, src);                                       \
        return {};                                                                                                \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc& src, WaitEvents&... e) {                      \
        return NAME FWD(PTOSIM_CALLER, dst, src, e...);                                                           \
    }
#define PTOSIM_UNARY_OP(NAME, TYPES, EXPR) PTOSIM_UNARY_SHAPE(NAME, (), , (void)0, TYPES, EXPR)
// PTOSIM_UNARY_SHAPE whose element function libptosim also runs over float
// rows (VM: a ptosim::VMath).
#define PTOSIM_UNARY_ROWS_SHAPE(VM, NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                         \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {          \
        ptosim_impl::wait_events(cs, events...);                                                                 \
        using D = typename TileDataDst::DType;                                                                    \
        CHECK;                                                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc::DType);                                          \
        ptosim_impl::elementwise(cs, #NAME, dst, ptosim_impl::row_math<VM>([](auto a) { return EXPR; }), src);   \
        return {};                                                                                                \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc& src, WaitEvents&... e) {                      \
        return NAME FWD(PTOSIM_CALLER, dst, src, e...);                                                           \
    }
#define PTOSIM_UNARY_EXP_SHAPE(...) PTOSIM_UNARY_ROWS_SHAPE(ptosim::VMath::Exp, __VA_ARGS__)
#define PTOSIM_UNARY_LOG_SHAPE(...) PTOSIM_UNARY_ROWS_SHAPE(ptosim::VMath::Log, __VA_ARGS__)
#define PTOSIM_UNARY_SQRT_SHAPE(...) PTOSIM_UNARY_ROWS_SHAPE(ptosim::VMath::Sqrt, __VA_ARGS__)

#define PTOSIM_BINARY_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                                 \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1,           \
              typename... WaitEvents>                                                                             \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,             \
                              WaitEvents&... events) {                                                            \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileDataDst::DType;                                                                    \
        CHECK;                                                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc0::DType, typename TileDataSrc1::DType);           \
        ptosim_impl::elementwise(                                                                                 \
            cs, #NAME, dst,                                                                                       \
            ptosim_impl::row_binary<std::is_same_v<D, half> ? ptosim_impl::row_binary_of(#NAME)                 \
                                                             : ptosim_impl::RowBinaryOf::None>(                  \
                [](auto a, auto b) { return EXPR; }),                                                             \
            src0, src1);                                                                                          \
        return {};                                                                                                \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1,           \
              typename... WaitEvents>                                                                             \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) { \
        return NAME FWD(PTOSIM_CALLER, dst, src0, src1, e...);                                                    \
    }
#define PTOSIM_BINARY_OP(NAME, TYPES, EXPR) PTOSIM_BINARY_SHAPE(NAME, (), , (void)0, TYPES, EXPR)

// Binary instructions whose A2A3 implementation needs a scratch tile. The
// simulator computes exactly without it: tmp is accepted and left untouched.
// With and without the scratch tile of pto-isa's A2A3 code (its older
// releases declare the instruction without one); the simulated result does
// not depend on it.
#define PTOSIM_BINARY_TMP_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                             \
    PTOSIM_BINARY_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                                      \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1,           \
              typename TileDataTmp, typename... WaitEvents>                                                       \
        requires is_tile_data_v<TileDataTmp>                                                                      \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,             \
                              TileDataTmp&, WaitEvents&... events) {                                              \
        return NAME FWD(cs, dst, src0, src1, events...);                                                          \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1,           \
              typename TileDataTmp, typename... WaitEvents>                                                       \
        requires is_tile_data_v<TileDataTmp>                                                                      \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, TileDataTmp& tmp,  \
                              WaitEvents&... e) {                                                                 \
        return NAME FWD(PTOSIM_CALLER, dst, src0, src1, tmp, e...);                                               \
    }
#define PTOSIM_BINARY_TMP_OP(NAME, TYPES, EXPR) PTOSIM_BINARY_TMP_SHAPE(NAME, (), , (void)0, TYPES, EXPR)

#define PTOSIM_TERNARY_OP(NAME, TYPES, EXPR)                                                                     \
    template <typename TileData, typename... WaitEvents>                                                          \
    PTO_INST RecordEvent NAME(CallSite cs, TileData& dst, TileData& src0, TileData& src1, TileData& src2,        \
                              WaitEvents&... events) {                                                            \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileData::DType;                                                                       \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, D);                                                                    \
        ptosim_impl::elementwise(cs, #NAME, dst, [](auto a, auto b, auto c) { return EXPR; }, src0, src1, src2);         \
        return {};                                                                                                \
    }                                                                                                             \
    template <typename TileData, typename... WaitEvents>                                                          \
    PTO_INST_CALLER RecordEvent NAME(TileData& dst, TileData& src0, TileData& src1, TileData& src2, WaitEvents&... e) { \
        return NAME(PTOSIM_CALLER, dst, src0, src1, src2, e...);                                                  \
    }

// dst = EXPR(src, scalar); the scalar has the source's element type.
#define PTOSIM_SCALAR_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                                 \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc& src,                                   \
                              typename TileDataSrc::DType scalar, WaitEvents&... events) {                        \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileDataDst::DType;                                                                    \
        CHECK;                                                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc::DType);                                          \
        const auto s = ptosim_impl::widen(scalar);                                                                        \
        ptosim_impl::elementwise(cs, #NAME, dst, [s](auto a) { return EXPR; }, src);                                      \
        return {};                                                                                                \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc& src, typename TileDataSrc::DType scalar,      \
                              WaitEvents&... e) {                                                                 \
        return NAME FWD(PTOSIM_CALLER, dst, src, scalar, e...);                                                   \
    }
#define PTOSIM_SCALAR_OP(NAME, TYPES, EXPR) PTOSIM_SCALAR_SHAPE(NAME, (), , (void)0, TYPES, EXPR)

// The scalar-first operand order: dst = EXPR(s, a) (TDIVS(dst, scalar, src)).
#define PTOSIM_SCALAR_FIRST_SHAPE(NAME, ALGO, FWD, CHECK, TYPES, EXPR)                                           \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, typename TileDataDst::DType scalar,                 \
                              TileDataSrc& src, WaitEvents&... events) {                                          \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileDataDst::DType;                                                                    \
        CHECK;                                                                                                    \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, typename TileDataSrc::DType);                                          \
        const auto s = ptosim_impl::widen(scalar);                                                                        \
        ptosim_impl::elementwise(cs, #NAME, dst, [s](auto a) { return EXPR; }, src);                                      \
        return {};                                                                                                \
    }                                                                                                             \
    template <PTOSIM_UNPAREN ALGO typename TileDataDst, typename TileDataSrc, typename... WaitEvents>           \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, typename TileDataDst::DType scalar, TileDataSrc& src,      \
                              WaitEvents&... e) {                                                                 \
        return NAME FWD(PTOSIM_CALLER, dst, scalar, src, e...);                                                   \
    }
#define PTOSIM_SCALAR_FIRST_OP(NAME, TYPES, EXPR) PTOSIM_SCALAR_FIRST_SHAPE(NAME, (), , (void)0, TYPES, EXPR)

// dst = EXPR(src0, scalar, src1) (TADDSC, TSUBSC).
#define PTOSIM_TILE_SCALAR_TILE_OP(NAME, TYPES, EXPR)                                                            \
    template <typename TileData, typename... WaitEvents>                                                          \
    PTO_INST RecordEvent NAME(CallSite cs, TileData& dst, TileData& src0, typename TileData::DType scalar,       \
                              TileData& src1, WaitEvents&... events) {                                            \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        using D = typename TileData::DType;                                                                       \
        PTOSIM_CHECK_TYPES(NAME, TYPES, D, D);                                                                    \
        const auto s = ptosim_impl::widen(scalar);                                                                        \
        ptosim_impl::elementwise(cs, #NAME, dst, [s](auto a, auto b) { return EXPR; }, src0, src1);                       \
        return {};                                                                                                \
    }                                                                                                             \
    template <typename TileData, typename... WaitEvents>                                                          \
    PTO_INST_CALLER RecordEvent NAME(TileData& dst, TileData& src0, typename TileData::DType scalar, TileData& src1, \
                              WaitEvents&... e) {                                                                 \
        return NAME(PTOSIM_CALLER, dst, src0, scalar, src1, e...);                                                \
    }

// Integer results wrap (two's complement); float results round to nearest even.
PTOSIM_BINARY_OP(TADD, vec_arith_type, ptosim_impl::wrap_add(a, b))
PTOSIM_SCALAR_OP(TADDS, vec_arith_type, ptosim_impl::wrap_add(a, s))
PTOSIM_SCALAR_OP(TMULS, vec_arith_type, ptosim_impl::wrap_mul(a, s))

}  // namespace pto
