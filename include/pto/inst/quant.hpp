// TQUANT and TDEQUANT: per-row affine int8 quantisation on the vector unit
// (docs/isa/matrix.md, "TQUANT, TDEQUANT").
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/quant.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/vec_op.hpp>

#include <vector>

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

// dst(r, c) = f(src(r, c), p0(r, 0), p1(r, 0)) over the vr x vc region the
// release build drives (TQUANT: src's valid shape; TDEQUANT: dst's); the
// parameters are read at column 0 of their row, as the backends' BRC_B32
// broadcast loads do. p1 may be null (then f sees 0). `rows` says what the
// parameters' valid rows must be: at least vr (Cover, ptolab's rule), exactly
// vr as a pto-isa PTO_ASSERT (Report), or nothing (Free); reads past their
// storage rows always fault.
enum class ParaRows { Cover, Report, Free };
template <class Dst, class Src, class Para, class F>
void per_row_affine(CallSite cs, const char* op, Dst& dst, Src& src, Para& p0, Para* p1, bool clobber_src, int vr,
                    int vc, ParaRows rows, F f) {
    check_vec_operand<Dst>();
    check_vec_operand<Src>();
    static_assert(Para::Loc == TileType::Vec, "TQUANT/TDEQUANT: scale and offset are Vec (UB) tiles");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* d = tile_base(c, dst, op, "destination", loc);
    uint8_t* s = tile_base(c, src, op, "source", loc);
    const uint8_t* b0 = tile_base(c, p0, op, "scale", loc);
    const uint8_t* b1 = p1 ? tile_base(c, *p1, op, "offset", loc) : nullptr;
    if (vr > Dst::Rows || vc > Dst::Cols)
        ptosim::fault(loc, std::string(op) + ": the source's valid region " + std::to_string(vr) + "x" +
                               std::to_string(vc) + " does not fit the " + std::to_string(Dst::Rows) + "x" +
                               std::to_string(Dst::Cols) + " destination");
    for (const Para* p : {&p0, p1}) {
        if (!p || p->GetValidRow() == vr) continue;
        if (rows != ParaRows::Report && p->GetValidRow() > vr) continue;
        if (rows == ParaRows::Free && vr <= Para::Rows) continue;
        const char* role = p == &p0 ? "scale" : "offset";
        if (rows != ParaRows::Report || vr > Para::Rows)
            ptosim::fault(loc, std::string(op) + ": " + role + " has " + std::to_string(p->GetValidRow()) +
                                   " valid rows; one per row of the " + std::to_string(vr) + "-row region is needed" +
                                   (vr > Para::Rows ? " (past its " + std::to_string(Para::Rows) + "-row storage)" : ""));
        vop::debug_contract(loc, op, Pipe::V,
                            std::string(role) + "'s valid rows (" + std::to_string(p->GetValidRow()) +
                                ") differ from dst's (" + std::to_string(vr) + ")",
                            "the release build reads one " + std::string(role) + " value from each of " +
                                std::to_string(vr) + " rows",
                            std::string("set ") + role + "'s valid rows to dst's (" + std::to_string(vr) + ")");
    }
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
    using D = typename Dst::DType;
    // Results first, then the source's garbage, then the results: dst may
    // lie on src (pto-isa's A2A3 tquant quantises in place).
    std::vector<D> out(static_cast<size_t>(vr) * vc);
    for (int r = 0; r < vr; ++r) {
        const P a = load_elem<P>(at<Para>(const_cast<uint8_t*>(b0), r, 0));
        const P b = b1 ? load_elem<P>(at<Para>(const_cast<uint8_t*>(b1), r, 0)) : P(0);
        for (int col = 0; col < vc; ++col) out[static_cast<size_t>(r) * vc + col] = f(load_elem<typename Src::DType>(at<Src>(s, r, col)), a, b);
    }
    // A2A3 computes in place in the source buffer (TROWEXPANDMUL into src,
    // then s32/f16 views of it); what it leaves there is garbage to the
    // kernel, so ptosim leaves NaN to make a later read visible.
    if constexpr (std::is_same_v<typename Src::DType, float>)
        if (clobber_src)
            for (int r = 0; r < vr; ++r)
                for (int col = 0; col < vc; ++col) store_elem(at<Src>(s, r, col), std::numeric_limits<float>::quiet_NaN());
    for (int r = 0; r < vr; ++r)
        for (int col = 0; col < vc; ++col) store_elem(at<Dst>(d, r, col), out[static_cast<size_t>(r) * vc + col]);
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
                  "TQUANT<QuantType::MXFP8>: the MX form takes exponent, maximum and scaling tiles "
                  "(TQUANT<MXFP8>(dst, src, &exp, &max, &scaling))");
    static_assert(std::is_same_v<typename Src::DType, float>, "TQUANT: the source must be float");
    static_assert(std::is_same_v<typename Para::DType, float>, "TQUANT: scale and offset must be float");
    static_assert(Q != QuantType::INT8_SYM || std::is_same_v<D, int8_t>, "TQUANT<INT8_SYM>: the destination must be int8_t");
    static_assert(Q != QuantType::INT8_ASYM || std::is_same_v<D, uint8_t>,
                  "TQUANT<INT8_ASYM>: the destination must be uint8_t");
    if (Q == QuantType::INT8_ASYM && !offset)
        ptosim::fault(loc_of(cs), "TQUANT<INT8_ASYM>: the offset tile is missing (pass &offset)");
    // Multiply, then add, each rounded to float (vmul, vadd), then round once to the integer.
    per_row_affine(cs, "TQUANT", dst, src, scale, Q == QuantType::INT8_ASYM ? offset : nullptr, !PTOSIM_TARGET_A5,
                   src.GetValidRow(), src.GetValidCol(), ParaRows::Cover, [](float x, float s, float o) {
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
    // Both targets assert src's valid shape is dst's (a2a3/TDequant.hpp,
    // a5/TDeQuant.hpp) and drive the loops with dst's; A5 also asserts the
    // parameters' valid rows (A2A3 states nothing and reads dst's rows).
    const int vr = dst.GetValidRow(), vc = dst.GetValidCol();
    vop::region_contract(cs, "TDEQUANT", src, "src", vr, vc, "dst's valid shape", "read",
                         "give src dst's valid shape " + vop::shape_str(vr, vc));
    // Subtract, then multiply, each rounded to float (vsub, vmul).
    per_row_affine(cs, "TDEQUANT", dst, src, scale, &offset, false, vr, vc,
                   PTOSIM_TARGET_A5 ? ParaRows::Report : ParaRows::Free, [](S q, float s, float o) {
        const float shifted = static_cast<float>(q) - o;
        return shifted * s;
    });
    return {};
}

}  // namespace ptosim_impl

template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara* offset = nullptr,
                            WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tquant<quant_type>(PTOSIM_CALLER, dst, src, scale, offset);
}

#if PTOSIM_TARGET_A5
// Where TQUANT<MXFP8> leaves its e8m0 exponents: row-major in `exp`, or (NZ)
// also regrouped through the caller's gather indices into `exp_zz`.
enum class VecStoreMode { ND, NZ };
#endif

namespace ptosim_impl {

// The bytes TQUANT<MXFP8> touches in one of its tiles, checked against the
// UB and recorded: the scratch and exponent tiles are declared with the data
// tile's shape in pto-isa's kernels but receive one entry per group.
template <class T>
uint8_t* mx_region(Core& c, OpRecord& rec, T* t, const char* role, uint64_t bytes, bool write, const SourceLoc& loc) {
    if (!t) ptosim::fault(loc, std::string("TQUANT<MXFP8>: the ") + role + " tile pointer is null; pass &tile");
    if (!t->assigned())
        ptosim::fault(loc, std::string("TQUANT<MXFP8>: the ") + role +
                               " tile has no address; place it with TASSIGN(tile, offset) first");
    const std::string what = std::string("TQUANT ") + role + " tile";
    ptosim::check_local(c, Space::UB, t->address(), bytes, what.c_str(), loc);
    if (write) rec.write(Space::UB, t->address(), bytes);
    else rec.read(Space::UB, t->address(), bytes);
    return c.mem[static_cast<int>(Space::UB)] + t->address();
}

// MX fp8 quantisation (pto-isa include/pto/npu/a5/TQuant.hpp, TQuant_MXFP8,
// and its tquant testcase's golden): the source's validRows x Cols storage
// elements, in groups of 32, share one power-of-two scale. With E the biased
// exponent of a group's largest magnitude, the e8m0 exponent is E - 8 (e4m3's
// largest exponent) and the scaling 2^(127 - (E - 8)) as float bits
// (0xFE - (E - 8)) << 23; E = 0xFF gives exponent and scaling bits 0xFF, a
// scaling word below -127 as int32 (tiny groups) the bits 0x7F800000 for
// both. Each element times its group's scaling becomes e4m3, rounded to
// nearest even and clipped to +-448 (SPR.CTRL[50]). The scratch tiles keep
// the group maxima and scalings, one float per group. NZ mode then gathers
// the exponents as 16-bit pairs: exp_zz16[j] = exp16[idx[j]] for the
// ceil(ceil(Rows * Cols / 32) / 2) pairs of the source's whole storage.
template <bool zz, class Out, class Src, class Exp, class Max, class Idx>
RecordEvent tquant_mx(CallSite cs, Out& dst, Src& src, Exp* exp, Max* max, Src* scaling, Exp* exp_zz, Idx* idx) {
    static_assert(std::is_same_v<typename Src::DType, float>, "TQUANT<MXFP8>: the source must be float");
    static_assert(sizeof(typename Out::DType) == 1, "TQUANT<MXFP8>: the destination holds 1-byte e4m3 codes");
    static_assert(sizeof(typename Exp::DType) == 1, "TQUANT<MXFP8>: the exponent tiles hold 1-byte e8m0 codes");
    static_assert(std::is_same_v<typename Max::DType, float>, "TQUANT<MXFP8>: the group-maximum tile must be float");
    static_assert(!zz || sizeof(typename Idx::DType) == 2, "TQUANT<MXFP8, NZ>: the gather indices are 16-bit");
    static_assert(Src::isRowMajor && !Src::isBoxedLayout && Out::isRowMajor && !Out::isBoxedLayout,
                  "TQUANT<MXFP8>: source and destination are row-major (ND) Vec tiles");
    check_vec_operand<Out>();
    check_vec_operand<Src>();
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint64_t count = static_cast<uint64_t>(src.GetValidRow()) * Src::Cols;
    const uint64_t groups = (count + 31) / 32;
    const uint64_t pairs = ((static_cast<uint64_t>(Src::Rows) * Src::Cols + 31) / 32 + 1) / 2;
    OpRecord rec = make_record("TQUANT", Pipe::V, cs);
    const uint8_t* s = mx_region(c, rec, &src, "source", 4 * count, false, loc);
    uint8_t* d = mx_region(c, rec, &dst, "destination", count, true, loc);
    uint8_t* e = mx_region(c, rec, exp, "exp", groups, true, loc);
    uint8_t* m = mx_region(c, rec, max, "max", 4 * groups, true, loc);
    uint8_t* sc = mx_region(c, rec, scaling, "scaling", 4 * groups, true, loc);
    uint8_t* ez = nullptr;
    const uint8_t* ix = nullptr;
    if constexpr (zz) {
        ix = mx_region(c, rec, idx, "vgather_idx", 2 * pairs, false, loc);
        ez = mx_region(c, rec, exp_zz, "exp_zz", 2 * pairs, true, loc);
        mx_region(c, rec, exp, "exp", static_cast<uint64_t>(Exp::Rows) * Exp::Cols, false, loc);  // gathered from
    }
    rec.dtype = dtype_name<typename Out::DType>();
    rec.elements = count;
    rec.flops = 2 * count;
    rec.bytes = count * 5;
    ptosim::dispatch(c, rec);
    for (uint64_t g = 0; g < groups; ++g) {
        const uint64_t k0 = 32 * g, k1 = std::min(count, k0 + 32);
        float amax = 0.0f;
        for (uint64_t k = k0; k < k1; ++k) {
            const float a = std::fabs(load_elem<float>(s + 4 * k));
            if (std::isnan(a) || a > amax) amax = a;
            if (std::isnan(a)) break;
        }
        uint32_t bits;
        std::memcpy(&bits, &amax, 4);
        const uint32_t biased = (bits & 0x7F800000u) >> 23;
        uint32_t shared = biased - 8u;
        uint32_t scale_bits = (0xFEu - shared) << 23;
        if (biased == 0xFF) scale_bits = shared = 0xFF;
        if (static_cast<int32_t>(scale_bits) < -127) scale_bits = shared = 0x7F800000u;
        float scale;
        std::memcpy(&scale, &scale_bits, 4);
        store_elem(m + 4 * g, amax);
        store_elem(sc + 4 * g, scale);
        store_elem(e + g, static_cast<uint8_t>(shared & 0xFF));
        for (uint64_t k = k0; k < k1; ++k) {
            const double v = static_cast<double>(load_elem<float>(s + 4 * k) * scale);
            store_elem(d + k, static_cast<uint8_t>(ptosim::mini_encode(ptosim::MiniFormat::E4M3, v,
                                                                       ptosim::MiniRound::NearestEven, true)));
        }
    }
    if constexpr (zz) {
        const uint64_t exp_pairs = static_cast<uint64_t>(Exp::Rows) * Exp::Cols / 2;
        for (uint64_t j = 0; j < pairs; ++j) {
            const uint16_t from = load_elem<uint16_t>(ix + 2 * j);
            if (from >= exp_pairs)
                ptosim::fault(loc, "TQUANT<MXFP8, NZ>: gather index " + std::to_string(from) + " at position " +
                                       std::to_string(j) + " is outside the exp tile's " + std::to_string(exp_pairs) +
                                       " exponent pairs");
            store_elem(ez + 2 * j, load_elem<uint16_t>(e + 2 * static_cast<uint64_t>(from)));
        }
    }
    return {};
}

}  // namespace ptosim_impl

#if PTOSIM_TARGET_A5
template <auto quant_type, typename TileDataOut, typename TileDataSrc, typename TileDataExp, typename TileDataMax,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataSrc* scaling, WaitEvents&... events) {
    static_assert(std::is_same_v<decltype(quant_type), QuantType> && quant_type == QuantType::MXFP8,
                  "TQUANT with exponent, maximum and scaling tiles is the QuantType::MXFP8 form");
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tquant_mx<false>(PTOSIM_CALLER, dst, src, exp, max, scaling, exp, max);
}
template <auto quant_type, auto store_mode, typename TileDataOut, typename TileDataSrc, typename TileDataExp,
          typename TileDataMax, typename TileDataIdx, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TQUANT(TileDataOut& dst, TileDataSrc& src, TileDataExp* exp, TileDataMax* max,
                            TileDataSrc* scaling, TileDataExp* exp_zz, TileDataIdx* vgather_idx, WaitEvents&... events) {
    static_assert(std::is_same_v<decltype(quant_type), QuantType> && quant_type == QuantType::MXFP8,
                  "TQUANT with exponent, maximum and scaling tiles is the QuantType::MXFP8 form");
    static_assert(std::is_same_v<decltype(store_mode), VecStoreMode>, "TQUANT<MXFP8, store_mode>: a VecStoreMode");
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tquant_mx<store_mode == VecStoreMode::NZ>(PTOSIM_CALLER, dst, src, exp, max, scaling, exp_zz,
                                                                  vgather_idx);
}
#endif

template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST RecordEvent TDEQUANT(CallSite cs, TileDataDst& dst, TileDataSrc& src, TileDataPara& scale,
                              TileDataPara& offset, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::tdequant(cs, dst, src, scale, offset);
}
template <typename TileDataDst, typename TileDataSrc, typename TileDataPara, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TDEQUANT(TileDataDst& dst, TileDataSrc& src, TileDataPara& scale, TileDataPara& offset,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::tdequant(PTOSIM_CALLER, dst, src, scale, offset);
}

}  // namespace pto
