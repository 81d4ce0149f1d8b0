// Gathers and scatters beyond the index TGATHER of layout.hpp: the
// mask-pattern and compare forms of TGATHER, TGATHERB, TSCATTER, and the
// tile <-> global memory MGATHER / MSCATTER (docs/isa/gather_scatter.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/gather_scatter.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/gm_view.hpp>
#include <pto/inst/layout.hpp>

namespace pto {

// Enums of the public pto-isa headers (type.hpp, gather_scatter.hpp there),
// with the same names, values and underlying types.
enum class Coalesce : uint8_t { Row = 0, Elem = 1 };
enum class GatherOOB : uint8_t { Undefined = 0, Clamp = 1, Wrap = 2, Zero = 3 };
enum class ScatterAtomicOp : uint8_t { None = 0, Add = 1, Max = 2, Min = 3 };
enum class ScatterOOB : uint8_t { Undefined = 0, Skip = 1, Clamp = 2, Wrap = 3 };
enum class ScatterConflict : uint8_t { Last = 0, Default = 1 };

namespace ptosim_impl::gs {

using vop::shape_str;

// The mode MGATHER/MSCATTER use when none is given. pto-isa's A5 headers
// (a5/MGather.hpp, a5/MScatter.hpp) take no mode: an index tile with one
// static column is row-indexed, one with the data tile's static Cols
// element-indexed. A2A3 keeps Row.
inline constexpr Coalesce kCoalesceByIndexTile = static_cast<Coalesce>(0xff);

template <Coalesce M, class Data, class Ind>
constexpr Coalesce coalesce_mode() {
    if constexpr (M != kCoalesceByIndexTile) return M;
    else if constexpr (PTOSIM_TARGET_A5 && Ind::Cols != 1 && Ind::Cols == Data::Cols && Ind::Rows == Data::Rows)
        return Coalesce::Elem;
    else return Coalesce::Row;
}

using vop::Op;

template <class T>
inline void copy_elem(uint8_t* dst_base, int dr, int dc, const uint8_t* src_base, int sr, int sc) {
    std::memcpy(at<T>(dst_base, dr, dc), at<T>(const_cast<uint8_t*>(src_base), sr, sc), sizeof(typename T::DType));
}

// Element number k of a tile's storage, counted from its first byte.
template <class T>
inline uint8_t* flat(uint8_t* base, int64_t k) {
    return base + k * static_cast<int64_t>(sizeof(typename T::DType));
}

// Column c of the mask pattern keeps its element (the vreducev2 patterns:
// bit c % period of the pattern, read from the low end).
constexpr bool pattern_keeps(MaskPattern p, int c) {
    switch (p) {
        case MaskPattern::P0101: return c % 2 == 0;
        case MaskPattern::P1010: return c % 2 == 1;
        case MaskPattern::P0001: return c % 4 == 0;
        case MaskPattern::P0010: return c % 4 == 1;
        case MaskPattern::P0100: return c % 4 == 2;
        case MaskPattern::P1000: return c % 4 == 3;
        case MaskPattern::P1111: return true;
    }
    return true;
}

template <class E>
constexpr bool mask_gather_types = PTOSIM_TARGET_A5 ? one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t,
                                                             half, bfloat16_t, float>
                                                   : one_of<E, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
template <class E>
constexpr bool scatter_tile_types = one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
template <class E>
constexpr bool gm_index_types = one_of<E, int32_t, uint32_t>;

// MSCATTER atomic element types per target (MSCATTER page, "Atomic Type Support").
template <class E, ScatterAtomicOp A>
constexpr bool scatter_atomic_ok =
    A == ScatterAtomicOp::None ||
    (A == ScatterAtomicOp::Add && (PTOSIM_TARGET_A5 ? one_of<E, int32_t, uint32_t, float, half, bfloat16_t>
                                                     : one_of<E, int8_t, int16_t, int32_t, half, bfloat16_t, float>)) ||
    ((A == ScatterAtomicOp::Max || A == ScatterAtomicOp::Min) && PTOSIM_TARGET_A5 &&
     one_of<E, int32_t, uint32_t, float>);

// UB tiles of MGATHER/MSCATTER: ND on A2A3; A5 addresses each through its
// own layout, so column-major NoneBox tiles are accepted there too.
template <class T>
constexpr bool gm_tile_layout_ok = T::Loc == TileType::Vec && !T::isBoxedLayout && (PTOSIM_TARGET_A5 || T::isRowMajor);

// Where index number k of an MGATHER/MSCATTER index tile sits: (r, c) of
// the data tile for Elem; for Row the k-th entry of a [1, R] or [R, 1] tile.
template <class I>
struct IndexTile {
    const uint8_t* base;
    bool column;  // Row mode with an [R, 1] index tile
    int64_t row_index(int k) const {
        return value(column ? at<I>(const_cast<uint8_t*>(base), k, 0) : at<I>(const_cast<uint8_t*>(base), 0, k));
    }
    int64_t elem_index(int r, int c) const { return value(at<I>(const_cast<uint8_t*>(base), r, c)); }
    static int64_t value(const uint8_t* p) { return static_cast<int64_t>(load_elem<typename I::DType>(p)); }
};

// The hardware reads indices as uint32; a negative int32 index is therefore
// a huge one, out of range like any other.
inline uint64_t as_hw_index(int64_t raw) { return static_cast<uint32_t>(raw); }

// Validates the index tile's valid shape against the data tile's (vr x vc)
// and says whether a Row-mode index tile is a column.
template <Coalesce M, class I>
bool check_index_shape(const Op& op, const I& idx, int vr, int vc) {
    const int ir = idx.GetValidRow(), ic = idx.GetValidCol();
    if constexpr (M == Coalesce::Row) {
        if (ir == 1 && ic == vr) return false;
        if (PTOSIM_TARGET_A5 && ic == 1 && ir == vr) return true;
        op.fault("Coalesce::Row needs an index tile of valid shape " + shape_str(1, vr) +
                 (PTOSIM_TARGET_A5 ? " or " + shape_str(vr, 1) : std::string()) + " (one index per data row); it is " +
                 shape_str(ir, ic));
    } else {
        if (ir != vr || ic != vc)
            op.fault("Coalesce::Elem needs an index tile of the data tile's valid shape " + shape_str(vr, vc) +
                     "; it is " + shape_str(ir, ic));
        return false;
    }
}

// The GM table as MGATHER/MSCATTER address it: Row mode has `capacity`
// rows of width shape[4]; Elem mode is a flat run of capacity elements.
template <Coalesce M, class G>
struct Table {
    const G& g;
    GmView<G> view;
    int64_t capacity;
    int vc;
    Table(const Op& op, const G& gt, int valid_cols) : g(gt), view(gt), vc(valid_cols) {
        if (!g.data()) op.fault("the GlobalTensor has no data pointer");
        const int64_t s0 = view.sh[0], s1 = view.sh[1], s2 = view.sh[2], s3 = view.sh[3], s4 = view.sh[4];
        if constexpr (M == Coalesce::Row) {
            // A5's SIMT kernel treats the table as packed rows of validCol elements.
            if (PTOSIM_TARGET_A5 && s4 != vc)
                op.fault("on A5 the table's row width (shape[4] = " + std::to_string(s4) +
                         ") must equal the tile's valid columns (" + std::to_string(vc) + ")");
            if (vc > s4)
                op.fault("the tile's " + std::to_string(vc) + " valid columns exceed the table's row width " +
                         std::to_string(s4));
            capacity = PTOSIM_TARGET_A5 ? s3 : s0 * s1 * s2 * s3;
        } else {
            capacity = s0 * s1 * s2 * s3 * s4;
        }
    }
    // Element offset of column j of table row (Row) or of element k (Elem).
    int64_t offset(uint64_t k, int j) const {
        if constexpr (M == Coalesce::Elem) return static_cast<int64_t>(k);
        else if (PTOSIM_TARGET_A5) return static_cast<int64_t>(k) * vc + j;
        else return view.offset(static_cast<int64_t>(k), j);
    }
    // Bytes one index moves: a row of vc elements (Row) or one element.
    uint64_t span_bytes() const {
        constexpr uint64_t es = sizeof(typename G::RawDType);
        if constexpr (M == Coalesce::Elem) return es;
        else return static_cast<uint64_t>(offset(0, vc - 1) - offset(0, 0) + 1) * es;
    }
    uint8_t* address(uint64_t k) const { return gm_bytes(g) + offset(k, 0) * static_cast<int64_t>(sizeof(typename G::RawDType)); }
};

// One resolved index: where it came from, where it goes (or that it is skipped).
struct Hit {
    int r, c;  // position in the data tile (Row: c is 0)
    uint64_t slot;
    bool live;
};

// Reads every index, applies the out-of-bounds policy and checks each GM
// span it reaches; an index out of range under the Undefined policy faults.
template <Coalesce M, class G, class I, class Remap>
std::vector<Hit> resolve(const Op& op, const Table<M, G>& table, const IndexTile<I>& idx, int vr, int vc, Remap remap) {
    std::vector<Hit> out;
    const int n_r = vr, n_c = M == Coalesce::Row ? 1 : vc;
    out.reserve(static_cast<size_t>(n_r) * n_c);
    const char* unit = M == Coalesce::Row ? " rows" : " elements";
    for (int r = 0; r < n_r; ++r)
        for (int c = 0; c < n_c; ++c) {
            const int64_t raw = M == Coalesce::Row ? idx.row_index(r) : idx.elem_index(r, c);
            const uint64_t k = as_hw_index(raw);
            Hit t{r, c, k, true};
            if (k >= static_cast<uint64_t>(table.capacity)) {
                if (table.capacity == 0 || !remap(t))
                    op.fault("index " + std::to_string(raw) + " at (" + std::to_string(r) + ", " + std::to_string(c) +
                             ") of the index tile is outside the table's " + std::to_string(table.capacity) + unit +
                             "; fix the index or choose a clamping, wrapping or skipping out-of-bounds mode");
            }
            if (t.live) {
                const std::string what = op.who() + " index " + std::to_string(raw) + " at (" +
                                         std::to_string(r) + ", " + std::to_string(c) + ")";
                ptosim::check_gm(table.address(t.slot), table.span_bytes(), what.c_str(), op.loc);
            }
            out.push_back(t);
        }
    return out;
}

// Smallest byte range holding every live span, for the dispatch record.
template <Coalesce M, class G>
void record_gm(Op& op, const Table<M, G>& table, const std::vector<Hit>& ts, bool write) {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (const Hit& t : ts)
        if (t.live) {
            const uintptr_t a = reinterpret_cast<uintptr_t>(table.address(t.slot));
            lo = std::min(lo, a);
            hi = std::max<uintptr_t>(hi, a + table.span_bytes());
        }
    if (lo > hi) lo = hi = reinterpret_cast<uintptr_t>(gm_bytes(table.g));
    if (write) op.rec.write(Space::GM, lo, hi - lo);
    else op.rec.read(Space::GM, lo, hi - lo);
}

// A2A3 moves Row-mode data with MTE DMAs and Elem-mode scatter stores on
// the scalar pipe; A5 runs both as SIMT kernels on the vector core.
template <Coalesce M>
constexpr Pipe gm_pipe(bool scatter) {
    if (PTOSIM_TARGET_A5) return Pipe::V;
    if (!scatter) return Pipe::MTE2;
    return M == Coalesce::Row ? Pipe::MTE3 : Pipe::S;
}

template <class E, ScatterAtomicOp A>
inline E combine(E old, E v) {
    if constexpr (A == ScatterAtomicOp::None) {
        return v;
    } else {
        const auto a = widen(old), b = widen(v);
        if constexpr (A == ScatterAtomicOp::Add) return narrow<E>(vop::rd::add(a, b));
        else if constexpr (A == ScatterAtomicOp::Max) return narrow<E>(vop::rd::max(a, b));
        else return narrow<E>(vop::rd::min(a, b));
    }
}

}  // namespace ptosim_impl::gs

// ------------------------------------------------------------ TGATHER, mask pattern

// Keeps the columns the pattern selects from each of src's valid rows and
// packs them, row after row, from dst's first element on.
template <typename DstTileData, typename SrcTileData, MaskPattern maskPattern, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGATHER(DstTileData& dst, SrcTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    using E = typename SrcTileData::DType;
    static_assert(ptosim_impl::gs::mask_gather_types<E>,
                  "TGATHER (mask pattern): unsupported element type on this target; A2A3 takes 16/32-bit elements, A5 "
                  "also 8-bit (see docs/isa/gather_scatter.md)");
    static_assert(sizeof(typename DstTileData::DType) == sizeof(E), "TGATHER (mask pattern): dst and src element sizes must match");
    static_assert(DstTileData::Loc == TileType::Vec && SrcTileData::Loc == TileType::Vec &&
                      DstTileData::isRowMajor && SrcTileData::isRowMajor && !DstTileData::isBoxedLayout &&
                      !SrcTileData::isBoxedLayout,
                  "TGATHER (mask pattern): dst and src must be row-major ND Vec tiles");
    ptosim_impl::gs::Op op(PTOSIM_CALLER, "TGATHER", ptosim::Pipe::V);
    if (dst.GetValidCol() != DstTileData::Cols)
        ptosim_impl::vop::debug_contract(
            op.loc, "TGATHER", ptosim::Pipe::V,
            "dst.GetValidCol() (" + std::to_string(dst.GetValidCol()) + ") differs from dst's Cols (" +
                std::to_string(DstTileData::Cols) + ")",
            "the release build packs the kept elements contiguously from dst's first element on, whatever dst's "
            "valid shape",
            "give dst a valid shape of whole rows (GetValidCol() == Cols), as the packed result ignores the row pitch");
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    int per_row = 0;
    for (int c = 0; c < vc; ++c) per_row += ptosim_impl::gs::pattern_keeps(maskPattern, c);
    const int64_t total = static_cast<int64_t>(per_row) * vr;
    if (total > DstTileData::Numel)
        op.fault("the pattern keeps " + std::to_string(total) + " elements of src's " + ptosim_impl::vop::shape_str(vr, vc) +
                 " valid region; dst holds " + std::to_string(DstTileData::Numel));
    uint8_t* s = op.tile(src, "source", false);
    uint8_t* d = op.tile(dst, "destination", true);
    op.dispatch(static_cast<uint64_t>(total), static_cast<uint64_t>(total) * 2 * sizeof(E));
    int64_t k = 0;
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c)
            if (ptosim_impl::gs::pattern_keeps(maskPattern, c))
                std::memmove(ptosim_impl::gs::flat<DstTileData>(d, k++), ptosim_impl::at<SrcTileData>(s, r, c), sizeof(E));
    return {};
}

// ------------------------------------------------------------ TGATHER, compare

// Row i of src0 is compared with the scalar k_value[i]; dst row i receives,
// packed, offset + i * src0's Cols + c for every column c that passes, and
// cdst[i] the number that passed.
template <typename TileDataD, typename TileDataS, typename TileDataS1, typename TileDataC, typename TileDataTmp,
          CmpMode cmpMode, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGATHER(TileDataD& dst, TileDataS& src0, TileDataS1& k_value, TileDataC& cdst, TileDataTmp& tmp,
                             int offset, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    using S = typename TileDataS::DType;
    using K = typename TileDataS1::DType;
    using D = typename TileDataD::DType;
    static_assert(ptosim_impl::one_of<D, int32_t, uint32_t>, "TGATHER (compare): dst holds indices: int32_t or uint32_t");
    static_assert(ptosim_impl::one_of<S, float, half> || (std::is_same_v<S, int32_t> && cmpMode == CmpMode::EQ),
                  "TGATHER (compare): src0 must be half or float, or int32_t with CmpMode::EQ");
    static_assert(cmpMode == CmpMode::GT || cmpMode == CmpMode::EQ, "TGATHER (compare): only CmpMode::GT and CmpMode::EQ");
    static_assert(std::is_same_v<K, std::conditional_t<std::is_same_v<S, half>, int16_t, int32_t>>,
                  "TGATHER (compare): k_value holds int32_t thresholds for float/int32_t sources, int16_t for half");
    static_assert(std::is_integral_v<typename TileDataC::DType>, "TGATHER (compare): cdst holds counts (an integer type)");
    static_assert(TileDataD::Loc == TileType::Vec && TileDataS::Loc == TileType::Vec && TileDataS::isRowMajor &&
                      TileDataD::isRowMajor && !TileDataS::isBoxedLayout && !TileDataD::isBoxedLayout,
                  "TGATHER (compare): dst and src0 must be row-major ND Vec tiles");
    ptosim_impl::gs::Op op(PTOSIM_CALLER, "TGATHER", ptosim::Pipe::V);
    const int vr = src0.GetValidRow(), vc = src0.GetValidCol();
    if (vr > TileDataD::Rows || vr > TileDataS1::Numel || vr > TileDataC::Numel)
        op.fault("src0 has " + std::to_string(vr) + " valid rows; dst, k_value and cdst need one row or element each");
    uint8_t* s = op.tile(src0, "source", false);
    uint8_t* kv = op.tile(k_value, "k_value", false);
    ptosim_impl::tile_base(op.core, tmp, "TGATHER", "tmp", op.loc, false);  // scratch: validated, not recorded (the record has no write slot left)
    uint8_t* d = op.tile(dst, "destination", true);
    uint8_t* cnt = op.tile(cdst, "count", true);
    op.dispatch(static_cast<uint64_t>(vr) * vc, static_cast<uint64_t>(vr) * vc * (sizeof(S) + sizeof(D)));
    for (int i = 0; i < vr; ++i) {
        const auto k = ptosim_impl::widen(S(ptosim_impl::load_elem<K>(ptosim_impl::gs::flat<TileDataS1>(kv, i))));
        int n = 0;
        for (int c = 0; c < vc; ++c) {
            const auto v = ptosim_impl::widen(ptosim_impl::load_elem<S>(ptosim_impl::at<TileDataS>(s, i, c)));
            if (!(cmpMode == CmpMode::GT ? v > k : v == k)) continue;
            if (n >= TileDataD::Cols) op.fault("row " + std::to_string(i) + " passes more columns than dst's Cols");
            ptosim_impl::store_elem(ptosim_impl::at<TileDataD>(d, i, n++),
                            static_cast<D>(static_cast<int64_t>(offset) + static_cast<int64_t>(i) * TileDataS::Cols + c));
        }
        ptosim_impl::store_elem(ptosim_impl::gs::flat<TileDataC>(cnt, i), static_cast<typename TileDataC::DType>(n));
    }
    return {};
}

// ------------------------------------------------------------ TGATHERB

// For each 32-byte block b of dst's valid row r: copy the 32 bytes at byte
// offset offset(r, b) of src's storage.
template <typename TileDataDst, typename TileDataSrc, typename TileDataOffset, typename... WaitEvents>
PTO_INST RecordEvent TGATHERB(CallSite cs, TileDataDst& dst, TileDataSrc& src, TileDataOffset& offset, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileDataDst::DType;
    static_assert(sizeof(E) == 1 || sizeof(E) == 2 || sizeof(E) == 4, "TGATHERB: dst elements must be 1, 2 or 4 bytes");
    static_assert(TileDataDst::isRowMajor && !TileDataDst::isBoxedLayout, "TGATHERB: dst must be a row-major ND tile");
    static_assert(TileDataDst::Loc == TileType::Vec && TileDataSrc::Loc == TileType::Vec && TileDataOffset::Loc == TileType::Vec,
                  "TGATHERB: dst, src and offset must be Vec tiles");
    static_assert(ptosim_impl::one_of<typename TileDataOffset::DType, uint32_t, int32_t>,
                  "TGATHERB: offsets are 32-bit byte offsets (uint32_t)");
    constexpr int block = static_cast<int>(TileConfig::alignedSize / sizeof(E));
    ptosim_impl::gs::Op op(cs, "TGATHERB", ptosim::Pipe::V);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (vc % block != 0)
        op.fault("dst.GetValidCol() (" + std::to_string(vc) + ") must be a multiple of " + std::to_string(block) +
                 ": each offset moves one 32-byte block");
    if (offset.GetValidRow() < vr || offset.GetValidCol() < vc / block)
        op.fault("the offset tile's valid shape " + ptosim_impl::vop::shape_str(offset.GetValidRow(), offset.GetValidCol()) +
                 " does not cover " + ptosim_impl::vop::shape_str(vr, vc / block) + " blocks");
    uint8_t* s = op.tile(src, "source", false);
    uint8_t* o = op.tile(offset, "offset", false);
    uint8_t* d = op.tile(dst, "destination", true);
    constexpr uint64_t src_bytes = ptosim_impl::tile_bytes<TileDataSrc>();
    for (int r = 0; r < vr; ++r)
        for (int b = 0; b < vc / block; ++b) {
            const uint64_t off = static_cast<uint32_t>(ptosim_impl::load_elem<typename TileDataOffset::DType>(ptosim_impl::at<TileDataOffset>(o, r, b)));
            if (off + TileConfig::alignedSize > src_bytes)
                op.fault("byte offset " + std::to_string(off) + " at (" + std::to_string(r) + ", " + std::to_string(b) +
                         ") reads past src's " + std::to_string(src_bytes) + " bytes");
        }
    op.dispatch(static_cast<uint64_t>(vr) * vc, static_cast<uint64_t>(vr) * vc * 2 * sizeof(E));
    for (int r = 0; r < vr; ++r)
        for (int b = 0; b < vc / block; ++b) {
            const uint64_t off = static_cast<uint32_t>(ptosim_impl::load_elem<typename TileDataOffset::DType>(ptosim_impl::at<TileDataOffset>(o, r, b)));
            std::memmove(ptosim_impl::at<TileDataDst>(d, r, b * block), s + off, TileConfig::alignedSize);
        }
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename TileDataOffset, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TGATHERB(TileDataDst& dst, TileDataSrc& src, TileDataOffset& offset, WaitEvents&... e) {
    return TGATHERB(PTOSIM_CALLER, dst, src, offset, e...);
}

// ------------------------------------------------------------ TSCATTER

// dst is zeroed over its whole storage, then element idx(i, j) of dst's
// storage (counted row-major from its first byte) receives src(i, j), for the
// index tile's valid region in row-major order: the last write wins.
template <typename TileDataD, typename TileDataS, typename TileDataI, typename... WaitEvents>
PTO_INST RecordEvent TSCATTER(CallSite cs, TileDataD& dst, TileDataS& src, TileDataI& indexes, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileDataD::DType;
    using I = typename TileDataI::DType;
    static_assert(ptosim_impl::gs::scatter_tile_types<E>, "TSCATTER: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<E, typename TileDataS::DType>, "TSCATTER: dst and src must have the same element type");
    static_assert(ptosim_impl::one_of<I, uint16_t, uint32_t, int16_t, int32_t>, "TSCATTER: indices must be 16- or 32-bit integers");
    static_assert(sizeof(I) == (sizeof(E) == 1 ? 2 : sizeof(E)),
                  "TSCATTER: index size must match the element size (16-bit indices for 8-bit elements)");
    static_assert(TileDataD::Loc == TileType::Vec && TileDataS::Loc == TileType::Vec && TileDataI::Loc == TileType::Vec,
                  "TSCATTER: dst, src and indexes must be Vec tiles");
    ptosim_impl::check_vec_operand<TileDataD>();
    ptosim_impl::check_vec_operand<TileDataS>();
    ptosim_impl::check_vec_operand<TileDataI>();
    ptosim_impl::gs::Op op(cs, "TSCATTER", ptosim::Pipe::V);
    const int vr = indexes.GetValidRow(), vc = indexes.GetValidCol();
    // Both targets loop over the index tile's valid shape and read src at the
    // same (row, column) whatever src's valid shape (a2a3/a5 TScatter.hpp,
    // TScatterImpl); pto-isa states no rule tying the two, so only a read
    // past src's storage faults.
    if (vr > TileDataS::Rows || vc > TileDataS::Cols)
        op.fault("the index tile's valid shape " + ptosim_impl::vop::shape_str(vr, vc) + " runs past src's " +
                 ptosim_impl::vop::shape_str(TileDataS::Rows, TileDataS::Cols) +
                 " storage; the release build reads src over the index tile's valid shape");
    uint8_t* s = op.tile(src, "source", false);
    uint8_t* ix = op.tile(indexes, "index", false);
    uint8_t* d = op.tile(dst, "destination", true);
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) {
            const uint64_t k = static_cast<std::make_unsigned_t<I>>(ptosim_impl::load_elem<I>(ptosim_impl::at<TileDataI>(ix, r, c)));
            if (k >= static_cast<uint64_t>(TileDataD::Numel))
                op.fault("index " + std::to_string(ptosim_impl::load_elem<I>(ptosim_impl::at<TileDataI>(ix, r, c))) + " at (" +
                         std::to_string(r) + ", " + std::to_string(c) + ") is outside dst's " +
                         std::to_string(TileDataD::Numel) + " elements");
        }
    op.dispatch(static_cast<uint64_t>(vr) * vc, ptosim_impl::tile_bytes<TileDataD>() + static_cast<uint64_t>(vr) * vc * sizeof(E));
    std::memset(d, 0, ptosim_impl::tile_bytes<TileDataD>());
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) {
            const uint64_t k = static_cast<std::make_unsigned_t<I>>(ptosim_impl::load_elem<I>(ptosim_impl::at<TileDataI>(ix, r, c)));
            std::memmove(ptosim_impl::gs::flat<TileDataD>(d, static_cast<int64_t>(k)), ptosim_impl::at<TileDataS>(s, r, c), sizeof(E));
        }
    return {};
}
template <typename TileDataD, typename TileDataS, typename TileDataI, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSCATTER(TileDataD& dst, TileDataS& src, TileDataI& indexes, WaitEvents&... e) {
    return TSCATTER(PTOSIM_CALLER, dst, src, indexes, e...);
}

// ------------------------------------------------------------ MGATHER / MSCATTER

namespace ptosim_impl::gs {

template <Coalesce M, GatherOOB Oob, class TileDst, class G, class TileInd>
void mgather(CallSite cs, TileDst& dst, G& table, TileInd& indexes) {
    using E = typename TileDst::DType;
    static_assert(is_global_data_v<G>, "MGATHER: the second operand is the GlobalTensor table");
    static_assert(scatter_tile_types<E>, "MGATHER: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<E, typename G::RawDType>, "MGATHER: the table and dst must have the same element type");
    static_assert(gm_index_types<typename TileInd::DType>, "MGATHER: indices must be int32_t or uint32_t");
    static_assert(gm_tile_layout_ok<TileDst> && gm_tile_layout_ok<TileInd>,
                  "MGATHER: dst and indexes must be NoneBox Vec tiles, row-major on A2A3");
    static_assert(G::layout == Layout::ND, "MGATHER: ptosim implements ND tables (A2A3's NZ tables are not simulated)");
    Op op(cs, "MGATHER", gm_pipe<M>(false));
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (vr < 1 || vc < 1) op.fault("dst's valid shape " + shape_str(vr, vc) + " is empty");
    const bool column = check_index_shape<M>(op, indexes, vr, vc);
    uint8_t* ix = op.tile(indexes, "index", false);
    uint8_t* d = op.tile(dst, "destination", true);
    const Table<M, G> tab(op, table, vc);
    const IndexTile<TileInd> idx{ix, column};
    const auto ts = resolve(op, tab, idx, vr, vc, [&](Hit& t) {
        const uint64_t cap = static_cast<uint64_t>(tab.capacity);
        if constexpr (Oob == GatherOOB::Clamp) t.slot = cap - 1;
        else if constexpr (Oob == GatherOOB::Wrap) t.slot %= cap;
        else if constexpr (Oob == GatherOOB::Zero) t.live = false;
        return Oob != GatherOOB::Undefined;
    });
    record_gm(op, tab, ts, false);
    op.dispatch(static_cast<uint64_t>(vr) * vc, static_cast<uint64_t>(vr) * vc * 2 * sizeof(E));
    const uint8_t* g = gm_bytes(table);
    for (const Hit& t : ts) {
        const int cols = M == Coalesce::Row ? vc : 1;
        for (int j = 0; j < cols; ++j) {
            uint8_t* out = at<TileDst>(d, t.r, M == Coalesce::Row ? j : t.c);
            if (t.live) std::memcpy(out, g + tab.offset(t.slot, j) * static_cast<int64_t>(sizeof(E)), sizeof(E));
            else store_elem(out, E{});
        }
    }
}

template <Coalesce M, ScatterAtomicOp A, ScatterOOB Oob, class G, class TileSrc, class TileInd>
void mscatter(CallSite cs, G& table, TileSrc& src, TileInd& indexes) {
    using E = typename TileSrc::DType;
    static_assert(is_global_data_v<G>, "MSCATTER: the first operand is the GlobalTensor table");
    static_assert(scatter_tile_types<E>, "MSCATTER: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<E, typename G::RawDType>, "MSCATTER: the table and src must have the same element type");
    static_assert(gm_index_types<typename TileInd::DType>, "MSCATTER: indices must be int32_t or uint32_t");
    static_assert(gm_tile_layout_ok<TileSrc> && gm_tile_layout_ok<TileInd>,
                  "MSCATTER: src and indexes must be NoneBox Vec tiles, row-major on A2A3");
    static_assert(G::layout == Layout::ND, "MSCATTER: ptosim implements ND tables (A2A3's NZ tables are not simulated)");
    static_assert(PTOSIM_TARGET_A5 || (A != ScatterAtomicOp::Max && A != ScatterAtomicOp::Min),
                  "MSCATTER: ScatterAtomicOp::Max/Min are A5-only; A2A3 has no atomic max/min on the store path");
    static_assert(scatter_atomic_ok<E, A>,
                  "MSCATTER: this atomic op does not support the element type on this target (A2A3 Add: int8/int16/int32/"
                  "half/bfloat16/float; A5 Add: int32/uint32/float/half/bfloat16, Max/Min: int32/uint32/float)");
    Op op(cs, "MSCATTER", gm_pipe<M>(true));
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    if (vr < 1 || vc < 1) op.fault("src's valid shape " + shape_str(vr, vc) + " is empty");
    const bool column = check_index_shape<M>(op, indexes, vr, vc);
    uint8_t* s = op.tile(src, "source", false);
    uint8_t* ix = op.tile(indexes, "index", false);
    const Table<M, G> tab(op, table, vc);
    const IndexTile<TileInd> idx{ix, column};
    const auto ts = resolve(op, tab, idx, vr, vc, [&](Hit& t) {
        const uint64_t cap = static_cast<uint64_t>(tab.capacity);
        if constexpr (Oob == ScatterOOB::Clamp) t.slot = cap - 1;
        else if constexpr (Oob == ScatterOOB::Wrap) t.slot %= cap;
        else if constexpr (Oob == ScatterOOB::Skip) t.live = false;
        return Oob != ScatterOOB::Undefined;
    });
    record_gm(op, tab, ts, true);
    op.dispatch(static_cast<uint64_t>(vr) * vc, static_cast<uint64_t>(vr) * vc * 2 * sizeof(E));
    // Sequential in row-major source order, so a later source position
    // overwrites an earlier one aimed at the same slot (ScatterConflict::Last).
    uint8_t* g = gm_bytes(table);
    ptosim::GmAtomicScope atomic_update(ptosim::core(), A != ScatterAtomicOp::None);
    for (const Hit& t : ts) {
        if (!t.live) continue;
        const int cols = M == Coalesce::Row ? vc : 1;
        for (int j = 0; j < cols; ++j) {
            uint8_t* p = g + tab.offset(t.slot, j) * static_cast<int64_t>(sizeof(E));
            const E v = load_elem<E>(at<TileSrc>(s, t.r, M == Coalesce::Row ? j : t.c));
            store_elem(p, combine<E, A>(load_elem<E>(p), v));
        }
    }
}

}  // namespace ptosim_impl::gs

template <Coalesce CMode = ptosim_impl::gs::kCoalesceByIndexTile, GatherOOB Oob = GatherOOB::Undefined,
          typename TileDst, typename GlobalData, typename TileInd, typename... WaitEvents>
PTO_INST RecordEvent MGATHER(CallSite cs, TileDst& dst, GlobalData& src, TileInd& indexes, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::gs::mgather<ptosim_impl::gs::coalesce_mode<CMode, TileDst, TileInd>(), Oob>(cs, dst, src, indexes);
    return {};
}
template <Coalesce CMode = ptosim_impl::gs::kCoalesceByIndexTile, GatherOOB Oob = GatherOOB::Undefined,
          typename TileDst, typename GlobalData, typename TileInd, typename... WaitEvents>
PTO_INST_CALLER RecordEvent MGATHER(TileDst& dst, GlobalData& src, TileInd& indexes, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::gs::mgather<ptosim_impl::gs::coalesce_mode<CMode, TileDst, TileInd>(), Oob>(PTOSIM_CALLER, dst, src,
                                                                                              indexes);
    return {};
}

// A5 adds ScatterConflict. Both of its values resolve collisions here as
// Last does (the later source position wins): Default leaves the winner to
// the warp scheduler, so any one winner is a valid outcome and this one is
// deterministic.
#if PTOSIM_TARGET_A5
#define PTOSIM_MSCATTER_TEMPLATE                                                                                      \
    template <Coalesce CMode = ptosim_impl::gs::kCoalesceByIndexTile, ScatterAtomicOp Atomic = ScatterAtomicOp::None, \
              ScatterOOB Oob = ScatterOOB::Undefined, ScatterConflict Conflict = ScatterConflict::Last,                 \
              typename GlobalData, typename TileSrc, typename TileInd, typename... WaitEvents>
#else
#define PTOSIM_MSCATTER_TEMPLATE                                                                                      \
    template <Coalesce CMode = ptosim_impl::gs::kCoalesceByIndexTile, ScatterAtomicOp Atomic = ScatterAtomicOp::None, \
              ScatterOOB Oob = ScatterOOB::Undefined, typename GlobalData, typename TileSrc, typename TileInd,          \
              typename... WaitEvents>
#endif
PTOSIM_MSCATTER_TEMPLATE
PTO_INST RecordEvent MSCATTER(CallSite cs, GlobalData& dst, TileSrc& src, TileInd& indexes, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::gs::mscatter<ptosim_impl::gs::coalesce_mode<CMode, TileSrc, TileInd>(), Atomic, Oob>(cs, dst, src,
                                                                                                       indexes);
    return {};
}
PTOSIM_MSCATTER_TEMPLATE
PTO_INST_CALLER RecordEvent MSCATTER(GlobalData& dst, TileSrc& src, TileInd& indexes, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::gs::mscatter<ptosim_impl::gs::coalesce_mode<CMode, TileSrc, TileInd>(), Atomic, Oob>(PTOSIM_CALLER, dst,
                                                                                                       src, indexes);
    return {};
}
#undef PTOSIM_MSCATTER_TEMPLATE

}  // namespace pto
