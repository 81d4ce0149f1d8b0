// CCE intrinsics kernels call directly (core ids, flags, masks, cross-core
// sync), mapped onto the simulated core. Semantics: docs/semantics.md.
// bisheng provides them to every kernel translation unit without an include,
// so ptocc includes this header (through pto/common/cce_builtins.hpp) first in
// every kernel compile. Each takes the caller's location as a trailing
// defaulted argument, so diagnostics name the kernel's file:line.
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/intrinsics.hpp>

#include <source_location>

namespace ptosim_cce {
inline ptosim::SourceLoc here(const std::source_location& w) {
    return ptosim::SourceLoc{w.file_name(), static_cast<int>(w.line())};
}
inline ptosim::Pipe pipe(pipe_t p) { return static_cast<ptosim::Pipe>(static_cast<int>(p)); }
using where_t = std::source_location;
}  // namespace ptosim_cce

inline void set_flag(pipe_t src, pipe_t dst, int64_t ev,
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::set_flag(ptosim_cce::here(w), ptosim_cce::pipe(src), ptosim_cce::pipe(dst), ev);
}
inline void wait_flag(pipe_t src, pipe_t dst, int64_t ev,
                      ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::wait_flag(ptosim_cce::here(w), ptosim_cce::pipe(src), ptosim_cce::pipe(dst), ev);
}
inline void pipe_barrier(pipe_t p, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::pipe_barrier(ptosim_cce::here(w), ptosim_cce::pipe(p));
}
inline void set_mask_norm(ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::set_mask_norm(ptosim_cce::here(w));
}
inline void set_vector_mask(uint64_t hi, uint64_t lo, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::set_vector_mask(ptosim_cce::here(w), hi, lo);
}
inline void set_ffts_base_addr(uint64_t addr, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::set_ffts_base_addr(ptosim_cce::here(w), addr);
}
inline void ffts_cross_core_sync(pipe_t p, uint64_t config, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::ffts_cross_core_sync(ptosim_cce::here(w), ptosim_cce::pipe(p), config);
}
inline void wait_flag_dev(int64_t flag, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::wait_flag_dev(ptosim_cce::here(w), flag);
}
inline void set_intra_block(pipe_t p, int64_t id, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::set_intra_block(ptosim_cce::here(w), ptosim_cce::pipe(p), id);
}
inline void wait_intra_block(pipe_t p, int64_t id, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::wait_intra_block(ptosim_cce::here(w), ptosim_cce::pipe(p), id);
}

// Core queries: plain functions, as in CCE; block_idx and block_num are
// variables there.
inline int64_t get_block_idx() { return ptosim::core().block_idx; }
inline int64_t get_block_num() { return ptosim::core().block_num; }
inline int64_t get_subblockid() { return ptosim::core().subblock_id; }
inline int64_t get_subblockdim() { return ptosim::core().subblock_dim; }
// The physical core number of the launch's core of this type (a Cube core's
// slot among the Cube cores, a Vector core's among the Vector cores).
inline int64_t get_coreid() { return ptosim::core().physical; }
// CCE's block_idx and block_num are global variables, so a kernel may declare
// a local of the same name (pto-isa's A2A3 flash attention does); objects that
// read the running core's value keep that legal, where a macro would not.
namespace ptosim_cce {
struct BlockIdxVar {
    operator int64_t() const { return ptosim::core().block_idx; }
};
struct BlockNumVar {
    operator int64_t() const { return ptosim::core().block_num; }
};
inline int64_t vararg(BlockIdxVar v) { return v; }
inline int64_t vararg(BlockNumVar v) { return v; }
template <class T>
inline T vararg(T v) { return v; }
}  // namespace ptosim_cce
inline constexpr ptosim_cce::BlockIdxVar block_idx{};
inline constexpr ptosim_cce::BlockNumVar block_num{};
// Mode switches that have no numeric effect in the simulator.
inline void set_atomic_none() {}
inline void set_mask_count() {}
inline void set_padding(uint64_t) {}
