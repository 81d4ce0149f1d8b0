// Compare/select (TCMP, TCMPS, TSEL, TSELS), padding and layout (TFILLPAD*,
// TRESHAPE, TTRANS), the index TGATHER and generators (TCI, TTRI) over the
// reduce family's operand prologue (docs/isa/layout.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/layout.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/vec_op.hpp>
#include <ptosim/transpose.hpp>

namespace pto {

namespace ptosim_impl {

// ------------------------------------------------------------ element types
// Sets listed on each instruction's ISA page (docs/isa/layout.md).

template <class E>
constexpr bool tcmp_types = PTOSIM_TARGET_A5 ? one_of<E, uint32_t, int32_t, uint16_t, int16_t, uint8_t,
                                                       int8_t, float, half, bfloat16_t>
                                             : one_of<E, int32_t, half, float>;
template <class E>
constexpr bool tcmps_types = PTOSIM_TARGET_A5 ? one_of<E, int32_t, uint32_t, float, int16_t, uint16_t, half, uint8_t,
                                                        int8_t, bfloat16_t>
                                              : one_of<E, int32_t, float, half, uint16_t, int16_t>;
template <class E>
constexpr bool tsel_types = PTOSIM_TARGET_A5
                                ? one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>
                                : one_of<E, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
template <class E>
constexpr bool tsels_types = PTOSIM_TARGET_A5 ? one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, float>
                                              : one_of<E, int16_t, uint16_t, int32_t, uint32_t, half, float>;
template <class E>
constexpr bool ttrans_types = one_of<E, uint32_t, int32_t, float, uint16_t, int16_t, half, bfloat16_t, uint8_t, int8_t>;
template <class E>
constexpr bool tci_types = one_of<E, int32_t, uint32_t, int16_t, uint16_t>;
template <class E>
constexpr bool ttri_types = PTOSIM_TARGET_A5
                                 ? one_of<E, int32_t, int16_t, int8_t, uint32_t, uint16_t, uint8_t, half, float, bfloat16_t>
                                 : one_of<E, int32_t, int16_t, uint32_t, uint16_t, half, float>;

// The A2A3 TCMP mask is bytes; the A5 one is 32-bit words (pages' checks).
template <class M>
constexpr bool tcmp_mask_type = std::is_same_v<M, std::conditional_t<PTOSIM_TARGET_A5, uint32_t, uint8_t>>;

// ------------------------------------------------------------ predicate masks
// Row r of a mask tile starts at its element (r, 0); the predicate of column
// c is bit c % 8 of that row's byte c / 8 (LSB first), the per-row packing
// both targets' TSEL read.

template <class M>
void check_mask_fits(CallSite cs, const char* op, int vr, int vc) {
    constexpr int row_bytes = M::Cols * static_cast<int>(sizeof(typename M::DType));
    if (vr > M::Rows || (vc + 7) / 8 > row_bytes)
        vop::shape_fault(cs, op, "a " + std::to_string(vr) + "x" + std::to_string(vc) + " predicate region needs " +
                                     std::to_string(vr) + " mask rows of " + std::to_string((vc + 7) / 8) +
                                     " bytes; the mask tile has " + std::to_string(M::Rows) + " rows of " +
                                     std::to_string(row_bytes) + " bytes; widen the mask tile");
}

template <class M>
inline bool mask_bit(const uint8_t* m, int r, int c) {
    return (at<M>(const_cast<uint8_t*>(m), r, 0)[c / 8] >> (c % 8)) & 1u;
}

// Writes whole bytes: bits past the last valid column of a row are zero.
template <class M, class P>
PTOSIM_VECTORIZE void write_mask(uint8_t* m, int vr, int vc, P pred) {
    for (int r = 0; r < vr; ++r) {
        uint8_t* row = at<M>(m, r, 0);
        for (int b = 0; b < (vc + 7) / 8; ++b) {
            uint8_t byte = 0;
            for (int k = 0; k < 8 && b * 8 + k < vc; ++k) byte |= static_cast<uint8_t>(pred(r, b * 8 + k)) << k;
            row[b] = byte;
        }
    }
}

template <class A>
inline bool compare(A a, A b, CmpMode m) {
    switch (m) {
        case CmpMode::EQ: return a == b;
        case CmpMode::NE: return a != b;
        case CmpMode::LT: return a < b;
        case CmpMode::LE: return a <= b;
        case CmpMode::GT: return a > b;
        case CmpMode::GE: return a >= b;
    }
    return a == b;
}

// A2A3 issues vcmpv_eq for int32 sources whatever the mode (TCMP/TCMPS pages).
template <class E>
constexpr CmpMode effective_mode(CmpMode m) {
    return !PTOSIM_TARGET_A5 && std::is_same_v<E, int32_t> ? CmpMode::EQ : m;
}

template <class Dst, class Src>
constexpr void check_cmp_tiles() {
    check_vec_operand<Src>();
    static_assert(Dst::Loc == TileType::Vec && Dst::isRowMajor && !Dst::isBoxedLayout,
                  "TCMP/TCMPS: the mask destination must be a row-major ND Vec tile");
}

// The A5 compares (a5/TCmp.hpp, a5/TCmps.hpp) walk vr * vc elements of the
// sources' storage as one flat run and store the predicates as one bit stream
// from the mask's first byte: predicate k is bit k % 8 of byte k / 8.
template <class M>
void check_linear_mask_fits(CallSite cs, const char* op, int vr, int vc) {
    const long bytes = (static_cast<long>(vr) * vc + 7) / 8;
    constexpr long have = static_cast<long>(M::Rows) * M::Cols * static_cast<long>(sizeof(typename M::DType));
    if (bytes > have)
        vop::shape_fault(cs, op, "a " + std::to_string(vr) + "x" + std::to_string(vc) + " predicate region packs into " +
                                     std::to_string(bytes) + " mask bytes; the mask tile holds " + std::to_string(have) +
                                     "; enlarge the mask tile");
}

template <class M, class P>
PTOSIM_VECTORIZE void write_mask_linear(uint8_t* m, long n, P pred) {
    for (long b = 0; b < (n + 7) / 8; ++b) {
        uint8_t byte = 0;
        for (long k = 0; k < 8 && b * 8 + k < n; ++k) byte |= static_cast<uint8_t>(pred(b * 8 + k)) << k;
        m[b] = byte;
    }
}

// dst's mask = compare(src0(r, c), rhs(views, r, c)) over src0's valid region.
template <class Dst, class S0, class Rhs, class... S1>
void tcmp(CallSite cs, const char* op, Dst& dst, CmpMode mode, Rhs rhs, S0& src0, S1&... src1) {
    check_cmp_tiles<Dst, S0>();
    const int vr = src0.GetValidRow(), vc = src0.GetValidCol();
    // The mask checks below judge dst's storage: A5 packs the bits linearly.
    vop::region_contract(cs, op, dst, "dst", vr, dst.GetValidCol(), "src0's valid rows", "write",
                         "set dst's valid rows to src0's (" + std::to_string(vr) + ")", true);
    if constexpr (PTOSIM_TARGET_A5) check_linear_mask_fits<Dst>(cs, op, vr, vc);
    else check_mask_fits<Dst>(cs, op, vr, vc);
    auto [d, v] = vop::begin_op(cs, op, static_cast<uint64_t>(vr) * vc, static_cast<vop::NoTmp*>(nullptr), dst, src0,
                                src1...);
    const auto s = std::get<0>(v);
    const CmpMode m = effective_mode<typename S0::DType>(mode);
    if constexpr (PTOSIM_TARGET_A5) {
        // Element k of the run sits at storage (k / Cols, k % Cols): padding
        // columns of a narrower valid region are compared, as on hardware.
        write_mask_linear<Dst>(d, static_cast<long>(vr) * vc, [&](long k) {
            const int r = static_cast<int>(k / S0::Cols), c = static_cast<int>(k % S0::Cols);
            return compare(s(r, c), rhs(v, r, c), m);
        });
    } else {
        write_mask<Dst>(d, vr, vc, [&](int r, int c) { return compare(s(r, c), rhs(v, r, c), m); });
    }
}

// Both targets select over dst's valid shape and read each source there at
// its own row pitch, whatever its valid shape (a2a3/TSel.hpp, TSels.hpp;
// a5/TSel.hpp, TSels.hpp). TSEL states no rule on the sources' valid shapes
// (and its sources share dst's tile type, so that region is in their
// storage); TSELS asserts src's equals dst's, in debug builds only, which
// `src_rule` reports (docs/debug-contracts.md).
template <class Dst, class Mask, class Src>
void check_sel_tiles(CallSite cs, const char* op, Dst& dst, Src& src, bool src_rule) {
    check_vec_operand<Dst>();
    check_vec_operand<Src>();
    static_assert(Mask::Loc == TileType::Vec && Mask::isRowMajor && !Mask::isBoxedLayout,
                  "TSEL/TSELS: the mask must be a row-major ND Vec tile");
    static_assert(std::is_integral_v<typename Mask::DType>, "TSEL/TSELS: the mask tile holds packed bits (an integer type)");
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (src_rule)
        vop::region_contract(cs, op, src, "src", vr, vc, "dst's valid shape", "read",
                             "give src dst's valid shape " + vop::shape_str(vr, vc));
    check_mask_fits<Mask>(cs, op, vr, vc);
}

// ------------------------------------------------------------ padding

enum class FillPad { Normal, InPlace, Expand };

// The Mat-tile form (pto-isa npu/a2a3/TFillPad.hpp, npu/a5/TFillPad.hpp):
// zeroes what lies outside dst's valid region in its Nz L1 storage, on MTE2
// as the L1 fill it is built from: the rows below the valid ones in each
// 32-byte column block up to the valid width rounded up to a block, and every
// column block beyond. The valid rows keep their bytes up to that boundary;
// src is not read (pto-isa's kernels pass dst twice).
template <class Dst, class Src>
void tfillpad_mat(CallSite cs, const char* op, Dst& dst, Src&) {
    using E = typename Dst::DType;
    static_assert(std::is_same_v<Dst, Src>, "TFILLPAD on a Mat tile: dst and src have the same tile type");
    static_assert(!Dst::isRowMajor && Dst::SFractal == SLayout::RowMajor,
                  "TFILLPAD on a Mat tile: the tile must be Nz (BLayout::ColMajor, SLayout::RowMajor)");
    static_assert(Dst::PadVal == PadValue::Zero || Dst::PadVal == PadValue::Null,
                  "TFILLPAD on a Mat tile pads with zeros: the tile's PadValue must be Zero or Null");
    static_assert(sizeof(E) == 1 || sizeof(E) == 2 || sizeof(E) == 4, "TFILLPAD on a Mat tile: 1-, 2- or 4-byte elements");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    OpRecord rec = make_record(op, Pipe::MTE2, cs);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(Dst::Rows) * Dst::Cols;
    rec.bytes = rec.elements * sizeof(E);
    ptosim::dispatch(c, rec);
    constexpr int c0 = c0_elems<E>;
    const int vr = dst.GetValidRow(), aligned = (dst.GetValidCol() + c0 - 1) / c0 * c0;
    for (int r = 0; r < Dst::Rows; ++r)
        for (int col = 0; col < Dst::Cols; ++col)
            if (col >= aligned || r >= vr) {
                if constexpr (is_fp4<E>) fp4_set(d, tile_element_offset<Dst>(r, col), 0);
                else std::memset(at<Dst>(d, r, col), 0, sizeof(E));
            }
}

// dst = src inside src's valid region, dst's PadVal over the rest of dst's
// Rows x Cols storage; elements are copied as bits.
template <FillPad mode, class Dst, class Src>
void tfillpad_vec(CallSite cs, const char* op, Dst& dst, Src& src) {
    using E = typename Dst::DType;
    static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec,
                  "TFILLPAD: dst and src must be Vec tiles (or, for TFILLPAD, one Nz Mat tile type)");
    static_assert(Dst::PadVal != PadValue::Null, "TFILLPAD: the destination tile type needs a PadValue (Zero, Min or Max)");
    static_assert(sizeof(E) == sizeof(typename Src::DType) && (sizeof(E) == 1 || sizeof(E) == 2 || sizeof(E) == 4),
                  "TFILLPAD: dst and src elements must have the same size of 1, 2 or 4 bytes");
    static_assert(Dst::isRowMajor == Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                  "TFILLPAD: dst and src must both be ND (or both DN) tiles");
    static_assert(mode == FillPad::Expand ? Dst::Rows >= Src::Rows && Dst::Cols >= Src::Cols
                                          : Dst::Rows == Src::Rows && Dst::Cols == Src::Cols,
                  "TFILLPAD: dst and src static shapes must match (TFILLPAD_EXPAND: dst may be larger)");
    if constexpr (mode == FillPad::InPlace)
        if (dst.address() != src.address())
            vop::shape_fault(cs, op, "dst and src must be the same storage; TASSIGN them to one address or use TFILLPAD");
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    auto [d, v] = vop::begin_op(cs, op, static_cast<uint64_t>(Dst::Rows) * Dst::Cols,
                                static_cast<vop::NoTmp*>(nullptr), dst, src);
    const uint8_t* s = std::get<0>(v).base;
    const E pad = pad_value<E, Dst::PadVal>();
    for (int r = 0; r < Dst::Rows; ++r)
        for (int c = 0; c < Dst::Cols; ++c) {
            uint8_t* o = at<Dst>(d, r, c);
            if (r < vr && c < vc) std::memmove(o, at<Src>(const_cast<uint8_t*>(s), r, c), sizeof(E));
            else store_elem(o, pad);
        }
}

template <FillPad mode, class Dst, class Src>
void tfillpad(CallSite cs, const char* op, Dst& dst, Src& src) {
    if (a5_l1_op_vanishes_on_vector<Dst>()) return;
    if constexpr (Dst::Loc == TileType::Mat && mode == FillPad::Normal) tfillpad_mat(cs, op, dst, src);
    else tfillpad_vec<mode>(cs, op, dst, src);
}

}  // namespace ptosim_impl

// ------------------------------------------------------------ compare / select

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TCMP(CallSite cs, TileDataDst& dst, TileDataSrc& src0, TileDataSrc& src1, CmpMode cmpMode,
                          WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(ptosim_impl::tcmp_types<typename TileDataSrc::DType>,
                  "TCMP: unsupported source element type on this target (see docs/isa/layout.md)");
    static_assert(ptosim_impl::tcmp_mask_type<typename TileDataDst::DType>,
                  "TCMP: the mask destination holds uint8_t on A2A3 and uint32_t on A5");
    ptosim_impl::vop::region_contract(cs, "TCMP", src1, "src1", src0.GetValidRow(), src0.GetValidCol(),
                                      "src0's valid shape", "read", "give src1 src0's valid shape");
    ptosim_impl::tcmp(cs, "TCMP", dst, cmpMode, [](const auto& v, int r, int c) { return std::get<1>(v)(r, c); }, src0, src1);
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TCMP(TileDataDst& dst, TileDataSrc& src0, TileDataSrc& src1, CmpMode cmpMode, WaitEvents&... e) {
    return TCMP(PTOSIM_CALLER, dst, src0, src1, cmpMode, e...);
}

// TCMPS takes any unsigned integer mask tile: the pages fix no mask type.
#define PTOSIM_TCMPS_CHECKS(E, M)                                                                                      \
    static_assert(ptosim_impl::tcmps_types<E>, "TCMPS: unsupported source element type on this target (see docs/isa/layout.md)"); \
    static_assert(ptosim_impl::one_of<M, uint8_t, uint16_t, uint32_t>, "TCMPS: the mask destination must be uint8_t, uint16_t or uint32_t")

template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TCMPS(CallSite cs, TileDataDst& dst, TileDataSrc& src0, typename TileDataSrc::DType src1,
                           CmpMode mode, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    PTOSIM_TCMPS_CHECKS(typename TileDataSrc::DType, typename TileDataDst::DType);
    const auto s = ptosim_impl::widen(src1);
    ptosim_impl::tcmp(cs, "TCMPS", dst, mode, [s](const auto&, int, int) { return s; }, src0);
    return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<TileDataSrc1>, int> = 0>
PTO_INST RecordEvent TCMPS(CallSite cs, TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, CmpMode mode,
                           WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    PTOSIM_TCMPS_CHECKS(typename TileDataSrc0::DType, typename TileDataDst::DType);
    static_assert(std::is_same_v<typename TileDataSrc0::DType, typename TileDataSrc1::DType>,
                  "TCMPS: src0 and src1 must have the same element type");
    ptosim_impl::tcmp(cs, "TCMPS", dst, mode, [](const auto& v, int, int) { return std::get<1>(v)(0, 0); }, src0, src1);
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TCMPS(TileDataDst& dst, TileDataSrc& src0, typename TileDataSrc::DType src1, CmpMode mode,
                           WaitEvents&... e) {
    return TCMPS(PTOSIM_CALLER, dst, src0, src1, mode, e...);
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<TileDataSrc1>, int> = 0>
PTO_INST_CALLER RecordEvent TCMPS(TileDataDst& dst, TileDataSrc0& src0, TileDataSrc1& src1, CmpMode mode, WaitEvents&... e) {
    return TCMPS(PTOSIM_CALLER, dst, src0, src1, mode, e...);
}
#undef PTOSIM_TCMPS_CHECKS

namespace ptosim_impl {
// dst = mask ? src0 : src1 over dst's valid region.
template <typename TileData, typename MaskTile, typename TmpTile>
void tsel(CallSite cs, TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1, TmpTile* tmp) {
    using E = typename TileData::DType;
    static_assert(tsel_types<E>, "TSEL: unsupported element type (see docs/isa/layout.md)");
    check_sel_tiles<TileData, MaskTile>(cs, "TSEL", dst, src0, false);
    check_sel_tiles<TileData, MaskTile>(cs, "TSEL", dst, src1, false);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    auto [d, v] = vop::begin_op(cs, "TSEL", static_cast<uint64_t>(vr) * vc, tmp, dst, selMask, src0, src1);
    const uint8_t* m = std::get<0>(v).base;
    vop::fill_region<TileData>(d, vr, vc, [&](int r, int c) {
        return mask_bit<MaskTile>(m, r, c) ? std::get<1>(v)(r, c) : std::get<2>(v)(r, c);
    });
}
}  // namespace ptosim_impl

// TSEL comes with and without the scratch tile of pto-isa's A2A3 code; the
// result does not depend on it.
template <typename TileData, typename MaskTile, typename TmpTile, typename... WaitEvents>
    requires is_tile_data_v<TmpTile>
PTO_INST RecordEvent TSEL(CallSite cs, TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1, TmpTile& tmp,
                          WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::tsel(cs, dst, selMask, src0, src1, &tmp);
    return {};
}
template <typename TileData, typename MaskTile, typename TmpTile, typename... WaitEvents>
    requires is_tile_data_v<TmpTile>
PTO_INST_CALLER RecordEvent TSEL(TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1, TmpTile& tmp,
                          WaitEvents&... e) {
    return TSEL(PTOSIM_CALLER, dst, selMask, src0, src1, tmp, e...);
}
template <typename TileData, typename MaskTile, typename... WaitEvents>
PTO_INST RecordEvent TSEL(CallSite cs, TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1,
                          WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::tsel(cs, dst, selMask, src0, src1, static_cast<ptosim_impl::vop::NoTmp*>(nullptr));
    return {};
}
template <typename TileData, typename MaskTile, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSEL(TileData& dst, MaskTile& selMask, TileData& src0, TileData& src1, WaitEvents&... e) {
    return TSEL(PTOSIM_CALLER, dst, selMask, src0, src1, e...);
}

// dst = mask ? src : scalar over dst's valid region.
template <typename TileDataDst, typename TileDataMask, typename TileDataSrc, typename... WaitEvents>
PTO_INST RecordEvent TSELS(CallSite cs, TileDataDst& dst, TileDataMask& mask, TileDataSrc& src,
                           typename TileDataSrc::DType scalar, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileDataDst::DType;
    static_assert(ptosim_impl::tsels_types<E>, "TSELS: unsupported element type on this target (see docs/isa/layout.md)");
    static_assert(std::is_same_v<E, typename TileDataSrc::DType>, "TSELS: dst and src must have the same element type");
    ptosim_impl::check_sel_tiles<TileDataDst, TileDataMask>(cs, "TSELS", dst, src, true);
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    auto [d, v] = ptosim_impl::vop::begin_op(cs, "TSELS", static_cast<uint64_t>(vr) * vc, static_cast<ptosim_impl::vop::NoTmp*>(nullptr),
                                     dst, mask, src);
    const uint8_t* m = std::get<0>(v).base;
    const auto s = ptosim_impl::widen(scalar);
    ptosim_impl::vop::fill_region<TileDataDst>(d, vr, vc,
                                       [&](int r, int c) { return ptosim_impl::mask_bit<TileDataMask>(m, r, c) ? std::get<1>(v)(r, c) : s; });
    return {};
}
template <typename TileDataDst, typename TileDataMask, typename TileDataSrc, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSELS(TileDataDst& dst, TileDataMask& mask, TileDataSrc& src, typename TileDataSrc::DType scalar,
                           WaitEvents&... e) {
    return TSELS(PTOSIM_CALLER, dst, mask, src, scalar, e...);
}

// ------------------------------------------------------------ padding

#define PTOSIM_FILLPAD_OP(NAME, MODE)                                                                              \
    template <typename DstTileData, typename SrcTileData, typename... WaitEvents>                                 \
    PTO_INST RecordEvent NAME(CallSite cs, DstTileData& dst, SrcTileData& src, WaitEvents&... events) {            \
        ptosim_impl::wait_events(cs, events...);                                                                           \
        ptosim_impl::tfillpad<ptosim_impl::FillPad::MODE>(cs, #NAME, dst, src);                                                    \
        return {};                                                                                                 \
    }                                                                                                              \
    template <typename DstTileData, typename SrcTileData, typename... WaitEvents>                                 \
    PTO_INST_CALLER RecordEvent NAME(DstTileData& dst, SrcTileData& src, WaitEvents&... e) {                       \
        return NAME(PTOSIM_CALLER, dst, src, e...);                                                                \
    }

PTOSIM_FILLPAD_OP(TFILLPAD, Normal)
PTOSIM_FILLPAD_OP(TFILLPAD_INPLACE, InPlace)
PTOSIM_FILLPAD_OP(TFILLPAD_EXPAND, Expand)
#undef PTOSIM_FILLPAD_OP

// ------------------------------------------------------------ layout

// dst becomes a view of src's bytes, as on A2A3 (an alias, like TASSIGN):
// nothing is copied and no instruction is issued, so nothing is recorded.
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST RecordEvent TRESHAPE(CallSite cs, TileDataOut& dst, TileDataIn& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(TileDataOut::Loc == TileDataIn::Loc, "TRESHAPE: dst and src must be the same TileType");
    static_assert(ptosim_impl::tile_bytes<TileDataOut>() == ptosim_impl::tile_bytes<TileDataIn>(),
                  "TRESHAPE: dst and src must span the same number of bytes (Rows * Cols * sizeof(element))");
    static_assert(TileDataOut::isBoxedLayout == TileDataIn::isBoxedLayout,
                  "TRESHAPE: cannot reshape between boxed (fractal) and NoneBox layouts");
    if (!src.assigned())
        ptosim_impl::vop::shape_fault(cs, "TRESHAPE", "the source tile has no address; TASSIGN it before reshaping");
    dst.assign_address(src.address());
    return {};
}
template <typename TileDataOut, typename TileDataIn, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TRESHAPE(TileDataOut& dst, TileDataIn& src, WaitEvents&... e) {
    return TRESHAPE(PTOSIM_CALLER, dst, src, e...);
}

// dst(i, j) = src(j, i) for i < src.GetValidCol(), j < src.GetValidRow().
template <typename TileDataDst, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
PTO_INST RecordEvent TTRANS(CallSite cs, TileDataDst& dst, TileDataSrc& src, TileDataTmp& tmp, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileDataSrc::DType;
    static_assert(ptosim_impl::ttrans_types<E>, "TTRANS: unsupported element type (see docs/isa/layout.md)");
    static_assert(sizeof(E) == sizeof(typename TileDataDst::DType), "TTRANS: dst and src elements must have the same size");
    static_assert(is_tile_data_v<TileDataTmp>, "TTRANS: the third operand is the scratch tile (tmp)");
    ptosim_impl::check_vec_operand<TileDataSrc>();
    ptosim_impl::check_vec_operand<TileDataDst>();
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    if (vc > TileDataDst::Rows || vr > TileDataDst::Cols)
        ptosim_impl::vop::shape_fault(cs, "TTRANS", "the transpose of a " + std::to_string(vr) + "x" + std::to_string(vc) +
                                                " source does not fit the " + std::to_string(TileDataDst::Rows) + "x" +
                                                std::to_string(TileDataDst::Cols) + " destination");
    auto [d, v] = ptosim_impl::vop::begin_op(cs, "TTRANS", static_cast<uint64_t>(vr) * vc, &tmp, dst, src);
    const uint8_t* s = std::get<0>(v).base;
    // Plain row-major tiles apart from each other: the same bytes, moved in blocks.
    if constexpr (TileDataDst::isRowMajor && !TileDataDst::isBoxedLayout && TileDataSrc::isRowMajor &&
                  !TileDataSrc::isBoxedLayout) {
        const size_t d_bytes = static_cast<size_t>(vc) * TileDataDst::Cols * sizeof(E);
        const size_t s_bytes = static_cast<size_t>(vr) * TileDataSrc::Cols * sizeof(E);
        if (d + d_bytes <= s || s + s_bytes <= d) {
            ptosim::transpose(d, s, vr, vc, TileDataDst::Cols, TileDataSrc::Cols, sizeof(E));
            return {};
        }
    }
    for (int i = 0; i < vc; ++i)
        for (int j = 0; j < vr; ++j)
            std::memcpy(ptosim_impl::at<TileDataDst>(d, i, j), ptosim_impl::at<TileDataSrc>(const_cast<uint8_t*>(s), j, i), sizeof(E));
    return {};
}
template <typename TileDataDst, typename TileDataSrc, typename TileDataTmp, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TTRANS(TileDataDst& dst, TileDataSrc& src, TileDataTmp& tmp, WaitEvents&... e) {
    return TTRANS(PTOSIM_CALLER, dst, src, tmp, e...);
}

// ------------------------------------------------------------ gathers

namespace ptosim_impl {
template <class E>
constexpr bool tgather_types = PTOSIM_TARGET_A5 ? one_of<E, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half,
                                                          bfloat16_t, float>
                                                : one_of<E, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
template <class I>
constexpr bool tgather_index_types = PTOSIM_TARGET_A5 ? one_of<I, int16_t, uint16_t, int32_t, uint32_t> : one_of<I, int32_t, uint32_t>;
}  // namespace ptosim_impl

// dst(i, j) = src0 element number idx(i, j), counted row-major over src0's
// whole Rows x Cols storage, for dst's valid region. Indices outside the
// storage fault (*ours*: the page leaves them target-defined).
namespace ptosim_impl {
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename TileDataTmp>
void tgather_index(CallSite cs, TileDataD& dst, TileDataS0& src0, TileDataS1& src1, TileDataTmp* tmp) {
    using E = typename TileDataD::DType;
    using I = typename TileDataS1::DType;
    static_assert(ptosim_impl::tgather_types<E>, "TGATHER: unsupported element type on this target (see docs/isa/layout.md)");
    static_assert(std::is_same_v<E, typename TileDataS0::DType>, "TGATHER: dst and src0 must have the same element type");
    static_assert(ptosim_impl::tgather_index_types<I>,
                  "TGATHER: indices (src1) must be int32_t/uint32_t (A5 also int16_t/uint16_t)");
    ptosim_impl::check_vec_operand<TileDataD>();
    ptosim_impl::check_vec_operand<TileDataS0>();
    ptosim_impl::check_vec_operand<TileDataS1>();
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    if (vc != TileDataD::Cols)
        ptosim_impl::vop::debug_contract(
            ptosim_impl::loc_of(cs), "TGATHER", ptosim::Pipe::V,
            "dst.GetValidCol() (" + std::to_string(vc) + ") differs from dst's Cols (" + std::to_string(TileDataD::Cols) +
                ")",
            "the release build gathers the " + std::to_string(vc) + " valid columns of each valid row at dst's row "
                "pitch and leaves the other columns as they were",
            "declare dst with Cols equal to its valid columns (a tile of " + std::to_string(vc) +
                " columns, or a TSUBVIEW), or give it a valid shape of whole rows");
    if (src1.GetValidRow() < vr || src1.GetValidCol() < vc)
        ptosim_impl::vop::shape_fault(cs, "TGATHER", "the index tile's valid shape " + std::to_string(src1.GetValidRow()) + "x" +
                                                 std::to_string(src1.GetValidCol()) + " does not cover dst's " +
                                                 std::to_string(vr) + "x" + std::to_string(vc));
    auto [d, v] = ptosim_impl::vop::begin_op(cs, "TGATHER", static_cast<uint64_t>(vr) * vc, tmp, dst, src0, src1);
    const uint8_t* s = std::get<0>(v).base;
    const uint8_t* ix = std::get<1>(v).base;
    constexpr int64_t n = static_cast<int64_t>(TileDataS0::Rows) * TileDataS0::Cols;
    for (int r = 0; r < vr; ++r)
        for (int c = 0; c < vc; ++c) {
            const int64_t k = static_cast<int64_t>(ptosim_impl::load_elem<I>(ptosim_impl::at<TileDataS1>(const_cast<uint8_t*>(ix), r, c)));
            if (k < 0 || k >= n)
                ptosim_impl::vop::shape_fault(cs, "TGATHER", "index " + std::to_string(k) + " at (" + std::to_string(r) + ", " +
                                                         std::to_string(c) + ") is outside src0's " + std::to_string(n) +
                                                         " elements");
            std::memcpy(ptosim_impl::at<TileDataD>(d, r, c),
                        ptosim_impl::at<TileDataS0>(const_cast<uint8_t*>(s), k / TileDataS0::Cols, k % TileDataS0::Cols), sizeof(E));
        }
}
}  // namespace ptosim_impl

// With and without the scratch tile of pto-isa's A2A3 code (the result does
// not depend on it).
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST RecordEvent TGATHER(CallSite cs, TileDataD& dst, TileDataS0& src0, TileDataS1& src1, TileDataTmp& tmp,
                             WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::tgather_index(cs, dst, src0, src1, &tmp);
    return {};
}
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename TileDataTmp, typename... WaitEvents>
    requires is_tile_data_v<TileDataTmp>
PTO_INST_CALLER RecordEvent TGATHER(TileDataD& dst, TileDataS0& src0, TileDataS1& src1, TileDataTmp& tmp, WaitEvents&... e) {
    return TGATHER(PTOSIM_CALLER, dst, src0, src1, tmp, e...);
}
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename... WaitEvents>
    requires is_tile_data_v<TileDataS1>
PTO_INST RecordEvent TGATHER(CallSite cs, TileDataD& dst, TileDataS0& src0, TileDataS1& src1, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::tgather_index(cs, dst, src0, src1, static_cast<ptosim_impl::vop::NoTmp*>(nullptr));
    return {};
}
template <typename TileDataD, typename TileDataS0, typename TileDataS1, typename... WaitEvents>
    requires is_tile_data_v<TileDataS1>
PTO_INST_CALLER RecordEvent TGATHER(TileDataD& dst, TileDataS0& src0, TileDataS1& src1, WaitEvents&... e) {
    return TGATHER(PTOSIM_CALLER, dst, src0, src1, e...);
}

// ------------------------------------------------------------ generators

// dst(0, k) = S + k (S - k when descending), wrapping, for k < dst.GetValidCol().
template <typename TileData, typename T, int descending, typename... WaitEvents>
PTO_INST RecordEvent TCI(CallSite cs, TileData& dst, T S, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using E = typename TileData::DType;
    static_assert(std::is_same_v<E, T>, "TCI: the scalar type T must be the tile's element type");
    static_assert(ptosim_impl::tci_types<E>, "TCI: the element type must be int32_t, uint32_t, int16_t or uint16_t");
    static_assert(TileData::Cols != 1, "TCI: the sequence runs along a row; the tile needs Cols > 1");
    ptosim_impl::check_vec_operand<TileData>();
    const int vc = dst.GetValidCol();
    auto [d, v] = ptosim_impl::vop::begin_op(cs, "TCI", static_cast<uint64_t>(vc), static_cast<ptosim_impl::vop::NoTmp*>(nullptr), dst);
    (void)v;
    ptosim_impl::vop::fill_region<TileData>(d, 1, vc, [S](int, int k) {
        return descending ? ptosim_impl::wrap_sub(S, static_cast<T>(k)) : ptosim_impl::wrap_add(S, static_cast<T>(k));
    });
    return {};
}
template <typename TileData, typename T, int descending, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TCI(TileData& dst, T S, WaitEvents&... e) {
    return TCI<TileData, T, descending>(PTOSIM_CALLER, dst, S, e...);
}

// Lower (0): dst(i, j) = j <= i + diagonal; upper (1): dst(i, j) = j >= i + diagonal;
// as 1 or 0 over dst's valid region.
template <typename TileData, int isUpperOrLower, typename... WaitEvents>
PTO_INST RecordEvent TTRI(CallSite cs, TileData& dst, int diagonal, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    static_assert(ptosim_impl::ttri_types<typename TileData::DType>, "TTRI: unsupported element type (see docs/isa/layout.md)");
    static_assert(isUpperOrLower == 0 || isUpperOrLower == 1, "TTRI: isUpperOrLower must be 0 (lower) or 1 (upper)");
    ptosim_impl::check_vec_operand<TileData>();
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    auto [d, v] = ptosim_impl::vop::begin_op(cs, "TTRI", static_cast<uint64_t>(vr) * vc, static_cast<ptosim_impl::vop::NoTmp*>(nullptr), dst);
    (void)v;
    using C = ptosim_impl::compute_t<typename TileData::DType>;
    ptosim_impl::vop::fill_region<TileData>(d, vr, vc, [diagonal](int i, int j) {
        const long long edge = static_cast<long long>(i) + diagonal;
        return C(isUpperOrLower == 0 ? j <= edge : j >= edge);
    });
    return {};
}
template <typename TileData, int isUpperOrLower, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TTRI(TileData& dst, int diagonal, WaitEvents&... e) {
    return TTRI<TileData, isUpperOrLower>(PTOSIM_CALLER, dst, diagonal, e...);
}

}  // namespace pto
