// Intrinsics pto-isa's A2A3 implementation names that ptosim declares but
// does not execute yet. A kernel compiles against them; reaching one stops
// the launch with a fault naming it (docs/intrinsics/README.md, "Coverage").
// Each family's file takes its names out of this list as it implements them.
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_PENDING(name)                                                  \
    template <class... A>                                                         \
    [[gnu::noinline]] ptosim_cce::Unsimulated name(const A&...) {                  \
        ptosim::cce::not_simulated(#name, __builtin_return_address(0));           \
    }

// cube: the v1 img2col and the fixpipe into UB (A2A3's fixpipe has none)
PTOSIM_CCE_PENDING(img2col_cbuf_to_ca) PTOSIM_CCE_PENDING(img2col_cbuf_to_cb)
PTOSIM_CCE_PENDING(copy_matrix_cc_to_ubuf)
PTOSIM_CCE_PENDING(copy_sram_to_neighbor_sram) PTOSIM_CCE_PENDING(copy_neighbor_sram_to_sram)
PTOSIM_CCE_PENDING(get_neighbor_sram_addr)
#undef PTOSIM_CCE_PENDING
