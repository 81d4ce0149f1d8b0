// TQUANT and TDEQUANT: per-row affine int8 quantisation on the vector unit
// (docs/isa/matrix.md, "TQUANT, TDEQUANT").
#pragma once
#include <pto/inst/elementwise.hpp>

namespace pto {

// As pto-isa's npu/*/TQuant.hpp declare it per target: A5 with MXFP8 first,
// A2A3 the two int8 modes only. The values matter beyond the names: host
// programs that redeclare the enum (pto-isa's tquant test) link against
// kernel templates instantiated on these values.
#if PTOSIM_TARGET_A5
enum class QuantType { MXFP8, INT8_SYM, INT8_ASYM };
#else
enum class QuantType { INT8_SYM, INT8_ASYM };
#endif

namespace ptosim_impl {

// dst(r, c) = f(src(r, c), p0(r, 0), p1(r, 0)) over src's valid region; the
// parameters are read at column 0 of their row, as the backends' BRC_B32
// broadcast loads do. p1 may be null (then f sees 0).
template <class Dst, class Src, class Para, class F>
void per_row_affine(CallSite cs, const char* op, Dst& dst, Src& src, Para& p0, Para* p1, bool clobber_src, F f) {
    check_vec_operand<Dst>();
    check_vec_operand<Src>();
    static_assert(Para::Loc == TileType::Vec, "TQUANT/TDEQUANT: scale and offset are Vec (UB) tiles");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    uint8_t* s = tile_base(c, src, op, "source", loc);
    const uint8_t* b0 = tile_base(c, p0, op, "scale", loc);
    const uint8_t* b1 = p1 ? tile_base(c, *p1, op, "offset", loc) : nullptr;
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    if (vr > Dst::Rows || vc > Dst::Cols)
        ptosim::fault(loc, std::string(op) + ": the source's valid region " + std::to_string(vr) + "x" +
                               std::to_string(vc) + " does not fit the " + std::to_string(Dst::Rows) + "x" +
                               std::to_string(Dst::Cols) + " destination");
    for (const Para* p : {&p0, p1})
        if (p && p->GetValidRow() < vr)
            ptosim::fault(loc, std::string(op) + ": " + (p == &p0 ? "scale" : "offset") + " has " +
                                   std::to_string(p->GetValidRow()) + " valid rows; one per source row (" +
                                   std::to_string(vr) + ") is needed");
    OpRecord rec = make_record(op, Pipe::V, cs);
    record_tile(rec, false, src);
    record_tile(rec, false, p0);
    if (p1) record_tile(rec, false, *p1);
    record_tile(rec, true, dst);
    if (clobber_src) record_tile(rec, true, src);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.flops = rec.elements * (p1 ? 2 : 1);
    rec.bytes = rec.elements * (sizeof(typename Src::DType) + sizeof(typename Dst::DType));
    ptosim::dispatch(c, rec);
    using P = typename Para::DType;
    for (int r = 0; r < vr; ++r) {
        const P a = load_elem<P>(at<Para>(const_cast<uint8_t*>(b0), r, 0));
        const P b = b1 ? load_elem<P>(at<Para>(const_cast<uint8_t*>(b1), r, 0)) : P(0);
        for (int col = 0; col < vc; ++col) {
            uint8_t* sp = at<Src>(s, r, col);
            store_elem(at<Dst>(d, r, col), f(load_elem<typename Src::DType>(sp), a, b));
            // A2A3 computes in place in the source buffer (TROWEXPANDMUL into
            // src, then s32/f16 views of it); what it leaves there is garbage
            // to the kernel, so ptosim leaves NaN to make a later read visible.
            if constexpr (std::is_same_v<typename Src::DType, float>)
                if (clobber_src) store_elem(sp, std::numeric_limits<float>::quiet_NaN());
        }
    }
}

// fp32 -> integer as the backends chain it (s32 with RINT, then fp16, then
// the 8-bit type, all saturating): round half to even, clamp, NaN -> 0.
template <class D>
inline D quantize_rint(float v) {
    if (std::isnan(v)) return D(0);
    const float r = std::nearbyint(v);
    if (r <= static_cast<float>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (r >= static_cast<float>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
}

template <QuantType Q, class Dst, class Src, class Para>
RecordEvent tquant(CallSite cs, Dst& dst, Src& src, Para& scale, Para* offset) {
    using D = typename Dst::DType;
    static_assert(Q == QuantType::INT8_SYM || Q == QuantType::INT8_ASYM || sizeof(Dst) == 0,
                  "TQUANT<QuantType::MXFP8>: MX fp8 quantisation is not simulated; TQUANT supports INT8_SYM and INT8_ASYM");
    static_assert(std::is_same_v<typename Src::DType, float>, "TQUANT: the source must be float");
    static_assert(std::is_same_v<typename Para::DType, float>, "TQUANT: scale and offset must be float");
    static_assert(Q != QuantType::INT8_SYM || std::is_same_v<D, int8_t>, "TQUANT<INT8_SYM>: the destination must be int8_t");
    static_assert(Q != QuantType::INT8_ASYM || std::is_same_v<D, uint8_t>,
                  "TQUANT<INT8_ASYM>: the destination must be uint8_t");
    if (Q == QuantType::INT8_ASYM && !offset)
        ptosim::fault(loc_of(cs), "TQUANT<INT8_ASYM>: the offset tile is missing (pass &offset)");
    // Multiply, then add, each rounded to float (vmul, vadd), then round once to the integer.
    per_row_affine(cs, "TQUANT", dst, src, scale, Q == QuantType::INT8_ASYM ? offset : nullptr, !PTOSIM_TARGET_A5,
                   [](float x, float s, float o) {
                       const float scaled = x * s;
                       return quantize_rint<D>(Q == QuantType::INT8_ASYM ? scaled + o : scaled);
                   });
    return {};
}

template <class Dst, class Src, class Para>
RecordEvent tdequant(CallSite cs, Dst& dst, Src& src, Para& scale, Para& offset) {
    using S = typename Src::DType;
    static_assert(std::is_same_v<typename Dst::DType, float> && (std::is_same_v<S, int8_t> || std::is_same_v<S, int16_t>),
                  "TDEQUANT: int8_t or int16_t source into a float destination");
    static_assert(std::is_same_v<typename Para::DType, float>, "TDEQUANT: scale and offset must be float, like dst");
    if (src.GetValidRow() != dst.GetValidRow() || src.GetValidCol() != dst.GetValidCol())
        ptosim::fault(loc_of(cs), "TDEQUANT: source valid shape " + std::to_string(src.GetValidRow()) + "x" +
                                      std::to_string(src.GetValidCol()) + " differs from the destination's " +
                                      std::to_string(dst.GetValidRow()) + "x" + std::to_string(dst.GetValidCol()));
    // Subtract, then multiply, each rounded to float (vsub, vmul).
    per_row_affine(cs, "TDEQUANT", dst, src, scale, &offset, false, [](S q, float s, float o) {
        const float shifted = static_cast<float>(q) - o;
        return shifted * s;
    });
    return {};
}

}  // namespace ptosim_impl

template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara* offset = nullptr,
                            WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tquant<quant_type>(CallSite{}, dst, src, scale, offset);
}

// The MX form (fp8 data plus E8M0 exponents, group maxima and scalings).
template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataExp, typename TileDataMax,
          typename TileDataScaling, typename... WaitEvents>
PTO_INST RecordEvent TQUANT(TileDataOut&, TileDataSrc&, TileDataExp*, TileDataMax*, TileDataScaling*, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    static_assert(sizeof(TileDataOut) == 0,
                  "TQUANT<QuantType::MXFP8>: MX fp8 quantisation is not simulated; TQUANT supports INT8_SYM and INT8_ASYM");
    return {};
}

template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TDEQUANT(CallSite cs, TileDataDst& dst, TileDataSrc& src, TileDataPara& scale,
                              TileDataPara& offset, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tdequant(cs, dst, src, scale, offset);
}
template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TDEQUANT(TileDataDst& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara& offset,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::tdequant(CallSite{}, dst, src, scale, offset);
}

}  // namespace pto
