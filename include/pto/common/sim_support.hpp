// Shared machinery under every instruction body: where a tile's bytes live,
// bounds checks, element conversion and rounding, the valid-region loop and
// the dispatch record. Instruction headers stay a few lines each on top of it.
#pragma once
#include <pto/common/tile.hpp>
#include <ptosim/core.hpp>
#include <ptosim/numerics.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

// Element loops run at the kernel's -O level; GCC's -O2 cost model skips
// vectorising loops with runtime trip counts, which the tile loops all have.
#if defined(__GNUC__) && !defined(__clang__)
#define PTOSIM_VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define PTOSIM_VECTORIZE
#endif

// A function the compiler must call as it is, not inline or specialise for
// the values it sees passed.
#if defined(__GNUC__) && !defined(__clang__)
#define PTOSIM_NOIPA __attribute__((noipa))
#else
#define PTOSIM_NOIPA __attribute__((noinline))
#endif

namespace pto::ptosim_impl {

// memcpy through the C library's vector copy. GCC expands a memcpy whose size
// it knows to be at most a few hundred bytes (a tile row) into `rep movsq`,
// which took several times as long per row on the x86 hosts measured
// (bench/pto_isa_cpu_sim_speed.sh).
PTOSIM_NOIPA inline void copy_bytes(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }

using ptosim::Core;
using ptosim::OpRecord;
using ptosim::Pipe;
using ptosim::Space;
using ptosim::SourceLoc;

// The call's file and line: from the call-site macro, else (explicit
// template arguments, as in TMOV<...>(...)) from its return address and the
// kernel's line table, else the core's last known location.
inline SourceLoc loc_of(const CallSite& cs) {
    if (cs.file) return SourceLoc{cs.file, cs.line};
    if (cs.caller)
        if (SourceLoc at = ptosim::caller_loc(cs.caller); at.known()) return at;
    if (const Core* c = ptosim::current_core_or_null()) return c->last_loc;
    return {};
}

// An instruction's trailing events are waited on before it issues, as
// pto-isa's instructions do with TSYNC(events...): the waits are what orders
// it after their producers (docs/isa/sync.md, "Event, TSYNC").
template <class... Events>
void wait_events(const CallSite& cs, Events&... events) {
    static_assert((requires { events.Wait(cs); } && ...),
                  "the arguments after an instruction's operands are the Event<SrcOp, DstOp> objects it waits on");
    (events.Wait(cs), ...);
}

template <class T>
constexpr Space space_of() {
    constexpr TileType L = T::Loc;
    if constexpr (L == TileType::Vec) return Space::UB;
    else if constexpr (L == TileType::Mat) return Space::L1;
    else if constexpr (L == TileType::Left) return Space::L0A;
    else if constexpr (L == TileType::Right) return Space::L0B;
    else if constexpr (L == TileType::ScaleLeft) return Space::L0AMX;
    else if constexpr (L == TileType::ScaleRight) return Space::L0BMX;
    else if constexpr (L == TileType::Acc) return Space::L0C;
    else if constexpr (L == TileType::Bias) return Space::BT;
    else return Space::FB;
}

// pto-isa's A5 L1 data movers are compiled for the cube only (their bodies
// sit in `#if defined(__DAV_CUBE__)`: npu/a5/TLoad.hpp, TFillPad.hpp), so a
// mix kernel's Vector variant runs a TLOAD or TFILLPAD of an L1 tile as nothing.
template <class T>
bool a5_l1_op_vanishes_on_vector() {
    if constexpr (PTOSIM_TARGET_A5 && T::Loc == TileType::Mat) return ptosim::core().type == ptosim::CoreType::AIV;
    else return false;
}

inline const char* tile_type_name(TileType t) {
    static const char* names[] = {"Vec", "Mat", "Left", "Right", "Acc", "Bias", "Scaling", "ScaleLeft", "ScaleRight"};
    return names[static_cast<int>(t)];
}

// Bytes a tile spans in its buffer.
template <class T>
constexpr uint64_t tile_bytes() {
    return elem_bytes<typename T::DType>(static_cast<uint64_t>(T::Rows) * T::Cols);
}

// Bytes of its buffer a tile operand touches: the whole storage, except for
// L0 operand tiles (Left, Right, Acc) and compact tiles, which TIMG2COL, the
// cube and the compact movers fill and read only over their valid region
// rounded up to whole boxes; pto-isa's timg2col and textract testcases
// declare such tiles larger than L0A/L0B and use their top-left part. The
// movers that write a whole L0 tile check its whole storage themselves.
template <class T>
uint64_t tile_span(const T& t) {
    constexpr bool l0 = T::Loc == TileType::Left || T::Loc == TileType::Right || T::Loc == TileType::Acc;
    if constexpr ((T::Compact == CompactMode::Normal || l0) && T::isBoxedLayout) {
        auto up = [](int v, int m) { return (v + m - 1) / m * m; };
        const int rr = std::min(up(t.GetValidRow(), T::InnerRows), T::Rows);
        const int cc = std::min(up(t.GetValidCol(), T::InnerCols), T::Cols);
        if (rr == 0 || cc == 0) return 0;
        return elem_bytes<typename T::DType>(tile_element_offset<T>(rr - 1, cc - 1) + 1);
    } else {
        return tile_bytes<T>();
    }
}

// Validates a tile operand (assigned, in bounds, valid shape in range) and
// returns its first byte in the core's buffer. A scratch (tmp) operand is
// only an address to pto-isa's implementations (the tests' own comments say
// so: "tmp只取初始地址，其他值不生效"), so its valid shape is not checked:
// trowexpand*'s case15 passes tmp tiles whose valid shape exceeds their
// storage, which the device runs.
template <class T>
uint8_t* tile_base(Core& c, const T& t, const char* op, const char* role, const SourceLoc& loc,
                   bool check_valid_shape = true) {
    constexpr Space sp = space_of<T>();
    if (!t.assigned())
        ptosim::fault(loc, std::string(op) + ": " + role + " tile (" + tile_type_name(T::Loc) +
                               ") has no address; place it with TASSIGN(tile, offset) first");
    const int vr = t.GetValidRow(), vc = t.GetValidCol();
    if (check_valid_shape && (vr < 0 || vr > T::Rows || vc < 0 || vc > T::Cols))
        ptosim::fault(loc, std::string(op) + ": " + role + " tile's valid shape " + std::to_string(vr) + "x" +
                               std::to_string(vc) + " exceeds its " + std::to_string(T::Rows) + "x" +
                               std::to_string(T::Cols) + " storage");
    if (t.address() % TileConfig::alignedSize != 0)
        ptosim::fault(loc, std::string(op) + ": " + role + " tile address 0x" + [&] {
            char b[32];
            std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(t.address()));
            return std::string(b);
        }() + " is not 32-byte aligned");
    std::string what = std::string(op) + " " + role + " tile";
    ptosim::check_local(c, sp, t.address(), tile_span(t), what.c_str(), loc);
    return c.mem[static_cast<int>(sp)] + t.address();
}

// ------------------------------------------------------------ element types

template <class T>
constexpr bool is_f16 = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T>
constexpr bool is_float_elem = is_f16<T> || std::is_floating_point_v<T>;

template <class T>
inline T load_elem(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <class T>
inline void store_elem(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

// The type an element is computed in: float for the 16-bit floats, itself otherwise.
template <class T>
using compute_t = std::conditional_t<is_f16<T>, float, T>;

template <class T>
inline compute_t<T> widen(T v) {
    return static_cast<compute_t<T>>(v);
}

// The runtime's rounding (ptosim/numerics.hpp) names RoundMode's values.
static_assert(static_cast<int>(ptosim::Rounding::Odd) == static_cast<int>(RoundMode::CAST_ODD) &&
              static_cast<int>(ptosim::Rounding::Trunc) == static_cast<int>(RoundMode::CAST_TRUNC) &&
              static_cast<int>(ptosim::Rounding::Ceil) == static_cast<int>(RoundMode::CAST_CEIL) &&
              static_cast<int>(ptosim::Rounding::Floor) == static_cast<int>(RoundMode::CAST_FLOOR) &&
              static_cast<int>(ptosim::Rounding::Round) == static_cast<int>(RoundMode::CAST_ROUND) &&
              static_cast<int>(ptosim::Rounding::Rint) == static_cast<int>(RoundMode::CAST_RINT) &&
              static_cast<int>(ptosim::Rounding::None) == static_cast<int>(RoundMode::CAST_NONE));
inline double round_to_format(double x, int precision, int emin, double maxv, RoundMode mode) {
    return ptosim::round_to_format(x, precision, emin, maxv, static_cast<ptosim::Rounding>(mode));
}
inline double round_to_integer(double x, RoundMode mode) {
    return ptosim::round_to_integer(x, static_cast<ptosim::Rounding>(mode));
}

template <class D>
struct format_of;
template <>
struct format_of<half> {
    static constexpr int precision = 11, emin = -14;
    static constexpr double max = 65504.0;
};
template <>
struct format_of<bfloat16_t> {
    static constexpr int precision = 8, emin = -126;
    static constexpr double max = 3.3895313892515355e38;
};
template <>
struct format_of<float> {
    static constexpr int precision = 24, emin = -126;
    static constexpr double max = 3.4028234663852886e38;
};

// Converts one element with the given rounding mode; integer results saturate
// unless sat is OFF, in which case they wrap (docs/semantics.md, "TCVT").
template <class D, class S>
inline D convert(S s, RoundMode mode, SaturationMode sat = SaturationMode::ON) {
    if constexpr (std::is_same_v<D, S> && !is_float_elem<D>) {
        return s;
    } else {
        const double x = static_cast<double>(widen(s));
        if constexpr (is_float_elem<D>) {
            if (std::isnan(x) || std::isinf(x) || x == 0.0) return D(static_cast<float>(x));
            const RoundMode m = mode == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : mode;
            if constexpr (std::is_same_v<D, S> && std::is_same_v<D, float>) {
                return static_cast<float>(round_to_integer(x, m));  // fp32 -> fp32 rounds to an integral value
            } else {
                return D(static_cast<float>(round_to_format(x, format_of<D>::precision, format_of<D>::emin,
                                                            format_of<D>::max, m)));
            }
        } else {
            if (std::isnan(x)) return D(0);
            const double r = is_float_elem<S> ? round_to_integer(x, mode == RoundMode::CAST_NONE ? RoundMode::CAST_RINT
                                                                                                  : mode)
                                              : x;
            constexpr double lo = static_cast<double>(std::numeric_limits<D>::min());
            constexpr double hi = static_cast<double>(std::numeric_limits<D>::max());
            if (sat == SaturationMode::ON) {
                if (r <= lo) return std::numeric_limits<D>::min();
                if (r >= hi) return std::numeric_limits<D>::max();
                return static_cast<D>(r);
            }
            if (std::isinf(r)) return D(0);
            return static_cast<D>(static_cast<std::make_unsigned_t<D>>(static_cast<long long>(std::fmod(r, 18446744073709551616.0))));
        }
    }
}

// The element PadValue P stands for (pto-isa PadValueMap): zero, or the
// type's largest / smallest value (+-inf for floats).
template <class E, PadValue P>
inline E pad_value() {
    E v{};
    if constexpr (P == PadValue::Max || P == PadValue::Min) {
        constexpr bool mx = P == PadValue::Max;
        if constexpr (std::is_same_v<E, half>) v = E::from_bits(mx ? 0x7c00 : 0xfc00);
        else if constexpr (std::is_same_v<E, bfloat16_t>) v = E::from_bits(mx ? 0x7f80 : 0xff80);
        else if constexpr (std::is_floating_point_v<E>) v = mx ? std::numeric_limits<E>::infinity() : -std::numeric_limits<E>::infinity();
        else v = mx ? std::numeric_limits<E>::max() : std::numeric_limits<E>::min();
    }
    return v;
}

// Row conversions between 16-bit float elements (unaligned bytes) and a
// float buffer: binary16 in the runtime (which uses the host's F16C where it
// has it), bfloat16 as plain loops over bits so that they vectorise.
template <class T>
PTOSIM_VECTORIZE inline void f16_to_float(const uint8_t* src, float* dst, int n) {
    if constexpr (std::is_same_v<T, half>) {
        ptosim::half_row_to_float(src, dst, n);
    } else {
        for (int k = 0; k < n; ++k) {
            uint16_t b;
            std::memcpy(&b, src + 2 * k, 2);
            dst[k] = ptosim::bf16_bits_to_float(b);
        }
    }
}

template <class T>
PTOSIM_VECTORIZE inline void float_to_f16(const float* src, uint8_t* dst, int n) {
    if constexpr (std::is_same_v<T, half>) {
        ptosim::float_to_half_row(src, dst, n);
    } else {
        for (int k = 0; k < n; ++k) {
            const uint16_t b = ptosim::float_to_bf16_bits(src[k]);
            std::memcpy(dst + 2 * k, &b, 2);
        }
    }
}

// Default narrowing of a computed value back into an element (round to
// nearest even for floats, wrap-around for integers).
template <class D, class C>
inline D narrow(C v) {
    if constexpr (is_f16<D>) return D(static_cast<float>(v));
    else return static_cast<D>(v);
}

// ------------------------------------------------------------ record helper

template <class T>
constexpr const char* dtype_name() {
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
    else if constexpr (requires { T::ptosim_dtype_name; }) return T::ptosim_dtype_name;
    else return "other";
}

// Bytes a record names for a tile operand: tile_span, but only the valid
// rows of a plain row-major tile (valid columns of a column-major one), in
// whole: instructions read and write a tile's valid region, and pto-isa's
// tmax/tmin int16 testcases place 20 x 512 tiles with 16 x 200 valid ones
// 16 KiB apart, apart in what they use though not in their storage.
template <class T>
uint64_t record_span(const T& t) {
    if constexpr (T::isBoxedLayout) {
        return tile_span(t);
    } else if constexpr (T::isRowMajor) {
        return elem_bytes<typename T::DType>(static_cast<uint64_t>(t.GetValidRow()) * T::Cols);
    } else {
        return elem_bytes<typename T::DType>(static_cast<uint64_t>(t.GetValidCol()) * T::Rows);
    }
}

// The declared and valid shape of a tile operand, kept in the record for
// the calibrated vector costs; the first source and the destination count.
template <class T>
inline void record_shape(OpRecord::Shape& sh, const T& t) {
    if constexpr (requires { T::Rows; T::Cols; t.GetValidRow(); t.GetValidCol(); }) {
        if (sh.rows) return;
        sh.rows = static_cast<uint32_t>(T::Rows);
        sh.cols = static_cast<uint32_t>(T::Cols);
        sh.valid_rows = static_cast<uint32_t>(t.GetValidRow());
        sh.valid_cols = static_cast<uint32_t>(t.GetValidCol());
    }
}

// Records a tile operand; the record's dtype is the destination tile's
// element type, or the first source's when no tile is written (TSTORE).
template <class T>
inline OpRecord& record_tile(OpRecord& r, bool write, const T& t) {
    constexpr Space sp = space_of<T>();
    if (write || !*r.dtype) r.dtype = dtype_name<typename T::DType>();
    if (!write && !*r.src_dtype) r.src_dtype = dtype_name<typename T::DType>();
    record_shape(write ? r.dst_shape : r.src_shape, t);
    return write ? r.write(sp, t.address(), record_span(t)) : r.read(sp, t.address(), record_span(t));
}

// Records a tile operand read over its valid region only, for instructions
// that read nothing else (TSTORE): a plain row-major tile's valid rows as
// strided runs, so that a view into a larger tile (TSUBVIEW), whose declared
// storage may run past its parent's, reads what it reads. Other layouts are
// recorded as record_tile does.
template <class T>
inline OpRecord& record_valid_read(OpRecord& r, const T& t) {
    if constexpr (T::isRowMajor && !T::isBoxedLayout && !is_fp4<typename T::DType>) {
        if (!*r.dtype) r.dtype = dtype_name<typename T::DType>();
        if (!*r.src_dtype) r.src_dtype = dtype_name<typename T::DType>();
        const uint64_t vr = static_cast<uint64_t>(t.GetValidRow()), vc = static_cast<uint64_t>(t.GetValidCol());
        if (vr == 0 || vc == 0) return r;
        constexpr uint64_t elem = sizeof(typename T::DType), pitch = T::Cols * elem;
        if (vc == T::Cols) return r.read(space_of<T>(), t.address(), vr * pitch);  // whole rows: one range
        ptosim::Runs rows{1, vc * elem, {vr, 0, 0, 0}, {pitch, 0, 0, 0}};
        return r.read(ptosim::Access{space_of<T>(), 0, t.address(), (vr - 1) * pitch + vc * elem}, rows);
    } else {
        return record_tile(r, false, t);
    }
}

inline OpRecord make_record(const char* op, Pipe pipe, const CallSite& cs) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc_of(cs);
    return r;
}

// Element pointer of (r, c) in a tile whose first byte is base (for packed
// fp4, the byte holding it: use fp4_get/fp4_set with the element offset).
template <class T>
inline uint8_t* at(uint8_t* base, uint64_t r, uint64_t c) {
    const uint64_t off = tile_element_offset<T>(r, c);
    if constexpr (is_fp4<typename T::DType>) return base + (off >> 1);
    else return base + off * sizeof(typename T::DType);
}

// The 4-bit code of packed fp4 element `off` (counted in elements from base).
inline uint8_t fp4_get(const uint8_t* base, uint64_t off) {
    const uint8_t b = base[off >> 1];
    return off & 1 ? static_cast<uint8_t>(b >> 4) : static_cast<uint8_t>(b & 0xf);
}
inline void fp4_set(uint8_t* base, uint64_t off, uint8_t code) {
    uint8_t& b = base[off >> 1];
    b = off & 1 ? static_cast<uint8_t>((b & 0x0f) | (code << 4)) : static_cast<uint8_t>((b & 0xf0) | (code & 0xf));
}
// Value of a packed fp4 element.
template <class E>
inline double fp4_value(const uint8_t* base, uint64_t off) {
    return ptosim::mini_decode(E::format, fp4_get(base, off));
}

// How many elements from a column that is a multiple of the run are
// contiguous along a row: a whole row for ND, a fractal row for Nz/Zz, else 1.
template <class T>
constexpr int row_run() {
    if constexpr (!T::isBoxedLayout) return T::isRowMajor ? T::Cols : 1;
    else return T::isInnerRowMajor ? T::InnerCols : 1;
}

}  // namespace pto::ptosim_impl
