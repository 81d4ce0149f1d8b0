// CCE intrinsics kernels call directly (core ids, flags, masks, cross-core
// sync), mapped onto the simulated core. Semantics: docs/semantics.md.
// bisheng provides them to every kernel translation unit without an include,
// so ptocc includes this header (through pto/common/cce_builtins.hpp) first in
// every kernel compile. Each takes the caller's location as a trailing
// defaulted argument, so diagnostics name the kernel's file:line.
#pragma once
#include <pto/common/type.hpp>
#include <cce/sync.hpp>
#include <ptosim/cce.hpp>

inline int64_t get_block_idx() { return ptosim::core().block_idx; }
// Sets the mask mode synccheck asks for before vector work (docs/checkers.md,
// "Vector masks"); ptolab's tile instructions take no mask.
inline void set_mask_count(ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_mask_count(ptosim_cce::here(w));
}
// Mode switches that have no numeric effect in the simulator.
inline void set_atomic_none() {}
inline void set_padding(uint64_t) {}
// CTRL, the vector unit's mode register (saturation and the other mode
// bits), and the scalar bit set/clear kernels edit it with: public kernels
// save, change and restore it around their own instructions. The same
// register the CCE layer's instructions read (docs/intrinsics/convert.md);
// ptolab's own tile instructions do not read it.
inline void set_ctrl(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_ctrl(ptosim_cce::here(w), v);
}
inline uint64_t get_ctrl() { return ptosim::cce::get_ctrl(); }
inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(uint64_t{1} << bit); }
inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | (uint64_t{1} << bit); }
