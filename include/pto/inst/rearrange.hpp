// Rearrangements of whole rows: TCONCAT, TInterleave / TDeInterleave, and
// the view TSUBVIEW (docs/isa/gather_scatter.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/rearrange.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/gather_scatter.hpp>

namespace pto {

namespace ptosim_impl::rearr {

using vop::Op;
using vop::shape_str;

template <class T>
constexpr bool rearrange_types = one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;

template <class... T>
constexpr void check_rearrange_tiles() {
    static_assert(((T::Loc == TileType::Vec && T::isRowMajor && !T::isBoxedLayout) && ...),
                  "TCONCAT/TINTERLEAVE/TDEINTERLEAVE: every tile must be a row-major ND Vec tile");
}

// TCONCAT's rule that each source has dst's valid rows, a PTO_ASSERT in both
// targets' TConcat.hpp (both forms). Their release builds loop over dst's
// valid rows and read that many rows of each source at its row stride, so
// ptosim does too and reports the call; rows past the source's storage fault.
template <class S>
void concat_rows_contract(CallSite cs, const S& src, const char* name, int vr) {
    const int sr = src.GetValidRow();
    if (sr == vr) return;
    const std::string what = std::string(name) + "'s valid rows (" + std::to_string(sr) + ") differ from dst's (" +
                             std::to_string(vr) + ")";
    const std::string runs = "reads " + std::to_string(vr) + " rows of " + name;
    const std::string fix = std::string("set ") + name + "'s valid rows to dst's (" + std::to_string(vr) + ")";
    if (vr > S::Rows)
        vop::shape_fault(cs, "TCONCAT", what + "; pto-isa's release build " + runs + ", past its " +
                                            shape_str(S::Rows, S::Cols) + " storage, which ptosim does not model: " + fix);
    vop::debug_contract(loc_of(cs), "TCONCAT", ptosim::Pipe::V, what, "the release build " + runs, fix);
}

}  // namespace ptosim_impl::rearr

// ------------------------------------------------------------ TCONCAT

// dst(i, :) = src0(i, :vc0) followed by src1(i, :vc1) for dst's valid rows;
// dst columns past vc0 + vc1 keep their bytes.
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TCONCAT(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileDataDst::DType;
    static_assert(ptosim_impl::rearr::rearrange_types<E>, "TCONCAT: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<E, typename TileDataSrc0::DType> && std::is_same_v<E, typename TileDataSrc1::DType>,
                  "TCONCAT: dst, src0 and src1 must have the same element type");
    ptosim_impl::rearr::check_rearrange_tiles<TileDataDst, TileDataSrc0, TileDataSrc1>();
    ptosim_impl::rearr::Op op(cs, "TCONCAT", ptosim::Pipe::V);
    const int vr = dst.GetValidRow(), vc0 = src0.GetValidCol(), vc1 = src1.GetValidCol();
    ptosim_impl::rearr::concat_rows_contract(cs, src0, "src0", vr);
    ptosim_impl::rearr::concat_rows_contract(cs, src1, "src1", vr);
    if (vc0 + vc1 > TileDataDst::Cols)
        op.fault(std::to_string(vc0) + " + " + std::to_string(vc1) + " columns exceed dst's " +
                 std::to_string(TileDataDst::Cols));
    const uint8_t* s0 = op.tile(src0, "source", false);
    const uint8_t* s1 = op.tile(src1, "source", false);
    uint8_t* d = op.tile(dst, "destination", true);
    op.dispatch(static_cast<uint64_t>(vr) * (vc0 + vc1), static_cast<uint64_t>(vr) * (vc0 + vc1) * 2 * sizeof(E));
    for (int i = 0; i < vr; ++i) {
        for (int j = 0; j < vc0; ++j) std::memmove(ptosim_impl::at<TileDataDst>(d, i, j), ptosim_impl::at<TileDataSrc0>(const_cast<uint8_t*>(s0), i, j), sizeof(E));
        for (int j = 0; j < vc1; ++j) std::memmove(ptosim_impl::at<TileDataDst>(d, i, vc0 + j), ptosim_impl::at<TileDataSrc1>(const_cast<uint8_t*>(s1), i, j), sizeof(E));
    }
    return {};
}

// Per-row lengths: with n0 = src0Idx(i, 0) / sizeof(index) and n1 likewise,
// dst row i = src0(i, :min(n0, vc)) followed by src1(i, :min(n1, vc - that)),
// where vc is dst's valid columns (the divide is A2A3's TConcat.hpp rule).
template <typename DstTile, typename Src0Tile, typename Src1Tile, typename Src0IdxTile, typename Src1IdxTile,
          typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<Src0IdxTile> && is_tile_data_v<Src1IdxTile> && ptosim_impl::vop::events_only<WaitEvents...>,
                           int> = 0>
PTO_INST RecordEvent TCONCAT(CallSite cs, DstTile& dst, Src0Tile& src0, Src1Tile& src1, Src0IdxTile& src0Idx,
                             Src1IdxTile& src1Idx, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename DstTile::DType;
    using I = typename Src0IdxTile::DType;
    static_assert(ptosim_impl::rearr::rearrange_types<E>, "TCONCAT: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<E, typename Src0Tile::DType> && std::is_same_v<E, typename Src1Tile::DType>,
                  "TCONCAT: dst, src0 and src1 must have the same element type");
    static_assert(std::is_same_v<I, typename Src1IdxTile::DType> &&
                      ptosim_impl::one_of<I, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>,
                  "TCONCAT: src0Idx and src1Idx must share one integer element type");
    ptosim_impl::rearr::check_rearrange_tiles<DstTile, Src0Tile, Src1Tile>();
    ptosim_impl::rearr::Op op(cs, "TCONCAT", ptosim::Pipe::V);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    ptosim_impl::rearr::concat_rows_contract(cs, src0, "src0", vr);
    ptosim_impl::rearr::concat_rows_contract(cs, src1, "src1", vr);
    if (vr > Src0IdxTile::Rows || vr > Src1IdxTile::Rows)
        op.fault("the index tiles need one row per valid dst row (" + std::to_string(vr) + ")");
    const uint8_t* s0 = op.tile(src0, "source", false);
    const uint8_t* s1 = op.tile(src1, "source", false);
    const uint8_t* i0 = op.tile(src0Idx, "index", false);
    uint8_t* d = op.tile(dst, "destination", true);
    const uint8_t* i1 = ptosim_impl::tile_base(op.core, src1Idx, "TCONCAT", "index", op.loc);  // the record holds three reads
    auto count = [](const uint8_t* base, auto* tile_tag, int i) {
        using T = std::remove_pointer_t<decltype(tile_tag)>;
        return static_cast<int64_t>(ptosim_impl::load_elem<I>(ptosim_impl::at<T>(const_cast<uint8_t*>(base), i, 0))) /
               static_cast<int64_t>(sizeof(I));
    };
    op.dispatch(static_cast<uint64_t>(vr) * vc, static_cast<uint64_t>(vr) * vc * 2 * sizeof(E));
    for (int i = 0; i < vr; ++i) {
        const int64_t n0 = std::clamp<int64_t>(count(i0, static_cast<Src0IdxTile*>(nullptr), i), 0, vc);
        const int64_t n1 = std::clamp<int64_t>(count(i1, static_cast<Src1IdxTile*>(nullptr), i), 0, vc - n0);
        if (n0 > Src0Tile::Cols || n1 > Src1Tile::Cols)
            op.fault("row " + std::to_string(i) + " asks for more columns than src0/src1 hold");
        for (int j = 0; j < n0; ++j) std::memmove(ptosim_impl::at<DstTile>(d, i, j), ptosim_impl::at<Src0Tile>(const_cast<uint8_t*>(s0), i, j), sizeof(E));
        for (int j = 0; j < n1; ++j)
            std::memmove(ptosim_impl::at<DstTile>(d, i, static_cast<int>(n0) + j), ptosim_impl::at<Src1Tile>(const_cast<uint8_t*>(s1), i, j), sizeof(E));
    }
    return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST_CALLER RecordEvent TCONCAT(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, WaitEvents&... e) {
    return TCONCAT(PTOSIM_CALLER, dst, src0, src1, e...);
}
template <typename DstTile, typename Src0Tile, typename Src1Tile, typename Src0IdxTile, typename Src1IdxTile,
          typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<Src0IdxTile> && is_tile_data_v<Src1IdxTile> && ptosim_impl::vop::events_only<WaitEvents...>,
                           int> = 0>
PTO_INST_CALLER RecordEvent TCONCAT(DstTile& dst, Src0Tile& src0, Src1Tile& src1, Src0IdxTile& src0Idx, Src1IdxTile& src1Idx,
                             WaitEvents&... e) {
    return TCONCAT(PTOSIM_CALLER, dst, src0, src1, src0Idx, src1Idx, e...);
}

// ------------------------------------------------------------ TInterleave / TDeInterleave

namespace ptosim_impl::rearr {

template <class D, class S>
constexpr void check_interleave() {
    static_assert(PTOSIM_TARGET_A5 && sizeof(D) > 0,  // dependent, so only a use fails
                  "TINTERLEAVE/TDEINTERLEAVE: A5-only (pto-isa implements them in include/pto/npu/a5 only); on A2A3 "
                  "use TGATHER with MaskPattern::P0101/P1010 to split even and odd columns");
    static_assert(rearrange_types<typename D::DType>,
                  "TINTERLEAVE/TDEINTERLEAVE: unsupported element type (see docs/isa/gather_scatter.md)");
    static_assert(std::is_same_v<typename D::DType, typename S::DType>,
                  "TINTERLEAVE/TDEINTERLEAVE: every tile must have the same element type");
    check_rearrange_tiles<D, S>();
}

// Writes dst0/dst1 (r, j) = pick(dst index 0/1, r, j) for r < vr, j < vc.
template <class D, class S, class Pick>
void split_two(Op& op, D& dst0, D& dst1, int vr, int vc, const uint8_t* s0, const uint8_t* s1, Pick pick) {
    uint8_t* d0 = op.tile(dst0, "destination", true);
    uint8_t* d1 = op.tile(dst1, "destination", true);
    op.dispatch(static_cast<uint64_t>(vr) * vc * 2, static_cast<uint64_t>(vr) * vc * 4 * sizeof(typename D::DType));
    uint8_t* dsts[2] = {d0, d1};
    for (int out = 0; out < 2; ++out)
        for (int r = 0; r < vr; ++r)
            for (int j = 0; j < vc; ++j) {
                const auto [from_src1, col] = pick(out, j);
                std::memmove(at<D>(dsts[out], r, j), at<S>(const_cast<uint8_t*>(from_src1 ? s1 : s0), r, col),
                             sizeof(typename D::DType));
            }
}

// pto-isa asserts every operand has dst0's valid shape (a5/TInterleave.hpp,
// a5/TDeInterleave.hpp, PTO_ASSERT only); the release build passes dst0's
// valid shape to the loops, which read src0/src1 and write dst1 over it.
//
// An odd valid column count V is asserted against by TINTERLEAVE and ruled
// out by TDEINTERLEAVE's page, neither checked by the release build, whose
// loops split each row at h = V / 2 (rounded down) and still run:
// - TINTERLEAVE (a5/TInterleave.hpp TInterleaveAlign/Unalign) interleaves
//   from column 0 of both sources into dst0 and from column h into dst1,
//   storing V values each, in ceil(h / E) passes of 2E (E: elements per
//   256-byte register). When h is a multiple of E those passes end at
//   column V - 1, which is then left alone.
// - TDEINTERLEAVE (a5/TDeInterleave.hpp) de-interleaves 2h columns of src0
//   into columns [0, h) of dst0/dst1 and 2h of src1 into [h, 2h); column
//   V - 1 is left alone. With V = 1 and elements wider than a byte, its
//   unaligned path counts its tail loop from h - 1 = -1 as a 16-bit count,
//   65535 passes over the tiles' neighbours, which ptosim does not model.
template <class D, class S>
void two_source(Op& op, D& dst1, D& dst0, S& src1, S& src0, bool interleave) {
    using T = typename D::DType;
    const int vr = dst0.GetValidRow(), vc = dst0.GetValidCol();
    const std::string fix = "give every operand dst0's valid shape " + shape_str(vr, vc);
    vop::region_contract(op.cs, op.name, src0, "src0", vr, vc, "dst0's valid shape", "read", fix);
    vop::region_contract(op.cs, op.name, src1, "src1", vr, vc, "dst0's valid shape", "read", fix);
    vop::region_contract(op.cs, op.name, dst1, "dst1", vr, vc, "dst0's valid shape", "write", fix);
    const int h = vc / 2;
    constexpr int per_register = 256 / static_cast<int>(sizeof(T));
    const int cols = interleave ? std::min(vc, 2 * per_register * ((h + per_register - 1) / per_register)) : 2 * h;
    if (vc % 2) {
        if (!interleave && vc == 1 && sizeof(T) > 1)
            op.fault("the valid column count is 1; pto-isa's release build then runs its tail loop 65535 times past "
                     "the tiles, which ptosim does not model: give every operand an even number of valid columns");
        const std::string odd = "the valid column count (" + std::to_string(vc) + ") is odd";
        const std::string left = cols < vc ? "; column " + std::to_string(vc - 1) + " of dst0 and dst1 keeps its bytes"
                                           : "";
        const std::string release =
            interleave ? "the release build interleaves the sources from column 0 into dst0 and from column " +
                             std::to_string(h) + " into dst1, " + std::to_string(cols) + " values each" + left
                       : "the release build de-interleaves " + std::to_string(2 * h) + " columns of src0 into dst0's "
                             "and dst1's first " + std::to_string(h) + " and of src1 into the next " +
                             std::to_string(h) + left;
        vop::debug_contract(loc_of(op.cs), op.name, ptosim::Pipe::V, odd, release,
                            "give every operand an even number of valid columns");
    }
    const uint8_t* s0 = op.tile(src0, "source", false);
    const uint8_t* s1 = op.tile(src1, "source", false);
    // Interleaving: column j of dst `out` is element out * h + j / 2 of src(j % 2),
    // the stream src0(0), src1(0), src0(1), ... cut at V when V is even.
    // De-interleaving: columns [0, h) take the even (dst0) or odd (dst1)
    // elements of src0's first 2h, [h, 2h) those of src1.
    split_two<D, S>(op, dst0, dst1, vr, cols, s0, s1, [h, interleave](int out, int j) {
        if (interleave) return std::pair<bool, int>{j % 2 == 1, out * h + j / 2};
        return std::pair<bool, int>{j >= h, 2 * (j >= h ? j - h : j) + out};
    });
}

}  // namespace ptosim_impl::rearr

// dst0/dst1 = first/second half of the stream src0(0), src1(0), src0(1), ...
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TInterleave(CallSite cs, TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1, TileDataSrc& src0,
                                 WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::rearr::check_interleave<TileDataDst, TileDataSrc>();
    ptosim_impl::rearr::Op op(cs, "TINTERLEAVE", ptosim::Pipe::V);
    ptosim_impl::rearr::two_source(op, dst1, dst0, src1, src0, true);
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TInterleave(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1, TileDataSrc& src0,
                                 WaitEvents&... e) {
    return TInterleave(PTOSIM_CALLER, dst1, dst0, src1, src0, e...);
}

// dst0/dst1 = even/odd positions of the stream src0 ++ src1 (row by row).
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TDeInterleave(CallSite cs, TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1,
                                   TileDataSrc& src0, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::rearr::check_interleave<TileDataDst, TileDataSrc>();
    ptosim_impl::rearr::Op op(cs, "TDEINTERLEAVE", ptosim::Pipe::V);
    ptosim_impl::rearr::two_source(op, dst1, dst0, src1, src0, false);
    return {};
}

// dst0(i, k) = src(i, 2k), dst1(i, k) = src(i, 2k + 1) for k < src's valid
// columns / 2; dst columns past that keep their bytes.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST RecordEvent TDeInterleave(CallSite cs, TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::rearr::check_interleave<TileDataDst, TileDataSrc>();
    static_assert(TileDataSrc::Cols * sizeof(typename TileDataSrc::DType) >= 512,
                  "TDEINTERLEAVE (single source): the source row must span at least two 256-byte vector registers "
                  "(Cols * sizeof(element) >= 512); use the two-source form for narrower tiles");
    ptosim_impl::rearr::Op op(cs, "TDEINTERLEAVE", ptosim::Pipe::V);
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    // The page asks for an even count; the release build de-interleaves the
    // first vc / 2 pairs and ignores the last column (a5/TDeInterleave.hpp
    // TDeInterleaveSingleSrc).
    if (vc % 2)
        ptosim_impl::vop::debug_contract(
            ptosim_impl::loc_of(cs), "TDEINTERLEAVE", ptosim::Pipe::V,
            "src's valid column count (" + std::to_string(vc) + ") is odd",
            "the release build de-interleaves its first " + std::to_string(vc - 1) + " columns into " +
                std::to_string(vc / 2) + " of dst0 and dst1 and ignores the last",
            "give src an even number of valid columns");
    if (vr > TileDataDst::Rows || vc / 2 > TileDataDst::Cols)
        op.fault("src's valid shape " + ptosim_impl::vop::shape_str(vr, vc) + " does not fit two " +
                 ptosim_impl::vop::shape_str(TileDataDst::Rows, TileDataDst::Cols) + " halves");
    const uint8_t* s = op.tile(src, "source", false);
    ptosim_impl::rearr::split_two<TileDataDst, TileDataSrc>(op, dst0, dst1, vr, vc / 2, s, s, [](int out, int j) {
        return std::pair<bool, int>{false, 2 * j + out};
    });
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST_CALLER RecordEvent TDeInterleave(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src1, TileDataSrc& src0,
                                   WaitEvents&... e) {
    return TDeInterleave(PTOSIM_CALLER, dst1, dst0, src1, src0, e...);
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents,
          std::enable_if_t<ptosim_impl::vop::events_only<WaitEvents...>, int> = 0>
PTO_INST_CALLER RecordEvent TDeInterleave(TileDataDst& dst1, TileDataDst& dst0, TileDataSrc& src, WaitEvents&... e) {
    return TDeInterleave(PTOSIM_CALLER, dst1, dst0, src, e...);
}

// The upper-case spellings the ISA pages use as instruction names.
template <typename... Args>
PTO_INST RecordEvent TINTERLEAVE(Args&&... args) {
    return TInterleave(std::forward<Args>(args)...);
}
template <typename... Args>
PTO_INST RecordEvent TDEINTERLEAVE(Args&&... args) {
    return TDeInterleave(std::forward<Args>(args)...);
}

// ------------------------------------------------------------ TSUBVIEW

// dst becomes a view of src starting at (rowIdx, colIdx): dst(i, j) is
// src(rowIdx + i, colIdx + j). Like TRESHAPE it only re-addresses dst, so
// no instruction is issued and nothing is recorded.
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TSUBVIEW(CallSite cs, TileDataDst& dst, TileDataSrc& src, uint16_t rowIdx, uint16_t colIdx,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(TileDataDst::Loc == TileDataSrc::Loc, "TSUBVIEW: dst and src must be the same TileType");
    static_assert(TileDataDst::Rows == TileDataSrc::Rows && TileDataDst::Cols == TileDataSrc::Cols,
                  "TSUBVIEW: dst and src must have the same static Rows and Cols (the view keeps src's row stride)");
    static_assert(std::is_same_v<typename TileDataDst::DType, typename TileDataSrc::DType>,
                  "TSUBVIEW: dst and src must have the same element type");
    static_assert(TileDataDst::isRowMajor == TileDataSrc::isRowMajor && TileDataDst::isBoxedLayout == TileDataSrc::isBoxedLayout,
                  "TSUBVIEW: dst and src must have the same layout");
    static_assert(!TileDataSrc::isBoxedLayout, "TSUBVIEW: ptosim implements views of NoneBox (ND/DN) tiles");
    const auto fail = [&](const std::string& what) { ptosim_impl::vop::shape_fault(cs, "TSUBVIEW", what); };
    if (!src.assigned()) fail("the source tile has no address; TASSIGN it first");
    const int sr = src.GetValidRow(), sc = src.GetValidCol(), dr = dst.GetValidRow(), dc = dst.GetValidCol();
    if (rowIdx + dr > sr || colIdx + dc > sc)
        fail("a " + ptosim_impl::vop::shape_str(dr, dc) + " view at (" + std::to_string(rowIdx) + ", " + std::to_string(colIdx) +
             ") leaves src's " + ptosim_impl::vop::shape_str(sr, sc) + " valid region");
    const uint64_t addr = src.address() + tile_element_offset<TileDataSrc>(rowIdx, colIdx) * sizeof(typename TileDataSrc::DType);
    if (addr % TileConfig::alignedSize != 0)
        fail("the view at (" + std::to_string(rowIdx) + ", " + std::to_string(colIdx) + ") starts at byte " +
             std::to_string(addr) + ", not 32-byte aligned; tile instructions need aligned tiles");
    dst.assign_address(addr);
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSUBVIEW(TileDataDst& dst, TileDataSrc& src, uint16_t rowIdx, uint16_t colIdx, WaitEvents&... e) {
    return TSUBVIEW(PTOSIM_CALLER, dst, src, rowIdx, colIdx, e...);
}

}  // namespace pto
