// A2A3's mad: C (L0C) = start + A (L0A) * B (L0B) on operands in their L0
// fractal layouts, through ptolab's GEMM kernels (src/sim/gemm.cpp): every
// product rounded to the accumulator's type, added in ascending k
// (docs/intrinsics/mad.md).
#include "cube.hpp"

#include <ptosim/float8.hpp>
#include <ptosim/gemm.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace ptosim::cce {
using namespace detail;

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

template <class T>
float as_float(const uint8_t* p) {
    if constexpr (std::is_same_v<T, half>) return half_bits_to_float(ld<uint16_t>(p));
    else if constexpr (std::is_same_v<T, bfloat16_t>) {
        const uint32_t b = uint32_t(ld<uint16_t>(p)) << 16;
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    } else {
        return ld<float>(p);
    }
}

// The fractal grid of one mad: A is m x k in 16 x C0 fractals (L0A's Zz:
// fractals row-major, each row-major), B k x n in C0 x 16 fractals (L0B's Zn:
// fractals row-major, each column-major), C m x n in 16 x 16 fractals
// column-major (L0C's Nz).
// A5's L0A is Nz instead: the same fractals, column-major.
struct Grid {
    int c0, mf, kf, nf;
    bool gemv;  // m == 1: A is one row of k contiguous elements
    bool a_nz = false;
    GemmLayout a() const { return {16, c0, mf, kf, !a_nz, true}; }
    GemmLayout b() const { return {c0, 16, kf, nf, true, false}; }
    uint64_t a_at(int i, int p) const {
        if (gemv) return uint64_t(p);
        const uint64_t frac = a_nz ? uint64_t(p / c0) * mf + i / 16 : uint64_t(i / 16) * kf + p / c0;
        return frac * 16 * c0 + (i % 16) * c0 + p % c0;
    }
    uint64_t b_at(int p, int j) const { return uint64_t((p / c0) * nf + j / 16) * 16 * c0 + (j % 16) * c0 + p % c0; }
    uint64_t c_at(int i, int j) const { return uint64_t(j / 16) * mf * 256 + uint64_t(i) * 16 + j % 16; }
};

// TF32 as the Cube reads float operands with CTRL's MAD_MODE bit set: 11
// mantissa bits kept (A2A3's e8m11), ties away (MAD_ROUND_MODE set) or to
// even, subnormals to zero, Inf and NaN kept (ptolab's round_tf32, from
// pto-isa's SetMadTF32Mode and its goldens).
float round_tf32(float x, bool ties_away) {
    constexpr int drop = 12;
    uint32_t u;
    std::memcpy(&u, &x, 4);
    const uint32_t exp = u & 0x7f800000u;
    if (exp == 0x7f800000u) return x;
    if (exp == 0) u &= 0x80000000u;
    const uint32_t mask = (1u << drop) - 1, half = 1u << (drop - 1), lost = u & mask;
    u &= ~mask;
    if (lost > half || (lost == half && (ties_away || ((u >> drop) & 1u)))) u += 1u << drop;
    std::memcpy(&x, &u, 4);
    return x;
}

// The portable path: operands gathered row-major, ptolab's gemm_accumulate.
// tf32: 0 off, 1 ties away, 2 ties to even.
// ea(i, p) reads A's element (row i, column p) and eb(p, j) B's, as Acc.
template <class In, class Acc, class EA, class EB>
void gather_gemm_with(const Grid& g, const Mad& d, uint8_t* c, const uint8_t* bias, int tf32, EA&& ea, EB&& eb) {
    thread_local std::vector<Acc> av, bv, cv;
    av.resize(size_t(d.m) * d.k);
    bv.resize(size_t(d.k) * d.n);
    cv.assign(size_t(d.m) * d.n, Acc(0));
    for (int i = 0; i < d.m; ++i)
        for (int p = 0; p < d.k; ++p) av[size_t(i) * d.k + p] = ea(i, p);
    for (int p = 0; p < d.k; ++p)
        for (int j = 0; j < d.n; ++j) bv[size_t(p) * d.n + j] = eb(p, j);
    if constexpr (std::is_same_v<In, float>) {
        if (tf32) {
            for (auto& x : av) x = round_tf32(x, tf32 == 1);
            for (auto& x : bv) x = round_tf32(x, tf32 == 1);
        }
    }
    if (!d.init_zero)
        for (int i = 0; i < d.m; ++i)
            for (int j = 0; j < d.n; ++j)
                cv[size_t(i) * d.n + j] = d.bias ? ld<Acc>(bias + 4 * uint64_t(j)) : ld<Acc>(c + 4 * g.c_at(i, j));
    gemm_accumulate(d.m, d.n, d.k, av.data(), bv.data(), cv.data());
    for (int i = 0; i < d.m; ++i)
        for (int j = 0; j < d.n; ++j) st<Acc>(c + 4 * g.c_at(i, j), cv[size_t(i) * d.n + j]);
}

template <class In, class Acc>
void gather_gemm(const Grid& g, const Mad& d, const uint8_t* a, const uint8_t* b, uint8_t* c, const uint8_t* bias,
                 int tf32 = 0) {
    auto elem = [](const uint8_t* base, uint64_t at) -> Acc {
        if constexpr (std::is_same_v<Acc, int32_t>) return Acc(ld<int8_t>(base + at));
        else return as_float<In>(base + at * sizeof(In));
    };
    gather_gemm_with<In, Acc>(
        g, d, c, bias, tf32, [&](int i, int p) { return elem(a, g.a_at(i, p)); },
        [&](int p, int j) { return elem(b, g.b_at(p, j)); });
}

// The fractal grid of one mad and its operand spans; faults on operands
// outside their buffers. Shared by mad and mad_f8.
struct Spans {
    Grid g;
    uint64_t a_bytes, b_bytes, c_bytes;
    bool any;
};
// bits: the operands' element width (4 for the packed fp4 pairs of mad_mx).
Spans spans_of(Core& core_, const SourceLoc& loc, const char* op, int bits, bool f32, uint64_t c, uint64_t a,
               uint64_t b, uint64_t bias, const Mad& d) {
    Spans s;
    Grid& g = s.g;
    g.c0 = 256 / bits;
    // m == 1 is A3's GEMV mode: pto-isa loads a one-row Left tile as k
    // contiguous elements (TExtractToAVector) and passes m = 16 to a
    // TMATMUL it wants in the matrix mode. A5 has it unless disabled.
    g.gemv = d.m == 1 && !(d.a5 && d.no_gemv);
    g.a_nz = d.a5;
    g.mf = ceil_div(d.m, 16);
    // kDirectionAlign: float operands laid out with k in multiples of 16
    // (two 8-wide fractals per 16), as pto-isa's K-aligned Left tiles are.
    g.kf = f32 && d.k_align ? ceil_div(d.k, 16) * 2 : ceil_div(d.k, g.c0);
    g.nf = ceil_div(d.n, 16);
    s.a_bytes = g.gemv ? uint64_t(ceil_div(d.k, 4096 / bits)) * kFractal : uint64_t(g.mf) * g.kf * kFractal;
    s.b_bytes = uint64_t(g.kf) * g.nf * kFractal;
    s.c_bytes = uint64_t(g.mf) * g.nf * 256 * 4;
    s.any = d.m && d.k && d.n;
    if (s.any) {
        bounds(core_, Space::L0A, a, s.a_bytes, op, "a (L0A)", loc);
        bounds(core_, Space::L0B, b, s.b_bytes, op, "b (L0B)", loc);
        bounds(core_, Space::L0C, c, s.c_bytes, op, "c (L0C)", loc);
        if (d.bias && !d.init_zero) bounds(core_, Space::BT, bias, uint64_t(d.n) * 4, op, "bias (BT)", loc);
    }
    return s;
}

// mad_mx's scale operands: A's in the L0A scale store, B's in the L0B one.
struct MxScales {
    uint64_t a, a_bytes, b, b_bytes;
};

void record_mad(Core& core_, const SourceLoc& loc, const char* op, const char* c_name, const char* ab_name,
                const Spans& s, uint64_t c, uint64_t a, uint64_t b, uint64_t bias, const Mad& d,
                const MxScales* mx = nullptr) {
    OpRecord r = cube_record(op, Pipe::M, loc, s.a_bytes + s.b_bytes + (mx ? mx->a_bytes + mx->b_bytes : 0));
    r.dtype = c_name;
    r.src_dtype = ab_name;
    r.unit_flag = d.unit_flag;
    if (s.any) {
        r.read(Space::L0A, a, s.a_bytes);
        r.read(Space::L0B, b, s.b_bytes);
        if (mx) r.read(Space::L0AMX, mx->a, mx->a_bytes).read(Space::L0BMX, mx->b, mx->b_bytes);
        if (d.bias && !d.init_zero) r.read(Space::BT, bias, uint64_t(d.n) * 4);
        else if (!d.init_zero) r.read(Space::L0C, c, s.c_bytes);
        r.write(Space::L0C, c, s.c_bytes);
    }
    r.elements = uint64_t(d.m) * d.n;
    r.flops = 2ull * d.m * d.n * d.k;
    dispatch(core_, r);
}

}  // namespace

void mad(const SourceLoc& loc, const char* op, Dt c_type, Dt ab_type, uint64_t c, uint64_t a, uint64_t b,
         uint64_t bias, const Mad& d) {
    Core& core_ = core();
    const bool ok = (c_type == Dt::S32 && ab_type == Dt::S8) ||
                    (c_type == Dt::F32 && (ab_type == Dt::F16 || ab_type == Dt::BF16 || ab_type == Dt::F32));
    if (!ok)
        fault(loc, std::string(op) + ": the cube multiplies int8 into int32 and half, bfloat16 or float into "
                                     "float; not " + to_string(ab_type) + " into " + to_string(c_type));
    const Spans s = spans_of(core_, loc, op, size_of(ab_type) * 8, ab_type == Dt::F32, c, a, b, bias, d);
    const Grid& g = s.g;
    const bool any = s.any;
    record_mad(core_, loc, op, to_string(c_type), to_string(ab_type), s, c, a, b, bias, d);
    // A zero m, k or n makes mad a no-op (CANN's mad reference).
    if (!any) return;
    const uint8_t* pa = local(core_, Space::L0A) + a;
    const uint8_t* pb = local(core_, Space::L0B) + b;
    uint8_t* pc = local(core_, Space::L0C) + c;
    const uint8_t* pbias = local(core_, Space::BT) + bias;
    if (c_type == Dt::S32) return gather_gemm<int8_t, int32_t>(g, d, pa, pb, pc, pbias);
    // CTRL bit 46 (MAD_MODE): float operands as TF32; bit 47 picks ties away.
    const int tf32 = ab_type == Dt::F32 && (core_.vec.ctrl >> 46 & 1) ? (core_.vec.ctrl >> 47 & 1 ? 1 : 2) : 0;
    if (tf32) return gather_gemm<float, float>(g, d, pa, pb, pc, pbias, tf32);
    const GemmType t = ab_type == Dt::F16 ? GemmType::F16 : ab_type == Dt::BF16 ? GemmType::BF16 : GemmType::F32;
    float* cf = reinterpret_cast<float*>(pc);
    if (!g.gemv && gemm_fractal(t, d.m, d.n, d.k, {pa, g.a()}, {pb, g.b()}, cf, d.init_zero || d.bias ? nullptr : cf,
                     size_t(g.mf) * 256, d.bias && !d.init_zero ? reinterpret_cast<const float*>(pbias) : nullptr))
        return;
    switch (ab_type) {
    case Dt::F16: return gather_gemm<half, float>(g, d, pa, pb, pc, pbias);
    case Dt::BF16: return gather_gemm<bfloat16_t, float>(g, d, pa, pb, pc, pbias);
    default: return gather_gemm<float, float>(g, d, pa, pb, pc, pbias);
    }
}

namespace {
MiniFormat mini_of(F8 f) {
    return f == F8::E4M3 ? MiniFormat::E4M3 : f == F8::E5M2 ? MiniFormat::E5M2 : MiniFormat::HiF8;
}
const char* name_of(F8 f) { return f == F8::E4M3 ? "float8_e4m3" : f == F8::E5M2 ? "float8_e5m2" : "hifloat8"; }
}  // namespace

void mad_f8(const SourceLoc& loc, const char* op, F8 a_type, F8 b_type, uint64_t c, uint64_t a, uint64_t b,
            uint64_t bias, const Mad& d) {
    Core& core_ = core();
    // The A5 pairs pto-isa's CheckMadValid accepts: E4M3/E5M2 in any
    // combination, HiFloat8 only with HiFloat8.
    if ((a_type == F8::HiF8) != (b_type == F8::HiF8))
        fault(loc, std::string(op) + ": HiFloat8 multiplies only HiFloat8; got " + name_of(a_type) + " x " +
                       name_of(b_type) + " (use the same 8-bit format for A and B)");
    const Spans s = spans_of(core_, loc, op, 8, false, c, a, b, bias, d);
    record_mad(core_, loc, op, "float32", name_of(a_type), s, c, a, b, bias, d);
    if (!s.any) return;
    const MiniFormat fa = mini_of(a_type), fb = mini_of(b_type);
    const uint8_t* pa = local(core_, Space::L0A) + a;
    const uint8_t* pb = local(core_, Space::L0B) + b;
    const Grid& g = s.g;
    auto ea = [&](int i, int p) { return static_cast<float>(mini_decode(fa, pa[g.a_at(i, p)])); };
    auto eb = [&](int p, int j) { return static_cast<float>(mini_decode(fb, pb[g.b_at(p, j)])); };
    gather_gemm_with<float, float>(g, d, local(core_, Space::L0C) + c, local(core_, Space::BT) + bias, 0, ea, eb);
}

namespace {
bool is_fp4(MiniFormat f) { return f == MiniFormat::E2M1 || f == MiniFormat::E1M2; }
bool is_fp8_mx(MiniFormat f) { return f == MiniFormat::E4M3 || f == MiniFormat::E5M2; }
const char* mx_name(MiniFormat f) {
    switch (f) {
    case MiniFormat::E4M3: return "float8_e4m3";
    case MiniFormat::E5M2: return "float8_e5m2";
    case MiniFormat::E2M1: return "float4_e2m1x2";
    case MiniFormat::E1M2: return "float4_e1m2x2";
    case MiniFormat::HiF8: return "hifloat8";
    default: return "float8_e8m0";
    }
}
// Element `at` of a packed operand: a byte, or a nibble of a fp4 pair (the
// element of even index in the low nibble, as load_cbuf_to_ca_s4 moves it).
unsigned mx_code(const uint8_t* base, uint64_t at, bool fp4) {
    return fp4 ? (base[at / 2] >> (4 * (at % 2))) & 0xfu : base[at];
}
}  // namespace

void mad_mx(const SourceLoc& loc, const char* op, MiniFormat a_type, MiniFormat b_type, uint64_t c, uint64_t a,
            uint64_t b, uint64_t bias, const Mad& d) {
    Core& core_ = core();
    // The pairs CANN's asc_mmad_mx lists (and pto-isa's CheckMadMxValid):
    // E4M3/E5M2 with E4M3/E5M2, E2M1/E1M2 with E2M1/E1M2.
    const bool fp4 = is_fp4(a_type) && is_fp4(b_type);
    if (!fp4 && !(is_fp8_mx(a_type) && is_fp8_mx(b_type)))
        fault(loc, std::string(op) + ": the MX cube multiplies float8_e4m3/float8_e5m2 pairs or float4_e2m1x2/"
                                     "float4_e1m2x2 pairs; got " + mx_name(a_type) + " x " + mx_name(b_type));
    const Spans s = spans_of(core_, loc, op, fp4 ? 4 : 8, false, c, a, b, bias, d);
    const Grid& g = s.g;
    // Scale stores: ceil(k / 64) 32-byte boxes per 16-row (A) or 16-column
    // (B) band, at the operands' addresses >> 4. GEMV reads A as k
    // contiguous elements and its scales as ceil(k / 32) contiguous codes,
    // as pto-isa's TExtractToAmx copies a one-row scale tile.
    const uint64_t pairs = (uint64_t(d.k) + 63) / 64;
    const uint64_t sa = a >> 4, sb = b >> 4;
    const uint64_t sa_bytes = g.gemv ? (uint64_t(d.k) + 31) / 32 : uint64_t(g.mf) * 32 * pairs;
    const uint64_t sb_bytes = uint64_t(g.nf) * 32 * pairs;
    if (s.any) {
        bounds(core_, Space::L0AMX, sa, sa_bytes, op, "a's scales (L0A scale store, a >> 4)", loc);
        bounds(core_, Space::L0BMX, sb, sb_bytes, op, "b's scales (L0B scale store, b >> 4)", loc);
    }
    const MxScales scales{sa, sa_bytes, sb, sb_bytes};
    record_mad(core_, loc, op, "float32", mx_name(a_type), s, c, a, b, bias, d, &scales);
    if (!s.any) return;
    const uint8_t* pa = local(core_, Space::L0A) + a;
    const uint8_t* pb = local(core_, Space::L0B) + b;
    const uint8_t* psa = local(core_, Space::L0AMX) + sa;
    const uint8_t* psb = local(core_, Space::L0BMX) + sb;
    // Scale box of (row or column x, k block q): band x / 16, pair q / 2;
    // inside, (x % 16, q % 2) row-major.
    auto box = [pairs](uint64_t x, uint64_t q) { return (x / 16) * 32 * pairs + (q / 2) * 32 + (x % 16) * 2 + q % 2; };
    // E8M0 code e is 2^(e - 127); 0xff is NaN (OCP MX).
    auto scale = [](uint8_t e) { return e == 0xff ? NAN : std::ldexp(1.0, int(e) - 127); };
    auto ea = [&](int i, int p) {
        const uint64_t at = g.gemv ? uint64_t(p / 32) : box(i, p / 32);
        return static_cast<float>(mini_decode(a_type, mx_code(pa, g.a_at(i, p), fp4)) * scale(psa[at]));
    };
    auto eb = [&](int p, int j) {
        return static_cast<float>(mini_decode(b_type, mx_code(pb, g.b_at(p, j), fp4)) * scale(psb[box(j, p / 32)]));
    };
    gather_gemm_with<float, float>(g, d, local(core_, Space::L0C) + c, local(core_, Space::BT) + bias, 0, ea, eb);
}

}  // namespace ptosim::cce
