// Every A5 CCE intrinsic family ptosim executes (docs/intrinsics/README.md,
// "Families"; the register layer: docs/intrinsics/a5-vreg.md), one header
// each. Both kernel preludes include this list: the executed-pto-isa build
// (cce/bisheng.hpp, clang) and ptolab's own PTO headers
// (pto/common/intrinsics.hpp, GCC), so a kernel that mixes PTO calls with
// A5's register, DMA or Cube intrinsics gets the same intrinsics either way.
// What GCC cannot give (address spaces, so a __ubuf__ pointer the kernel
// dereferences itself) is said in docs/intrinsics/README.md, "One family
// list, two preludes".
#pragma once
#include <cce/a2a3/enums.hpp>
#include <cce/a2a3/registers.hpp>
#include <cce/a2a3/atomic.hpp>
#include <cce/a5/enums.hpp>
#include <cce/a5/registers.hpp>
#include <cce/a5/simt.hpp>
#include <cce/a5/mask.hpp>
#include <cce/a5/ldst.hpp>
#include <cce/a5/vector.hpp>
#include <cce/a5/convert.hpp>
#include <cce/a5/rearrange.hpp>
#include <cce/a5/pred_move.hpp>
#include <cce/a5/unaligned.hpp>
#include <cce/a5/gather.hpp>
#include <cce/a5/histogram.hpp>
#include <cce/a5/squeeze.hpp>
#include <cce/a5/dma.hpp>
// vbitsort, vmrgsort4 and get_vms4_sr: A5's TSORT32/TMRGSORT call them with
// A2A3's operands (docs/intrinsics/sort.md).
#include <cce/a2a3/sort.hpp>
#include <cce/a5/atomic.hpp>
#include <cce/a5/cube_dma.hpp>
#include <cce/a5/load.hpp>
#include <cce/a5/mad.hpp>
#include <cce/a5/fixpipe.hpp>
#include <cce/a5/pending.hpp>
