// A5's mad: C (L0C) = A (L0A, Nz) * B (L0B, Zn) + (0, C or the bias table),
// on PIPE_M; 8-bit float operands (E4M3, E5M2, HiFloat8) besides A2A3's
// types (docs/intrinsics/a5-cube.md, "mad").
#pragma once
#include <cce/operands.hpp>
#include <cce/low_precision.hpp>
#include <ptosim/cce_cube.hpp>

namespace ptosim_cce {
template <class T>
constexpr bool is_f8 = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t> ||
                       std::is_same_v<T, hifloat8_t>;
template <class T>
constexpr ptosim::cce::F8 f8_of() {
    if constexpr (std::is_same_v<T, float8_e4m3_t>) return ptosim::cce::F8::E4M3;
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return ptosim::cce::F8::E5M2;
    else return ptosim::cce::F8::HiF8;
}
}  // namespace ptosim_cce

// cmatrixInitVal: start from zero. cmatrixSource: start from the bias table,
// whose address is bits [63:32] of the C pointer (as on A2A3); otherwise
// from C. disableGemv: with m == 1, read A as Nz rather than as k contiguous
// elements (CANN asc_mmad, disable_gemv).
template <class C, class A, class B>
inline void mad(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag,
                bool disableGemv, bool cmatrixSource, bool cmatrixInitVal,
                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const uint64_t packed = ptosim_cce::off(c);
    const uint64_t cc = cmatrixSource ? packed & 0xffffffffu : packed;
    ptosim::cce::Mad d{m, k, n, unitFlag, false, cmatrixSource, cmatrixInitVal};
    d.a5 = true;
    d.no_gemv = disableGemv;
    if constexpr (ptosim_cce::is_f8<A> || ptosim_cce::is_f8<B>) {
        static_assert(ptosim_cce::is_f8<A> && ptosim_cce::is_f8<B> && std::is_same_v<C, float>,
                      "mad: 8-bit float operands multiply 8-bit float operands into float");
        ptosim::cce::mad_f8(ptosim_cce::here(w), "mad", ptosim_cce::f8_of<A>(), ptosim_cce::f8_of<B>(), cc,
                            ptosim_cce::off(a), ptosim_cce::off(b), packed >> 32, d);
    } else {
        static_assert(std::is_same_v<A, B>, "mad: A and B hold the same element type unless both are 8-bit floats");
        ptosim::cce::mad(ptosim_cce::here(w), "mad", ptosim::cce::dt_of<C>(), ptosim::cce::dt_of<A>(), cc,
                         ptosim_cce::off(a), ptosim_cce::off(b), packed >> 32, d);
    }
}

namespace ptosim_cce {
template <class T>
constexpr bool is_mx_operand = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t> ||
                               std::is_same_v<T, float4_e2m1x2_t> || std::is_same_v<T, float4_e1m2x2_t>;
template <class T>
constexpr ptosim::MiniFormat mx_format() {
    if constexpr (std::is_same_v<T, float8_e4m3_t>) return ptosim::MiniFormat::E4M3;
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return ptosim::MiniFormat::E5M2;
    else return T::format;
}
}  // namespace ptosim_cce

// mad_mx (CANN asc_mmad_mx): mad whose A and B elements are scaled by the
// E8M0 scales load_cbuf_to_ca_mx / load_cbuf_to_cb_mx put in the L0A/L0B
// scale stores at a >> 4 and b >> 4; operands float8 E4M3/E5M2 or float4
// E2M1/E1M2 pairs, C float. cmatrixSource and cmatrixInitVal as mad's
// (pto-isa's TMatmulMxBias names the former biasBufferCtrl)
// (docs/intrinsics/a5-cube.md, "MX").
template <class C, class A, class B>
inline void mad_mx(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag,
                   bool disableGemv, bool cmatrixSource, bool cmatrixInitVal,
                   ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using TA = std::remove_cv_t<A>;
    using TB = std::remove_cv_t<B>;
    // fp8 pairs with fp8 and fp4 with fp4 (the runtime's rule, src/sim/cce/mad.cpp, told at compile time).
    static_assert(std::is_same_v<std::remove_cv_t<C>, float> && ptosim_cce::is_mx_operand<TA> &&
                      ptosim_cce::is_mx_operand<TB> && (sizeof(A) == 1) && (sizeof(B) == 1) &&
                      (ptosim::is_minifloat4x2<TA>::value == ptosim::is_minifloat4x2<TB>::value),
                  "mad_mx: a float accumulator with float8_e4m3_t/float8_e5m2_t or float4_e2m1x2_t/float4_e1m2x2_t "
                  "operands (fp8 with fp8, fp4 with fp4)");
    const uint64_t packed = ptosim_cce::off(c);
    const uint64_t cc = cmatrixSource ? packed & 0xffffffffu : packed;
    ptosim::cce::Mad d{m, k, n, unitFlag, false, cmatrixSource, cmatrixInitVal};
    d.a5 = true;
    d.no_gemv = disableGemv;
    ptosim::cce::mad_mx(ptosim_cce::here(w), "mad_mx", ptosim_cce::mx_format<TA>(), ptosim_cce::mx_format<TB>(), cc,
                        ptosim_cce::off(a), ptosim_cce::off(b), packed >> 32, d);
}
