// Reductions and broadcasts over rows and columns (TROW*, TCOL*, TROWEXPAND*,
// TCOLEXPAND*, TPART*). The loops below carry the shape rules; each
// instruction is one line naming its element types and its math
// (docs/isa/reduce.md has the semantics and sources).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/reduce.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/vec_op.hpp>
#include <ptosim/nan_rule.hpp>
#include <array>
#include <tuple>
#include <vector>

namespace pto {

// Own namespace: the element-wise family keeps helpers of similar names in sim.
namespace ptosim_impl::red {

template <class E, class... Ts>
constexpr bool one_of = (std::is_same_v<E, Ts> || ...);

// Element types per instruction group (docs/isa/reduce.md, "Element types").
// 64-bit types, which some A5 pages list, are not simulated.
template <class E>
constexpr bool base4_type = one_of<E, half, float, int16_t, int32_t>;
template <class E>
constexpr bool f16f32_type = one_of<E, half, float>;
template <class E>
constexpr bool row_minmax_type = base4_type<E> || (PTOSIM_TARGET_A5 && one_of<E, int8_t, uint8_t>);
template <class E>
constexpr bool col_reduce_type = base4_type<E> ||
                                 (PTOSIM_TARGET_A5 && one_of<E, int8_t, uint8_t, uint16_t, uint32_t, bfloat16_t>);
template <class E>
constexpr bool col_prod_type = base4_type<E> || (PTOSIM_TARGET_A5 && one_of<E, bfloat16_t, uint16_t, uint32_t>);
template <class E>
constexpr bool col_arg_type = one_of<E, half, float, uint16_t, uint32_t> ||
                              (PTOSIM_TARGET_A5 && one_of<E, int8_t, uint8_t, int16_t, int32_t>);
template <class E>
constexpr bool copy_type = one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
template <class E>
constexpr bool expand_arith_type = base4_type<E> ||
                                   (PTOSIM_TARGET_A5 && one_of<E, uint16_t, uint32_t, bfloat16_t, int8_t, uint8_t>);

template <class T>
constexpr bool is_nd = T::Loc == TileType::Vec && T::isRowMajor && !T::isBoxedLayout;
template <class T>
constexpr bool is_dn_column = T::Loc == TileType::Vec && !T::isRowMajor && !T::isBoxedLayout && T::Cols == 1;

// EXPDIF: for half both targets issue vsub then vexp on half registers
// (a2a3/a5 TRowExpandExpdif.hpp, TColExpandExpdif.hpp), so the difference is
// rounded to half before the exponential; float subtracts in float. The
// exponential is evaluated in double and rounded once, as TEXP and the
// vector unit's vexp are (docs/isa/elementwise.md, "Accuracy").
template <class T, class A>
inline A expdif(A a, A b) {
    A d = a - b;
    if constexpr (std::is_same_v<T, half>) d = widen(narrow<T>(d));
    return from_double<T>(std::exp(static_cast<double>(d)));
}

using vop::begin_op;
using vop::begin_op_n;
using vop::events_only;
using vop::fill_region;
using vop::in_view;
using vop::NoTmp;
using vop::put;
using vop::same_valid;
using vop::shape_fault;
using vop::shape_str;
namespace rd = vop::rd;

// ------------------------------------------------------------ reductions

// Which ptosim::RowFold computes a row reduction's fold on float rows in
// libptosim (the same operations in the same order), or none. TreeSum is
// A5's TROWSUM order instead of the columns in order (row_tree_sum).
enum class FastFold : int { None = -1, Sum = 0, Prod = 1, Max = 2, Min = 3, TreeSum = 4 };
static_assert(static_cast<int>(ptosim::RowFold::Sum) == 0 && static_cast<int>(ptosim::RowFold::Prod) == 1 &&
              static_cast<int>(ptosim::RowFold::Max) == 2 && static_cast<int>(ptosim::RowFold::Min) == 3);

// A5's TROWSUM, as pto-isa's A5 implementation forms each row's sum on the
// device: one vcadd per 256-byte part of the row (a binary tree of adjacent
// pairs, the columns past the valid ones as +0: asc-devkit's asc_reduce_sum
// for the 950), the parts' sums added in order to +0, every addition
// rounded to the element type (docs/isa/reduce.md). Floats in libptosim
// (ptosim::float_row_tree_sum); half here, each sum of two halves computed
// in float and rounded once (exact: float has more than twice half's
// precision).
template <class Dst, class Src>
void row_tree_sum(uint8_t* d, const uint8_t* base, int vr, int vc) {
    using T = typename Src::DType;
    constexpr size_t row_bytes = Src::Cols * sizeof(T);
    if constexpr (std::is_same_v<T, float>) {
        constexpr int kChunk = 256;
        float sums[kChunk];
        for (int r0 = 0; r0 < vr; r0 += kChunk) {
            const int n = std::min(kChunk, vr - r0);
            ptosim::float_row_tree_sum(base + r0 * row_bytes, row_bytes, n, vc, sums);
            for (int r = 0; r < n; ++r) put<Dst>(d, r0 + r, 0, sums[r]);
        }
    } else {
        constexpr int kPart = 256 / int(sizeof(T));
        const auto add = [](float a, float b) { return float(T(ptosim::first_nan(a + b, a, b))); };
        for (int r = 0; r < vr; ++r) {
            float acc = 0.0f;
            for (int c0 = 0; c0 < vc; c0 += kPart) {
                float part[kPart];
                for (int j = 0; j < kPart; ++j) {
                    T e{};
                    if (c0 + j < vc) std::memcpy(&e, base + r * row_bytes + (c0 + j) * sizeof(T), sizeof(T));
                    part[j] = float(e);
                }
                for (int n = kPart; n > 1; n /= 2)
                    for (int i = 0; i < n / 2; ++i) part[i] = add(part[2 * i], part[2 * i + 1]);
                acc = add(acc, part[0]);
            }
            put<Dst>(d, r, 0, acc);
        }
    }
}

// dst(r, 0) = out(fold of src(r, c) over c), for r < src.GetValidRow(): the
// accumulator is init(src(r, 0)) and takes columns in ascending order via
// step(acc, v, c), in compute_t (float for 16-bit floats), rounded once.
// Float sources with a FastFold go through ptosim::float_row_fold instead.
template <FastFold Fast = FastFold::None, class Dst, class Src, class Tmp, class Init, class Step, class Out>
void row_reduce(CallSite cs, const char* op, Dst& dst, Src& src, Tmp* tmp, Init init, Step step, Out out) {
    static_assert(is_nd<Src>, "row reductions read a Vec tile in row-major ND layout (BLayout::RowMajor, NoneBox)");
    static_assert(is_nd<Dst> || is_dn_column<Dst>,
                  "row reductions write a Vec tile in ND layout or a one-column DN tile (BLayout::ColMajor, Cols == 1)");
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    if (vr == 0 || vc == 0)
        shape_fault(cs, op, "source valid shape " + shape_str(vr, vc) + " is empty; a row reduction needs at least one element per row");
    vop::region_contract(cs, op, dst, "dst", vr, dst.GetValidCol(), "the source's valid rows", "write",
                         "set dst's valid shape to " + shape_str(vr, dst.GetValidCol()));
    auto [d, v] = begin_op(cs, op, static_cast<uint64_t>(vr) * vc, tmp, dst, src);
    const auto& s = std::get<0>(v);
    if constexpr (Fast == FastFold::TreeSum) {
        row_tree_sum<Dst, Src>(d, s.base, vr, vc);
        return;
    }
    if constexpr (Fast != FastFold::None && std::is_same_v<typename Src::DType, float> &&
                  std::is_same_v<typename Dst::DType, float>) {
        constexpr int kChunk = 256;
        constexpr size_t row_bytes = Src::Cols * sizeof(float);
        float folded[kChunk];
        for (int r0 = 0; r0 < vr; r0 += kChunk) {
            const int n = std::min(kChunk, vr - r0);
            ptosim::float_row_fold(static_cast<ptosim::RowFold>(Fast), s.base + r0 * row_bytes, row_bytes, n, vc, folded);
            for (int r = 0; r < n; ++r) put<Dst>(d, r0 + r, 0, out(folded[r]));
        }
        return;
    }
    for (int r = 0; r < vr; ++r) {
        auto acc = init(s(r, 0));
        for (int c = 1; c < vc; ++c) acc = step(acc, s(r, c), c);
        put<Dst>(d, r, 0, out(acc));
    }
}

// A column reduction writes `rows` rows of dst over the source's valid
// columns, whatever dst's valid columns are.
template <class Dst>
void col_dst_contract(CallSite cs, const char* op, const Dst& dst, int rows, int vc) {
    vop::region_contract(cs, op, dst, "dst", rows, vc, "the source's valid columns", "write",
                         "set dst's valid shape to " + shape_str(rows, vc));
}

// dst(0, c) = fold over r of src(r, c), for c < src.GetValidCol(): rows in
// ascending order, accumulated in compute_t and rounded once. Float sources
// with a FastFold go through ptosim::float_col_fold instead.
template <FastFold Fast = FastFold::None, class Dst, class Src, class F>
PTOSIM_VECTORIZE void col_reduce(CallSite cs, const char* op, Dst& dst, Src& src, F f) {
    static_assert(is_nd<Src> && is_nd<Dst>, "column reductions take Vec tiles in row-major ND layout (BLayout::RowMajor, NoneBox)");
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    col_dst_contract(cs, op, dst, dst.GetValidRow(), vc);
    auto [d, v] = begin_op(cs, op, static_cast<uint64_t>(vr) * vc, static_cast<NoTmp*>(nullptr), dst, src);
    if (vr == 0 || vc == 0) return;
    using T = typename Src::DType;
    const uint8_t* base = std::get<0>(v).base;
    // Columns in chunks held on the stack; each source row's chunk is contiguous (ND).
    constexpr int kChunk = 256;
    compute_t<T> acc[kChunk];
    for (int c0 = 0; c0 < vc; c0 += kChunk) {
        const int n = std::min(kChunk, vc - c0);
        const uint8_t* row = at<Src>(const_cast<uint8_t*>(base), 0, c0);
        if constexpr (Fast != FastFold::None && std::is_same_v<T, float>) {
            ptosim::float_col_fold(static_cast<ptosim::RowFold>(Fast), row, Src::Cols * sizeof(float), vr, n, acc);
            for (int c = 0; c < n; ++c) put<Dst>(d, 0, c0 + c, acc[c]);
            continue;
        }
        for (int c = 0; c < n; ++c) acc[c] = widen(load_elem<T>(row + c * sizeof(T)));
        for (int r = 1; r < vr; ++r) {
            row = at<Src>(const_cast<uint8_t*>(base), r, c0);
            for (int c = 0; c < n; ++c) acc[c] = f(acc[c], widen(load_elem<T>(row + c * sizeof(T))));
        }
        for (int c = 0; c < n; ++c) put<Dst>(d, 0, c0 + c, acc[c]);
    }
}

// TCOLSUM(dst, src, tmp, isBinary = true): the rows are added pairwise as a
// tree in the element type itself, each add rounded as the vector unit's vadd
// rounds it, with tmp holding the partial sums. The two targets fold an odd
// row differently: A2A3 into partial row 0, A5 into the last pair's row
// (docs/isa/reduce.md, from pto-isa's include/pto/npu/{a2a3,a5}/TColSum.hpp).
template <class Dst, class Src, class Tmp>
void col_sum_tree(CallSite cs, Dst& dst, Src& src, Tmp& tmp) {
    static_assert(is_nd<Src> && is_nd<Dst> && is_nd<Tmp>,
                  "TCOLSUM takes Vec tiles in row-major ND layout (BLayout::RowMajor, NoneBox)");
    using T = typename Src::DType;
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    col_dst_contract(cs, "TCOLSUM", dst, dst.GetValidRow(), vc);
    constexpr int tmp_cols = Tmp::Cols * sizeof(typename Tmp::DType) / sizeof(T);
    // pto-isa asserts this only in debug builds; ptosim still adds the true
    // tree (the device's overlapping partial rows are not modelled).
    if (vc > tmp_cols)
        vop::debug_contract(loc_of(cs), "TCOLSUM", ptosim::Pipe::V,
                            "with isBinary the tmp rows (" + std::to_string(tmp_cols) +
                                " elements) are shorter than the source's valid columns (" + std::to_string(vc) + ")",
                            "the release build stores each partial row at tmp's shorter pitch, so the rows overlap "
                            "and the sums can be wrong on the device",
                            "give tmp at least " + std::to_string(vc) + " columns of the source's element type");
    auto [d, v] = begin_op(cs, "TCOLSUM", static_cast<uint64_t>(vr) * vc, &tmp, dst, src);
    if (vr == 0 || vc == 0) return;
    const uint8_t* base = std::get<0>(v).base;
    auto s = [&](int r, int c) { return load_elem<T>(at<Src>(const_cast<uint8_t*>(base), r, c)); };
    auto add = [](T a, T b) { return narrow<T>(rd::add(widen(a), widen(b))); };
    // part[r * vc + c]: partial-sum row r, as tmp holds it on the device.
    std::vector<T> part(static_cast<size_t>(std::max(vr / 2, 1)) * vc);
    auto p = [&](int r, int c) -> T& { return part[static_cast<size_t>(r) * vc + c]; };
    int rows_written = vr / 2;
    for (int c = 0; c < vc; ++c) {
        T out;
        if constexpr (!PTOSIM_TARGET_A5) {
            if (vr == 1) {
                out = s(0, c);
            } else {
                for (int i = 0; i < vr / 2; ++i) p(i, c) = add(s(2 * i, c), s(2 * i + 1, c));
                if (vr % 2) p(0, c) = add(p(0, c), s(vr - 1, c));
                for (int n = vr / 2; n > 1; n /= 2) {
                    for (int i = 0; i < n / 2; ++i) p(i, c) = add(p(2 * i, c), p(2 * i + 1, c));
                    if (n % 2) p(0, c) = add(p(0, c), p(n - 1, c));
                }
                out = p(0, c);
            }
        } else {
            // The running register starts at zero, so a single row is row + 0.
            T acc = narrow<T>(0);
            int n = vr / 2;
            for (int j = 0; j < n; ++j) p(j, c) = acc = add(s(2 * j, c), s(2 * j + 1, c));
            if (vr % 2) p(n > 0 ? n - 1 : 0, c) = acc = add(s(vr - 1, c), acc);
            for (; n > 1;) {
                const bool odd = n % 2;
                n /= 2;
                for (int j = 0; j < n; ++j) p(j, c) = acc = add(p(2 * j, c), p(2 * j + 1, c));
                if (odd) p(n - 1, c) = acc = add(p(2 * n, c), acc);
            }
            if (vr == 1) rows_written = 1;
            out = acc;
        }
        put<Dst>(d, 0, c, out);
    }
    // The partial sums stay in tmp, as the device leaves them.
    uint8_t* t = tile_base(ptosim::core(), tmp, "TCOLSUM", "tmp", loc_of(cs));
    for (int r = 0; r < std::min(rows_written, static_cast<int>(Tmp::Rows)); ++r)
        for (int c = 0; c < vc; ++c) store_elem(t + (static_cast<size_t>(r) * tmp_cols + c) * sizeof(T), p(r, c));
}

// Index of the first extreme element of each row; beats(cur, v) says v
// replaces the current extreme (so NaN wins, as in TROWMAX/TROWMIN).
template <class Dst, class Src, class Tmp, class Beats>
void row_arg(CallSite cs, const char* op, Dst& dst, Src& src, Tmp* tmp, Beats beats) {
    struct Best {
        compute_t<typename Src::DType> v;
        int i;
    };
    row_reduce(cs, op, dst, src, tmp, [](auto v) { return Best{v, 0}; },
               [beats](Best acc, auto v, int c) { return beats(acc.v, v) ? Best{v, c} : acc; },
               [](Best acc) { return static_cast<typename Dst::DType>(acc.i); });
}

// Row index of the first extreme element of each column, for
// c < src.GetValidCol(); same beats rule as row_arg.
template <class Dst, class Src, class Tmp, class Beats>
void col_arg(CallSite cs, const char* op, Dst& dst, Src& src, Tmp* tmp, Beats beats) {
    static_assert(is_nd<Src> && is_nd<Dst>, "column arg-reductions take Vec tiles in row-major ND layout (BLayout::RowMajor, NoneBox)");
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    if (vr == 0 || vc == 0)
        shape_fault(cs, op, "source valid shape " + shape_str(vr, vc) + " is empty; a column arg-reduction needs at least one element per column");
    col_dst_contract(cs, op, dst, 1, vc);
    auto [d, v] = begin_op(cs, op, static_cast<uint64_t>(vr) * vc, tmp, dst, src);
    const auto& s = std::get<0>(v);
    for (int c = 0; c < vc; ++c) {
        auto best = s(0, c);
        int at_row = 0;
        for (int r = 1; r < vr; ++r)
            if (const auto x = s(r, c); beats(best, x)) best = x, at_row = r;
        put<Dst>(d, 0, c, static_cast<typename Dst::DType>(at_row));
    }
}

// ------------------------------------------------------------ broadcasts

// expand's loop, a destination row at a time over contiguous elements (dst is
// ND): the row's value converted once (Rows), or source row 0 (columns).
template <bool Rows, class Dst, class Src>
PTOSIM_VECTORIZE void expand_rows(uint8_t* d, const in_view<Src>& s, int vr, int vc) {
    using T = typename Dst::DType;
    for (int r = 0; r < vr; ++r) {
        uint8_t* drow = at<Dst>(d, r, 0);
        if constexpr (Rows) {
            const T x = narrow<T>(s(r, 0));
            for (int c = 0; c < vc; ++c) store_elem(drow + c * sizeof(T), x);
        } else {
            for (int c = 0; c < vc; ++c) store_elem(drow + c * sizeof(T), narrow<T>(s(0, c)));
        }
    }
}

// TCOLEXPAND's rules on src, PTO_ASSERTs of a5/TColExpand.hpp (a2a3's check
// is handed dst's valid columns for src's, so even its debug build passes):
// src's valid columns equal dst's, and src is not empty. Both release builds
// read dst's valid columns of src from the start of its storage (a2a3: one
// copy of ceil(vc * sizeof(T) / 32) blocks per row; a5: vlds at
// j * elementsPerRepeat), whatever src's valid shape says; A2A3 returns
// early on an empty src, A5 runs. A read past src's storage faults.
template <class Src>
void col_expand_src_contract(CallSite cs, const Src& src, int vc) {
    const int sr = src.GetValidRow(), sc = src.GetValidCol();
    const bool empty = sr == 0 || sc == 0;
    if (empty && !PTOSIM_TARGET_A5) return;
    if (!empty && sc == vc) return;
    const std::string n = std::to_string(vc);
    std::string what, fix;
    if (empty) {
        what = "src's valid shape " + shape_str(sr, sc) + " is empty";
        fix = "give src one valid row and dst's " + n + " valid columns";
    } else {
        what = "src's valid columns (" + std::to_string(sc) + ") differ from dst's (" + n + ")";
        fix = "set src's valid columns to dst's (" + n + ")";
    }
    const std::string runs = "reads " + n + " values from the start of src's storage, one per destination column";
    if (static_cast<size_t>(vc) > static_cast<size_t>(Src::Rows) * Src::Cols)
        shape_fault(cs, "TCOLEXPAND", what + "; pto-isa's release build " + runs + ", past its " +
                                          shape_str(Src::Rows, Src::Cols) + " storage, which ptosim does not model: " + fix);
    vop::debug_contract(loc_of(cs), "TCOLEXPAND", Pipe::V, what, "the release build " + runs, fix);
}

// dst(r, c) = src(r, 0) (rows) or src(0, c) (columns) over dst's valid region.
template <bool Rows, class Dst, class Src>
void expand(CallSite cs, const char* op, Dst& dst, Src& src) {
    static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>, "TROWEXPAND/TCOLEXPAND: source and destination element types must match");
    static_assert(is_nd<Dst>, "TROWEXPAND/TCOLEXPAND write a Vec tile in row-major ND layout");
    static_assert(is_nd<Src> || (Rows && is_dn_column<Src>),
                  "TROWEXPAND reads an ND tile or a one-column DN tile; TCOLEXPAND reads an ND tile");
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    // Only A5's TRowExpand asserts this; A2A3's states no rule on the rows.
    if constexpr (Rows && PTOSIM_TARGET_A5)
        vop::region_contract(cs, op, src, "src", vr, src.GetValidCol(), "dst's valid rows", "read",
                             "set src's valid shape to " + shape_str(vr, src.GetValidCol()));
    const bool src_empty = src.GetValidRow() == 0 || src.GetValidCol() == 0;
    if constexpr (!Rows) col_expand_src_contract(cs, src, vc);
    auto [d, v] = begin_op(cs, op, static_cast<uint64_t>(vr) * vc, static_cast<NoTmp*>(nullptr), dst, src);
    const auto& s = std::get<0>(v);
    // A2A3 returns on an empty source (both TRowExpand.hpp and TColExpand.hpp);
    // A5's TCOLEXPAND copies whatever src's storage holds.
    if (src_empty && (Rows || !PTOSIM_TARGET_A5)) return;
    expand_rows<Rows, Dst>(d, s, vr, vc);
}

// row_expand_binary's packed per-row operand with a row-major full one: e_r
// read once per row and the row as one loop over contiguous elements
// (vectorised for float), f(e_r, full) when ExpFirst; per element what
// fill_region computes.
template <bool ExpFirst, class Dst, class Full, class T, class F>
PTOSIM_VECTORIZE void row_expand_rows(uint8_t* d, const in_view<Full>& full, const uint8_t* e, int vr, int vc, F& f) {
    for (int r = 0; r < vr; ++r) {
        const auto s = widen(load_elem<T>(e + r * sizeof(T)));
        uint8_t* drow = at<Dst>(d, r, 0);
        const uint8_t* frow = at<Full>(const_cast<uint8_t*>(full.base), r, 0);
        for (int c = 0; c < vc; ++c) {
            const auto x = widen(load_elem<T>(frow + c * sizeof(T)));
            if constexpr (ExpFirst) store_elem(drow + c * sizeof(T), narrow<T>(f(s, x)));
            else store_elem(drow + c * sizeof(T), narrow<T>(f(x, s)));
        }
    }
}

// Whether pto-isa's release build takes src0 as the full tile: when src0 has
// dst's valid shape, else src1 whatever its shape (a2a3 and a5
// TRowExpand*.hpp). A2A3's form without tmp breaks the tie of both matching
// by row stride; its form with tmp and A5 do not.
template <bool HasTmp, class S0, class S1>
constexpr bool release_full_is_src0(bool src0_eq, bool src1_eq) {
    if (src0_eq && src1_eq && !HasTmp && !PTOSIM_TARGET_A5) return S0::RowStride >= S1::RowStride;
    return src0_eq;
}

// The full operand drives dst's valid region; the per-row operand e is read
// as the release build addresses it, from its storage and not by its row
// stride: packed (one value per row, element r) when it is DN or goes
// through A2A3's vbrcb (the form with tmp), else one 32-byte block per row
// at r * 32 bytes (A2A3 tiles of 256 rows or more restart every 255 rows at
// e's row stride, TRowExpandBinaryNormMode32B). ExpFirst: e is src0, so
// f sees (e_r, full) and SUB/DIV keep their operand order.
template <bool ExpFirst, bool HasTmp, class Dst, class Full, class E, class Tmp, class F>
void row_expand_run(CallSite cs, const char* op, Dst& dst, Full& full, E& e, Tmp* tmp, F f) {
    using T = typename Dst::DType;
    constexpr int block = static_cast<int>(32 / sizeof(T));
    constexpr bool packed = !E::isRowMajor || (HasTmp && !PTOSIM_TARGET_A5);
    const char* full_name = ExpFirst ? "src1" : "src0";
    const char* e_name = ExpFirst ? "src0" : "src1";
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    const std::string region = shape_str(vr, vc);
    vop::region_contract(cs, op, full, full_name, vr, vc,
                         ExpFirst && !same_valid(full, vr, vc)
                             ? "dst's valid shape, which neither source has: the release build then takes src1 as the full tile"
                             : "dst's valid shape",
                         "read", "give the full operand dst's valid shape " + region);
    const bool chunked = !PTOSIM_TARGET_A5 && !packed && Dst::Rows >= 256 && vr >= 256;
    auto row_off = [&](int r) -> size_t {
        if (packed) return static_cast<size_t>(r);
        if (chunked) return static_cast<size_t>(r / 255) * 255 * E::RowStride + static_cast<size_t>(r % 255) * block;
        return static_cast<size_t>(r) * block;
    };
    const size_t storage = static_cast<size_t>(E::Rows) * E::Cols;
    const bool fits = vr == 0 || vc == 0 || row_off(vr - 1) + (packed ? 0 : std::min(vc, block) - 1) < storage;
    const int want_c = packed ? 1 : block;
    if (packed && E::isRowMajor) {
        const std::string what = std::string(e_name) + " (the per-row operand) is a row-major tile; the form with tmp "
                                 "takes a one-column DN tile";
        const std::string fix = std::string("pass ") + e_name + " as a one-column DN tile (BLayout::ColMajor, Cols == 1) of valid shape " +
                                shape_str(vr, 1);
        const std::string runs = "reads " + std::to_string(vr) + " consecutive values of " + e_name + "'s storage, one per row";
        if (!fits)
            shape_fault(cs, op, what + "; pto-isa's release build " + runs + ", past its " + shape_str(E::Rows, E::Cols) +
                                    " storage, which ptosim does not model: " + fix);
        vop::debug_contract(loc_of(cs), op, Pipe::V, what, "the release build " + runs, fix);
    } else {
        vop::region_contract(cs, op, e, e_name, vr, want_c,
                             packed ? "dst's valid rows, one value per row" : "dst's valid rows, one 32-byte block per row",
                             "read", std::string("set ") + e_name + "'s valid shape to " + shape_str(vr, want_c), fits);
    }
    const uint64_t n = static_cast<uint64_t>(vr) * vc;
    auto [d, v] = [&] {
        if constexpr (ExpFirst) return begin_op(cs, op, n, tmp, dst, e, full);
        else return begin_op(cs, op, n, tmp, dst, full, e);
    }();
    const auto& fv = std::get<ExpFirst ? 1 : 0>(v);
    const uint8_t* eb = std::get<ExpFirst ? 0 : 1>(v).base;
    if constexpr (packed && Full::isRowMajor) {
        return row_expand_rows<ExpFirst, Dst, Full, T>(d, fv, eb, vr, vc, f);
    } else {
        auto ev = [&](int r, int c) {
            return widen(load_elem<T>(eb + (row_off(r) + (packed ? 0 : c % block)) * sizeof(T)));
        };
        if constexpr (ExpFirst) fill_region<Dst>(d, vr, vc, [&](int r, int c) { return f(ev(r, c), fv(r, c)); });
        else fill_region<Dst>(d, vr, vc, [&](int r, int c) { return f(fv(r, c), ev(r, c)); });
    }
}

// dst(r, c) = f(full(r, c), e_r) over dst's valid region, where e_r comes
// from the per-row operand: one value per row from a one-column DN tile
// (mode 1), or the row's 32-byte block, repeating along the row, from a
// row-major tile (mode 2). Which source is which follows the release build
// (release_full_is_src0); pto-isa's shape rules on both are PTO_ASSERTs, so a
// mismatch is a debug-only-contract report and the release build's reads
// run, faulting only past an operand's storage.
template <class Dst, class S0, class S1, class Tmp, class F>
void row_expand_binary(CallSite cs, const char* op, Dst& dst, S0& src0, S1& src1, Tmp* tmp, F f) {
    using T = typename Dst::DType;
    static_assert(std::is_same_v<T, typename S0::DType> && std::is_same_v<T, typename S1::DType>,
                  "TROWEXPAND ops: dst, src0 and src1 element types must match");
    static_assert(is_nd<Dst>, "TROWEXPAND ops write a Vec tile in row-major ND layout");
    static_assert((is_nd<S0> || is_dn_column<S0>) && (is_nd<S1> || is_dn_column<S1>),
                  "TROWEXPAND ops read ND tiles or one-column DN tiles (BLayout::ColMajor, Cols == 1)");
    static_assert(S0::isRowMajor || S1::isRowMajor, "TROWEXPAND ops: at most one operand may be the DN per-row vector");
    constexpr bool has_tmp = !std::is_same_v<Tmp, NoTmp>;
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (release_full_is_src0<has_tmp, S0, S1>(same_valid(src0, vr, vc), same_valid(src1, vr, vc)))
        row_expand_run<false, has_tmp>(cs, op, dst, src0, src1, tmp, f);
    else
        row_expand_run<true, has_tmp>(cs, op, dst, src1, src0, tmp, f);
}

// col_expand_binary with the roles settled: `full` is read over dst's valid
// shape at its own row stride, `e` (the per-column operand) as vc consecutive
// elements from the start of its storage, one per column, whatever its valid
// shape (a2a3 TColExpandBinOp.hpp adds ElementsPerRepeat to its pointer per
// repeat, a5 loads it at j * elementsPerRepeat). ExpFirst: e is src0, so f
// sees (e_c, full) and SUB/DIV/EXPDIF keep their operand order (Op2).
template <bool ExpFirst, class Dst, class Full, class E, class F>
void col_expand_run(CallSite cs, const char* op, Dst& dst, Full& full, E& e, F f) {
    using T = typename Dst::DType;
    const char* full_name = ExpFirst ? "src1" : "src0";
    const char* e_name = ExpFirst ? "src0" : "src1";
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    const std::string region = shape_str(vr, vc);
    vop::region_contract(cs, op, full, full_name, vr, vc,
                         ExpFirst && !same_valid(full, vr, vc)
                             ? "dst's valid shape, which neither source has: the release build then takes src1 as the full tile"
                             : "dst's valid shape",
                         "read", "give the full operand dst's valid shape " + region);
    // The documented rule: the per-column operand covers dst's valid columns.
    const bool covers = vr == 0 || vc == 0 || (e.GetValidRow() >= 1 && e.GetValidCol() >= vc);
    if (!covers)
        vop::region_contract(cs, op, e, e_name, 1, vc, "dst's valid columns, one value per column", "read",
                             std::string("set ") + e_name + "'s valid shape to " + shape_str(1, vc),
                             static_cast<size_t>(vc) <= static_cast<size_t>(E::Rows) * E::Cols);
    const uint64_t n = static_cast<uint64_t>(vr) * vc;
    auto [d, v] = [&] {
        if constexpr (ExpFirst) return begin_op(cs, op, n, static_cast<NoTmp*>(nullptr), dst, e, full);
        else return begin_op(cs, op, n, static_cast<NoTmp*>(nullptr), dst, full, e);
    }();
    const auto& fv = std::get<ExpFirst ? 1 : 0>(v);
    const uint8_t* eb = std::get<ExpFirst ? 0 : 1>(v).base;
    auto ev = [&](int c) { return widen(load_elem<T>(eb + static_cast<size_t>(c) * sizeof(T))); };
    if constexpr (ExpFirst) fill_region<Dst>(d, vr, vc, [&](int r, int c) { return f(ev(c), fv(r, c)); });
    else fill_region<Dst>(d, vr, vc, [&](int r, int c) { return f(fv(r, c), ev(c)); });
}

// dst(r, c) = f(src0(r, c), src1(0, c)) over dst's valid region. Which source
// is the full tile follows pto-isa's release build (a2a3 and a5
// TColExpandBinOp.hpp, TCOLEXPANDOP_IMPL): src0 when its valid shape is
// dst's, else src1 whatever its shape, with src0 then the per-column operand.
// pto-isa checks neither shape; its docs ask for a per-column operand
// covering dst's valid columns, so a shape off that rule is a
// debug-only-contract report, faulting only past an operand's storage.
template <class Dst, class S0, class S1, class F>
void col_expand_binary(CallSite cs, const char* op, Dst& dst, S0& src0, S1& src1, F f) {
    using T = typename Dst::DType;
    static_assert(std::is_same_v<T, typename S0::DType> && std::is_same_v<T, typename S1::DType>,
                  "TCOLEXPAND ops: dst, src0 and src1 element types must match");
    static_assert(is_nd<Dst> && is_nd<S0> && is_nd<S1>, "TCOLEXPAND ops take Vec tiles in row-major ND layout");
    if (same_valid(src0, dst.GetValidRow(), dst.GetValidCol()))
        col_expand_run<false>(cs, op, dst, src0, src1, f);
    else
        col_expand_run<true>(cs, op, dst, src1, src0, f);
}

// ------------------------------------------------------------ partial ops

// What a TPART op writes where neither source is valid. None: the shapes must
// leave no such element. Min/Max: A5 TPARTMAX/TPARTMIN as pto-isa defdb75f
// states them (a5/TPartBinOps.hpp TCopyPadOp, no rule asserted) first fill
// dst's valid region with the type's lowest/highest value, so both sources
// need only fit inside dst.
enum class PartPad { None, Min, Max };

// How a call runs once its shapes are judged (docs/debug-contracts.md, "TPART
// source shapes"). A broken rule is a debug-only-contract report: pto-isa
// states the rules with PTO_ASSERT only.
// - Patterns: the shapes follow the rules (or the padded form).
// - Nothing: A2A3's release build takes none of its branches
//   (a2a3/TPartOp.hpp TPartInstr, TPartAdd/Mul/Max/Min.hpp; a2a3/TPartArgOp.hpp
//   checkTiles), so dst keeps its bytes.
// - Copy, Merge: A5's release build at pto-isa 3186c381 (a5/TPartBinOps.hpp
//   TPartOp, a5/TPartArgBinOps.hpp TPartArgProc), see part_merge_region.
enum class PartRun { Patterns, Nothing, Copy, Merge };

// A5's release build outside the patterns (a5/TPartBinOps.hpp:97-137): with
// an empty source it copies the other over the overlap of its valid shape
// and dst's (TPartCopySrc); otherwise it takes src1 as the "big" source when
// src0 is shorter or narrower than it, else src0, applies the op over the
// sources' common rows x columns and copies the big source, read over dst's
// valid columns whatever its own valid shape, everywhere else in rows
// [0, max(common rows, dst rows)) -- past dst's valid rows when both sources
// are taller.
struct PartRegion {
    bool src1_big = false;
    int rows = 0, cols = 0;          // written
    int both_rows = 0, both_cols = 0;  // where the op combines the sources
};

template <class Dst, class S0, class S1>
PartRegion part_merge_region(const Dst& dst, const S0& src0, const S1& src1, PartRun run) {
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    const int r0 = src0.GetValidRow(), c0 = src0.GetValidCol(), r1 = src1.GetValidRow(), c1 = src1.GetValidCol();
    PartRegion g;
    if (run == PartRun::Copy) {
        g.src1_big = r0 == 0 || c0 == 0;
        g.rows = std::min(vr, g.src1_big ? r1 : r0);
        g.cols = std::min(vc, g.src1_big ? c1 : c0);
        return g;
    }
    g.src1_big = r0 < r1 || c0 < c1;
    g.both_rows = std::min(r0, r1);
    g.both_cols = std::min({c0, c1, vc});
    g.rows = std::max(g.both_rows, vr);
    g.cols = vc;
    return g;
}

// The big source's rows x columns and dst's rows must lie in their storage:
// past it the release build's loads and stores leave the tiles, which ptosim
// does not model.
template <class Dst, class S0, class S1>
void part_merge_storage(CallSite cs, const char* op, const PartRegion& g, const std::string& what, const char* dst_name,
                        const char* big0, const char* big1, const std::string& fix) {
    const int br = g.src1_big ? S1::Rows : S0::Rows, bc = g.src1_big ? S1::Cols : S0::Cols;
    const char* big = g.src1_big ? big1 : big0;
    if (g.rows > br || g.cols > bc)
        shape_fault(cs, op, what + "; pto-isa's release build reads " + big + " over " + shape_str(g.rows, g.cols) +
                                ", past its " + shape_str(br, bc) + " storage, which ptosim does not model: " + fix);
    if (g.rows > Dst::Rows)
        shape_fault(cs, op, what + "; pto-isa's release build writes " + dst_name + " over " +
                                shape_str(g.rows, g.cols) + ", past its " + shape_str(Dst::Rows, Dst::Cols) +
                                " storage, which ptosim does not model: " + fix);
}

inline std::string part_release(const PartRegion& g, PartRun run, const char* written, const char* big0,
                                const char* big1) {
    const char* big = g.src1_big ? big1 : big0;
    if (run == PartRun::Nothing) return std::string("the release build writes nothing to ") + written;
    if (run == PartRun::Copy)
        return std::string("the release build copies ") + big + " over " + shape_str(g.rows, g.cols) + " into " +
               written;
    return "the release build combines the sources over their common " + shape_str(g.both_rows, g.both_cols) +
           " and copies " + big + " elsewhere, writing " + written + " over " + shape_str(g.rows, g.cols);
}

// Whether the sources' valid shapes follow the TPART patterns, and if not,
// what the target's release build runs (reported here). `copy_into`: what
// A5's empty-source copy writes, when it is not `written`, for the report.
template <class Dst, class S0, class S1>
PartRun check_part_shapes(CallSite cs, const char* op, const Dst& dst, const S0& src0, const S1& src1,
                          PartPad pad = PartPad::None, const char* written = "dst", PartRegion* region = nullptr,
                          const char* big0 = "src0", const char* big1 = "src1", const char* copy_into = "") {
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    const int r0 = src0.GetValidRow(), c0 = src0.GetValidCol(), r1 = src1.GetValidRow(), c1 = src1.GetValidCol();
    const bool one_matches = same_valid(src0, vr, vc) || same_valid(src1, vr, vc);
    if (vr == 0 || vc == 0 || !(r0 > vr || c0 > vc || r1 > vr || c1 > vc || (pad == PartPad::None && !one_matches)))
        return PartRun::Patterns;
    const std::string what = "source valid shapes " + shape_str(r0, c0) + " and " + shape_str(r1, c1) +
                             " do not fit the destination's " + shape_str(vr, vc) +
                             (pad == PartPad::None ? ": one source must match it and the other must not exceed it"
                                                   : ": neither source may exceed it");
    const std::string fix = "give one source dst's valid shape " + shape_str(vr, vc) + " and the other at most that";
    PartRun run = PartRun::Nothing;
    PartRegion g;
    if (PTOSIM_TARGET_A5) {
        run = r0 == 0 || c0 == 0 || r1 == 0 || c1 == 0 ? PartRun::Copy : PartRun::Merge;
        g = part_merge_region(dst, src0, src1, run);
        part_merge_storage<Dst, S0, S1>(cs, op, g, what, written, big0, big1, fix);
    }
    vop::debug_contract(loc_of(cs), op, Pipe::V, what,
                        part_release(g, run, *copy_into && run == PartRun::Copy ? copy_into : written, big0, big1), fix);
    if (region) *region = g;
    return run;
}

// pick(r, c) over dst's valid region: 0 or 1 where both sources are valid,
// the one that is valid elsewhere.
template <class S0, class S1, class Pick>
auto part_picker(const S0& src0, const S1& src1, Pick both) {
    const int r0 = src0.GetValidRow(), c0 = src0.GetValidCol(), r1 = src1.GetValidRow(), c1 = src1.GetValidCol();
    return [=](int r, int c) {
        const bool in0 = r < r0 && c < c0, in1 = r < r1 && c < c1;
        return in0 && in1 ? both(r, c) : in0 ? 0 : 1;
    };
}

// Over dst's valid region: f(src0, src1) where both sources are valid, a
// copy of the one that is valid elsewhere (f against the pad value gives the
// same for max/min), the pad value where neither is.
template <PartPad pad = PartPad::None, class Dst, class S0, class S1, class F>
void part_binary(CallSite cs, const char* op, Dst& dst, S0& src0, S1& src1, F f) {
    using T = typename Dst::DType;
    static_assert(std::is_same_v<T, typename S0::DType> && std::is_same_v<T, typename S1::DType>,
                  "TPART ops: dst, src0 and src1 element types must match");
    static_assert(is_nd<Dst> && is_nd<S0> && is_nd<S1>, "TPART ops take Vec tiles in row-major ND layout");
    int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    PartRegion g;
    const PartRun run = check_part_shapes(cs, op, dst, src0, src1, pad, "dst", &g);
    if (run == PartRun::Nothing) vr = vc = 0;
    if (run == PartRun::Copy || run == PartRun::Merge) vr = g.rows, vc = g.cols;
    bool run_copy = run == PartRun::Copy || run == PartRun::Merge;
    // An empty source: 3186c381 copies the other one (a5/TPartBinOps.hpp:100-108)
    // where defdb75f's padded form returned before writing anything; its ST
    // cases check the copy, defdb75f's none of this.
    if (run == PartRun::Patterns && pad != PartPad::None && vr > 0 && vc > 0 &&
        (src0.GetValidRow() == 0 || src0.GetValidCol() == 0 || src1.GetValidRow() == 0 || src1.GetValidCol() == 0)) {
        g = part_merge_region(dst, src0, src1, PartRun::Copy);
        vr = g.rows, vc = g.cols;
        run_copy = true;
    }
    auto [d, v] = begin_op(cs, op, static_cast<uint64_t>(vr) * vc, static_cast<NoTmp*>(nullptr), dst, src0, src1);
    const auto& a = std::get<0>(v);
    const auto& b = std::get<1>(v);
    if (run_copy) {
        fill_region<Dst>(d, vr, vc, [&](int r, int c) {
            return r < g.both_rows && c < g.both_cols ? f(a(r, c), b(r, c)) : g.src1_big ? b(r, c) : a(r, c);
        });
        return;
    }
    const auto fill = widen(pad == PartPad::Max ? pad_value<T, PadValue::Max>() : pad_value<T, PadValue::Min>());
    const int r0 = src0.GetValidRow(), c0 = src0.GetValidCol(), r1 = src1.GetValidRow(), c1 = src1.GetValidCol();
    fill_region<Dst>(d, vr, vc, [&](int r, int c) {
        const bool in0 = r < r0 && c < c0, in1 = r < r1 && c < c1;
        return in0 && in1 ? f(a(r, c), b(r, c)) : in0 ? a(r, c) : in1 ? b(r, c) : fill;
    });
}

// TPARTARGMAX/TPARTARGMIN: where both sources are valid, (value, index) of
// src0 when src0_wins(a, b), else of src1; a copy of the valid one elsewhere.
// Each index tile should have its value tile's valid shape (PTO_ASSERT on
// both targets). A2A3 then writes nothing (a2a3/TPartArgOp.hpp checkTiles);
// A5's release build never reads the index tiles' valid shapes and runs the
// value tiles' region over them (a5/TPartArgBinOps.hpp:212-263).
template <class DV, class S0, class S1, class DI, class I0, class I1, class Wins>
void part_arg(CallSite cs, const char* op, DV& dst, S0& src0, S1& src1, DI& dst_idx, I0& idx0, I1& idx1, Wins src0_wins) {
    using V = typename DV::DType;
    using I = typename DI::DType;
    static_assert(std::is_same_v<V, typename S0::DType> && std::is_same_v<V, typename S1::DType>,
                  "TPARTARGMAX/TPARTARGMIN: dstVal, src0Val and src1Val element types must match");
    static_assert(std::is_same_v<I, typename I0::DType> && std::is_same_v<I, typename I1::DType>,
                  "TPARTARGMAX/TPARTARGMIN: dstIdx, src0Idx and src1Idx element types must match");
    static_assert(f16f32_type<V>, "TPARTARGMAX/TPARTARGMIN: the value tiles must be half or float");
    static_assert(std::is_integral_v<I> && sizeof(I) == sizeof(V) && sizeof(I) >= 2,
                  "TPARTARGMAX/TPARTARGMIN: the index type must be an integer of the value's size "
                  "(int16_t/uint16_t with half, int32_t/uint32_t with float)");
    static_assert(is_nd<DV> && is_nd<S0> && is_nd<S1> && is_nd<DI> && is_nd<I0> && is_nd<I1>,
                  "TPARTARGMAX/TPARTARGMIN take Vec tiles in row-major ND layout");
    bool writes = true;
    // A5 reports these once the index tiles' storage is known to hold the
    // regions they run, so that a call that faults reports nothing first.
    std::vector<std::array<std::string, 3>> idx_reports;
    auto pair_check = [&](const auto& val, const auto& idx, const char* name) {
        if (!writes || same_valid(idx, val.GetValidRow(), val.GetValidCol())) return;
        const std::string vs = shape_str(val.GetValidRow(), val.GetValidCol());
        const std::string what = std::string(name) + "Idx valid shape " + shape_str(idx.GetValidRow(), idx.GetValidCol()) +
                                 " must equal " + name + "Val's " + vs;
        const std::string fix = std::string("give ") + name + "Idx " + name + "Val's valid shape " + vs;
        if (PTOSIM_TARGET_A5) {
            idx_reports.push_back({what, std::string("the release build runs ") + name + "Val's region over " + name + "Idx",
                                   fix});
            return;
        }
        vop::debug_contract(loc_of(cs), op, Pipe::V, what, "the release build writes nothing to dstVal or dstIdx", fix);
        writes = false;
    };
    pair_check(dst, dst_idx, "dst");
    pair_check(src0, idx0, "src0");
    pair_check(src1, idx1, "src1");
    PartRegion g;
    PartRun run = PartRun::Nothing;
    if (writes)
        run = check_part_shapes(cs, op, dst, src0, src1, PartPad::None, "dstVal and dstIdx", &g, "src0Val", "src1Val",
                                "dstVal, and that source's index tile into dstIdx over the overlap of their valid shapes");
    if (run == PartRun::Copy) {
        // A5's release build copies the non-empty source's values and indices
        // with TMOV (a5/TPartArgBinOps.hpp:252-257), whose Vec-to-Vec form runs
        // over the overlap of each pair's own valid shapes (a5/TMov.hpp,
        // TMovToVec): index tiles of another shape are then no concern.
        auto copy = [&](auto& sv, auto& si) {
            const int rv = std::min(dst.GetValidRow(), sv.GetValidRow()), cv = std::min(dst.GetValidCol(), sv.GetValidCol());
            const int ri = std::min(dst_idx.GetValidRow(), si.GetValidRow()),
                      ci = std::min(dst_idx.GetValidCol(), si.GetValidCol());
            auto [d, v] = begin_op_n(cs, op, static_cast<uint64_t>(rv) * cv + static_cast<uint64_t>(ri) * ci,
                                     static_cast<NoTmp*>(nullptr), std::tuple<DV&, DI&>{dst, dst_idx}, sv, si);
            const auto& [a, ia] = v;
            for (int r = 0; r < rv; ++r)
                for (int c = 0; c < cv; ++c) put<DV>(d[0], r, c, a(r, c));
            for (int r = 0; r < ri; ++r)
                for (int c = 0; c < ci; ++c) put<DI>(d[1], r, c, ia(r, c));
        };
        for (const auto& [what, release, fix] : idx_reports)
            vop::debug_contract(loc_of(cs), op, Pipe::V, what,
                                "the release build copies each index tile over the overlap of its own valid shape", fix);
        if (g.src1_big) copy(src1, idx1);
        else copy(src0, idx0);
        return;
    }
    int vr = 0, vc = 0;
    if (run == PartRun::Patterns) vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (run == PartRun::Merge) vr = g.rows, vc = g.cols;
    // Each index tile runs its value tile's region, so it must hold it.
    auto idx_fits = [&](const auto& idx, int rows, int cols, const char* name) {
        using It = std::remove_cvref_t<decltype(idx)>;
        if (rows > It::Rows || cols > It::Cols)
            shape_fault(cs, op, std::string(name) + " is run over " + shape_str(rows, cols) + ", past its " +
                                    shape_str(It::Rows, It::Cols) + " storage, which ptosim does not model: give it "
                                    "its value tile's valid shape, in storage that holds it");
    };
    if (run == PartRun::Merge) {
        idx_fits(idx0, g.src1_big ? g.both_rows : vr, g.src1_big ? g.both_cols : vc, "src0Idx");
        idx_fits(idx1, g.src1_big ? vr : g.both_rows, g.src1_big ? vc : g.both_cols, "src1Idx");
    } else {
        idx_fits(idx0, std::min(src0.GetValidRow(), vr), std::min(src0.GetValidCol(), vc), "src0Idx");
        idx_fits(idx1, std::min(src1.GetValidRow(), vr), std::min(src1.GetValidCol(), vc), "src1Idx");
    }
    idx_fits(dst_idx, vr, vc, "dstIdx");
    for (const auto& [what, release, fix] : idx_reports) vop::debug_contract(loc_of(cs), op, Pipe::V, what, release, fix);
    auto [d, v] = begin_op_n(cs, op, static_cast<uint64_t>(vr) * vc, static_cast<NoTmp*>(nullptr),
                             std::tuple<DV&, DI&>{dst, dst_idx}, src0, src1, idx0, idx1);
    const auto& [a, b, ia, ib] = v;
    if (run == PartRun::Merge) {
        for (int r = 0; r < vr; ++r)
            for (int c = 0; c < vc; ++c) {
                const bool both = r < g.both_rows && c < g.both_cols;
                const bool first = both ? src0_wins(a(r, c), b(r, c)) : !g.src1_big;
                put<DV>(d[0], r, c, first ? a(r, c) : b(r, c));
                put<DI>(d[1], r, c, first ? ia(r, c) : ib(r, c));
            }
        return;
    }
    auto which = part_picker(src0, src1, [&](int r, int c) { return src0_wins(a(r, c), b(r, c)) ? 0 : 1; });
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) {
            const bool first = which(r, c) == 0;
            put<DV>(d[0], r, c, first ? a(r, c) : b(r, c));
            put<DI>(d[1], r, c, first ? ia(r, c) : ib(r, c));
        }
}

}  // namespace ptosim_impl::red

// ------------------------------------------------------------ instruction macros

#define PTOSIM_TYPE_CHECK(NAME, TYPES, Dst, Src)                                                                     \
    static_assert(ptosim_impl::red::TYPES<typename Dst::DType>, #NAME ": unsupported element type on this target (docs/isa/reduce.md lists the types)"); \
    static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>, #NAME ": source and destination element types must match")

// TNAME(dst, src, tmp): FOLD(acc, v) over each row.
// FAST: the ptosim_impl::red::FastFold that computes FOLD on float rows.
#define PTOSIM_ROW_REDUCE_OP(NAME, TYPES, FOLD, FAST)                                                               \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events) { \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataOut, TileDataIn);                                                   \
        ptosim_impl::red::row_reduce<ptosim_impl::red::FastFold::FAST>(cs, #NAME, dst, src, &tmp, [](auto v) { return v; }, \
                        [](auto acc, auto v, int) { return FOLD; }, [](auto acc) { return acc; });                 \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST_CALLER RecordEvent NAME(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... e) {      \
        return NAME(PTOSIM_CALLER, dst, src, tmp, e...);                                                           \
    }

// TNAME(dst, src, tmp): index of the row's first extreme, BEATS from ptosim_impl::red::rd.
#define PTOSIM_ROW_ARG_OP(NAME, BEATS)                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events) { \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        static_assert(ptosim_impl::red::f16f32_type<typename TileDataIn::DType>, #NAME ": the source must be half or float");   \
        static_assert(ptosim_impl::red::one_of<typename TileDataOut::DType, int32_t, uint32_t>,                                 \
                      #NAME ": the destination holds column indices and must be int32_t or uint32_t");             \
        static_assert(ptosim_impl::red::is_dn_column<TileDataOut>,                                                              \
                      #NAME ": the destination must be a one-column DN tile (BLayout::ColMajor, Cols == 1)");      \
        ptosim_impl::red::row_arg(cs, #NAME, dst, src, &tmp, [](auto cur, auto v) { return ptosim_impl::vop::rd::BEATS(cur, v); });          \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST_CALLER RecordEvent NAME(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... e) {      \
        return NAME(PTOSIM_CALLER, dst, src, tmp, e...);                                                           \
    }

// TNAME(dst, src, tmp): row index of each column's first extreme.
#define PTOSIM_COL_ARG_OP(NAME, BEATS)                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... events) { \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        static_assert(ptosim_impl::red::col_arg_type<typename TileDataIn::DType>,                                          \
                      #NAME ": unsupported source type on this target (A2A3: half, float, uint16_t, uint32_t; "    \
                      "A5 adds int8_t, uint8_t, int16_t, int32_t)");                                             \
        static_assert(ptosim_impl::red::one_of<typename TileDataOut::DType, int32_t, uint32_t>,                            \
                      #NAME ": the destination holds row indices and must be int32_t or uint32_t");                \
        static_assert(PTOSIM_TARGET_A5 || std::is_same_v<typename TileDataTmp::DType, typename TileDataIn::DType>, \
                      #NAME ": on A2A3 the tmp tile must have the source's element type");                         \
        ptosim_impl::red::col_arg(cs, #NAME, dst, src, &tmp, [](auto cur, auto v) { return ptosim_impl::vop::rd::BEATS(cur, v); });   \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>             \
    PTO_INST_CALLER RecordEvent NAME(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, WaitEvents&... e) {      \
        return NAME(PTOSIM_CALLER, dst, src, tmp, e...);                                                           \
    }

// TNAME(dst, src): FOLD(acc, v) down each column.
#define PTOSIM_COL_REDUCE_OP(NAME, TYPES, FOLD, FAST)                                                               \
    template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>                                   \
        requires ptosim_impl::red::events_only<WaitEvents...>                                                                   \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataOut& dst, TileDataIn& src, WaitEvents&... events) {            \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataOut, TileDataIn);                                                   \
        ptosim_impl::red::col_reduce<ptosim_impl::red::FastFold::FAST>(cs, #NAME, dst, src, [](auto acc, auto v) { return FOLD; }); \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>                                   \
        requires ptosim_impl::red::events_only<WaitEvents...>                                                                   \
    PTO_INST_CALLER RecordEvent NAME(TileDataOut& dst, TileDataIn& src, WaitEvents&... e) {                        \
        return NAME(PTOSIM_CALLER, dst, src, e...);                                                                \
    }

// TNAME(dst, src0, src1[, tmp]): EXPR(a, b) with one operand per-row.
#define PTOSIM_ROW_EXPAND_OP(NAME, TYPES, EXPR)                                                                     \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataTmp,            \
              typename... WaitEvents>                                                                              \
        requires is_tile_data_v<TileDataTmp>                                                                       \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,              \
                              TileDataTmp& tmp, WaitEvents&... events) {                                           \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataDst, TileDataSrc0);                                                 \
        ptosim_impl::red::row_expand_binary(cs, #NAME, dst, src0, src1, &tmp, [](auto a, auto b) { return EXPR; });             \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>          \
        requires ptosim_impl::red::events_only<WaitEvents...>                                                                   \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,              \
                              WaitEvents&... events) {                                                             \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataDst, TileDataSrc0);                                                 \
        ptosim_impl::red::row_expand_binary(cs, #NAME, dst, src0, src1, static_cast<ptosim_impl::red::NoTmp*>(nullptr),                      \
                               [](auto a, auto b) { return EXPR; });                                               \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... Rest>                \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, Rest&... rest) {    \
        return NAME(PTOSIM_CALLER, dst, src0, src1, rest...);                                                      \
    }

// TNAME(dst, src0, src1): EXPR(a, b) with src1 per-column.
#define PTOSIM_COL_EXPAND_OP(NAME, TYPES, EXPR)                                                                     \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>          \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,              \
                              WaitEvents&... events) {                                                             \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataDst, TileDataSrc0);                                                 \
        ptosim_impl::red::col_expand_binary(cs, #NAME, dst, src0, src1, [](auto a, auto b) { return EXPR; });                   \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>          \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) { \
        return NAME(PTOSIM_CALLER, dst, src0, src1, e...);                                                         \
    }

// TNAME(dst, src0, src1): EXPR(a, b) where both are valid, a copy elsewhere;
// PAD is what fills the rest of dst (PartPad).
#define PTOSIM_PART_OP(NAME, TYPES, EXPR, PAD)                                                                           \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>          \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1,              \
                              WaitEvents&... events) {                                                             \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        PTOSIM_TYPE_CHECK(NAME, TYPES, TileDataDst, TileDataSrc0);                                                 \
        ptosim_impl::red::part_binary<PAD>(cs, #NAME, dst, src0, src1, [](auto a, auto b) { return EXPR; });                    \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>          \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) { \
        return NAME(PTOSIM_CALLER, dst, src0, src1, e...);                                                         \
    }

// TNAME(dstVal, src0Val, src1Val, dstIdx, src0Idx, src1Idx): src0 wins where WINS(a, b).
#define PTOSIM_PART_ARG_OP(NAME, WINS)                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataDstIdx,         \
              typename TileDataSrc0Idx, typename TileDataSrc1Idx, typename... WaitEvents>                          \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dstVal, TileDataSrc0& src0Val, TileDataSrc1& src1Val,     \
                              TileDataDstIdx& dstIdx, TileDataSrc0Idx& src0Idx, TileDataSrc1Idx& src1Idx,          \
                              WaitEvents&... events) {                                                             \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        ptosim_impl::red::part_arg(cs, #NAME, dstVal, src0Val, src1Val, dstIdx, src0Idx, src1Idx,                          \
                           [](auto a, auto b) { return WINS; });                                                   \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename TileDataDstIdx,         \
              typename TileDataSrc0Idx, typename TileDataSrc1Idx, typename... WaitEvents>                          \
        requires is_tile_data_v<TileDataDst>                                                                       \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dstVal, TileDataSrc0& src0Val, TileDataSrc1& src1Val,            \
                              TileDataDstIdx& dstIdx, TileDataSrc0Idx& src0Idx, TileDataSrc1Idx& src1Idx,          \
                              WaitEvents&... e) {                                                                  \
        return NAME(PTOSIM_CALLER, dstVal, src0Val, src1Val, dstIdx, src0Idx, src1Idx, e...);                      \
    }

// TNAME(dst, src): broadcast of src's first column (ROWS) or first row.
#define PTOSIM_EXPAND_OP(NAME, ROWS)                                                                                \
    template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>                                  \
    PTO_INST RecordEvent NAME(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {           \
        ptosim_impl::wait_events(cs, events...);                                                                          \
        static_assert(ptosim_impl::red::copy_type<typename TileDataDst::DType>, #NAME ": unsupported element type on this target (docs/isa/reduce.md lists the types)"); \
        ptosim_impl::red::expand<ROWS>(cs, #NAME, dst, src);                                                                    \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>                                  \
    PTO_INST_CALLER RecordEvent NAME(TileDataDst& dst, TileDataSrc& src, WaitEvents&... e) {                       \
        return NAME(PTOSIM_CALLER, dst, src, e...);                                                                \
    }

// Integers wrap; half/bf16 are computed in float and rounded once, except
// A5's TROWSUM, which adds as the device does (row_tree_sum).
#if PTOSIM_TARGET_A5
PTOSIM_ROW_REDUCE_OP(TROWSUM, f16f32_type, acc + v, TreeSum)
#else
PTOSIM_ROW_REDUCE_OP(TROWSUM, f16f32_type, acc + v, Sum)
#endif
PTOSIM_ROW_REDUCE_OP(TROWMAX, row_minmax_type, ptosim_impl::vop::rd::max(acc, v), Max)
PTOSIM_ROW_REDUCE_OP(TROWMIN, row_minmax_type, ptosim_impl::vop::rd::min(acc, v), Min)
PTOSIM_ROW_REDUCE_OP(TROWPROD, base4_type, ptosim_impl::vop::rd::mul(acc, v), Prod)
PTOSIM_ROW_ARG_OP(TROWARGMAX, beats_max)
PTOSIM_ROW_ARG_OP(TROWARGMIN, beats_min)

// Ties keep the first row; NaN wins as in TROWARGMAX.
PTOSIM_COL_ARG_OP(TCOLARGMAX, beats_max)
PTOSIM_COL_ARG_OP(TCOLARGMIN, beats_min)

PTOSIM_COL_REDUCE_OP(TCOLSUM, col_reduce_type, ptosim_impl::vop::rd::add(acc, v), Sum)
PTOSIM_COL_REDUCE_OP(TCOLMAX, col_reduce_type, ptosim_impl::vop::rd::max(acc, v), Max)
PTOSIM_COL_REDUCE_OP(TCOLMIN, col_reduce_type, ptosim_impl::vop::rd::min(acc, v), Min)
PTOSIM_COL_REDUCE_OP(TCOLPROD, col_prod_type, ptosim_impl::vop::rd::mul(acc, v), Prod)

// isBinary picks the device's tree order (col_sum_tree); without it the rows
// are added in order, as TCOLSUM(dst, src) adds them.
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST RecordEvent TCOLSUM(CallSite cs, TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, bool isBinary,
                             WaitEvents&... e) {
    if (!isBinary) return TCOLSUM(cs, dst, src, e...);
    ptosim_impl::wait_events(cs, e...);
    PTOSIM_TYPE_CHECK(TCOLSUM, col_reduce_type, TileDataOut, TileDataIn);
    ptosim_impl::red::col_sum_tree(cs, dst, src, tmp);
    return {};
}
template <typename TileDataOut, typename TileDataIn, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST_CALLER RecordEvent TCOLSUM(TileDataOut& dst, TileDataIn& src, TileDataTmp& tmp, bool isBinary, WaitEvents&... e) {
    return TCOLSUM(PTOSIM_CALLER, dst, src, tmp, isBinary, e...);
}

PTOSIM_EXPAND_OP(TROWEXPAND, true)
PTOSIM_EXPAND_OP(TCOLEXPAND, false)

PTOSIM_ROW_EXPAND_OP(TROWEXPANDADD, expand_arith_type, ptosim_impl::vop::rd::add(a, b))
PTOSIM_ROW_EXPAND_OP(TROWEXPANDSUB, expand_arith_type, ptosim_impl::vop::rd::sub(a, b))
PTOSIM_ROW_EXPAND_OP(TROWEXPANDMUL, expand_arith_type, ptosim_impl::vop::rd::mul(a, b))
PTOSIM_ROW_EXPAND_OP(TROWEXPANDDIV, f16f32_type, a / b)
PTOSIM_ROW_EXPAND_OP(TROWEXPANDMAX, expand_arith_type, ptosim_impl::vop::rd::max(a, b))
PTOSIM_ROW_EXPAND_OP(TROWEXPANDMIN, expand_arith_type, ptosim_impl::vop::rd::min(a, b))
PTOSIM_ROW_EXPAND_OP(TROWEXPANDEXPDIF, f16f32_type, ptosim_impl::red::expdif<typename TileDataDst::DType>(a, b))

PTOSIM_COL_EXPAND_OP(TCOLEXPANDADD, expand_arith_type, ptosim_impl::vop::rd::add(a, b))
PTOSIM_COL_EXPAND_OP(TCOLEXPANDSUB, expand_arith_type, ptosim_impl::vop::rd::sub(a, b))
PTOSIM_COL_EXPAND_OP(TCOLEXPANDMUL, expand_arith_type, ptosim_impl::vop::rd::mul(a, b))
PTOSIM_COL_EXPAND_OP(TCOLEXPANDDIV, f16f32_type, a / b)
PTOSIM_COL_EXPAND_OP(TCOLEXPANDMAX, expand_arith_type, ptosim_impl::vop::rd::max(a, b))
PTOSIM_COL_EXPAND_OP(TCOLEXPANDMIN, expand_arith_type, ptosim_impl::vop::rd::min(a, b))
PTOSIM_COL_EXPAND_OP(TCOLEXPANDEXPDIF, f16f32_type, ptosim_impl::red::expdif<typename TileDataDst::DType>(a, b))

PTOSIM_PART_OP(TPARTADD, expand_arith_type, ptosim_impl::vop::rd::add(a, b), ptosim_impl::red::PartPad::None)
PTOSIM_PART_OP(TPARTMUL, expand_arith_type, ptosim_impl::vop::rd::mul(a, b), ptosim_impl::red::PartPad::None)
PTOSIM_PART_OP(TPARTMAX, expand_arith_type, ptosim_impl::vop::rd::max(a, b),
               PTOSIM_TARGET_A5 ? ptosim_impl::red::PartPad::Min : ptosim_impl::red::PartPad::None)
PTOSIM_PART_OP(TPARTMIN, expand_arith_type, ptosim_impl::vop::rd::min(a, b),
               PTOSIM_TARGET_A5 ? ptosim_impl::red::PartPad::Max : ptosim_impl::red::PartPad::None)

// src0 only on a strict win, so ties and any NaN comparison take src1.
PTOSIM_PART_ARG_OP(TPARTARGMAX, a > b)
PTOSIM_PART_ARG_OP(TPARTARGMIN, a < b)

}  // namespace pto
