// CCE intrinsics kernels call directly beside ptolab's own PTO headers, mapped
// onto the simulated core. bisheng provides them to every kernel translation
// unit without an include, so ptocc includes this header (through
// pto/common/cce_builtins.hpp) first in every kernel compile. Each takes the
// caller's location as a trailing defaulted argument, so diagnostics name the
// kernel's file:line. They are the executed-pto-isa build's families
// (include/cce, docs/intrinsics/README.md), one definition each: every
// family of the target, A2A3's or A5's (A5's register-based vector code, its
// DMA, Cube and SIMT intrinsics among them).
#pragma once
#include <pto/common/type.hpp>
#include <cce/sync.hpp>
#include <ptosim/cce.hpp>

inline int64_t get_block_idx() { return ptosim::core().block_idx; }

#if PTOSIM_TARGET_A5
#include <cce/a5/families.hpp>
#else
#include <cce/a2a3/families.hpp>
#endif
