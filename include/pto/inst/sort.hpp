// Sorting: TSORT32 sorts 32-element blocks into (value, index) structures and
// TMRGSORT merges sorted lists of them (docs/isa/sort.md has the semantics
// and their sources). Both order structures with one key, so the -NaN
// padding TSORT32 writes stays at the bottom through any number of merges.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/sort.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/sim_support.hpp>
#include <pto/common/vec_op.hpp>
#include <array>
#include <bit>
#include <source_location>
#include <vector>

// Kernels written for the CPU build guard their own fallback definition of
// MrgSortExecutedNumList with the real header's include guard.
#ifndef TMRGSORT_HPP
#define TMRGSORT_HPP
#endif

namespace pto {

// Structures consumed from each list when an exhausted-mode TMRGSORT stopped.
struct MrgSortExecutedNumList {
    uint16_t mrgSortList0;
    uint16_t mrgSortList1;
    uint16_t mrgSortList2;
    uint16_t mrgSortList3;
};

// Columns a multi-list TMRGSORT's tmp tile needs: every source's.
template <typename Src0TileData, typename Src1TileData, typename Src2TileData, typename Src3TileData>
PTO_INTERNAL constexpr uint32_t GETMRGSORTTMPSIZE() {
    return Src0TileData::Cols + Src1TileData::Cols + Src2TileData::Cols + Src3TileData::Cols;
}
template <typename Src0TileData, typename Src1TileData, typename Src2TileData>
PTO_INTERNAL constexpr uint32_t GETMRGSORTTMPSIZE() {
    return Src0TileData::Cols + Src1TileData::Cols + Src2TileData::Cols;
}
template <typename Src0TileData, typename Src1TileData>
PTO_INTERNAL constexpr uint32_t GETMRGSORTTMPSIZE() {
    return Src0TileData::Cols + Src1TileData::Cols;
}

namespace ptosim_impl::sort {

// One sorted structure: the value in its first bytes, for half two zero
// bytes after it, the uint32 index in the last four.
constexpr int kStructBytes = 8;
constexpr int kSortBlock = 32;
constexpr unsigned kMaxListStructs = 4095;  // VMS4 list length field limit

template <class T>
constexpr bool sort_type = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <class T>
constexpr bool row_tile = T::Loc == TileType::Vec && T::isRowMajor && !T::isBoxedLayout;

// Position in the descending order: +NaN above +inf, -NaN below -inf (where
// TSORT32's padding lands), +0 and -0 equal.
struct Key {
    int nan_side;
    float v;
    bool above(const Key& o) const { return nan_side != o.nan_side ? nan_side > o.nan_side : nan_side == 0 && v > o.v; }
};
template <class T>
inline Key key_of(const uint8_t* value) {
    const float v = widen(load_elem<T>(value));
    return {v != v ? (std::signbit(v) ? -1 : 1) : 0, v};
}

template <class T>
inline T sort_pad() {
    if constexpr (std::is_same_v<T, half>) return T::from_bits(0xfe00);
    else return std::bit_cast<float>(0xffc00000u);
}

[[noreturn]] inline void fault(CallSite cs, const char* op, const std::string& what) {
    ptosim::fault(loc_of(cs), std::string(op) + ": " + what);
}

inline uint64_t round_up(uint64_t n, uint64_t m) { return (n + m - 1) / m * m; }

// ------------------------------------------------------------ TSORT32

template <class Dst, class Src, class Idx, class Tmp>
void sort32(CallSite cs, Dst& dst, Src& src, Idx& idx, Tmp* tmp) {
    using T = typename Dst::DType;
    static_assert(sort_type<T>, "TSORT32: dst and src must be half or float");
    static_assert(std::is_same_v<T, typename Src::DType>, "TSORT32: src must have dst's element type");
    static_assert(std::is_same_v<typename Idx::DType, uint32_t>, "TSORT32: the idx tile must be uint32_t");
    static_assert(row_tile<Dst> && row_tile<Src> && row_tile<Idx>,
                  "TSORT32: dst, src and idx must be Vec tiles in row-major ND layout (BLayout::RowMajor, NoneBox)");
    constexpr const char* op = "TSORT32";
    constexpr bool has_tmp = !std::is_same_v<Tmp, std::nullptr_t>;
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const int rows = dst.GetValidRow(), cols = src.GetValidCol();
    if (!has_tmp && cols % kSortBlock != 0)
        fault(cs, op, "src valid columns (" + std::to_string(cols) +
                          ") must be a multiple of 32 without a tmp tile; pass one to sort a partial last block");
    const int blocks = (cols + kSortBlock - 1) / kSortBlock;
    const uint64_t row_out = static_cast<uint64_t>(blocks) * kSortBlock * kStructBytes;
    const uint64_t pitch = static_cast<uint64_t>(Dst::RowStride) * sizeof(T);
    // pto-isa's release code writes each row's whole sorted blocks at dst's
    // row pitch (npu/a2a3/TSort32.hpp: vbitsort at dstPtr + i * dstStride),
    // so a row too short for them runs into the next row, and the last row
    // past the tile: only leaving UB stops the device.
    const bool short_rows = static_cast<uint64_t>(Dst::Cols) * sizeof(T) < row_out;
    if (short_rows)
        ptosim_impl::vop::debug_contract(
            loc, op, Pipe::V,
            "dst rows hold " + std::to_string(Dst::Cols) + " columns; " + std::to_string(blocks) +
                " sorted block(s) of 32 structures need " + std::to_string(row_out / sizeof(T)),
            "the release build writes each row's " + std::to_string(row_out) + " bytes of structures at dst's row "
                "pitch anyway: a row overwrites the start of the next one, and the last row runs past the tile",
            "give dst at least " + std::to_string(row_out / sizeof(T)) + " columns (two 32-bit words per sorted "
                "element, whole blocks of 32)");
    if (rows > Src::Rows)
        fault(cs, op, "dst valid rows (" + std::to_string(rows) + ") exceed src's " + std::to_string(Src::Rows) + " rows");
    // One idx row serves every row when idx has a single valid row.
    const uint64_t idx_stride = idx.GetValidRow() == 1 ? 0 : Idx::RowStride;
    if (idx_stride != 0 && rows > Idx::Rows)
        fault(cs, op, "dst valid rows (" + std::to_string(rows) + ") exceed idx's " + std::to_string(Idx::Rows) + " rows");
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    const uint64_t dst_span = rows == 0 ? 0 : (rows - 1) * pitch + row_out;
    if (short_rows) ptosim::check_local(c, Space::UB, dst.address(), dst_span, "TSORT32 dst structures", loc);
    const uint8_t* s = tile_base(c, src, op, "source", loc);
    tile_base(c, idx, op, "idx", loc);
    // Padded slots take their index from the idx words after the valid ones,
    // which may lie past the idx tile: check the span actually read.
    const uint64_t idx_bytes = rows == 0 ? 0 : ((rows - 1) * idx_stride + static_cast<uint64_t>(blocks) * kSortBlock) * 4;
    ptosim::check_local(c, Space::UB, idx.address(), idx_bytes, "TSORT32 idx words", loc);
    const uint8_t* ix = c.mem[static_cast<int>(Space::UB)] + idx.address();

    // The padded copy of a row lives in tmp: the whole row when it is short
    // enough for one UB-to-UB copy (A2A3 counts elements, A5 bytes), else
    // only the last block.
    const bool padded = has_tmp && cols % kSortBlock != 0;
    const uint64_t row_limit = PTOSIM_TARGET_A5 ? static_cast<uint64_t>(cols) * sizeof(T) : cols;
    const int tmp_elems = !padded ? 0 : row_limit <= 8160 ? blocks * kSortBlock : kSortBlock;
    uint8_t* t = nullptr;
    if constexpr (has_tmp) {
        if (padded) {
            t = tile_base(c, *tmp, op, "tmp", loc, false);
            // The release code copies and pads the row in tmp whatever tmp's
            // size (npu/*/TSort32.hpp: copy_ubuf_to_ubuf, then the -NaN tail
            // of the last 32 elements): a small tmp spills into the UB after it.
            if (tile_bytes<Tmp>() < tmp_elems * sizeof(T)) {
                ptosim_impl::vop::debug_contract(
                    loc, op, Pipe::V,
                    "tmp holds " + std::to_string(tile_bytes<Tmp>() / sizeof(T)) + " elements; padding a " +
                        std::to_string(cols) + "-column row needs " + std::to_string(tmp_elems),
                    "the release build pads the row in the " + std::to_string(tmp_elems * sizeof(T)) +
                        " bytes from tmp's address on anyway, past the tile",
                    "give tmp at least " + std::to_string(tmp_elems) + " elements (TSORT32.md, tmp size equation)");
                ptosim::check_local(c, Space::UB, tmp->address(), tmp_elems * sizeof(T), "TSORT32 tmp padding", loc);
            }
        }
    }

    OpRecord rec = make_record(op, Pipe::V, cs);
    record_tile(rec, false, src);
    rec.read(Space::UB, idx.address(), idx_bytes);
    if constexpr (has_tmp)
        if (padded) rec.write(Space::UB, tmp->address(), tmp_elems * sizeof(T));
    record_tile(rec, true, dst);
    if (short_rows) rec.write(Space::UB, dst.address(), dst_span);
    rec.elements = static_cast<uint64_t>(rows) * blocks * kSortBlock;
    rec.flops = rec.elements * 5;  // log2(32) compare stages
    rec.bytes = rec.elements * (sizeof(T) + 4 + kStructBytes);
    ptosim::dispatch(c, rec);

    std::array<uint8_t, sizeof(T)> value[kSortBlock];
    std::array<int, kSortBlock> order;
    for (int r = 0; r < rows; ++r) {
        const uint8_t* srow = at<Src>(const_cast<uint8_t*>(s), r, 0);
        for (int b = 0; b < blocks; ++b) {
            for (int k = 0; k < kSortBlock; ++k) {
                const int col = b * kSortBlock + k;
                if (col < cols) std::memcpy(value[k].data(), srow + col * sizeof(T), sizeof(T));
                else store_elem(value[k].data(), sort_pad<T>());
                order[k] = k;
            }
            // Equal keys keep block order (Ascend C Sort32: the earlier element first).
            std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
                return key_of<T>(value[x].data()).above(key_of<T>(value[y].data()));
            });
            uint8_t* out = at<Dst>(d, r, 0) + static_cast<uint64_t>(b) * kSortBlock * kStructBytes;
            for (int k = 0; k < kSortBlock; ++k) {
                uint8_t entry[kStructBytes] = {};
                std::memcpy(entry, value[order[k]].data(), sizeof(T));
                std::memcpy(entry + 4, ix + (r * idx_stride + b * kSortBlock + order[k]) * 4, 4);
                std::memcpy(out + k * kStructBytes, entry, kStructBytes);
            }
        }
    }
    // tmp keeps the last row's padded copy, as the copy-then-pad sequence leaves it.
    if (padded && rows > 0) {
        const uint8_t* srow = at<Src>(const_cast<uint8_t*>(s), rows - 1, 0);
        const int first = tmp_elems == kSortBlock ? (blocks - 1) * kSortBlock : 0;
        for (int k = 0; k < tmp_elems; ++k) {
            if (first + k < cols) std::memcpy(t + k * sizeof(T), srow + (first + k) * sizeof(T), sizeof(T));
            else store_elem(t + k * sizeof(T), sort_pad<T>());
        }
    }
}

// ------------------------------------------------------------ TMRGSORT

// The executed-count output of the multi-list forms, plus where the call was
// written: those forms take explicit template arguments, which the call-site
// macro cannot wrap, so the conversion from the kernel's list records the line.
struct ExecutedAt {
    MrgSortExecutedNumList& list;
    CallSite site;
    ExecutedAt(MrgSortExecutedNumList& l, std::source_location where = std::source_location::current())
        : list(l), site{where.file_name(), static_cast<int>(where.line())} {}
};

struct List {
    const uint8_t* base;
    unsigned count;
};

// Merges sorted lists of structures into out, highest key first; equal keys
// come from the lower-numbered list first. With stop_when_exhausted the merge
// ends as soon as any list has no structure left. Returns the structures
// taken from each list.
template <class T, size_t N>
std::array<unsigned, N> merge(const std::array<List, N>& lists, uint8_t* out, bool stop_when_exhausted) {
    std::array<unsigned, N> taken{};
    for (;;) {
        int pick = -1;
        for (size_t i = 0; i < N; ++i) {
            if (taken[i] == lists[i].count) {
                if (stop_when_exhausted) return taken;
                continue;
            }
            if (pick < 0 || key_of<T>(lists[i].base + taken[i] * kStructBytes)
                                .above(key_of<T>(lists[pick].base + taken[pick] * kStructBytes)))
                pick = static_cast<int>(i);
        }
        if (pick < 0) return taken;
        std::memcpy(out, lists[pick].base + taken[pick] * kStructBytes, kStructBytes);
        out += kStructBytes;
        ++taken[pick];
    }
}

template <class Dst, class... Tiles>
constexpr void check_merge_tiles() {
    using T = typename Dst::DType;
    static_assert(sort_type<T>, "TMRGSORT: tiles must be half or float");
    static_assert((std::is_same_v<T, typename Tiles::DType> && ...), "TMRGSORT: all tiles must have the same element type");
    static_assert(row_tile<Dst> && (row_tile<Tiles> && ...),
                  "TMRGSORT: all tiles must be Vec tiles in row-major ND layout (BLayout::RowMajor, NoneBox)");
    static_assert(Dst::Rows == 1 && ((Tiles::Rows == 1) && ...), "TMRGSORT: all tiles must have exactly one row (Rows == 1)");
}

template <class T>
unsigned list_length(CallSite cs, const char* op, int valid_cols, const char* name) {
    const unsigned n = static_cast<unsigned>(valid_cols) * sizeof(T) / kStructBytes;
    if (n > kMaxListStructs)
        fault(cs, op, std::string(name) + " holds " + std::to_string(n) + " structures; a list may hold at most 4095");
    return n;
}

// TMRGSORT(dst, src, blockLen): each group of four consecutive blockLen-element
// blocks of src is one 4-way merge, written at the group's place in dst.
template <class Dst, class Src>
void merge_blocks(CallSite cs, Dst& dst, Src& src, uint32_t block_len) {
    using T = typename Dst::DType;
    check_merge_tiles<Dst, Src>();
    constexpr const char* op = "TMRGSORT";
    const int cols = src.GetValidCol();
    if (block_len == 0 || block_len % 64 != 0)
        fault(cs, op, "blockLen (" + std::to_string(block_len) + ") must be a positive multiple of 64");
    const uint64_t group = 4ull * block_len;
    if (cols % group != 0 || cols / group < 1 || cols / group > 255)
        fault(cs, op, "src valid columns (" + std::to_string(cols) + ") must be 1 to 255 times blockLen * 4 (" +
                          std::to_string(group) + ")");
    const unsigned per_block = list_length<T>(cs, op, static_cast<int>(block_len), "each block");
    if (tile_bytes<Dst>() < cols * sizeof(T))
        fault(cs, op, "dst holds " + std::to_string(Dst::Cols) + " columns; the merged result has " + std::to_string(cols));
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    const uint8_t* s = tile_base(c, src, op, "source", loc);
    OpRecord rec = make_record(op, Pipe::V, cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    rec.elements = cols * sizeof(T) / kStructBytes;
    rec.flops = rec.elements * 3;
    rec.bytes = 2ull * cols * sizeof(T);
    ptosim::dispatch(c, rec);

    const std::vector<uint8_t> in(s, s + cols * sizeof(T));  // dst may alias src
    const uint64_t block_bytes = static_cast<uint64_t>(per_block) * kStructBytes;
    for (uint64_t g = 0; g < cols / group; ++g) {
        const uint8_t* first = in.data() + g * 4 * block_bytes;
        merge<T, 4>({List{first, per_block}, List{first + block_bytes, per_block}, List{first + 2 * block_bytes, per_block},
                     List{first + 3 * block_bytes, per_block}},
                    d + g * 4 * block_bytes, false);
    }
}

// Multi-list TMRGSORT: merges into tmp, then copies dst's valid columns
// (whole 32-byte blocks) from tmp to dst. The executed counts are written
// only in exhausted mode, where they are read back from the hardware.
template <bool Exhausted, class Dst, class Tmp, class... Srcs>
void merge_lists(Dst& dst, ExecutedAt executed_at, Tmp& tmp, Srcs&... srcs) {
    using T = typename Dst::DType;
    check_merge_tiles<Dst, Tmp, Srcs...>();
    constexpr const char* op = "TMRGSORT";
    constexpr size_t N = sizeof...(Srcs);
    const CallSite cs = executed_at.site;
    MrgSortExecutedNumList& executed = executed_at.list;
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    int which = 0;
    const char* names[] = {"src0", "src1", "src2", "src3"};
    std::array<List, N> lists{List{tile_base(c, srcs, op, "source", loc),
                                   list_length<T>(cs, op, srcs.GetValidCol(), names[which++])}...};
    uint64_t total = 0;
    for (const List& l : lists) total += l.count;
    uint8_t* t = tile_base(c, tmp, op, "tmp", loc, false);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    const uint64_t copy_bytes = round_up(static_cast<uint64_t>(dst.GetValidCol()) * sizeof(T), 32);
    if (tile_bytes<Tmp>() < std::max(total * kStructBytes, copy_bytes))
        fault(cs, op, "tmp holds " + std::to_string(Tmp::Cols) + " columns; merging " + std::to_string(total) +
                          " structures and copying dst's valid columns need " +
                          std::to_string(std::max(total * kStructBytes, copy_bytes) / sizeof(T)) +
                          " (GETMRGSORTTMPSIZE gives the sources' total)");
    OpRecord rec = make_record(op, Pipe::V, cs);
    (record_tile(rec, false, srcs), ...);
    record_tile(rec, true, tmp);
    record_tile(rec, true, dst);
    rec.elements = total;
    rec.flops = total * (N - 1);
    rec.bytes = total * kStructBytes * 2 + copy_bytes * 2;
    ptosim::dispatch(c, rec);

    std::vector<uint8_t> merged(total * kStructBytes);
    const auto taken = merge<T, N>(lists, merged.data(), Exhausted);
    uint64_t produced = 0;
    for (unsigned n : taken) produced += n;
    std::memcpy(t, merged.data(), produced * kStructBytes);
    std::memmove(d, t, copy_bytes);
    if constexpr (Exhausted) {
        uint16_t* out[] = {&executed.mrgSortList0, &executed.mrgSortList1, &executed.mrgSortList2, &executed.mrgSortList3};
        for (size_t i = 0; i < 4; ++i) *out[i] = i < N ? static_cast<uint16_t>(taken[i]) : 0;
    }
}

}  // namespace ptosim_impl::sort

// TSORT32 takes no WaitEvents (pto-isa pto_instr.hpp: synchronize explicitly).
template <typename DstTileData, typename SrcTileData, typename IdxTileData>
PTO_INST RecordEvent TSORT32(CallSite cs, DstTileData& dst, SrcTileData& src, IdxTileData& idx) {
    ptosim_impl::sort::sort32(cs, dst, src, idx, static_cast<std::nullptr_t*>(nullptr));
    return {};
}
template <typename DstTileData, typename SrcTileData, typename IdxTileData, typename TmpTileData>
PTO_INST RecordEvent TSORT32(CallSite cs, DstTileData& dst, SrcTileData& src, IdxTileData& idx, TmpTileData& tmp) {
    ptosim_impl::sort::sort32(cs, dst, src, idx, &tmp);
    return {};
}
template <typename DstTileData, typename SrcTileData, typename IdxTileData>
    requires is_tile_data_v<DstTileData>
PTO_INST_CALLER RecordEvent TSORT32(DstTileData& dst, SrcTileData& src, IdxTileData& idx) {
    return TSORT32(PTOSIM_CALLER, dst, src, idx);
}
template <typename DstTileData, typename SrcTileData, typename IdxTileData, typename TmpTileData>
    requires is_tile_data_v<DstTileData>
PTO_INST_CALLER RecordEvent TSORT32(DstTileData& dst, SrcTileData& src, IdxTileData& idx, TmpTileData& tmp) {
    return TSORT32(PTOSIM_CALLER, dst, src, idx, tmp);
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TMRGSORT(CallSite cs, DstTileData& dst, SrcTileData& src, uint32_t blockLen, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::sort::merge_blocks(cs, dst, src, blockLen);
    return {};
}
template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
    requires is_tile_data_v<DstTileData>
PTO_INST_CALLER RecordEvent TMRGSORT(DstTileData& dst, SrcTileData& src, uint32_t blockLen, WaitEvents&... e) {
    return TMRGSORT(PTOSIM_CALLER, dst, src, blockLen, e...);
}

// The multi-list forms are called with explicit template arguments (exhausted
// cannot be deduced), so they never pass through the call-site macro; the
// executed-count parameter carries the call's location instead.
template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData,
          typename Src2TileData, typename Src3TileData, bool exhausted, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMRGSORT(DstTileData& dst, ptosim_impl::sort::ExecutedAt executedNumList, TmpTileData& tmp,
                              Src0TileData& src0, Src1TileData& src1, Src2TileData& src2, Src3TileData& src3,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::sort::merge_lists<exhausted>(dst, executedNumList, tmp, src0, src1, src2, src3);
    return {};
}
template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData,
          typename Src2TileData, bool exhausted, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMRGSORT(DstTileData& dst, ptosim_impl::sort::ExecutedAt executedNumList, TmpTileData& tmp,
                              Src0TileData& src0, Src1TileData& src1, Src2TileData& src2, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::sort::merge_lists<exhausted>(dst, executedNumList, tmp, src0, src1, src2);
    return {};
}
template <typename DstTileData, typename TmpTileData, typename Src0TileData, typename Src1TileData, bool exhausted,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMRGSORT(DstTileData& dst, ptosim_impl::sort::ExecutedAt executedNumList, TmpTileData& tmp,
                              Src0TileData& src0, Src1TileData& src1, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    ptosim_impl::sort::merge_lists<exhausted>(dst, executedNumList, tmp, src0, src1);
    return {};
}

}  // namespace pto
