// Quantising moves out of the accumulator through the fixpipe: SET_QUANT_SCALAR,
// SET_QUANT_VECTOR, TSTORE_FP, TMOV_FP, TEXTRACT_FP, TINSERT_FP and the
// scalar-parameter forms TSTORE/TMOV/TEXTRACT/TINSERT(..., preQuantScalar, ...)
// (docs/isa/fixpipe.md). Every form loads its parameter into the core's
// QUANT_PRE or FPC register and converts through that register, as the
// hardware does, so SET_QUANT_* and the instructions share one state.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/fixpipe.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/inst/tload_tstore.hpp>
#include <pto/inst/tmov.hpp>
#include <ptosim/fixpipe_rules.hpp>

namespace pto {

namespace ptosim_impl {

template <class T, class... U>
constexpr bool fix_type_in = (std::is_same_v<T, U> || ...);

// The pre-quantisation conversions each target's fixpipe performs
// (pto-isa include/pto/npu/{a2a3,a5}/common.hpp, Get{Scalar,Vector}PreQuantMode
// and CheckTMovAccToMat / CheckTMovAccValid). A2A3 moves into L1 convert
// float accumulators to int8 only.
template <class S, class D, bool per_column, bool into_l1>
constexpr bool fix_quant_pair() {
    if constexpr (PTOSIM_TARGET_A5) {
        if constexpr (std::is_same_v<S, float>)
            return fix_type_in<D, int8_t, uint8_t, half, bfloat16_t, float, float8_e4m3_t, hifloat8_t>;
        else if constexpr (std::is_same_v<S, int32_t>) return fix_type_in<D, int8_t, uint8_t, half, bfloat16_t>;
        else return false;
    } else {
        if constexpr (std::is_same_v<S, float>) {
            if constexpr (into_l1) return std::is_same_v<D, int8_t>;
            else if constexpr (per_column) return fix_type_in<D, int8_t, uint8_t>;
            else return fix_type_in<D, int8_t, uint8_t, half, bfloat16_t>;
        } else if constexpr (std::is_same_v<S, int32_t>) {
            return fix_type_in<D, int8_t, uint8_t, half, int16_t>;
        } else {
            return false;
        }
    }
}

// One 64-bit quantisation parameter (QUANT_PRE, or one FB entry): the scale
// M1 is bits [31:13]; bits [45:37] an offset added to 8-bit results; bit 46
// picks the signed 8-bit range; int32 -> int16 shifts right by bits [35:32]
// + 1 (ptosim/fixpipe_rules.hpp, shared with the CCE fixpipe;
// docs/isa/fixpipe.md).
inline float quant_scale(uint64_t p) { return ptosim::fixrule::quant_scale(p); }

template <class D, class S, ReluPreMode relu>
inline D fix_convert(S x, uint64_t p) {
    constexpr bool with_relu = relu == ReluPreMode::NormalRelu;
    if constexpr (std::is_same_v<D, int16_t>) {
        return ptosim::fixrule::to_s16(static_cast<int64_t>(x), p, with_relu);
    } else {
        const float v = static_cast<float>(x) * quant_scale(p);
        if constexpr (ptosim::is_minifloat8<D>::value) {
            // A5's float -> e4m3 (QF322B8_PRE) and -> HiFloat8 (QF322HIF8_PRE):
            // the scaled value rounds to the format (nearest even; HiFloat8
            // ties away, as TCVT) and saturates like the half conversion.
            float r = v;
            if constexpr (with_relu) r = r < 0.0f ? 0.0f : r;
            D d;
            const ptosim::MiniRound round =
                D::format == ptosim::MiniFormat::HiF8 ? ptosim::MiniRound::NearestAway : ptosim::MiniRound::NearestEven;
            d.bits = static_cast<uint8_t>(ptosim::mini_encode(D::format, static_cast<double>(r), round, true));
            return d;
        } else if constexpr (sizeof(D) == 1) {
            // A signed range stored as uint8 (or the reverse) keeps its bit pattern.
            return static_cast<D>(ptosim::fixrule::to_b8(v, p, with_relu));
        } else {
            float r = std::is_same_v<D, half> ? ptosim::fixrule::saturate_half(v) : v;
            if constexpr (with_relu) r = r < 0.0f ? 0.0f : r;
            return narrow<D>(r);
        }
    }
}

// Where the parameter of accumulator column n comes from: QUANT_PRE for the
// scalar forms; FB at the FPC address for the per-column forms, whose first
// entry belongs to accumulator column col0.
struct FixParams {
    const uint8_t* fb = nullptr;
    int col0 = 0;
    uint64_t scalar = 0;
    uint64_t of(int n) const {
        if (!fb) return scalar;
        return load_elem<uint64_t>(fb + 8 * static_cast<size_t>(n - col0));
    }
};

inline FixParams scalar_params(Core& c, uint64_t scalar) {
    c.quant_pre = scalar;
    return {nullptr, 0, c.quant_pre};
}

template <class Fp>
constexpr void check_fp_tile() {
    static_assert(is_tile_data_v<Fp> && Fp::Loc == TileType::Scaling,
                  "fixpipe quantisation parameters come from a Scaling (FB) tile: fill one with TMOV(scalingTile, matTile)");
    static_assert(sizeof(typename Fp::DType) == 8,
                  "the Scaling tile of a quantised move holds one uint64_t (or int64_t) parameter per column");
}

// FPC keeps the FB address in 128-byte units (pto-isa
// include/pto/npu/a2a3/SetQuantVector.hpp: FPC[15:8] = address >> 7).
inline uint64_t fpc_of(uint64_t fb_addr) { return (fb_addr >> 7) << 8; }
inline uint64_t fb_addr_of(uint64_t fpc) { return (fpc >> 8) << 7; }

// Points FPC at the parameters of accumulator columns [col0, col_end).
template <class Fp>
FixParams vector_params(Core& c, const Fp& fp, int col0, int col_end, const char* op, OpRecord& rec,
                        const SourceLoc& loc) {
    check_fp_tile<Fp>();
    tile_base(c, fp, op, "fp (Scaling)", loc);
    if (col_end > Fp::Cols)
        ptosim::fault(loc, std::string(op) + ": converts accumulator columns up to " + std::to_string(col_end - 1) +
                               " but the fp tile holds parameters for " + std::to_string(Fp::Cols) + " columns");
    const uint64_t addr = fp.address() + 8ull * col0;
    if (addr % 128 != 0)
        ptosim::fault(loc, std::string(op) + ": the parameters of the first converted column lie at FB offset " +
                               std::to_string(addr) + ", but FPC addresses FB in 128-byte units; place the fp tile "
                               "128-byte aligned (and start an extract at a multiple of 16 columns)");
    c.fpc = fpc_of(addr);
    rec.read(Space::FB, addr, 8ull * (col_end - col0));
    return {c.mem[static_cast<int>(Space::FB)] + fb_addr_of(c.fpc), col0, 0};
}

// dst(dr + i, dc + j) = convert(src(sr + i, sc + j)) with the parameter of
// accumulator column sc + j, for i < rows, j < cols.
template <class Dst, class Src, ReluPreMode relu>
PTOSIM_VECTORIZE void fix_copy(uint8_t* dbase, const uint8_t* sbase, int rows, int cols, int dr, int dc, int sr, int sc,
                               const FixParams& q) {
    using D = typename Dst::DType;
    using S = typename Src::DType;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            store_elem(at<Dst>(dbase, dr + i, dc + j),
                       fix_convert<D, S, relu>(load_elem<S>(at<Src>(const_cast<uint8_t*>(sbase), sr + i, sc + j)),
                                               q.of(sc + j)));
}

template <class Dst, class Src, bool per_column>
constexpr void check_fix_move() {
    using D = typename Dst::DType;
    using S = typename Src::DType;
    static_assert(Src::Loc == TileType::Acc && is_Nz_layout<Src>,
                  "quantised TMOV/TEXTRACT/TINSERT read an Acc tile (declare it with TileAcc<...>)");
    static_assert(Dst::Loc == TileType::Mat || (PTOSIM_TARGET_A5 && Dst::Loc == TileType::Vec),
                  "quantised TMOV/TEXTRACT/TINSERT write a Mat tile (A5 also a Vec tile); A2A3 has no Acc->Vec "
                  "path: store with TSTORE_FP and TLOAD the result");
    static_assert(PTOSIM_TARGET_A5 || is_Nz_layout<Dst>,
                  "A2A3 quantised moves into L1 write an Nz Mat tile (BLayout::ColMajor + SLayout::RowMajor)");
    static_assert(!Dst::isBoxedLayout || (is_Nz_layout<Dst> && Dst::SFractalSize == TileConfig::fractalABSize),
                  "the destination of a quantised move is ND, DN or an Nz tile of 512-byte fractals");
    static_assert(Dst::Cols * sizeof(D) % 32 == 0, "the destination's Cols * sizeof(element) must be a multiple of 32");
    constexpr bool ok = fix_quant_pair<S, D, per_column, Dst::Loc == TileType::Mat>();
    static_assert(ok || PTOSIM_TARGET_A5,
                  "A2A3 quantised TMOV/TEXTRACT/TINSERT into L1 convert a float Acc to int8_t only and an int32 Acc "
                  "to int8_t/uint8_t/half/int16_t; for float->half/bfloat16_t use TMOV without a parameter");
    static_assert(ok || !PTOSIM_TARGET_A5,
                  "A5 quantised TMOV/TEXTRACT/TINSERT convert a float Acc to int8_t/uint8_t/half/bfloat16_t/float and "
                  "an int32 Acc to int8_t/uint8_t/half/bfloat16_t (int16_t output is A2A3 only)");
}

// The instruction names recorded per form.
template <bool per_column>
constexpr const char* fix_name(const char* plain, const char* fp) {
    return per_column ? fp : plain;
}

template <class Dst, class Src, class Fp, AccToVecMode mode, ReluPreMode relu>
RecordEvent fix_move(CallSite cs, const char* op, Dst& dst, Src& src, const Fp* fp, uint64_t scalar, int rows, int cols,
                     int dr, int dc, int sr, int sc) {
    constexpr bool per_column = !std::is_void_v<Fp>;
    check_fix_move<Dst, Src, per_column>();
    static_assert(Dst::Loc == TileType::Vec || mode == AccToVecMode::SingleModeVec0,
                  "AccToVecMode selects Vector sub-blocks: only Acc->Vec moves take one");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* s = tile_base(c, src, op, "source", loc);
    OpRecord rec = make_record(op, Pipe::FIX, cs);
    record_tile(rec, false, src);
    record_tile(rec, true, dst);
    FixParams q;
    if constexpr (per_column) q = vector_params(c, *fp, sc, sc + cols, op, rec, loc);
    else q = scalar_params(c, scalar);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(typename Dst::DType);
    constexpr bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
    rec.peer_subblocks = split_m || split_n ? 3 : mode == AccToVecMode::SingleModeVec1 ? 2 : 1;
    ptosim::dispatch(c, rec);
    if constexpr (split_m || split_n) {
        // Each Vector sub-block receives one half of the region.
        const int hr = split_m ? rows / 2 : rows, hc = split_n ? cols / 2 : cols;
        for (int sub = 0; sub < 2; ++sub)
            fix_copy<Dst, Src, relu>(dest_base(c, dst, sub, op, loc), s, hr, hc, dr, dc, sr + (split_m ? sub * hr : 0),
                                     sc + (split_n ? sub * hc : 0), q);
    } else {
        fix_copy<Dst, Src, relu>(dest_base(c, dst, mode == AccToVecMode::SingleModeVec1 ? 1 : 0, op, loc), s, rows,
                                 cols, dr, dc, sr, sc, q);
    }
    return {};
}

template <class Dst, class Src, class Fp, AccToVecMode mode, ReluPreMode relu>
RecordEvent fix_tmov(CallSite cs, Dst& dst, Src& src, const Fp* fp, uint64_t scalar) {
    const char* op = fix_name<!std::is_void_v<Fp>>("TMOV", "TMOV_FP");
    const auto [m, n] = acc_move_extent<Dst, Src, mode>(src.GetValidRow(), src.GetValidCol());
    constexpr bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
    const SourceLoc loc = loc_of(cs);
    if ((split_m && m % 2) || (split_n && n % 2))
        ptosim::fault(loc, std::string(op) + " dual mode splits the accumulator in two halves; its valid " +
                               (split_m ? "row" : "column") + " count must be even");
    if ((split_m ? m / 2 : m) > Dst::Rows || (split_n ? n / 2 : n) > Dst::Cols)
        ptosim::fault(loc, std::string(op) + ": the accumulator's " + std::to_string(m) + "x" + std::to_string(n) +
                               " valid region does not fit the " + std::to_string(Dst::Rows) + "x" +
                               std::to_string(Dst::Cols) + " destination tile");
    return fix_move<Dst, Src, Fp, mode, relu>(cs, op, dst, src, fp, scalar, m, n, 0, 0, 0, 0);
}

// TEXTRACT reads the destination's valid region from (r0, c0) of the source.
template <class Dst, class Src, class Fp, ReluPreMode relu>
RecordEvent fix_textract(CallSite cs, Dst& dst, Src& src, const Fp* fp, uint64_t scalar, int r0, int c0) {
    const char* op = fix_name<!std::is_void_v<Fp>>("TEXTRACT", "TEXTRACT_FP");
    const int rows = dst.GetValidRow(), cols = dst.GetValidCol();
    if (r0 + rows > Src::Rows || c0 + cols > Src::Cols)
        ptosim::fault(loc_of(cs), std::string(op) + ": a " + std::to_string(rows) + "x" + std::to_string(cols) +
                                      " part at (" + std::to_string(r0) + ", " + std::to_string(c0) +
                                      ") runs outside the " + std::to_string(Src::Rows) + "x" +
                                      std::to_string(Src::Cols) + " accumulator");
    return fix_move<Dst, Src, Fp, AccToVecMode::SingleModeVec0, relu>(cs, op, dst, src, fp, scalar, rows, cols, 0, 0,
                                                                      r0, c0);
}

// TINSERT writes the source's valid region at (r0, c0) of the destination.
template <class Dst, class Src, class Fp, ReluPreMode relu>
RecordEvent fix_tinsert(CallSite cs, Dst& dst, Src& src, const Fp* fp, uint64_t scalar, int r0, int c0) {
    const char* op = fix_name<!std::is_void_v<Fp>>("TINSERT", "TINSERT_FP");
    const int rows = src.GetValidRow(), cols = src.GetValidCol();
    if (r0 + rows > Dst::Rows || c0 + cols > Dst::Cols)
        ptosim::fault(loc_of(cs), std::string(op) + ": the accumulator's " + std::to_string(rows) + "x" +
                                      std::to_string(cols) + " valid region at (" + std::to_string(r0) + ", " +
                                      std::to_string(c0) + ") runs outside the " + std::to_string(Dst::Rows) + "x" +
                                      std::to_string(Dst::Cols) + " destination tile");
    return fix_move<Dst, Src, Fp, AccToVecMode::SingleModeVec0, relu>(cs, op, dst, src, fp, scalar, rows, cols, r0, c0,
                                                                      0, 0);
}

template <class TileData, class GlobalData, class Fp, AtomicType atomic, ReluPreMode relu>
RecordEvent fix_tstore(CallSite cs, GlobalData& dst, TileData& src, const Fp* fp, uint64_t scalar) {
    constexpr bool per_column = !std::is_void_v<Fp>;
    using S = typename TileData::DType;
    using D = typename GlobalData::RawDType;
    constexpr const char* op = per_column ? "TSTORE_FP" : "TSTORE";
    static_assert(is_tile_data_v<TileData> && is_global_data_v<GlobalData> && TileData::Loc == TileType::Acc,
                  "quantised TSTORE stores an Acc tile (TileAcc<...>) to a GlobalTensor");
    static_assert(acc_store_layout<GlobalData>(),
                  "quantised TSTORE writes an ND or NZ global tensor (on A2A3 also NC1HWC0, on A5 also NHWC, NCHW and "
                  "NCDHW)");
    constexpr bool ok = fix_quant_pair<S, D, per_column, false>();
    static_assert(ok || PTOSIM_TARGET_A5,
                  "A2A3 quantised TSTORE converts a float Acc to int8_t/uint8_t/half/bfloat16_t with a scalar "
                  "parameter but to int8_t/uint8_t only per column (TSTORE_FP), and an int32 Acc to int8_t/uint8_t/"
                  "half/int16_t; for float->half/bfloat16_t use TSTORE without a parameter");
    static_assert(ok || !PTOSIM_TARGET_A5,
                  "A5 quantised TSTORE converts a float Acc to int8_t/uint8_t/half/bfloat16_t/float and an int32 Acc "
                  "to int8_t/uint8_t/half/bfloat16_t (int16_t output is A2A3 only)");
    // pto-isa's SetAtomicAdd (npu/a2a3/TStore.hpp) has an int8 mode
    // (set_atomic_s8) but none for uint8_t.
    static_assert(atomic == AtomicType::AtomicNone || sizeof(D) >= 2 || std::is_same_v<D, int8_t>,
                  "TSTORE: atomic add on 8-bit elements exists for int8_t only");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const uint8_t* base = tile_base(c, src, op, "source", loc);
    const int vr = src.GetValidRow(), vc = src.GetValidCol();
    GmView<GlobalData> v(dst);
    OpRecord rec = make_record(op, Pipe::FIX, cs);
    rec.atomic = atomic != AtomicType::AtomicNone;
    record_tile(rec, false, src);
    check_gm_operand(dst, v, vr, vc, op, rec, true, loc);
    FixParams q;
    if constexpr (per_column) q = vector_params(c, *fp, 0, vc, op, rec, loc);
    else q = scalar_params(c, scalar);
    rec.elements = static_cast<uint64_t>(vr) * vc;
    rec.bytes = rec.elements * sizeof(D);
    ptosim::dispatch(c, rec);
    uint8_t* g = gm_bytes(dst);
    ptosim::GmAtomicScope atomic_update(c, atomic != AtomicType::AtomicNone);
    for (int r = 0; r < vr; ++r)
        for (int col = 0; col < vc; ++col) {
            D x = fix_convert<D, S, relu>(load_elem<S>(at<TileData>(const_cast<uint8_t*>(base), r, col)), q.of(col));
            uint8_t* d = g + v.offset(r, col) * sizeof(D);
            if constexpr (atomic == AtomicType::AtomicAdd) x = narrow<D>(widen(x) + widen(load_elem<D>(d)));
            store_elem(d, x);
        }
    return {};
}

}  // namespace ptosim_impl

// The scalar parameter and the indices of the scalar forms are deduced (and
// must be integers) so that an int argument picks these overloads instead of
// binding to the event pack of the plain TSTORE/TMOV/TEXTRACT/TINSERT.
template <class... I>
using if_integers = std::enable_if_t<(std::is_integral_v<I> && ...), int>;

// ------------------------------------------------------ parameter registers

template <typename OutType, typename... WaitEvents>
PTO_INST_CALLER RecordEvent SET_QUANT_SCALAR(float preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    static_assert(ptosim_impl::fix_type_in<OutType, int8_t, uint8_t, int16_t, half, bfloat16_t, float>,
                  "SET_QUANT_SCALAR<OutType>: OutType is the quantised output type (int8_t, uint8_t, int16_t, half, "
                  "bfloat16_t or float)");
    ptosim_impl::Core& c = ptosim::core();
    // The float's bits widen as a signed 32-bit value; 8-bit outputs then
    // carry their signedness in bit 46 (pto-isa SetQuantScalar.hpp).
    int32_t bits;
    std::memcpy(&bits, &preQuantScalar, 4);
    uint64_t value = static_cast<uint64_t>(static_cast<int64_t>(bits));
    if constexpr (sizeof(OutType) == 1)
        value = (value & ~(1ull << 46)) | (static_cast<uint64_t>(std::is_same_v<OutType, int8_t>) << 46);
    ptosim_impl::OpRecord rec = ptosim_impl::make_record("SET_QUANT_SCALAR", ptosim_impl::Pipe::S, PTOSIM_CALLER);
    ptosim::dispatch(c, rec);
    c.quant_pre = value;
    return {};
}

template <typename FpTileData, typename... WaitEvents>
PTO_INST RecordEvent SET_QUANT_VECTOR(CallSite cs, FpTileData& fpTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::check_fp_tile<FpTileData>();
    ptosim_impl::Core& c = ptosim::core();
    const ptosim_impl::SourceLoc loc = ptosim_impl::loc_of(cs);
    ptosim_impl::tile_base(c, fpTile, "SET_QUANT_VECTOR", "fp (Scaling)", loc);
    if (fpTile.address() % 128 != 0)
        ptosim::fault(loc, "SET_QUANT_VECTOR: FPC addresses FB in 128-byte units; place the Scaling tile 128-byte aligned");
    ptosim_impl::OpRecord rec = ptosim_impl::make_record("SET_QUANT_VECTOR", ptosim_impl::Pipe::S, cs);
    ptosim::dispatch(c, rec);
    c.fpc = ptosim_impl::fpc_of(fpTile.address());
    return {};
}
template <typename FpTileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent SET_QUANT_VECTOR(FpTileData& fpTile, WaitEvents&... events) {
    return SET_QUANT_VECTOR(PTOSIM_CALLER, fpTile, events...);
}

// ------------------------------------------------------------------ TSTORE

template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename Q, typename... WaitEvents, if_integers<Q> = 0>
PTO_INST RecordEvent TSTORE(CallSite cs, GlobalData& dst, TileData& src, Q preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tstore<TileData, GlobalData, void, atomicType, reluPreMode>(cs, dst, src, nullptr, preQuantScalar);
}
template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename Q, typename... WaitEvents, if_integers<Q> = 0>
PTO_INST_CALLER RecordEvent TSTORE(GlobalData& dst, TileData& src, Q preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tstore<TileData, GlobalData, void, atomicType, reluPreMode>(PTOSIM_CALLER, dst, src, nullptr,
                                                                                 preQuantScalar);
}

template <typename TileData, typename GlobalData, typename FpTileData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE_FP(CallSite cs, GlobalData& dst, TileData& src, FpTileData& fp, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tstore<TileData, GlobalData, FpTileData, atomicType, reluPreMode>(cs, dst, src, &fp, 0);
}
template <typename TileData, typename GlobalData, typename FpTileData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSTORE_FP(GlobalData& dst, TileData& src, FpTileData& fp, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tstore<TileData, GlobalData, FpTileData, atomicType, reluPreMode>(PTOSIM_CALLER, dst, src, &fp, 0);
}

// -------------------------------------------------------------------- TMOV

template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename... WaitEvents, if_integers<Q> = 0>
PTO_INST RecordEvent TMOV(CallSite cs, DstTileData& dst, SrcTileData& src, Q preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, void, AccToVecMode::SingleModeVec0, reluMode>(cs, dst, src, nullptr,
                                                                                                  preQuantScalar);
}
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename... WaitEvents, if_integers<Q> = 0>
PTO_INST_CALLER RecordEvent TMOV(DstTileData& dst, SrcTileData& src, Q preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, void, AccToVecMode::SingleModeVec0, reluMode>(
        PTOSIM_CALLER, dst, src, nullptr, preQuantScalar);
}
template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename Q, typename... WaitEvents, if_integers<Q> = 0>
PTO_INST_CALLER RecordEvent TMOV(DstTileData& dst, SrcTileData& src, Q preQuantScalar, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, void, mode, reluMode>(PTOSIM_CALLER, dst, src, nullptr, preQuantScalar);
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV_FP(CallSite cs, DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, FpTileData, AccToVecMode::SingleModeVec0, reluMode>(cs, dst, src, &fp,
                                                                                                        0);
}
template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TMOV_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, FpTileData, AccToVecMode::SingleModeVec0, reluMode>(
        PTOSIM_CALLER, dst, src, &fp, 0);
}
template <typename DstTileData, typename SrcTileData, typename FpTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<FpTileData> && FpTileData::Loc == TileType::Scaling, int> = 0>
PTO_INST_CALLER RecordEvent TMOV(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tmov<DstTileData, SrcTileData, FpTileData, mode, reluMode>(PTOSIM_CALLER, dst, src, &fp, 0);
}

// ---------------------------------------------------------------- TEXTRACT

template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename R, typename C, typename... WaitEvents, if_integers<Q, R, C> = 0>
PTO_INST RecordEvent TEXTRACT(CallSite cs, DstTileData& dst, SrcTileData& src, Q preQuantScalar,
                              R indexRow, C indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_textract<DstTileData, SrcTileData, void, reluMode>(cs, dst, src, nullptr, preQuantScalar, indexRow,
                                                                       indexCol);
}
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename R, typename C, typename... WaitEvents, if_integers<Q, R, C> = 0>
PTO_INST_CALLER RecordEvent TEXTRACT(DstTileData& dst, SrcTileData& src, Q preQuantScalar, R indexRow,
                              C indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_textract<DstTileData, SrcTileData, void, reluMode>(PTOSIM_CALLER, dst, src, nullptr, preQuantScalar,
                                                                       indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TEXTRACT_FP(CallSite cs, DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                 uint16_t indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_textract<DstTileData, SrcTileData, FpTileData, reluMode>(cs, dst, src, &fp, 0, indexRow, indexCol);
}
template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TEXTRACT_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                 uint16_t indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_textract<DstTileData, SrcTileData, FpTileData, reluMode>(PTOSIM_CALLER, dst, src, &fp, 0, indexRow,
                                                                             indexCol);
}

// ----------------------------------------------------------------- TINSERT

template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename R, typename C, typename... WaitEvents, if_integers<Q, R, C> = 0>
PTO_INST RecordEvent TINSERT(CallSite cs, DstTileData& dst, SrcTileData& src, Q preQuantScalar,
                             R indexRow, C indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tinsert<DstTileData, SrcTileData, void, reluMode>(cs, dst, src, nullptr, preQuantScalar, indexRow,
                                                                      indexCol);
}
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename Q,
          typename R, typename C, typename... WaitEvents, if_integers<Q, R, C> = 0>
PTO_INST_CALLER RecordEvent TINSERT(DstTileData& dst, SrcTileData& src, Q preQuantScalar, R indexRow,
                             C indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tinsert<DstTileData, SrcTileData, void, reluMode>(PTOSIM_CALLER, dst, src, nullptr, preQuantScalar,
                                                                      indexRow, indexCol);
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TINSERT_FP(CallSite cs, DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                uint16_t indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::fix_tinsert<DstTileData, SrcTileData, FpTileData, reluMode>(cs, dst, src, &fp, 0, indexRow, indexCol);
}
template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TINSERT_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, uint16_t indexRow,
                                uint16_t indexCol, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::fix_tinsert<DstTileData, SrcTileData, FpTileData, reluMode>(PTOSIM_CALLER, dst, src, &fp, 0, indexRow,
                                                                            indexCol);
}

}  // namespace pto
