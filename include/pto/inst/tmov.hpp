// Moves between local buffers: TMOV, TEXTRACT, TINSERT. Each is a logical
// element copy between two tile layouts; the layouts do the conversion
// (NZ -> Zz/Nz/Zn, Nz accumulator -> ND vector) (docs/semantics.md, "TMOV").
#pragma once
#include <pto/common/sim_support.hpp>

namespace pto {

namespace ptosim_impl {

// dst(dr + i, dc + j) = convert(src(sr + i, sc + j)) for i < rows, j < cols.
template <class Dst, class Src, ReluPreMode relu = ReluPreMode::NoRelu>
PTOSIM_VECTORIZE void copy_region(uint8_t* dbase, const uint8_t* sbase, int rows, int cols, int dr, int dc, int sr,
                                  int sc) {
    using D = typename Dst::DType;
    using S = typename Src::DType;
    constexpr bool raw = std::is_same_v<D, S> && relu == ReluPreMode::NoRelu;
    constexpr int drun = row_run<Dst>(), srun = row_run<Src>();
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols;) {
            // Copy the longest stretch contiguous in both layouts.
            int n = 1;
            if constexpr (raw && drun > 1 && srun > 1)
                n = std::min({drun - (dc + j) % drun, srun - (sc + j) % srun, cols - j});
            if constexpr (is_fp4<D>) {
                fp4_set(dbase, tile_element_offset<Dst>(dr + i, dc + j),
                        fp4_get(sbase, tile_element_offset<Src>(sr + i, sc + j)));
                ++j;
                continue;
            }
            const uint8_t* s = at<Src>(const_cast<uint8_t*>(sbase), sr + i, sc + j);
            uint8_t* d = at<Dst>(dbase, dr + i, dc + j);
            if constexpr (raw) {
                std::memcpy(d, s, n * sizeof(D));
            } else {
                auto x = widen(load_elem<S>(s));
                if constexpr (relu == ReluPreMode::NormalRelu) x = x > 0 ? x : decltype(x)(0);
                store_elem(d, narrow<D>(x));
            }
            j += n;
        }
    }
}

template <class Dst, class Src>
constexpr Pipe move_pipe() {
    if constexpr (Src::Loc == TileType::Acc || Dst::Loc == TileType::Scaling) return Pipe::FIX;
    else if constexpr (Src::Loc == TileType::Vec && Dst::Loc == TileType::Vec) return Pipe::V;
    else if constexpr (Src::Loc == TileType::Vec) return Pipe::MTE3;
    else return Pipe::MTE1;
}

template <class Src>
constexpr bool l1_operand_layout = is_Nz_layout<Src> || is_Zn_layout<Src> || (!Src::isBoxedLayout && Src::Rows == 1);

template <class Dst, class Src>
constexpr void check_move_pair() {
    constexpr TileType D = Dst::Loc, S = Src::Loc;
    constexpr bool a5 = PTOSIM_TARGET_A5;
    constexpr bool ok = (S == TileType::Mat && (D == TileType::Left || D == TileType::Right || D == TileType::Bias ||
                                                D == TileType::Scaling)) ||
                        (S == TileType::Vec && D == TileType::Vec) || (S == TileType::Acc && D == TileType::Mat) ||
                        (a5 && S == TileType::Acc && D == TileType::Vec) || (a5 && S == TileType::Vec && D == TileType::Mat) ||
                        (a5 && S == TileType::Mat && (D == TileType::ScaleLeft || D == TileType::ScaleRight));
    static_assert(ok, "TMOV/TEXTRACT/TINSERT: unsupported tile pair for this target; A2A3 moves Mat->Left/Right/Bias/"
                      "Scaling, Vec->Vec and Acc->Mat; A5 adds Acc->Vec, Vec->Mat and Mat->ScaleLeft/ScaleRight");
    static_assert(!(S == TileType::Mat && (D == TileType::Left || D == TileType::Right)) || l1_operand_layout<Src>,
                  "TMOV/TEXTRACT Mat->Left/Right: the Mat tile must be NZ (ColMajor + SLayout::RowMajor), "
                  "ZN (RowMajor + SLayout::ColMajor) or a single row");
    static_assert(!(D == TileType::Left) || (a5 ? is_Nz_layout<Dst> : is_Zz_layout<Dst>),
                  "Left tiles must use the target's L0A layout (Zz on A2A3, Nz on A5): declare them with TileLeft<...>");
    static_assert(!(D == TileType::Right) || is_Zn_layout<Dst>,
                  "Right tiles must be Zn (RowMajor + SLayout::ColMajor): declare them with TileRight<...>");
    static_assert(S != TileType::Acc || std::is_same_v<typename Src::DType, float> ||
                      std::is_same_v<typename Src::DType, int32_t>,
                  "moves from Acc read float or int32 accumulators");
    // The bias table's loader widens a 16-bit bias to the float accumulator
    // (pto-isa TMovToBt: half on both targets, bfloat16_t on A5).
    constexpr bool widening_bias = D == TileType::Bias && std::is_same_v<typename Dst::DType, float> &&
                                   (std::is_same_v<typename Src::DType, half> ||
                                    (a5 && std::is_same_v<typename Src::DType, bfloat16_t>));
    static_assert(S == TileType::Acc || widening_bias ||
                      (sizeof(typename Dst::DType) == sizeof(typename Src::DType) &&
                       is_fp4<typename Dst::DType> == is_fp4<typename Src::DType>),
                  "TMOV/TEXTRACT/TINSERT: element sizes must match (only moves out of Acc and half (A5 also "
                  "bfloat16_t) -> float Bias moves convert)");
}

// Where the bytes of a destination tile live: usually the calling core; A5
// Acc->Vec writes a Vector sub-block's UB, Vec->Mat the Cube core's L1.
template <class Dst>
uint8_t* dest_base(Core& c, const Dst& dst, int subblock, const char* op, const SourceLoc& loc) {
    constexpr Space sp = space_of<Dst>();
    if (c.mem_size[static_cast<int>(sp)] != 0) return tile_base(c, dst, op, "destination", loc);
    Core& other = ptosim::group_core(c, c.type == ptosim::CoreType::AIC ? ptosim::CoreType::AIV : ptosim::CoreType::AIC,
                                     subblock, op, loc);
    return tile_base(other, dst, op, "destination", loc);
}

template <class Dst, class Src, AccToVecMode mode, ReluPreMode relu>
RecordEvent tmov(CallSite cs, Dst& dst, Src& src) {
    check_move_pair<Dst, Src>();
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, "TMOV", "source", loc);
    OpRecord rec = make_record("TMOV", move_pipe<Dst, Src>(), cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    if constexpr (Src::Loc == TileType::Acc && Dst::Loc == TileType::Vec) {
        const int m = src.GetValidRow(), n = src.GetValidCol();
        constexpr bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
        const int rows = split_m ? m / 2 : m, cols = split_n ? n / 2 : n;
        if ((split_m && m % 2) || (split_n && n % 2))
            ptosim::fault(loc, "TMOV Acc->Vec dual mode splits the accumulator in two halves; its valid " +
                                   std::string(split_m ? "row" : "column") + " count must be even");
        if (rows > Dst::Rows || cols > Dst::Cols)
            ptosim::fault(loc, "TMOV Acc->Vec: each destination receives " + std::to_string(rows) + "x" +
                                   std::to_string(cols) + " elements but the Vec tile holds " + std::to_string(Dst::Rows) +
                                   "x" + std::to_string(Dst::Cols));
        rec.elements = static_cast<uint64_t>(m) * n;
        rec.bytes = rec.elements * sizeof(typename Dst::DType);
        ptosim::dispatch(c, rec);
        if constexpr (split_m || split_n) {
            for (int sub = 0; sub < 2; ++sub)
                copy_region<Dst, Src, relu>(dest_base(c, dst, sub, "TMOV", loc), s, rows, cols, 0, 0,
                                            split_m ? sub * rows : 0, split_n ? sub * cols : 0);
        } else {
            copy_region<Dst, Src, relu>(dest_base(c, dst, mode == AccToVecMode::SingleModeVec1 ? 1 : 0, "TMOV", loc), s,
                                        rows, cols, 0, 0, 0, 0);
        }
    } else if constexpr (Dst::Loc == TileType::Vec || Src::Loc == TileType::Acc) {
        // Vec->Vec and Acc->Mat move the source's valid region.
        const int rows = std::min(src.GetValidRow(), Dst::Rows);
        const int cols = std::min(src.GetValidCol(), Dst::Cols);
        rec.elements = static_cast<uint64_t>(rows) * cols;
        rec.bytes = rec.elements * sizeof(typename Dst::DType);
        ptosim::dispatch(c, rec);
        copy_region<Dst, Src, relu>(dest_base(c, dst, 0, "TMOV", loc), s, rows, cols, 0, 0, 0, 0);
    } else {
        // L1 -> L0 and bias moves copy whole fractals: the whole tile storage.
        static_assert(Dst::Rows == Src::Rows && Dst::Cols == Src::Cols,
                      "TMOV Mat->Left/Right/Bias: source and destination must have the same Rows and Cols "
                      "(use TEXTRACT to take a part)");
        rec.elements = static_cast<uint64_t>(Dst::Rows) * Dst::Cols;
        rec.bytes = rec.elements * sizeof(typename Dst::DType);
        ptosim::dispatch(c, rec);
        copy_region<Dst, Src>(dest_base(c, dst, 0, "TMOV", loc), s, Dst::Rows, Dst::Cols, 0, 0, 0, 0);
    }
    return {};
}

}  // namespace ptosim_impl

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TMOV(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(cs, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(CallSite{}, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, ReluPreMode relu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, relu>(CallSite{}, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, AccToVecMode mode, ReluPreMode relu = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, mode, relu>(CallSite{}, dst, src);
}

namespace ptosim_impl {

template <class Dst, class Src>
RecordEvent textract(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    check_move_pair<Dst, Src>();
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, "TEXTRACT", "source", loc);
    // L0 destinations take whole fractals; Vec destinations, and L1 ones
    // filled from an accumulator (pto-isa's TExtractAccToMat, converting as
    // TMOV does), their valid region.
    // Compact L0 destinations take their valid region rounded up to whole
    // fractals (pto-isa a5 TExtractToACompact, TExtractToAmx: m to 16, k to C0).
    constexpr bool valid_region = Dst::Loc == TileType::Vec || Src::Loc == TileType::Acc;
    constexpr bool compact = !valid_region && Dst::Compact == CompactMode::Normal && Dst::isBoxedLayout;
    auto up = [](int v, int a) { return (v + a - 1) / a * a; };
    const int rows = valid_region ? dst.GetValidRow()
                     : compact    ? std::min(up(dst.GetValidRow(), Dst::InnerRows), Dst::Rows)
                                  : Dst::Rows;
    const int cols = valid_region ? dst.GetValidCol()
                     : compact    ? std::min(up(dst.GetValidCol(), Dst::InnerCols), Dst::Cols)
                                  : Dst::Cols;
    if (r0 < 0 || c0 < 0 || r0 + rows > Src::Rows || c0 + cols > Src::Cols)
        ptosim::fault(loc, "TEXTRACT: a " + std::to_string(rows) + "x" + std::to_string(cols) + " part at (" +
                               std::to_string(r0) + ", " + std::to_string(c0) + ") runs outside the " +
                               std::to_string(Src::Rows) + "x" + std::to_string(Src::Cols) + " source tile");
    OpRecord rec = make_record("TEXTRACT", move_pipe<Dst, Src>(), cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(typename Dst::DType);
    ptosim::dispatch(c, rec);
    copy_region<Dst, Src>(dest_base(c, dst, 0, "TEXTRACT", loc), s, rows, cols, 0, 0, r0, c0);
    return {};
}

template <class Dst, class Src, ReluPreMode relu>
RecordEvent tinsert(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    check_move_pair<Dst, Src>();
    static_assert(Dst::Loc == TileType::Mat || Dst::Loc == TileType::Vec,
                  "TINSERT writes into a Mat (L1) or Vec tile");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, "TINSERT", "source", loc);
    const int rows = src.GetValidRow(), cols = src.GetValidCol();
    if (r0 < 0 || c0 < 0 || r0 + rows > Dst::Rows || c0 + cols > Dst::Cols)
        ptosim::fault(loc, "TINSERT: the source's " + std::to_string(rows) + "x" + std::to_string(cols) +
                               " valid region at (" + std::to_string(r0) + ", " + std::to_string(c0) +
                               ") runs outside the " + std::to_string(Dst::Rows) + "x" + std::to_string(Dst::Cols) +
                               " destination tile");
    OpRecord rec = make_record("TINSERT", move_pipe<Dst, Src>(), cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(typename Dst::DType);
    ptosim::dispatch(c, rec);
    copy_region<Dst, Src, relu>(dest_base(c, dst, 0, "TINSERT", loc), s, rows, cols, r0, c0, 0, 0);
    return {};
}

}  // namespace ptosim_impl

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TEXTRACT(CallSite cs, DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0,
                              uint16_t indexCol = 0, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::textract(cs, dst, src, indexRow, indexCol);
}
template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::textract(CallSite{}, dst, src, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TINSERT(CallSite cs, DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0,
                             uint16_t indexCol = 0, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tinsert<DstTileData, SrcTileData, ReluPreMode::NoRelu>(cs, dst, src, indexRow, indexCol);
}
template <typename DstTileData, typename SrcTileData, ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                             WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tinsert<DstTileData, SrcTileData, relu>(CallSite{}, dst, src, indexRow, indexCol);
}

}  // namespace pto
