// TLOAD (GM -> Vec/Mat) and TSTORE (Vec/Mat/Acc -> GM).
#pragma once
#include <pto/common/gm_view.hpp>
#include <pto/inst/tload_mx.hpp>

namespace pto {

namespace ptosim_impl {

template <class T, class G>
constexpr bool layouts_match() {
    if constexpr (G::layout == Layout::ND) return !T::isBoxedLayout && T::isRowMajor;
    else if constexpr (G::layout == Layout::DN) return !T::isBoxedLayout && !T::isRowMajor;
    else return is_Nz_layout<T>;
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
                    if constexpr (to_tile) std::memcpy(t, g + c * es, n);
                    else std::memcpy(g + c * es, t, n);
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
RecordEvent tload(CallSite cs, TileData& dst, GlobalData& src) {
    static_assert(is_tile_data_v<TileData> && is_global_data_v<GlobalData>,
                  "TLOAD(dst, src): dst must be a Tile and src a GlobalTensor");
    static_assert(TileData::Loc == TileType::Vec || TileData::Loc == TileType::Mat,
                  "TLOAD: the destination must be a Vec (UB) or Mat (L1) tile");
    static_assert(sizeof(typename TileData::DType) == sizeof(typename GlobalData::RawDType),
                  "TLOAD: tile and global tensor element sizes must be equal");
    static_assert(ptosim_impl::layouts_match<TileData, GlobalData>() ||
                      (TileData::Loc == TileType::Mat && GlobalData::layout == Layout::ND && is_Nz_layout<TileData>) ||
                      (TileData::Loc == TileType::Mat && GlobalData::layout == Layout::DN && is_Zn_layout<TileData>) ||
                      (TileData::Loc == TileType::Mat && TileData::SFractalSize == TileConfig::fractalMxSize &&
                       (GlobalData::layout == Layout::ND || GlobalData::layout == Layout::DN)),
                  "TLOAD: unsupported layout pair; Vec tiles take ND->ND, DN->DN, NZ->NZ; Mat tiles also ND->NZ and "
                  "DN->ZN, and MX scale tiles (SFractalSize 32) ND or DN");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* base = tile_base(c, dst, "TLOAD", "destination", loc);
    GmView<GlobalData> v(src);
    // A5's L1 ND->ND mover reads validCol elements per row even past the
    // tensor's Shape4 (pto-isa TLoadCubeND2ND); ptosim moves the columns the
    // tensor describes and leaves the rest (docs/semantics.md, "TLOAD").
    constexpr bool a5_mat_nd = PTOSIM_TARGET_A5 && TileData::Loc == TileType::Mat && GlobalData::layout == Layout::ND &&
                               !TileData::isBoxedLayout;
    const int vr = dst.GetValidRow();
    const int vc = a5_mat_nd ? static_cast<int>(std::min<int64_t>(dst.GetValidCol(), v.cols())) : dst.GetValidCol();
    apply_a2a3_burst_pitch<TileData>(v, vr, vc);
    OpRecord rec = make_record("TLOAD", Pipe::MTE2, cs);
    check_gm_operand(src, v, vr, vc, "TLOAD", rec, false, loc);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.bytes = elem_bytes<typename TileData::DType>(rec.elements);
    ptosim::dispatch(c, rec);
    copy_tile_gm<TileData, GlobalData, true>(base, gm_bytes(src), v, vr, vc);
    fill_padding<TileData>(base, vr, vc);
    return {};
}

}  // namespace ptosim_impl

template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TLOAD(CallSite cs, TileData& dst, GlobalData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    if constexpr (ptosim_impl::is_mx_layout(GlobalData::layout)) return ptosim_impl::tload_mx(cs, dst, src);
    else return ptosim_impl::tload(cs, dst, src);
}

template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TLOAD(TileData& dst, GlobalData& src, WaitEvents&... events) {
    return TLOAD(CallSite{}, dst, src, events...);
}

namespace ptosim_impl {

template <class TileData, class GlobalData, AtomicType atomic, ReluPreMode relu>
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
    static_assert(from_acc ? (GlobalData::layout == Layout::ND || GlobalData::layout == Layout::NZ)
                           : layouts_match<TileData, GlobalData>(),
                  "TSTORE: unsupported layout pair; Vec/Mat tiles store to the matching global layout; Acc stores to ND or NZ");
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
    record_tile(rec, false, src);
    check_gm_operand(dst, v, vr, vc, "TSTORE", rec, true, loc);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.bytes = rec.elements * sizeof(D);
    ptosim::dispatch(c, rec);
    uint8_t* g = gm_bytes(dst);
    if constexpr (!from_acc && atomic == AtomicType::AtomicNone && relu == ReluPreMode::NoRelu) {
        copy_tile_gm<TileData, GlobalData, false>(const_cast<uint8_t*>(base), g, v, vr, vc);
    } else {
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
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tstore<TileData, GlobalData, atomic, relu>(CallSite{}, dst, src);
}

// TSTORE<STPhase>(...) (pto_instr.hpp's unit-flag form): the phase tells the
// fixpipe which part of a split accumulation it drains, a handshake with the
// cube that ptosim's in-order pipes do not need, so the data is as TSTORE's.
template <STPhase Phase, typename TileData, typename GlobalData, AtomicType atomic = AtomicType::AtomicNone,
          ReluPreMode relu = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tstore<TileData, GlobalData, atomic, relu>(CallSite{}, dst, src);
}

}  // namespace pto
