// The CCE intrinsics of synchronisation and core identity, shared by ptolab's
// own PTO headers and the executed-pto-isa build (cce/bisheng.hpp): flags,
// barriers, masks' mode switches, cross-core signals, core queries. Each
// takes the caller's location as a trailing defaulted argument, so
// diagnostics name the calling file:line. Semantics: docs/semantics.md and
// docs/intrinsics/sync.md. get_block_idx() is each prelude's own: pto-isa
// declares it returning uint32_t, ptolab's headers int64_t.
#pragma once
#include <cce/types.hpp>
#include <ptosim/intrinsics.hpp>

#include <version>
#if defined(__cpp_lib_source_location)
#include <source_location>
#endif

namespace ptosim_cce {
// The call site of an intrinsic, through the builtins GCC and clang both
// have (clang 14's libstdc++ has no std::source_location).
struct where_t {
    const char* file;
    int line;
    constexpr where_t(const char* f, int l) : file(f), line(l) {}
#if defined(__cpp_lib_source_location)
    // ptolab's own instructions pass their caller's std::source_location on.
    constexpr where_t(const std::source_location& s) : file(s.file_name()), line(static_cast<int>(s.line())) {}
#endif
    static constexpr where_t current(const char* f = __builtin_FILE(), int l = __builtin_LINE()) { return {f, l}; }
};
// Out of line, so that its return address is kernel code at the intrinsic's
// call, whose inlining chain leads to the user's PTO call (SourceLoc::pc).
[[gnu::noinline]] inline ptosim::SourceLoc here(const where_t& w) {
    return {w.file, w.line, __builtin_return_address(0)};
}
inline ptosim::Pipe pipe(pipe_t p) { return static_cast<ptosim::Pipe>(static_cast<int>(p)); }
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

// Data synchronisation barriers. The simulator performs every memory access
// when its instruction issues, in program order, so there is nothing to drain.
enum mem_dsb_t : int { DSB_ALL = 0, DSB_DDR = 1, DSB_UB = 2, DSB_SEQ = 3 };
// A dsb after the dcci that flushes a plain store of a signal (pto-isa's
// TNOTIFY Set) is where the cost model stamps that write for the ranks
// waiting on it (docs/cost-model.md, "Across ranks").
namespace ptosim {
void timing_publish(Core& c);
}
inline void dsb(mem_dsb_t) {
    if (ptosim::Core* c = ptosim::current_core_or_null()) ptosim::timing_publish(*c);
}
// Cache maintenance: GM is host memory with no simulated data cache, so
// there is nothing to invalidate. A dcci is what a core issues before each
// read of a flag another core or rank writes, so ptosim takes it as a poll:
// the other cores run, a long spin backs off and one that outlasts
// PTO_COMM_TIMEOUT_S is reported (ptosim::poll_gm, docs/many-devices.md).
enum cache_line_t : int { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum dcci_dst_t : int { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };
namespace ptosim {
void poll_gm(const SourceLoc& loc, const void* gm, const char* how);
}
template <class P>
inline void dcci(P* p, cache_line_t, dcci_dst_t = CACHELINE_ALL, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::poll_gm(ptosim_cce::here(w), (const void*)p, "a dcci before each read");
}
template <class P>
inline void dcci(P* p, cache_line_t, int, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::poll_gm(ptosim_cce::here(w), (const void*)p, "a dcci before each read");
}
