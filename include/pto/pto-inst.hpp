// ptolab's PTO-ISA API for the ptosim simulator. Kernels include this header
// exactly as they include the real one; ptocc puts this directory first.
#pragma once
#include <pto/common/type.hpp>
#if PTOSIM_DEVICE
#include <pto/common/tile.hpp>
#include <pto/common/tassign.hpp>
#include <pto/common/intrinsics.hpp>
#include <pto/common/cce_builtins.hpp>
#include <pto/common/vreg_types.hpp>
#include <pto/inst/tload_tstore.hpp>
#include <pto/inst/tmov.hpp>
#include <pto/inst/tmatmul.hpp>
#include <pto/inst/tmatmul_mx.hpp>
#include <pto/inst/elementwise.hpp>
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/elementwise_fused.hpp>
#include <pto/inst/tcvt.hpp>
#include <pto/inst/quant.hpp>
#include <pto/inst/reduce.hpp>
#include <pto/inst/sort.hpp>
#include <pto/inst/layout.hpp>
#include <pto/inst/gather_scatter.hpp>
#include <pto/inst/rearrange.hpp>
#include <pto/inst/pto_sync.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/common/cce_fixpipe.hpp>
#include <pto/inst/img2col.hpp>
#include <pto/comm/pto_comm_inst.hpp>
#include <pto/call_sites.hpp>
#include <pto/common/constants.hpp>
#include <pto/common/debug.h>
#include <pto/common/utils.hpp>
#endif
