// Counter mode (set_mask_norm and set_vector_mask are in cce/sync.hpp), CTRL, the DMA pad value and the atomic
// mode: the register family (docs/intrinsics/registers.md).
#pragma once
#include <cce/operands.hpp>
#include <ptosim/intrinsics.hpp>

inline void set_mask_count(ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_mask_count(ptosim_cce::here(w));
}
inline void set_ctrl(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_ctrl(ptosim_cce::here(w), v);
}
inline uint64_t get_ctrl() { return ptosim::cce::get_ctrl(); }
inline void set_mov_pad_val(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_mov_pad_val(ptosim_cce::here(w), v);
}
inline void set_padding(uint64_t v, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::set_mov_pad_val(ptosim_cce::here(w), v);
}
