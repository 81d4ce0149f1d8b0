// The raw CCE fixpipe intrinsics kernels call to write an accumulator to GM
// without TSTORE (pto-isa's A2A3 tmov testcase among them): the QuantMode_t
// enumeration, set_nd_para, set_quant_pre, set_fpc and the twelve-argument
// copy_matrix_cc_to_gm. They convert through the same QUANT_PRE / FPC state
// and the same per-element conversion as TSTORE_FP (what each does:
// docs/api.md, "Device builtins").
#pragma once
#include <pto/inst/fixpipe.hpp>

// bisheng declares the enumeration as a builtin; the first eleven values
// follow the order CANN's public Ascend C headers list, the rest are ptolab's.
enum QuantMode_t : uint64_t {
    NoQuant,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
    QS322BF16_PRE,
    VQS322BF16_PRE,
    DEQS16,
    VDEQS16,
    QF162B8_PRE,
    VQF162B8_PRE,
    QF162S16_PRE,
    VQF162S16_PRE,
    QF322F16_PRE,
    VQF322F16_PRE,
    QF322BF16_PRE,
    VQF322BF16_PRE,
    QF322F32_PRE,
    VQF322F32_PRE,
    QF322FP8_PRE,
    VQF322FP8_PRE,
    QF322HIF8_PRE,
    VQF322HIF8_PRE,
    SHIFTS322S16,
    VSHIFTS322S16,
};

namespace ptosim_cce_fixpipe {

inline ptosim::SourceLoc loc_of(const std::source_location& w) {
    return {w.file_name(), static_cast<int>(w.line())};
}

// What one quantisation mode converts: S accumulators to D, with the
// parameter from QUANT_PRE (scalar), from FB at FPC (per column) or none.
enum class Param { None, Scalar, Vector };
template <class D, class S>
bool mode_fits(uint64_t mode, Param& param) {
    constexpr bool f32 = std::is_same_v<S, float>, s32 = std::is_same_v<S, int32_t>;
    constexpr bool b8 = std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>;
    param = Param::None;
    switch (mode) {
        case NoQuant: return std::is_same_v<D, S>;
        case F322F16: return f32 && std::is_same_v<D, half>;
        case F322BF16: return f32 && std::is_same_v<D, bfloat16_t>;
        case DEQF16: param = Param::Scalar; return s32 && std::is_same_v<D, half>;
        case VDEQF16: param = Param::Vector; return s32 && std::is_same_v<D, half>;
        case QF322B8_PRE: param = Param::Scalar; return f32 && b8;
        case VQF322B8_PRE: param = Param::Vector; return f32 && b8;
        case REQ8: param = Param::Scalar; return s32 && b8;
        case VREQ8: param = Param::Vector; return s32 && b8;
        case QS322BF16_PRE: param = Param::Scalar; return s32 && std::is_same_v<D, bfloat16_t>;
        case VQS322BF16_PRE: param = Param::Vector; return s32 && std::is_same_v<D, bfloat16_t>;
        default: return false;
    }
}

}  // namespace ptosim_cce_fixpipe

inline void set_nd_para(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().nd_para = config;
}
inline void set_quant_pre(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().quant_pre = config;
}
inline void set_fpc(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().fpc = config;
}

// L0C (Nz, 16 x 16 fractals, srcStride rows per fractal column) -> GM.
// With nz2ndEn the M x N result lands row-major with dstStride elements
// between rows; ND_PARA must ask for one matrix. sid and the unit flag only
// concern the hardware's arbitration and are not simulated.
template <class D, class S>
inline void copy_matrix_cc_to_gm(D* dst, S* src, uint8_t /*sid*/, uint16_t nSize, uint16_t mSize, uint32_t dstStride,
                                 uint16_t srcStride, uint8_t /*unitFlag*/, uint64_t quantPre, uint8_t reluPre,
                                 bool channelSplit, bool nz2ndEn,
                                 std::source_location w = std::source_location::current()) {
    static_assert(!PTOSIM_TARGET_A5 || sizeof(D) == 0,
                  "copy_matrix_cc_to_gm: the twelve-argument form is A2A3's (A5's fixpipe takes its loop "
                  "parameters through set_loop3_para; use TSTORE)");
    static_assert(std::is_same_v<S, float> || std::is_same_v<S, int32_t>,
                  "copy_matrix_cc_to_gm: the accumulator holds float or int32_t");
    using namespace ptosim_cce_fixpipe;
    using pto::ptosim_impl::fix_convert;
    const ptosim::SourceLoc loc = loc_of(w);
    const char* op = "copy_matrix_cc_to_gm";
    ptosim::Core& c = ptosim::core();
    auto fail = [&](const std::string& what) { ptosim::fault(loc, std::string(op) + ": " + what); };
    if (!nz2ndEn || channelSplit)
        fail("only the NZ2ND form (nz2ndEn = true, channelSplit = false) is simulated; store Nz results with TSTORE");
    if ((c.nd_para & 0xffff) != 1)
        fail("ND_PARA asks for " + std::to_string(c.nd_para & 0xffff) +
             " matrices; only one (set_nd_para with ndNum 1) is simulated");
    if (reluPre > 1) fail("reluPre " + std::to_string(reluPre) + " is not simulated (0 none, 1 ReLU)");
    Param param;
    if (!mode_fits<D, S>(quantPre, param))
        fail("quantPre " + std::to_string(quantPre) + " does not convert this accumulator type to this destination "
             "type (or is not simulated); see docs/api.md, Device builtins");
    if (mSize == 0 || nSize == 0) return;
    if (mSize > srcStride) fail("mSize " + std::to_string(mSize) + " exceeds srcStride " + std::to_string(srcStride));
    const uint64_t src_addr = reinterpret_cast<uintptr_t>(src);
    const uint64_t src_span = static_cast<uint64_t>((nSize + 15) / 16) * srcStride * 16 * sizeof(S);
    ptosim::check_local(c, ptosim::Space::L0C, src_addr, src_span, op, loc);
    const uint64_t dst_span = (static_cast<uint64_t>(mSize - 1) * dstStride + nSize) * sizeof(D);
    ptosim::check_gm(dst, dst_span, op, loc);
    const uint8_t* fb = c.mem[static_cast<int>(ptosim::Space::FB)] + pto::ptosim_impl::fb_addr_of(c.fpc);
    ptosim::OpRecord r;
    r.op = op;
    r.pipe = ptosim::Pipe::FIX;
    r.loc = loc;
    r.elements = static_cast<uint64_t>(mSize) * nSize;
    r.bytes = r.elements * sizeof(D);
    r.read(ptosim::Space::L0C, src_addr, src_span);
    if (param == Param::Vector) r.read(ptosim::Space::FB, pto::ptosim_impl::fb_addr_of(c.fpc), 8ull * nSize);
    r.write(ptosim::Space::GM, reinterpret_cast<uintptr_t>(dst), dst_span);
    ptosim::dispatch(c, r);
    const uint8_t* l0c = c.mem[static_cast<int>(ptosim::Space::L0C)] + src_addr;
    for (int n = 0; n < nSize; ++n) {
        const uint64_t p = param == Param::Vector ? pto::ptosim_impl::load_elem<uint64_t>(fb + 8ull * n) : c.quant_pre;
        for (int m = 0; m < mSize; ++m) {
            const S x = pto::ptosim_impl::load_elem<S>(l0c + ((static_cast<uint64_t>(n / 16) * srcStride + m) * 16 + n % 16) * sizeof(S));
            D y;
            if (param == Param::None) {
                auto v = pto::ptosim_impl::widen(x);
                if (reluPre == 1 && v < 0) v = 0;
                y = pto::ptosim_impl::narrow<D>(v);
            } else if (reluPre == 1) {
                y = fix_convert<D, S, pto::ReluPreMode::NormalRelu>(x, p);
            } else {
                y = fix_convert<D, S, pto::ReluPreMode::NoRelu>(x, p);
            }
            pto::ptosim_impl::store_elem(reinterpret_cast<uint8_t*>(dst + static_cast<uint64_t>(m) * dstStride + n), y);
        }
    }
}
