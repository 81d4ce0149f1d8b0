// The raw A5 MX intrinsics kernels call directly: load_cbuf_to_ca_mx and
// load_cbuf_to_cb_mx (L1 -> the L0A/L0B scale stores) and mad_mx (the MX
// matrix multiply over L0A/L0B/L0C). They work on the layouts the TMOV,
// TEXTRACT and TMATMUL_MX paths use (docs/isa/matrix.md, "Raw MX
// intrinsics"); the locations of the kernel's call are the faults'.
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/cce_cube.hpp>
#include <ptosim/core.hpp>

#include <source_location>
#include <type_traits>

namespace ptosim_cce_mx {

inline ptosim::SourceLoc here(const std::source_location& w) {
    return ptosim::SourceLoc{w.file_name(), static_cast<int>(w.line())};
}

template <class T>
constexpr void require_a5() {
    static_assert(PTOSIM_TARGET_A5 || !std::is_same_v<T, T>,
                  "load_cbuf_to_ca_mx/load_cbuf_to_cb_mx/mad_mx: the MX scale stores and MX cube exist on A5 only");
}

template <class T>
constexpr ptosim::MiniFormat format_of() {
    if constexpr (std::is_same_v<T, float8_e4m3_t>) return ptosim::MiniFormat::E4M3;
    else if constexpr (std::is_same_v<T, float8_e5m2_t>) return ptosim::MiniFormat::E5M2;
    else return T::format;
}

template <class P>
uint64_t offset_of(P* p) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}

}  // namespace ptosim_cce_mx

// The scale loads and mad_mx run ptosim's CCE-layer implementations
// (src/sim/cce/a5/load.cpp, src/sim/cce/mad.cpp), which pto-isa's own A5
// headers call too (docs/intrinsics/a5-cube.md, "MX").
template <class S>
inline void load_cbuf_to_ca_mx(uint64_t dst, S* src, uint16_t rowStart, uint16_t colStart, uint8_t rowStep,
                               uint8_t colStep, uint16_t srcStride, uint16_t dstStride,
                               std::source_location w = std::source_location::current()) {
    ptosim_cce_mx::require_a5<S>();
    ptosim::cce::load_mx_scales(ptosim_cce_mx::here(w), "load_cbuf_to_ca_mx", ptosim::Space::L0AMX, dst,
                                ptosim_cce_mx::offset_of(src),
                                {rowStart, colStart, rowStep, colStep, srcStride, dstStride});
}

template <class S>
inline void load_cbuf_to_cb_mx(uint64_t dst, S* src, uint16_t rowStart, uint16_t colStart, uint8_t rowStep,
                               uint8_t colStep, uint16_t srcStride, uint16_t dstStride,
                               std::source_location w = std::source_location::current()) {
    ptosim_cce_mx::require_a5<S>();
    ptosim::cce::load_mx_scales(ptosim_cce_mx::here(w), "load_cbuf_to_cb_mx", ptosim::Space::L0BMX, dst,
                                ptosim_cce_mx::offset_of(src),
                                {rowStart, colStart, rowStep, colStep, srcStride, dstStride});
}

// C (m x n, float, Nz in L0C) = start + sum_p A(i, p) 2^(sa(i, p/32) - 127) B(p, j) 2^(sb(p/32, j) - 127),
// start 0 (initZero), the bias row (biasCtrl: its bias-table address in the
// upper 32 bits of `c`, as pto-isa's TMatmulMxBias packs it) or C.
template <class C, class A, class B>
inline void mad_mx(C* c, A* a, B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag, bool gemvCtrl,
                   bool biasCtrl, bool initZero, std::source_location w = std::source_location::current()) {
    using namespace ptosim_cce_mx;
    require_a5<A>();
    using TA = std::remove_cv_t<A>;
    using TB = std::remove_cv_t<B>;
    constexpr bool fp8 = (std::is_same_v<TA, float8_e4m3_t> || std::is_same_v<TA, float8_e5m2_t>) &&
                         (std::is_same_v<TB, float8_e4m3_t> || std::is_same_v<TB, float8_e5m2_t>);
    constexpr bool fp4 = ptosim::is_minifloat4x2<TA>::value && ptosim::is_minifloat4x2<TB>::value;
    static_assert(std::is_same_v<std::remove_cv_t<C>, float> && (fp8 || fp4),
                  "mad_mx: a float accumulator with float8_e4m3_t/float8_e5m2_t or float4_e2m1x2_t/float4_e1m2x2_t "
                  "operands (fp8 with fp8, fp4 with fp4)");
    const uint64_t packed = offset_of(c);
    ptosim::cce::Mad d{m, k, n, unitFlag, false, biasCtrl, initZero};
    d.a5 = true;
    d.no_gemv = gemvCtrl;
    ptosim::cce::mad_mx(here(w), "mad_mx", format_of<TA>(), format_of<TB>(), biasCtrl ? packed & 0xffffffffull : packed,
                        offset_of(a), offset_of(b), packed >> 32, d);
}
