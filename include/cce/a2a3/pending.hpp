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

// vector: compare, select, reductions, broadcast, gather, sort, transposes
PTOSIM_CCE_PENDING(vcmp_eq) PTOSIM_CCE_PENDING(vcmp_ne) PTOSIM_CCE_PENDING(vcmp_lt) PTOSIM_CCE_PENDING(vcmp_le)
PTOSIM_CCE_PENDING(vcmp_gt) PTOSIM_CCE_PENDING(vcmp_ge)
PTOSIM_CCE_PENDING(vcmpv_eq) PTOSIM_CCE_PENDING(vcmpv_ne) PTOSIM_CCE_PENDING(vcmpv_lt) PTOSIM_CCE_PENDING(vcmpv_le)
PTOSIM_CCE_PENDING(vcmpv_gt) PTOSIM_CCE_PENDING(vcmpv_ge)
PTOSIM_CCE_PENDING(vcmpvs_eq) PTOSIM_CCE_PENDING(vcmpvs_ne) PTOSIM_CCE_PENDING(vcmpvs_lt) PTOSIM_CCE_PENDING(vcmpvs_le)
PTOSIM_CCE_PENDING(vcmpvs_gt) PTOSIM_CCE_PENDING(vcmpvs_ge)
PTOSIM_CCE_PENDING(vsel) PTOSIM_CCE_PENDING(set_cmpmask)
PTOSIM_CCE_PENDING(vcadd) PTOSIM_CCE_PENDING(vcmax) PTOSIM_CCE_PENDING(vcmin) PTOSIM_CCE_PENDING(vcgadd)
PTOSIM_CCE_PENDING(vcgmax) PTOSIM_CCE_PENDING(vcgmin) PTOSIM_CCE_PENDING(vcpadd) PTOSIM_CCE_PENDING(vreducev2)
PTOSIM_CCE_PENDING(vbrcb) PTOSIM_CCE_PENDING(vgather) PTOSIM_CCE_PENDING(vbitsort) PTOSIM_CCE_PENDING(vmrgsort4)
PTOSIM_CCE_PENDING(get_vms4_sr) PTOSIM_CCE_PENDING(get_rsvd_cnt)
PTOSIM_CCE_PENDING(scatter_vnchwconv_b8) PTOSIM_CCE_PENDING(scatter_vnchwconv_b16) PTOSIM_CCE_PENDING(scatter_vnchwconv_b32)
PTOSIM_CCE_PENDING(set_va_reg_sb)
PTOSIM_CCE_PENDING(vconv_f162s4) PTOSIM_CCE_PENDING(vconv_f162s4a) PTOSIM_CCE_PENDING(vconv_f162s4c)
PTOSIM_CCE_PENDING(vconv_f162s4f) PTOSIM_CCE_PENDING(vconv_f162s4r) PTOSIM_CCE_PENDING(vconv_f162s4z) PTOSIM_CCE_PENDING(vconv_s42f16)
PTOSIM_CCE_PENDING(vconv_deq) PTOSIM_CCE_PENDING(set_deqscale)
PTOSIM_CCE_PENDING(vaddreluconv_f322f16) PTOSIM_CCE_PENDING(vaddreluconv_f162s8) PTOSIM_CCE_PENDING(vaddreluconv_s162s8)
PTOSIM_CCE_PENDING(vsubreluconv_f322f16) PTOSIM_CCE_PENDING(vsubreluconv_f162s8) PTOSIM_CCE_PENDING(vsubreluconv_s162s8)
// atomics and the scalar GM path
PTOSIM_CCE_PENDING(set_st_atomic_cfg) PTOSIM_CCE_PENDING(st_atomic) PTOSIM_CCE_PENDING(ld_dev)
// cube: the v1 img2col and the fixpipe into UB (A2A3's fixpipe has none)
PTOSIM_CCE_PENDING(img2col_cbuf_to_ca) PTOSIM_CCE_PENDING(img2col_cbuf_to_cb)
PTOSIM_CCE_PENDING(copy_matrix_cc_to_ubuf)
PTOSIM_CCE_PENDING(copy_sram_to_neighbor_sram) PTOSIM_CCE_PENDING(copy_neighbor_sram_to_sram)
PTOSIM_CCE_PENDING(get_neighbor_sram_addr)
#undef PTOSIM_CCE_PENDING
