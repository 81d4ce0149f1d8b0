// TLOAD (GM -> Vec/Mat tile or ConvTile) and TSTORE (Vec/Mat/Acc -> GM).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tload_tstore.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/conv_tile.hpp>
#include <pto/common/gm_view.hpp>
#include <pto/inst/tload_mx.hpp>

namespace pto {

namespace ptosim_impl {

template <class T, class G>
constexpr bool layouts_match() {
    if constexpr (G::layout == Layout::ND) return !T::isBoxedLayout && T::isRowMajor;
    else if constexpr (G::layout == Layout::DN) return !T::isBoxedLayout && !T::isRowMajor;
    else if constexpr (G::layout == Layout::NZ) return is_Nz_layout<T>;
    else return false;
}

// Fills what the hardware pads when a tile has a PadValue: the rest of each
// valid row up to 32 bytes (Vec), or up to whole fractals (Mat).
template <class T>
void fill_padding(uint8_t* base, int vr, int vc) {
    using E = typename T::DType;
    constexpr PadValue P = T::PadVal;
    if constexpr (P == PadValue::Null) {
        return;
    } else {
        const E v = pad_value<E, P>();
        constexpr int c0 = c0_elems<E>;
        int rows_to = vr, cols_to = (vc + c0 - 1) / c0 * c0;
        if constexpr (T::Loc != TileType::Vec) rows_to = T::isBoxedLayout ? (vr + T::InnerRows - 1) / T::InnerRows * T::InnerRows : vr;
        rows_to = std::min(rows_to, T::Rows);
        cols_to = std::min(cols_to, T::Cols);
        // fp4 has no infinities: Max/Min pad with the largest/most negative finite code.
        constexpr uint8_t fp4_code = P == PadValue::Max ? 0x7 : P == PadValue::Min ? 0xf : 0x0;
        for (int r = 0; r < rows_to; ++r)
            for (int c = (r < vr ? vc : 0); c < cols_to; ++c) {
                if constexpr (is_fp4<E>) fp4_set(base, tile_element_offset<T>(r, c), fp4_code);
                else store_elem(at<T>(base, r, c), v);
            }
    }
}

// The ND -> NZ and DN -> ZN movers (copy_gm_to_cbuf_multi_nd2nz) write every
// fractal row they touch in full: the C0 block holding the last valid column
// (DN: row) gets zeros past it (pto-isa's A2A3 tload_gm2mat golden expects
// them), as do A5's DN -> NZ, ND2ND and DN2DN loads (its tload_mix golden).
// The rows past the valid height stay.
template <class T, bool dn>
void zero_c0_tail(uint8_t* base, int vr, int vc) {
    using E = typename T::DType;
    constexpr int c0 = static_cast<int>(TileConfig::alignedSize / sizeof(E));
    const E zero{};
    const int lines = dn ? vc : vr, from = dn ? vr : vc, to = std::min((from + c0 - 1) / c0 * c0, dn ? T::Rows : T::Cols);
    for (int i = 0; i < lines; ++i)
        for (int j = from; j < to; ++j) store_elem(dn ? at<T>(base, j, i) : at<T>(base, i, j), zero);
}

// Copies the rows x cols region between a tile and GM without conversion,
// in contiguous runs where both layouts allow it.
template <class T, class G, bool to_tile>
PTOSIM_VECTORIZE void copy_tile_gm(uint8_t* tile, uint8_t* gm, const GmView<G>& v, int rows, int cols) {
    constexpr size_t es = sizeof(typename T::DType);
    constexpr int run = row_run<T>();
    if constexpr (is_fp4<typename T::DType>) {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const uint64_t t = tile_element_offset<T>(r, c), g = static_cast<uint64_t>(v.offset(r, c));
                if constexpr (to_tile) fp4_set(tile, t, fp4_get(gm, g));
                else fp4_set(gm, g, fp4_get(tile, t));
            }
        return;
    } else if constexpr (G::layout == Layout::ND && run > 1) {
        if (v.st[4] == 1) {
            for (int r = 0; r < rows; ++r) {
                uint8_t* g = gm + v.offset(r, 0) * es;
                for (int c = 0; c < cols; c += run) {
                    const size_t n = static_cast<size_t>(std::min(run, cols - c)) * es;
                    uint8_t* t = at<T>(tile, r, c);
                    if constexpr (run * es >= 128) {
                        if constexpr (to_tile) copy_bytes(t, g + c * es, n);
                        else copy_bytes(g + c * es, t, n);
                    } else {
                        if constexpr (to_tile) std::memcpy(t, g + c * es, n);
                        else std::memcpy(g + c * es, t, n);
                    }
                }
            }
            return;
        }
    }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            uint8_t* t = at<T>(tile, r, c);
            uint8_t* g = gm + v.offset(r, c) * es;
            if constexpr (to_tile) std::memcpy(t, g, es);
            else std::memcpy(g, t, es);
        }
}

template <class TileData, class GlobalData>
RecordEvent tload_tile(CallSite cs, TileData& dst, GlobalData& src) {
    static_assert(is_tile_data_v<TileData> && is_global_data_v<GlobalData>,
                  "TLOAD(dst, src): dst must be a Tile or ConvTile and src a GlobalTensor");
    static_assert(TileData::Loc == TileType::Vec || TileData::Loc == TileType::Mat,
                  "TLOAD: the destination must be a Vec (UB) or Mat (L1) tile");
    static_assert(sizeof(typename TileData::DType) == sizeof(typename GlobalData::RawDType),
                  "TLOAD: tile and global tensor element sizes must be equal");
    // A5's Mat loads convert DN to NZ as well (pto-isa npu/a5/TLoad.hpp,
    // TLoadCubeCheck); A2A3's go DN -> ZN only.
    static_assert(layouts_match<TileData, GlobalData>() ||
                      (TileData::Loc == TileType::Mat && GlobalData::layout == Layout::ND && is_Nz_layout<TileData>) ||
                      (TileData::Loc == TileType::Mat && GlobalData::layout == Layout::DN && is_Zn_layout<TileData>) ||
                      (PTOSIM_TARGET_A5 && TileData::Loc == TileType::Mat && GlobalData::layout == Layout::DN &&
                       is_Nz_layout<TileData>) ||
                      (TileData::Loc == TileType::Mat && TileData::SFractalSize == TileConfig::fractalMxSize &&
                       (GlobalData::layout == Layout::ND || GlobalData::layout == Layout::DN)),
                  "TLOAD: unsupported layout pair; Vec tiles take ND->ND, DN->DN, NZ->NZ; Mat tiles also ND->NZ and "
                  "DN->ZN (A5 also DN->NZ), and MX scale tiles (SFractalSize 32) ND or DN; convolution layouts load "
                  "into a ConvTile");
    if (a5_l1_op_vanishes_on_vector<TileData>()) return {};
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* base = tile_base(c, dst, "TLOAD", "destination", loc);
    int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    GmView<GlobalData> v(src);
    apply_a2a3_burst_pitch<TileData>(v, vr, vc);
    constexpr bool plain_mat = TileData::Loc == TileType::Mat && !TileData::isBoxedLayout;
    if constexpr (PTOSIM_TARGET_A5 && plain_mat) {
        // A5's ND2ND (DN2DN) mover loops over the GlobalTensor's outer
        // dimensions: its rows (columns) follow the GM shape, its row length
        // the tile's valid columns (rows) (pto-isa npu/a5/TLoad.hpp,
        // TLoadCubeND2ND / TLoadCubeDN2DN). A row it reads past the tensor's
        // Shape4 (Shape3) would read outside the tensor; ptosim moves the part
        // the tensor describes and leaves the rest (docs/semantics.md, "TLOAD").
        if constexpr (GlobalData::layout == Layout::ND) {
            vr = static_cast<int>(v.rows());
            vc = static_cast<int>(std::min<int64_t>(vc, v.cols()));
        } else {
            vc = static_cast<int>(v.cols());
            vr = static_cast<int>(std::min<int64_t>(vr, v.rows()));
        }
        if (vr > TileData::Rows || vc > TileData::Cols)
            ptosim::fault(loc, "TLOAD: A5 moves the GlobalTensor's " + std::to_string(vr) + "x" + std::to_string(vc) +
                                   " " + layout_name(GlobalData::layout) + " block into L1, more than the " +
                                   std::to_string(TileData::Rows) + "x" + std::to_string(TileData::Cols) +
                                   " tile holds; shrink the GlobalTensor shape");
    }
    // ND -> Nz (and A2A3's DN -> Zn) movers take their row count from the
    // GlobalTensor, not from the tile: nValue = Shape3, on A2A3 also dValue =
    // Shape4 (pto-isa npu/a2a3/TLoad.hpp TLoadGm2L1Nd2nz / Dn2zn; a5/TLoad.hpp
    // TLoadCubeND2NZ, whose row length is the tile's valid columns: ptosim moves
    // the part of it the tensor describes, as for ND2ND above).
    constexpr bool nd2nz = TileData::Loc == TileType::Mat && GlobalData::layout == Layout::ND && is_Nz_layout<TileData> &&
                           TileData::SFractalSize == TileConfig::fractalABSize;
    constexpr bool dn2zn = !PTOSIM_TARGET_A5 && TileData::Loc == TileType::Mat && GlobalData::layout == Layout::DN &&
                           is_Zn_layout<TileData> && TileData::SFractalSize == TileConfig::fractalABSize;
    if constexpr (nd2nz || dn2zn) {
        vr = static_cast<int>(v.rows());
        vc = PTOSIM_TARGET_A5 ? static_cast<int>(std::min<int64_t>(vc, v.cols())) : static_cast<int>(v.cols());
        if (vr > TileData::Rows || vc > TileData::Cols)
            ptosim::fault(loc, "TLOAD: the " + std::string(nd2nz ? "ND -> Nz" : "DN -> Zn") + " mover moves the GlobalTensor's " +
                                   std::to_string(vr) + "x" + std::to_string(vc) + " block, more than the " +
                                   std::to_string(TileData::Rows) + "x" + std::to_string(TileData::Cols) +
                                   " tile holds; shrink the GlobalTensor shape");
    }
    OpRecord rec = make_record("TLOAD", Pipe::MTE2, cs);
    check_gm_operand(src, v, vr, vc, "TLOAD", rec, false, loc, TileData::Loc == TileType::Vec);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.bytes = elem_bytes<typename TileData::DType>(rec.elements);
    ptosim::dispatch(c, rec);
    copy_tile_gm<TileData, GlobalData, true>(base, gm_bytes(src), v, vr, vc);
    // Where a Mat load's row (DN: column) ends inside a 32-byte block, the
    // movers write the rest of the block: zeros without a PadValue.
    constexpr bool operand_fractal = TileData::Loc == TileType::Mat && TileData::SFractalSize == TileConfig::fractalABSize;
    if constexpr (TileData::PadVal == PadValue::Null) {
        if constexpr (operand_fractal && GlobalData::layout == Layout::ND && is_Nz_layout<TileData>)
            zero_c0_tail<TileData, false>(base, vr, vc);
        else if constexpr (operand_fractal && GlobalData::layout == Layout::DN && is_Zn_layout<TileData>)
            zero_c0_tail<TileData, true>(base, vr, vc);
        else if constexpr (PTOSIM_TARGET_A5 && operand_fractal && GlobalData::layout == Layout::DN && is_Nz_layout<TileData>)
            zero_c0_tail<TileData, false>(base, vr, vc);
        else if constexpr (PTOSIM_TARGET_A5 && plain_mat)
            zero_c0_tail<TileData, GlobalData::layout == Layout::DN>(base, vr, vc);
    }
    fill_padding<TileData>(base, vr, vc);
    return {};
}

// A ConvTile load fills the tile's whole (dense) shape; each element comes
// from the GM element conv_source names, or is a zero of the C / N padding.
template <class Conv, class G>
RecordEvent tload_conv(CallSite cs, Conv& dst, G& src) {
    using T = typename Conv::DType;
    constexpr int dims = Conv::totalDimCount;
    static_assert(is_global_data_v<G>, "TLOAD(convTile, src): src must be a GlobalTensor");
    static_assert(Conv::Loc == TileType::Mat, "TLOAD: a ConvTile destination must be in L1 (TileType::Mat)");
    static_assert(sizeof(T) == sizeof(typename G::RawDType), "TLOAD: tile and global tensor element sizes must be equal");
    static_assert(conv_load_pair<G::layout, Conv::layout, dims>(),
                  "TLOAD into a ConvTile: unsupported layout pair; both targets load NC1HWC0 into a 5-D NC1HWC0 "
                  "ConvTile and FRACTAL_Z into a 5-D [C1,H,W,N,C0] or 4-D [C1HW,N/16,16,C0] FRACTAL_Z one; A5 also "
                  "NHWC or NCHW into NC1HWC0, NCHW into 4-D FRACTAL_Z, NCDHW into 6-D NDC1HWC0 or 4-D FRACTAL_Z_3D");
    if (a5_l1_op_vanishes_on_vector<Conv>()) return {};
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    constexpr int64_t c0 = TileConfig::alignedSize / sizeof(T);
    int64_t t[ConvTileDetail::MAX_CONVTILE_DIM], s[5], st[5], numel = 1;
    for (int d = 0; d < dims; ++d) numel *= t[d] = dst.GetShape(d);
    for (int d = 0; d < 5; ++d) s[d] = src.GetShape(d), st[d] = src.GetStride(d);
    auto shape_str = [](const int64_t* v, int n) {
        std::string r = "[";
        for (int i = 0; i < n; ++i) r += (i ? "," : "") + std::to_string(v[i]);
        return r + "]";
    };
    if (!dst.assigned())
        ptosim::fault(loc, "TLOAD: destination ConvTile has no address; place it with TASSIGN(tile, offset) first");
    if (!src.data()) ptosim::fault(loc, "TLOAD: the GlobalTensor has no data pointer; construct it with one or TASSIGN it");
    if (t[dims - 1] != c0 || (dims == 4 && t[2] != 16))
        ptosim::fault(loc, "TLOAD: the ConvTile shape " + shape_str(t, dims) + " must end in C0 = " + std::to_string(c0) +
                               " (32 bytes of elements)" + (dims == 4 ? ", after a 16-row N fractal" : ""));
    if (const std::string rule = conv_shape_rule<G::layout, Conv::layout, dims>(t, s, c0); !rule.empty())
        ptosim::fault(loc, "TLOAD: GlobalTensor shape " + shape_str(s, 5) + " does not fit ConvTile shape " +
                               shape_str(t, dims) + ": " + rule);
    const uint64_t bytes = static_cast<uint64_t>(numel) * sizeof(T);
    // BufferSize counts elements: pto-isa declares the tile's storage as
    // BufferSize elements of T (tile_size(bufferSize)) and sizes it so for
    // TASSIGN's checks (docs/semantics.md, "ConvTile loads").
    if (numel > static_cast<int64_t>(Conv::bufferSize))
        ptosim::fault(loc, "TLOAD: the ConvTile shape " + shape_str(t, dims) + " holds " + std::to_string(numel) +
                               " elements but its BufferSize declares storage for " +
                               std::to_string(Conv::bufferSize) +
                               " (BufferSize counts elements of the tile's type, not bytes)");
    ptosim::check_local(c, Space::L1, dst.address(), bytes, "TLOAD destination ConvTile", loc);
    // Every GM coordinate runs over [0, shape): the far corner bounds the read.
    int64_t last = 0;
    for (int d = 0; d < 5; ++d) last += (s[d] - 1) * st[d];
    uint8_t* gm = gm_bytes(src);
    const uint64_t gm_span = static_cast<uint64_t>(last + 1) * sizeof(T);
    ptosim::check_gm(gm, gm_span, "TLOAD", loc);
    OpRecord rec = make_record("TLOAD", Pipe::MTE2, cs);
    rec.read(Space::GM, reinterpret_cast<uintptr_t>(gm), gm_span);
    rec.write(Space::L1, dst.address(), bytes);
    rec.dtype = dtype_name<T>();
    rec.elements = static_cast<uint64_t>(numel);
    rec.bytes = bytes;
    ptosim::dispatch(c, rec);
    uint8_t* out = c.mem[static_cast<int>(Space::L1)] + dst.address();
    int64_t at_t[ConvTileDetail::MAX_CONVTILE_DIM] = {}, g[5];
    for (int64_t e = 0; e < numel; ++e) {
        uint8_t* d = out + e * sizeof(T);
        if (conv_source<G::layout, Conv::layout, dims>(at_t, s, c0, g))
            std::memcpy(d, gm + (g[0] * st[0] + g[1] * st[1] + g[2] * st[2] + g[3] * st[3] + g[4] * st[4]) * sizeof(T),
                        sizeof(T));
        else
            std::memset(d, 0, sizeof(T));
        for (int k = dims - 1; k >= 0 && ++at_t[k] == t[k]; --k) at_t[k] = 0;
    }
    return {};
}

}  // namespace ptosim_impl

template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TLOAD(CallSite cs, TileData& dst, GlobalData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    if constexpr (is_conv_tile_v<TileData>) return ptosim_impl::tload_conv(cs, dst, src);
    else if constexpr (ptosim_impl::is_mx_layout(GlobalData::layout)) return ptosim_impl::tload_mx(cs, dst, src);
    else return ptosim_impl::tload_tile(cs, dst, src);
}

template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TLOAD(TileData& dst, GlobalData& src, WaitEvents&... events) {
    return TLOAD(PTOSIM_CALLER, dst, src, events...);
}

namespace ptosim_impl {

template <class TileData, class GlobalData, AtomicType atomic, ReluPreMode relu, STPhase Phase = STPhase::Unspecified>
RecordEvent tstore(CallSite cs, GlobalData& dst, TileData& src) {
    using S = typename TileData::DType;
    using D = typename GlobalData::RawDType;
    static_assert(is_tile_data_v<TileData> && is_global_data_v<GlobalData>,
                  "TSTORE(dst, src): dst must be a GlobalTensor and src a Tile");
    constexpr bool from_acc = TileData::Loc == TileType::Acc;
    static_assert(TileData::Loc == TileType::Vec || from_acc || (TileData::Loc == TileType::Mat && !PTOSIM_TARGET_A5),
                  "TSTORE: the source must be a Vec or Acc tile (A2A3 also stores Mat tiles; A5 does not)");
    static_assert(from_acc || sizeof(S) == sizeof(D), "TSTORE: tile and global element sizes must be equal");
    static_assert(!from_acc || (std::is_same_v<S, float> && (std::is_same_v<D, float> || std::is_same_v<D, half> ||
                                                             std::is_same_v<D, bfloat16_t>)) ||
                      (std::is_same_v<S, int32_t> && std::is_same_v<D, int32_t>),
                  "TSTORE from Acc: float accumulators store as float, half or bfloat16_t; int32 as int32 "
                  "(quantized stores are not simulated yet)");
    static_assert(from_acc ? acc_store_layout<GlobalData>() : layouts_match<TileData, GlobalData>(),
                  "TSTORE: unsupported layout pair; Vec/Mat tiles store to the matching global layout; Acc tiles to ND "
                  "or NZ, on A2A3 also NC1HWC0, on A5 also NHWC, NCHW and NCDHW");
    static_assert(relu == ReluPreMode::NoRelu || from_acc, "TSTORE: ReLU is a fixpipe option of stores from Acc tiles");
    // pto-isa's SetAtomicAdd (npu/a2a3/TStore.hpp) has an int8 mode
    // (set_atomic_s8) but none for uint8_t.
    static_assert(atomic == AtomicType::AtomicNone || !std::is_integral_v<D> || sizeof(D) >= 2 || std::is_same_v<D, int8_t>,
                  "TSTORE: atomic add on 8-bit elements exists for int8_t only");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* base = tile_base(c, src, "TSTORE", "source", loc);
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    GmView<GlobalData> v(dst);
    apply_a2a3_burst_pitch<TileData>(v, vr, vc);
    OpRecord rec = make_record("TSTORE", from_acc ? Pipe::FIX : Pipe::MTE3, cs);
    rec.atomic = atomic != AtomicType::AtomicNone;
    if constexpr (from_acc) rec.unit_flag = static_cast<uint8_t>(Phase);
    record_valid_read(rec, src);
    check_gm_operand(dst, v, vr, vc, "TSTORE", rec, true, loc, TileData::Loc == TileType::Vec);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.bytes = rec.elements * sizeof(D);
    ptosim::dispatch(c, rec);
    uint8_t* g = gm_bytes(dst);
    // An accumulator stored in its own type converts nothing: the same copy.
    if constexpr ((!from_acc || std::is_same_v<S, D>) && atomic == AtomicType::AtomicNone &&
                  relu == ReluPreMode::NoRelu) {
        copy_tile_gm<TileData, GlobalData, false>(const_cast<uint8_t*>(base), g, v, vr, vc);
    } else {
        ptosim::GmAtomicScope atomic_update(c, atomic != AtomicType::AtomicNone);
        for (int r = 0; r < vr; ++r) {
            for (int col = 0; col < vc; ++col) {
                auto x = widen(load_elem<S>(at<TileData>(const_cast<uint8_t*>(base), r, col)));
                uint8_t* d = g + v.offset(r, col) * sizeof(D);
                if constexpr (relu == ReluPreMode::NormalRelu) x = x > 0 ? x : decltype(x)(0);
                if constexpr (atomic == AtomicType::AtomicAdd) x = x + widen(load_elem<D>(d));
                store_elem(d, narrow<D>(x));
            }
        }
    }
    return {};
}

}  // namespace ptosim_impl

template <typename TileData, typename GlobalData, AtomicType atomic = AtomicType::AtomicNone,
          ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(CallSite cs, GlobalData& dst, TileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tstore<TileData, GlobalData, atomic, relu>(cs, dst, src);
}

template <typename TileData, typename GlobalData, AtomicType atomic = AtomicType::AtomicNone,
          ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tstore<TileData, GlobalData, atomic, relu>(PTOSIM_CALLER, dst, src);
}

// TSTORE<STPhase>(...) (pto_instr.hpp's unit-flag form): the phase is the
// fixpipe's side of the unit-flag handshake with the Cube, which orders the
// store after a final-phase matmul without set_flag; the data is as TSTORE's,
// and racecheck takes the order from the record (docs/checkers.md).
template <STPhase Phase, typename TileData, typename GlobalData, AtomicType atomic = AtomicType::AtomicNone,
          ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tstore<TileData, GlobalData, atomic, relu, Phase>(PTOSIM_CALLER, dst, src);
}

}  // namespace pto
