// A2A3's mad: C (L0C) = A (L0A) * B (L0B) + (0, C or the bias table), on PIPE_M
// (docs/intrinsics/mad.md).
#pragma once
#include <cce/operands.hpp>
#include <ptosim/cce_cube.hpp>

// cmatrixInitVal: start from zero. cmatrixSource: start from the bias table,
// whose address bisheng takes from bits [63:32] of the C pointer (pto-isa's
// TMatmulBias packs it there); otherwise from C itself.
template <class C, class A, class B>
inline void mad(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag,
                bool kDirectionAlign, bool cmatrixSource, bool cmatrixInitVal,
                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    static_assert(std::is_same_v<A, B>, "mad: A and B hold the same element type on A2A3");
    const uint64_t packed = ptosim_cce::off(c);
    ptosim::cce::mad(ptosim_cce::here(w), "mad", ptosim::cce::dt_of<C>(), ptosim::cce::dt_of<A>(),
                     cmatrixSource ? packed & 0xffffffffu : packed, ptosim_cce::off(a), ptosim_cce::off(b),
                     packed >> 32, {m, k, n, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal});
}
// The older form: init_val_controlC starts from zero.
template <class C, class A, class B>
inline void mad(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, bool init_val_controlC,
                ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    mad(c, a, b, m, k, n, 0, false, false, init_val_controlC, w);
}
