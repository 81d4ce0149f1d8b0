// The raw A5 MX intrinsics kernels call directly: load_cbuf_to_ca_mx and
// load_cbuf_to_cb_mx (L1 -> the L0A/L0B scale stores) and mad_mx (the MX
// matrix multiply over L0A/L0B/L0C). On A5 they are the CCE layer's
// (cce/a5/load.hpp, cce/a5/mad.hpp, through pto/common/intrinsics.hpp), the
// same the executed-pto-isa build compiles; they work on the layouts the
// TMOV, TEXTRACT and TMATMUL_MX paths use (docs/isa/matrix.md, "Raw MX
// intrinsics"). On A2A3, which has neither the scale stores nor the MX cube,
// the names stop the build.
#pragma once
#include <pto/common/type.hpp>

#include <type_traits>

#if !PTOSIM_TARGET_A5
namespace ptosim_cce_mx {
template <class T>
constexpr void require_a5() {
    static_assert(!std::is_same_v<T, T>,
                  "load_cbuf_to_ca_mx/load_cbuf_to_cb_mx/mad_mx: the MX scale stores and MX cube exist on A5 only");
}
}  // namespace ptosim_cce_mx

template <class S>
inline void load_cbuf_to_ca_mx(uint64_t, S*, uint16_t, uint16_t, uint8_t, uint8_t, uint16_t, uint16_t) {
    ptosim_cce_mx::require_a5<S>();
}
template <class S>
inline void load_cbuf_to_cb_mx(uint64_t, S*, uint16_t, uint16_t, uint8_t, uint8_t, uint16_t, uint16_t) {
    ptosim_cce_mx::require_a5<S>();
}
template <class C, class A, class B>
inline void mad_mx(C*, A*, B*, uint16_t, uint16_t, uint16_t, uint8_t, bool, bool, bool) {
    ptosim_cce_mx::require_a5<A>();
}
#endif
