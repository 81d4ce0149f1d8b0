// The runtime side of A5's SIMT vector functions (include/cce/a5/simt.hpp):
// a __simt_vf__ function started by cce::async_invoke runs once per thread
// of its thread block on the calling Vector core, each thread on its own
// stack, in thread order until it ends or waits (docs/intrinsics/a5-simt.md).
#pragma once
#include <ptosim/core.hpp>

#include <cstdint>

namespace ptosim::cce {

// The SIMT built-in variables (threadIdx, blockDim, blockIdx, gridDim).
enum class SimtVar : uint8_t { ThreadIdx, BlockDim, BlockIdx, GridDim };

// A pointer argument of a SIMT function: where it points and whether the
// body may store through it (a pointer to non-const). The record's writes
// start at a writable pointer (docs/intrinsics/a5-simt.md, "Records").
struct SimtArg {
    Space space = Space::Count;  // Count: not a UB or GM pointer
    bool writable = false;
    uint32_t elem = 1;  // the pointee's size
    uint64_t at = 0;    // a UB offset or a GM host address
};

// Runs body(ctx) for every thread of a dims[0] x dims[1] x dims[2] block,
// x fastest, as one vector-pipe record. `function` names the __simt_vf__
// function (its template signature is cut to the name); `caller` is the
// return address of cce::async_invoke, whose line the record carries.
void simt_run(const void* caller, const char* function, const uint32_t dims[3], const SimtArg* args, int n_args,
              void (*body)(void*), void* ctx);

// A built-in variable's component (axis 0..2) for the running thread;
// outside a SIMT body it faults at `caller`'s line.
uint32_t simt_builtin(SimtVar v, int axis, const void* caller);

// True while the core runs a SIMT body: its atomics are then the vector
// pipe's (docs/intrinsics/a5-simt.md, "Records").
bool simt_running(const Core& c);
// An atomic updated [gm, gm + bytes) while a SIMT body runs: the body's
// record leaves those bytes to the atomic's own.
void simt_note_atomic(const void* gm, int bytes);

// A block barrier (__sync_workitems) at `caller`: the running thread waits
// until every thread of its block reached one.
void simt_barrier(const void* caller);
// A warp's sum (__builtin_cce_redux_add_f32): the running thread waits until
// every thread of its warp gave its value, and gets the sum.
float simt_warp_sum(float v, const void* caller);

}  // namespace ptosim::cce
