// A2A3's fixpipe out of L0C (copy_matrix_cc_to_gm / _cbuf): NZ or NZ -> ND
// placement, the pre-stage quantisation (QUANT_PRE or per-column parameters
// in FB at FPC), ReLU and GM atomics (docs/intrinsics/fixpipe.md).
#include "cube.hpp"

#include <ptosim/fixpipe_rules.hpp>

#include <algorithm>
#include <cmath>

namespace ptosim::cce {
using namespace detail;

namespace {

// What a mode does: which parameter it reads and which conversion it makes.
enum class Param { None, Scalar, Vector };
enum class Conv { Plain, Scale, Shift16, Unsupported };
struct ModeInfo {
    Param param;
    Conv conv;
};
ModeInfo info(Quant q) {
    switch (q) {
    case Quant::NoQuant: case Quant::F322F16: case Quant::F322BF16: return {Param::None, Conv::Plain};
    case Quant::DEQF16: case Quant::REQ8: case Quant::QF322B8_PRE: case Quant::QF322F16_PRE:
    case Quant::QF322BF16_PRE: case Quant::QF322F32_PRE: case Quant::QF322FP8_PRE: case Quant::QF322HIF8_PRE:
    case Quant::QS322BF16_PRE: return {Param::Scalar, Conv::Scale};
    case Quant::VDEQF16: case Quant::VREQ8: case Quant::VQF322B8_PRE: case Quant::VQF322F16_PRE:
    case Quant::VQF322BF16_PRE: case Quant::VQF322F32_PRE: case Quant::VQF322FP8_PRE: case Quant::VQF322HIF8_PRE:
    case Quant::VQS322BF16_PRE: return {Param::Vector, Conv::Scale};
    case Quant::SHIFTS322S16: return {Param::Scalar, Conv::Shift16};
    case Quant::VSHIFTS322S16: return {Param::Vector, Conv::Shift16};
    default: return {Param::None, Conv::Unsupported};
    }
}

float bf16_float(uint16_t b) {
    const uint32_t u = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Stores v (already scaled) as the destination type.
void put(uint8_t* to, Dt d, double v, uint64_t p, bool relu, Conv conv) {
    switch (d) {
    case Dt::S8: case Dt::U8: {
        const uint8_t b = fixrule::to_b8(static_cast<float>(v), p, relu);
        std::memcpy(to, &b, 1);
        return;
    }
    case Dt::S16: {
        // Shift16 has shifted already (the same rule's shift, fixrule::to_s16).
        const double r = relu ? std::max(v, 0.0) : v;
        st<int16_t>(to, static_cast<int16_t>(std::clamp(r, -32768.0, 32767.0)));
        return;
    }
    case Dt::F16: {
        float f = static_cast<float>(v);
        // A scaled result saturates to half's range; a plain cast rounds (Inf
        // past it), as ptolab's TSTORE from Acc.
        if (conv == Conv::Scale) f = fixrule::saturate_half(f);
        if (relu && f < 0) f = 0;
        st<uint16_t>(to, float_to_half_bits(f));
        return;
    }
    case Dt::BF16: {
        float f = static_cast<float>(v);
        if (relu && f < 0) f = 0;
        st<uint16_t>(to, float_to_bf16_bits(f));
        return;
    }
    case Dt::F32: {
        float f = static_cast<float>(v);
        if (relu && f < 0) f = 0;
        st<float>(to, f);
        return;
    }
    case Dt::F8E4M3: case Dt::F8E5M2: case Dt::HiF8: {
        // A5's 8-bit float results: nearest, ties to even (HiFloat8: ties
        // away, the only rounding its conversions offer), saturating to the
        // format's largest finite value (chosen, as the half path saturates
        // scaled results; docs/intrinsics/a5-cube.md).
        float f = static_cast<float>(v);
        if (relu && f < 0) f = 0;
        const MiniFormat m = d == Dt::F8E4M3 ? MiniFormat::E4M3 : d == Dt::F8E5M2 ? MiniFormat::E5M2 : MiniFormat::HiF8;
        const uint8_t b = static_cast<uint8_t>(
            mini_encode(m, f, d == Dt::HiF8 ? MiniRound::NearestAway : MiniRound::NearestEven, true));
        std::memcpy(to, &b, 1);
        return;
    }
    default: {  // int32
        int64_t x = static_cast<int64_t>(v);
        if (relu && x < 0) x = 0;
        st<int32_t>(to, static_cast<int32_t>(x));
        return;
    }
    }
}

double get(const uint8_t* at, Dt d) {
    switch (d) {
    case Dt::F32: return ld<float>(at);
    case Dt::F16: return half_bits_to_float(ld<uint16_t>(at));
    case Dt::BF16: return bf16_float(ld<uint16_t>(at));
    case Dt::S16: return ld<int16_t>(at);
    case Dt::S8: return ld<int8_t>(at);
    case Dt::F8E4M3: return mini_decode(MiniFormat::E4M3, *at);
    case Dt::F8E5M2: return mini_decode(MiniFormat::E5M2, *at);
    case Dt::HiF8: return mini_decode(MiniFormat::HiF8, *at);
    case Dt::U8: return ld<uint8_t>(at);
    default: return ld<int32_t>(at);
    }
}

}  // namespace

void fixpipe(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, Dt dst_type, Dt src_type,
             uint64_t src, const Fix& f) {
    Core& c = core();
    auto fail = [&](const std::string& why) { fault(loc, std::string(op) + ": " + why); };
    const Quant q = static_cast<Quant>(f.quant);
    const ModeInfo mi = info(q);
    if (mi.conv == Conv::Unsupported)
        fail("quantisation mode " + std::to_string(f.quant) + " is not simulated (docs/intrinsics/fixpipe.md)");
    if (f.relu > 1) fail("ReLU mode " + std::to_string(f.relu) + " is not simulated (0 none, 1 ReLU)");
    if (src_type != Dt::F32 && src_type != Dt::S32) fail("L0C holds float or int32 accumulators");
    if (f.split && !(dst_type == Dt::F32 && !f.nz2nd))
        fail("channel split writes float NZ results only");
    if (f.dual > 2) fail("dual destination mode " + std::to_string(f.dual) + " is not one of 0, 1 (split M), 2 (split N)");
    if (f.dual && ((f.dual == 1 && f.m % 2) || (f.dual == 2 && f.n % 2)))
        fail(std::string("the dual destination mode splits the result in two halves; its ") +
             (f.dual == 1 ? "mSize" : "nSize") + " must be even");
    const int de = size_of(dst_type);
    if (f.nz2nd && f.nz2dn) fail("NZ -> ND and NZ -> DN are both set; choose one");
    if (f.nz2dn && f.split) fail("channel split writes NZ results only, not DN");
    const bool plain = f.nz2nd || f.nz2dn;  // ND or DN: ND_PARA's matrices apply
    const uint32_t nd_num = plain ? std::max<uint32_t>(1, c.nd_para & 0xffff) : 1;
    const uint64_t src_nd = plain ? (c.nd_para >> 16) & 0xffff : 0, dst_nd = plain ? (c.nd_para >> 32) & 0xffff : 0;
    const int c0 = f.split ? 8 : (de == 4 ? 16 : 32 / de);
    const bool any = f.m && f.n;
    // The destination: this core's buffer, or (UB from a Cube core, A5's
    // copy_matrix_cc_to_ub) the UB of a Vector sub-block of its group. A dual
    // mode writes the top and bottom (split M) or left and right (split N)
    // halves to sub-blocks 0 and 1 at the same address.
    const int parts = f.dual ? 2 : 1;
    const int pm = f.dual == 1 ? f.m / 2 : f.m, pn = f.dual == 2 ? f.n / 2 : f.n;
    const bool peer = dst_space == Space::UB && c.mem_size[static_cast<int>(Space::UB)] == 0;
    Core* targets[2] = {&c, &c};
    for (int p = 0; p < parts; ++p)
        if (peer) targets[p] = &group_core(c, CoreType::AIV, f.dual ? p : f.sub_block, op, loc);
    // L0C: Nz, 16 x 16 fractals, src_stride rows between fractal columns.
    auto src_at = [&](uint32_t t, int i, int j) {
        return src + (t * src_nd + (uint64_t(j / 16) * f.src_stride * 16 + uint64_t(i) * 16 + j % 16)) * 4;
    };
    auto dst_at = [&](uint32_t t, int i, int j) {
        if (f.nz2nd) return dst + (t * dst_nd + uint64_t(i) * f.dst_stride + j) * de;
        if (f.nz2dn) return dst + (t * dst_nd + uint64_t(j) * f.dst_stride + i) * de;
        return dst + uint64_t(j / c0) * f.dst_stride * 32 + (uint64_t(i) * c0 + j % c0) * de;
    };
    const uint64_t src_lo = src, src_hi = any ? src_at(nd_num - 1, f.m - 1, (f.n - 1) / 16 * 16 + 15) + 4 : src;
    const uint64_t dst_hi = !any ? dst
                            : plain ? dst_at(nd_num - 1, pm - 1, pn - 1) + de
                                      : dst_at(0, pm - 1, (pn - 1) / c0 * c0 + c0 - 1) + de;
    if (any) {
        if (f.m > f.src_stride && f.n > 16)
            fail("mSize " + std::to_string(f.m) + " exceeds srcStride " + std::to_string(f.src_stride) +
                 ": the fractal columns of L0C would overlap");
        bounds(c, Space::L0C, src_lo, src_hi - src_lo, op, "src (L0C)", loc);
        if (dst_space == Space::GM) check_gm(reinterpret_cast<void*>(dst), dst_hi - dst, op, loc);
        else
            for (int p = 0; p < parts; ++p) bounds(*targets[p], dst_space, dst, dst_hi - dst, op, "dst", loc);
    }
    const uint64_t fb = (c.fpc >> 8) << 7;  // FPC[15:8]: the FB address in 128-byte units
    if (any && mi.param == Param::Vector) bounds(c, Space::FB, fb, uint64_t(f.n) * 8, op, "quantisation parameters (FB)", loc);
    const bool atomic = dst_space == Space::GM && c.vec.atomic_add;
    OpRecord r = cube_record(op, Pipe::FIX, loc, uint64_t(nd_num) * f.m * f.n * de);
    r.dtype = to_string(dst_type);
    r.src_dtype = to_string(src_type);
    r.unit_flag = f.unit_flag;
    r.atomic = atomic;
    r.elements = uint64_t(nd_num) * f.m * f.n;
    if (peer) r.peer_subblocks = f.dual ? 3 : uint8_t(1u << f.sub_block);
    if (any) {
        r.read(Space::L0C, src_lo, src_hi - src_lo);
        if (mi.param == Param::Vector) r.read(Space::FB, fb, uint64_t(f.n) * 8);
        r.write(dst_space, dst, dst_hi - dst);
    }
    dispatch(c, r);
    if (!any) return;
    const uint8_t* l0c = local(c, Space::L0C);
    const uint8_t* fbm = local(c, Space::FB);
    GmAtomicScope scope(c, atomic);
    // The plain NZ -> ND copy of a float accumulator (no quantisation, ReLU
    // or atomic add) with rows that do not overlap: the same conversion of
    // each element as put() (through double, as it is), without put()'s
    // switch, and row by row so the destination is written in order. The
    // order of the writes is all that differs, and with disjoint rows and a
    // source in L0C no write can change another's result.
    const bool plain_nd = !atomic && mi.conv == Conv::Plain && f.relu == 0 && src_type == Dt::F32 && f.nz2nd &&
                          f.dst_stride >= uint32_t(pn) &&
                          (dst_type == Dt::F32 || dst_type == Dt::F16 || dst_type == Dt::BF16);
    if (plain_nd) {
        const auto rows = [&](auto to_bits) {
            using D = decltype(to_bits(0.0f));
            for (int part = 0; part < parts; ++part) {
                uint8_t* out = dst_space == Space::GM ? nullptr : local(*targets[part], dst_space);
                const int ro = f.dual == 1 ? part * pm : 0, co = f.dual == 2 ? part * pn : 0;
                for (uint32_t t = 0; t < nd_num; ++t)
                    for (int i = 0; i < pm; ++i) {
                        const uint64_t at = dst_at(t, i, 0);
                        uint8_t* const to = out ? out + at : reinterpret_cast<uint8_t*>(at);
                        // A row of a 16 x 16 fractal is 16 contiguous floats.
                        for (int j = 0; j < pn;) {
                            const uint8_t* const from = l0c + src_at(t, i + ro, j + co);
                            const int n = std::min(16 - (j + co) % 16, pn - j);
                            for (int q = 0; q < n; ++q) {
                                const float x = static_cast<float>(double(ld<float>(from + 4 * q)));
                                st<D>(to + uint64_t(j + q) * sizeof(D), to_bits(x));
                            }
                            j += n;
                        }
                    }
            }
        };
        if (dst_type == Dt::F32) rows([](float x) { return x; });
        else if (dst_type == Dt::F16) rows([](float x) { return float_to_half_bits(x); });
        else rows([](float x) { return float_to_bf16_bits(x); });
        return;
    }
    for (int part = 0; part < parts; ++part) {
        uint8_t* out = dst_space == Space::GM ? nullptr : local(*targets[part], dst_space);
        const int ro = f.dual == 1 ? part * pm : 0, co = f.dual == 2 ? part * pn : 0;
        for (uint32_t t = 0; t < nd_num; ++t)
            for (int j = 0; j < pn; ++j) {
                const uint64_t p = mi.param == Param::Vector ? ld<uint64_t>(fbm + fb + 8 * uint64_t(j + co))
                                   : mi.param == Param::Scalar ? c.quant_pre
                                                               : 0;
                for (int i = 0; i < pm; ++i) {
                    const uint8_t* s = l0c + src_at(t, i + ro, j + co);
                    const double x = src_type == Dt::F32 ? double(ld<float>(s)) : double(ld<int32_t>(s));
                    double v = x;
                    if (mi.conv == Conv::Scale) v = double(static_cast<float>(x) * fixrule::quant_scale(p));
                    else if (mi.conv == Conv::Shift16) v = double(fixrule::to_s16(static_cast<int64_t>(x), p, false));
                    uint8_t* to = out ? out + dst_at(t, i, j) : reinterpret_cast<uint8_t*>(dst_at(t, i, j));
                    if (atomic) {
                        // The converted value adds into GM as the destination type.
                        uint8_t conv[8];
                        put(conv, dst_type, v, p, f.relu == 1, mi.conv);
                        put(to, dst_type, get(to, dst_type) + get(conv, dst_type),
                            dst_type == Dt::S8 ? uint64_t{1} << 46 : 0, false, Conv::Plain);
                    } else {
                        put(to, dst_type, v, p, f.relu == 1, mi.conv);
                    }
                }
            }
    }
}

}  // namespace ptosim::cce
