// The raw CCE fixpipe intrinsics beside ptolab's own headers are the CCE
// layer's on both targets (cce/a2a3/fixpipe.hpp, cce/a5/fixpipe.hpp, through
// pto/common/intrinsics.hpp; docs/intrinsics/fixpipe.md): set_quant_pre and
// set_fpc write the QUANT_PRE / FPC state ptolab's TSTORE forms read. What
// stays here is A5's: set_nd_para, A2A3's name for the ND_PARA register A5's
// layer sets as set_loop3_para, and the twelve-argument copy_matrix_cc_to_gm
// refused, as A2A3's alone.
#pragma once
#include <pto/inst/fixpipe.hpp>

#if PTOSIM_TARGET_A5
inline void set_nd_para(uint64_t config, std::source_location = std::source_location::current()) {
    ptosim::core().nd_para = config;
}

template <class D, class S>
inline void copy_matrix_cc_to_gm(D*, S*, uint8_t, uint16_t, uint16_t, uint32_t, uint16_t, uint8_t, uint64_t, uint8_t,
                                 bool, bool) {
    static_assert(sizeof(D) == 0,
                  "copy_matrix_cc_to_gm: the twelve-argument form is A2A3's (A5's fixpipe takes its loop "
                  "parameters through set_loop3_para; use TSTORE)");
}
#endif
