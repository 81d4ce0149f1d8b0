// The raw CCE fixpipe intrinsics on A5 beside ptolab's own headers:
// set_nd_para, set_quant_pre and set_fpc (ptolab's TSTORE forms read the same
// QUANT_PRE / FPC state; QuantMode_t is the CCE layer's, cce/a2a3/enums.hpp),
// and the twelve-argument copy_matrix_cc_to_gm refused, as A2A3's alone. On A2A3 every fixpipe
// intrinsic is the CCE layer's (cce/a2a3/fixpipe.hpp, through
// pto/common/intrinsics.hpp; docs/intrinsics/fixpipe.md).
#pragma once
#include <pto/inst/fixpipe.hpp>

#if PTOSIM_TARGET_A5
inline void set_nd_para(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().nd_para = config;
}
inline void set_quant_pre(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().quant_pre = config;
}
inline void set_fpc(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().fpc = config;
}

template <class D, class S>
inline void copy_matrix_cc_to_gm(D*, S*, uint8_t, uint16_t, uint16_t, uint32_t, uint16_t, uint8_t, uint64_t, uint8_t,
                                 bool, bool) {
    static_assert(sizeof(D) == 0,
                  "copy_matrix_cc_to_gm: the twelve-argument form is A2A3's (A5's fixpipe takes its loop "
                  "parameters through set_loop3_para; use TSTORE)");
}
#endif
