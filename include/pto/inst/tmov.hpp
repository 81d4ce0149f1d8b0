// Moves between local buffers: TMOV, TEXTRACT, TINSERT. Each is a logical
// element copy between two tile layouts; the layouts do the conversion
// (NZ -> Zz/Nz/Zn, Nz accumulator -> ND vector) (docs/semantics.md, "TMOV").
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tmov.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/conv_tile.hpp>
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
    // Between boxes of one shape stored in opposite inner orders (NZ -> Zn
    // for L0B), a region of whole boxes moves as box transposes.
    if constexpr (raw && !is_fp4<D> && Dst::isBoxedLayout && Src::isBoxedLayout &&
                  Dst::InnerRows == Src::InnerRows && Dst::InnerCols == Src::InnerCols &&
                  Dst::isInnerRowMajor != Src::isInnerRowMajor) {
        constexpr int IR = Src::InnerRows, IC = Src::InnerCols;
        if (rows % IR == 0 && cols % IC == 0 && dr % IR == 0 && sr % IR == 0 && dc % IC == 0 && sc % IC == 0) {
            for (int i = 0; i < rows; i += IR)
                for (int j = 0; j < cols; j += IC) {
                    const uint8_t* sb = at<Src>(const_cast<uint8_t*>(sbase), sr + i, sc + j);
                    uint8_t* db = at<Dst>(dbase, dr + i, dc + j);
                    // Element (x, y) of the box: x * IC + y row-major, y * IR + x column-major.
                    constexpr size_t es = sizeof(D);
                    for (int x = 0; x < IR; ++x)
                        for (int y = 0; y < IC; ++y) {
                            if constexpr (Src::isInnerRowMajor) std::memcpy(db + (y * IR + x) * es, sb + (x * IC + y) * es, es);
                            else std::memcpy(db + (x * IC + y) * es, sb + (y * IR + x) * es, es);
                        }
                }
            return;
        }
    }
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
    // The bias table takes fp16 (and on A5 bf16) rows as float (pto-isa
    // include/pto/npu/{a2a3,a5}/TMov.hpp, TMovToBt).
    using DE = typename Dst::DType;
    using SE = typename Src::DType;
    constexpr bool widening_bias = D == TileType::Bias && std::is_same_v<DE, float> &&
                                   (std::is_same_v<SE, half> || (a5 && std::is_same_v<SE, bfloat16_t>));
    static_assert(S == TileType::Acc || widening_bias || (sizeof(DE) == sizeof(SE) && is_fp4<DE> == is_fp4<SE>),
                  "TMOV/TEXTRACT/TINSERT: element sizes must match (only moves out of Acc convert, and Mat->Bias "
                  "from half, or bfloat16 on A5, to float)");
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

// A5 Vec -> Mat (TMOV, and TEXTRACT at (r0, c0)): the Vector core writes its
// Cube core's L1 the way pto-isa's TExtractVecToMat does (a5/TExtract.hpp).
// From an Nz tile it copies whole 16-row x c0 fractal columns covering the
// destination's valid region, so the source may have more rows (the "NZ + 1"
// layouts); from a row-major tile it copies the valid region's bytes as one
// burst, unchanged, starting at element r0 * source valid columns + c0.
template <class Dst, class Src>
void vec_to_mat(CallSite cs, const char* op, Dst& dst, Src& src, int r0, int c0) {
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, op, "source", loc);
    uint8_t* d = dest_base(c, dst, 0, op, loc);
    using E = typename Dst::DType;
    OpRecord rec = make_record(op, Pipe::MTE3, cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    if constexpr (Src::isRowMajor && !Src::isBoxedLayout) {
        const int64_t n = static_cast<int64_t>(dst.GetValidRow()) * dst.GetValidCol();
        const int64_t from = static_cast<int64_t>(r0) * src.GetValidCol() + c0;
        if (from + n > static_cast<int64_t>(Src::Rows) * Src::Cols || n > static_cast<int64_t>(Dst::Rows) * Dst::Cols)
            ptosim::fault(loc, std::string(op) + " Vec->Mat: " + std::to_string(n) + " elements from element " +
                                   std::to_string(from) + " run outside the " + std::to_string(Src::Rows) + "x" +
                                   std::to_string(Src::Cols) + " source or the " + std::to_string(Dst::Rows) + "x" +
                                   std::to_string(Dst::Cols) + " destination");
        rec.elements = static_cast<uint64_t>(n);
        rec.bytes = rec.elements * sizeof(E);
        ptosim::dispatch(c, rec);
        std::memmove(d, s + from * sizeof(E), static_cast<size_t>(n) * sizeof(E));
    } else {
        static_assert(is_Nz_layout<Src>, "Vec->Mat moves read a row-major or an Nz (ColMajor + SLayout::RowMajor) Vec tile");
        constexpr int c0_elems = static_cast<int>(32 / sizeof(E));
        const int rows = (dst.GetValidRow() + 15) / 16 * 16;
        const int cols = (dst.GetValidCol() + c0_elems - 1) / c0_elems * c0_elems;
        if (r0 + rows > Src::Rows || c0 + cols > Src::Cols || rows > Dst::Rows || cols > Dst::Cols)
            ptosim::fault(loc, std::string(op) + " Vec->Mat: the " + std::to_string(rows) + "x" + std::to_string(cols) +
                                   " fractal-aligned part at (" + std::to_string(r0) + ", " + std::to_string(c0) +
                                   ") runs outside the " + std::to_string(Src::Rows) + "x" + std::to_string(Src::Cols) +
                                   " source or the " + std::to_string(Dst::Rows) + "x" + std::to_string(Dst::Cols) +
                                   " destination");
        rec.elements = static_cast<uint64_t>(rows) * cols;
        rec.bytes = rec.elements * sizeof(E);
        ptosim::dispatch(c, rec);
        copy_region<Dst, Src>(d, s, rows, cols, 0, 0, r0, c0);
    }
}

// L1 -> L0B from a weight ConvTile: the destination's valid region, in
// whole fractals, from (r0, c0) of the ConvTile read as its K x N Zn matrix
// (pto-isa npu/a2a3/TMov.hpp and TExtract.hpp, TExtractToBConv).
template <class Dst, class Conv>
RecordEvent conv_to_l0b(CallSite cs, const char* op, Dst& dst, const Conv& src, int r0, int c0) {
    static_assert(Dst::Loc == TileType::Right, "TMOV/TEXTRACT from a ConvTile: the destination must be a Right tile");
    using M = conv_matrix<Conv>;
    using View = typename M::type;
    const View view = M::view(src);
    check_move_pair<Dst, View>();
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, view, op, "source", loc);
    const int rows = (dst.GetValidRow() + M::c0 - 1) / M::c0 * M::c0, cols = (dst.GetValidCol() + 15) / 16 * 16;
    if (r0 < 0 || c0 < 0 || r0 + rows > View::Rows || c0 + cols > View::Cols || rows > Dst::Rows || cols > Dst::Cols)
        ptosim::fault(loc, std::string(op) + ": a " + std::to_string(rows) + "x" + std::to_string(cols) + " part at (" +
                               std::to_string(r0) + ", " + std::to_string(c0) + ") runs outside the " +
                               std::to_string(View::Rows) + "x" + std::to_string(View::Cols) +
                               " K x N weights of the ConvTile or the destination tile");
    OpRecord rec = make_record(op, Pipe::MTE1, cs);
    record_tile(rec, false, view);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(typename Dst::DType);
    ptosim::dispatch(c, rec);
    copy_region<Dst, View>(dest_base(c, dst, 0, op, loc), s, rows, cols, 0, 0, r0, c0);
    return {};
}

// The rows and columns an accumulator move takes from `src` (valid rows x
// cols), before a dual mode splits them: the valid region, except that a
// move into an Nz tile (L1 or UB) takes whole fractals: every accumulator
// row and the valid columns rounded up to a block, as pto-isa's
// TMovCcToCb / TMovCcToUb program the fixpipe on both targets (m =
// SrcTileData::Rows; n = validCol rounded to C0, A5 float to 16 columns or
// to 8 when it splits channels into 16x8 fractals; A5 dual modes round n to
// 16 when splitting rows and to 32 when splitting columns). The Nz extent
// is bounded by the source's and destination's sizes.
template <class Dst, class Src, AccToVecMode mode = AccToVecMode::SingleModeVec0>
std::pair<int, int> acc_move_extent(int rows, int cols) {
    if constexpr (Src::Loc == TileType::Acc && !Dst::isRowMajor && Dst::SFractal == SLayout::RowMajor) {
        constexpr bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
        constexpr int block = split_m   ? 16
                              : split_n ? 32
                              : sizeof(typename Dst::DType) == 4 && PTOSIM_TARGET_A5 && Dst::SFractalSize != 512
                                  ? 16
                                  : 32 / static_cast<int>(sizeof(typename Dst::DType));
        const int max_rows = std::min(Src::Rows, split_m ? 2 * Dst::Rows : Dst::Rows);
        const int max_cols = std::min(Src::Cols, split_n ? 2 * Dst::Cols : Dst::Cols);
        return {max_rows, std::min((cols + block - 1) / block * block, max_cols)};
    } else {
        return {rows, cols};
    }
}

template <class Dst, class Src, AccToVecMode mode, ReluPreMode relu>
RecordEvent tmov_tile(CallSite cs, Dst& dst, Src& src) {
    check_move_pair<Dst, Src>();
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, "TMOV", "source", loc);
    OpRecord rec = make_record("TMOV", move_pipe<Dst, Src>(), cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    if constexpr (Src::Loc == TileType::Acc && Dst::Loc == TileType::Vec) {
        const auto [m, n] = acc_move_extent<Dst, Src, mode>(src.GetValidRow(), src.GetValidCol());
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
        rec.peer_subblocks = split_m || split_n ? 3 : mode == AccToVecMode::SingleModeVec1 ? 2 : 1;
        ptosim::dispatch(c, rec);
        if constexpr (split_m || split_n) {
            for (int sub = 0; sub < 2; ++sub)
                copy_region<Dst, Src, relu>(dest_base(c, dst, sub, "TMOV", loc), s, rows, cols, 0, 0,
                                            split_m ? sub * rows : 0, split_n ? sub * cols : 0);
        } else {
            copy_region<Dst, Src, relu>(dest_base(c, dst, mode == AccToVecMode::SingleModeVec1 ? 1 : 0, "TMOV", loc), s,
                                        rows, cols, 0, 0, 0, 0);
        }
    } else if constexpr (Src::Loc == TileType::Vec && Dst::Loc == TileType::Mat) {
        vec_to_mat(cs, "TMOV", dst, src, 0, 0);
    } else if constexpr (Dst::Loc == TileType::Vec || Src::Loc == TileType::Acc) {
        // Vec->Vec and Acc->Mat move the source's valid region (Acc->Mat Nz:
        // whole fractals, acc_move_extent).
        const auto [vr, vc] = acc_move_extent<Dst, Src>(src.GetValidRow(), src.GetValidCol());
        const int rows = std::min(vr, Dst::Rows), cols = std::min(vc, Dst::Cols);
        rec.elements = static_cast<uint64_t>(rows) * cols;
        rec.bytes = rec.elements * sizeof(typename Dst::DType);
        ptosim::dispatch(c, rec);
        copy_region<Dst, Src, relu>(dest_base(c, dst, 0, "TMOV", loc), s, rows, cols, 0, 0, 0, 0);
    } else {
        // L1 -> L0, bias and fixpipe-buffer moves copy whole fractals: the whole tile storage.
        static_assert(Dst::Rows == Src::Rows && Dst::Cols == Src::Cols,
                      "TMOV Mat->Left/Right/Bias/Scaling: source and destination must have the same Rows and Cols "
                      "(use TEXTRACT to take a part)");
        rec.elements = static_cast<uint64_t>(Dst::Rows) * Dst::Cols;
        rec.bytes = rec.elements * sizeof(typename Dst::DType);
        ptosim::dispatch(c, rec);
        uint8_t* d = dest_base(c, dst, 0, "TMOV", loc);
        ptosim::check_local(c, space_of<Dst>(), dst.address(), tile_bytes<Dst>(), "TMOV destination tile", loc);
        copy_region<Dst, Src>(d, s, Dst::Rows, Dst::Cols, 0, 0, 0, 0);
    }
    return {};
}

template <class Dst, class Src, AccToVecMode mode, ReluPreMode relu>
RecordEvent tmov(CallSite cs, Dst& dst, Src& src) {
    if constexpr (is_conv_tile_v<Src>) return conv_to_l0b(cs, "TMOV", dst, src, 0, 0);
    else return tmov_tile<Dst, Src, mode, relu>(cs, dst, src);
}

}  // namespace ptosim_impl

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TMOV(CallSite cs, TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(cs, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(PTOSIM_CALLER, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, ReluPreMode relu, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, AccToVecMode::SingleModeVec0, relu>(PTOSIM_CALLER, dst, src);
}
template <typename TileDataDst, typename TileDataSrc, AccToVecMode mode, ReluPreMode relu = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMOV(TileDataDst& dst, TileDataSrc& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tmov<TileDataDst, TileDataSrc, mode, relu>(PTOSIM_CALLER, dst, src);
}

namespace ptosim_impl {

template <class Dst, class Src>
RecordEvent textract_tile(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    check_move_pair<Dst, Src>();
    if constexpr (Src::Loc == TileType::Vec && Dst::Loc == TileType::Mat) {
        vec_to_mat(cs, "TEXTRACT", dst, src, r0, c0);
        return {};
    }
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
    uint8_t* d = dest_base(c, dst, 0, "TEXTRACT", loc);
    if constexpr (!valid_region && !compact)
        ptosim::check_local(c, space_of<Dst>(), dst.address(), tile_bytes<Dst>(), "TEXTRACT destination tile", loc);
    copy_region<Dst, Src>(d, s, rows, cols, 0, 0, r0, c0);
    return {};
}

template <class Dst, class Src>
RecordEvent textract(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    if constexpr (is_conv_tile_v<Src>) return conv_to_l0b(cs, "TEXTRACT", dst, src, r0, c0);
    else return textract_tile(cs, dst, src, r0, c0);
}

// Records the write of a rows x cols region at (r0, c0) of dst, laid out as
// View: only its rows (row-major) or its C0-wide column blocks (Nz), so that
// the two Vector sub-blocks inserting their halves into one L1 tile are not
// taken for overlapping writes (docs/checkers.md). Other layouts record the
// whole tile.
template <class View, class Dst>
void record_region(OpRecord& rec, const Dst& dst, int r0, int c0, int rows, int cols) {
    using E = typename Dst::DType;
    if constexpr (is_fp4<E> || !((is_Nz_layout<View> && View::SFractalSize == TileConfig::fractalABSize) ||
                                 (View::isRowMajor && !View::isBoxedLayout))) {
        record_tile(rec, true, dst);
    } else {
        if (rows <= 0 || cols <= 0) return;
        constexpr uint64_t e = sizeof(E);
        ptosim::Runs runs{};
        runs.dims = 1;
        ptosim::Access a{space_of<Dst>(), 0, dst.address(), 0};
        if constexpr (is_Nz_layout<View>) {
            constexpr int block = static_cast<int>(32 / e);
            const int first = c0 / block;
            a.offset += (static_cast<uint64_t>(first) * View::Rows + r0) * block * e;
            runs.run = static_cast<uint64_t>(rows) * block * e;
            runs.count[0] = static_cast<uint64_t>((c0 + cols - 1) / block - first + 1);
            runs.pitch[0] = static_cast<uint64_t>(View::Rows) * block * e;
        } else {
            a.offset += (static_cast<uint64_t>(r0) * View::Cols + c0) * e;
            runs.run = static_cast<uint64_t>(cols) * e;
            runs.count[0] = static_cast<uint64_t>(rows);
            runs.pitch[0] = static_cast<uint64_t>(View::Cols) * e;
        }
        a.bytes = (runs.count[0] - 1) * runs.pitch[0] + runs.run;
        if (runs.count[0] == 1 || runs.pitch[0] == runs.run) runs.dims = 0;
        rec.write(a, runs);
        rec.dtype = dtype_name<E>();
    }
}

// A5 TINSERT of an Nz Vec tile into L1 at (r0, c0): the Vector core copies
// whole fractal columns (valid rows rounded up to 16, valid columns to C0)
// and places them as an Nz matrix whose column blocks are Dst::Rows high,
// whatever layout the destination tile declares: pto-isa programs the UB->L1
// copy with Nz offsets only ((c0 / C0) * dstRow * C0 + r0 * C0, a5
// custom/TInsertCustom.hpp, TInsertMode::NZ), so an L1 tile declared Zz and
// read back through an Nz tile at the same address sees an Nz matrix.
template <class Dst, class Src>
RecordEvent vec_nz_into_mat(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    using E = typename Dst::DType;
    constexpr int c0_elems = static_cast<int>(32 / sizeof(E));
    using NzView = Tile<TileType::Mat, E, Dst::Rows, Dst::Cols, BLayout::ColMajor, Dst::Rows, Dst::Cols,
                        SLayout::RowMajor, TileConfig::fractalABSize>;
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, "TINSERT", "source", loc);
    const int rows = (src.GetValidRow() + 15) / 16 * 16;
    const int cols = (src.GetValidCol() + c0_elems - 1) / c0_elems * c0_elems;
    if (r0 < 0 || c0 < 0 || c0 % c0_elems || rows > Src::Rows || cols > Src::Cols || r0 + rows > Dst::Rows ||
        c0 + cols > Dst::Cols)
        ptosim::fault(loc, "TINSERT Vec->Mat: the source's " + std::to_string(rows) + "x" + std::to_string(cols) +
                               " fractal-aligned valid region at (" + std::to_string(r0) + ", " + std::to_string(c0) +
                               ") runs outside the " + std::to_string(Src::Rows) + "x" + std::to_string(Src::Cols) +
                               " source or the " + std::to_string(Dst::Rows) + "x" + std::to_string(Dst::Cols) +
                               " destination, or the column is not a multiple of " + std::to_string(c0_elems));
    OpRecord rec = make_record("TINSERT", Pipe::MTE3, cs);
    record_tile(rec, false, src);
    record_region<NzView>(rec, dst, r0, c0, rows, cols);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(E);
    ptosim::dispatch(c, rec);
    copy_region<NzView, Src>(dest_base(c, dst, 0, "TINSERT", loc), s, rows, cols, r0, c0, 0, 0);
    return {};
}

template <class Dst, class Src, ReluPreMode relu>
RecordEvent tinsert(CallSite cs, Dst& dst, Src& src, int r0, int c0) {
    check_move_pair<Dst, Src>();
    static_assert(Dst::Loc == TileType::Mat || Dst::Loc == TileType::Vec,
                  "TINSERT writes into a Mat (L1) or Vec tile");
    if constexpr (Src::Loc == TileType::Vec && Dst::Loc == TileType::Mat && is_Nz_layout<Src>)
        return vec_nz_into_mat(cs, dst, src, r0, c0);
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
    record_region<Dst>(rec, dst, r0, c0, rows, cols);
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
PTO_INST_CALLER RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::textract(PTOSIM_CALLER, dst, src, indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TINSERT(CallSite cs, DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0,
                             uint16_t indexCol = 0, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tinsert<DstTileData, SrcTileData, ReluPreMode::NoRelu>(cs, dst, src, indexRow, indexCol);
}
template <typename DstTileData, typename SrcTileData, ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, uint16_t indexRow = 0, uint16_t indexCol = 0,
                             WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tinsert<DstTileData, SrcTileData, relu>(PTOSIM_CALLER, dst, src, indexRow, indexCol);
}

}  // namespace pto
