// CCE intrinsics kernels call directly (core ids, flags, masks, cross-core
// sync), mapped onto the simulated core. Semantics: docs/semantics.md.
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/intrinsics.hpp>

namespace ptosim_cce {

using ptosim::SourceLoc;
inline SourceLoc here(const pto::CallSite& cs) { return SourceLoc{cs.file, cs.line}; }
inline ptosim::Pipe pipe(pipe_t p) { return static_cast<ptosim::Pipe>(static_cast<int>(p)); }

inline void set_flag(pto::CallSite cs, pipe_t src, pipe_t dst, int64_t ev) {
    ptosim::intr::set_flag(here(cs), pipe(src), pipe(dst), ev);
}
inline void wait_flag(pto::CallSite cs, pipe_t src, pipe_t dst, int64_t ev) {
    ptosim::intr::wait_flag(here(cs), pipe(src), pipe(dst), ev);
}
inline void pipe_barrier(pto::CallSite cs, pipe_t p) { ptosim::intr::pipe_barrier(here(cs), pipe(p)); }
inline void set_mask_norm(pto::CallSite cs) { ptosim::intr::set_mask_norm(here(cs)); }
inline void set_vector_mask(pto::CallSite cs, uint64_t hi, uint64_t lo) {
    ptosim::intr::set_vector_mask(here(cs), hi, lo);
}
inline void set_ffts_base_addr(pto::CallSite cs, uint64_t addr) { ptosim::intr::set_ffts_base_addr(here(cs), addr); }
inline void ffts_cross_core_sync(pto::CallSite cs, pipe_t p, uint64_t config) {
    ptosim::intr::ffts_cross_core_sync(here(cs), pipe(p), config);
}
inline void wait_flag_dev(pto::CallSite cs, int64_t flag) { ptosim::intr::wait_flag_dev(here(cs), flag); }
inline void set_intra_block(pto::CallSite cs, pipe_t p, int64_t id) {
    ptosim::intr::set_intra_block(here(cs), pipe(p), id);
}
inline void wait_intra_block(pto::CallSite cs, pipe_t p, int64_t id) {
    ptosim::intr::wait_intra_block(here(cs), pipe(p), id);
}

}  // namespace ptosim_cce

// Core queries: plain functions, as in CCE.
inline int64_t get_block_idx() { return ptosim::core().block_idx; }
inline int64_t get_block_num() { return ptosim::core().block_num; }
inline int64_t get_subblockid() { return ptosim::core().subblock_id; }
inline int64_t get_subblockdim() { return ptosim::core().subblock_dim; }
// Mode switches that have no numeric effect in the simulator.
inline void set_atomic_none() {}
inline void set_mask_count() {}
inline void set_padding(uint64_t) {}
