// Intrinsics pto-isa's A2A3 implementation names that ptosim declares but
// does not execute yet. A kernel compiles against them; reaching one stops
// the launch with a fault naming it (docs/intrinsics/README.md, "Coverage").
// Each family's file takes its names out of this list as it implements them.
#pragma once
#include <cce/builtins.hpp>

#define PTOSIM_CCE_PENDING(name)                                                  \
    template <class... A>                                                         \
    [[gnu::noinline]] ptosim_cce::Unsimulated name(const A&...) {                  \
        ptosim::cce::not_simulated(#name, __builtin_return_address(0));           \
    }

// cube: L1 and L0 loads, img2col, mad, fixpipe
PTOSIM_CCE_PENDING(copy_gm_to_cbuf) PTOSIM_CCE_PENDING(copy_cbuf_to_gm) PTOSIM_CCE_PENDING(copy_cbuf_to_fbuf)
PTOSIM_CCE_PENDING(copy_cbuf_to_bt) PTOSIM_CCE_PENDING(copy_gm_to_cbuf_multi_nd2nz_b16)
PTOSIM_CCE_PENDING(copy_gm_to_cbuf_multi_nd2nz_b32s) PTOSIM_CCE_PENDING(copy_gm_to_cbuf_multi_nd2nz_b8)
PTOSIM_CCE_PENDING(load_cbuf_to_ca) PTOSIM_CCE_PENDING(load_cbuf_to_cb) PTOSIM_CCE_PENDING(load_cbuf_to_ca_transpose)
PTOSIM_CCE_PENDING(load_cbuf_to_cb_transpose) PTOSIM_CCE_PENDING(load_gm_to_ca) PTOSIM_CCE_PENDING(load_gm_to_cb)
PTOSIM_CCE_PENDING(img2col_cbuf_to_ca) PTOSIM_CCE_PENDING(img2col_cbuf_to_cb)
PTOSIM_CCE_PENDING(set_fmatrix) PTOSIM_CCE_PENDING(set_fmatrix_b) PTOSIM_CCE_PENDING(set_l3d_rpt)
PTOSIM_CCE_PENDING(mad) PTOSIM_CCE_PENDING(copy_matrix_cc_to_gm) PTOSIM_CCE_PENDING(copy_matrix_cc_to_cbuf)
PTOSIM_CCE_PENDING(copy_matrix_cc_to_ubuf)
PTOSIM_CCE_PENDING(set_nd_para) PTOSIM_CCE_PENDING(set_quant_pre) PTOSIM_CCE_PENDING(set_fpc)
PTOSIM_CCE_PENDING(copy_sram_to_neighbor_sram) PTOSIM_CCE_PENDING(copy_neighbor_sram_to_sram)
PTOSIM_CCE_PENDING(get_neighbor_sram_addr)
#undef PTOSIM_CCE_PENDING
