// A2A3's mad: C (L0C) = start + A (L0A) * B (L0B) on operands in their L0
// fractal layouts, through ptolab's GEMM kernels (src/sim/gemm.cpp): every
// product rounded to the accumulator's type, added in ascending k
// (docs/intrinsics/mad.md).
#include "cube.hpp"

#include <ptosim/float8.hpp>
#include <ptosim/gemm.hpp>

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
// ea/eb read element `at` (an element index) of A and B as Acc.
template <class In, class Acc, class EA, class EB>
void gather_gemm_with(const Grid& g, const Mad& d, const uint8_t* a, const uint8_t* b, uint8_t* c, const uint8_t* bias,
                      int tf32, EA&& ea, EB&& eb) {
    thread_local std::vector<Acc> av, bv, cv;
    av.resize(size_t(d.m) * d.k);
    bv.resize(size_t(d.k) * d.n);
    cv.assign(size_t(d.m) * d.n, Acc(0));
    for (int i = 0; i < d.m; ++i)
        for (int p = 0; p < d.k; ++p) av[size_t(i) * d.k + p] = ea(a, g.a_at(i, p));
    for (int p = 0; p < d.k; ++p)
        for (int j = 0; j < d.n; ++j) bv[size_t(p) * d.n + j] = eb(b, g.b_at(p, j));
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
    gather_gemm_with<In, Acc>(g, d, a, b, c, bias, tf32, elem, elem);
}

// The fractal grid of one mad and its operand spans; faults on operands
// outside their buffers. Shared by mad and mad_f8.
struct Spans {
    Grid g;
    uint64_t a_bytes, b_bytes, c_bytes;
    bool any;
};
Spans spans_of(Core& core_, const SourceLoc& loc, const char* op, int e, bool f32, uint64_t c, uint64_t a, uint64_t b,
               uint64_t bias, const Mad& d) {
    Spans s;
    Grid& g = s.g;
    g.c0 = 32 / e;
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
    s.a_bytes = g.gemv ? uint64_t(ceil_div(d.k, 512 / e)) * kFractal : uint64_t(g.mf) * g.kf * kFractal;
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

void record_mad(Core& core_, const SourceLoc& loc, const char* op, const char* c_name, const char* ab_name,
                const Spans& s, uint64_t c, uint64_t a, uint64_t b, uint64_t bias, const Mad& d) {
    OpRecord r = cube_record(op, Pipe::M, loc, s.a_bytes + s.b_bytes);
    r.dtype = c_name;
    r.src_dtype = ab_name;
    r.unit_flag = d.unit_flag;
    if (s.any) {
        r.read(Space::L0A, a, s.a_bytes);
        r.read(Space::L0B, b, s.b_bytes);
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
    const Spans s = spans_of(core_, loc, op, size_of(ab_type), ab_type == Dt::F32, c, a, b, bias, d);
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
    const Spans s = spans_of(core_, loc, op, 1, false, c, a, b, bias, d);
    record_mad(core_, loc, op, "float32", name_of(a_type), s, c, a, b, bias, d);
    if (!s.any) return;
    const MiniFormat fa = mini_of(a_type), fb = mini_of(b_type);
    auto ea = [fa](const uint8_t* base, uint64_t at) { return static_cast<float>(mini_decode(fa, base[at])); };
    auto eb = [fb](const uint8_t* base, uint64_t at) { return static_cast<float>(mini_decode(fb, base[at])); };
    gather_gemm_with<float, float>(s.g, d, local(core_, Space::L0A) + a, local(core_, Space::L0B) + b,
                                   local(core_, Space::L0C) + c, local(core_, Space::BT) + bias, 0, ea, eb);
}

}  // namespace ptosim::cce
