// The frame of the single-tile kernels (texp, ttrans, tcvt, tcolsum, tmuls):
// TLOAD of a 64 x 128 float tile from `in`, the kernel's instructions on the
// vector pipe from that tile x into y (a float tile of type Out placed after
// x, with UB past both free for scratch tiles), TSTORE of y to `out`, with
// the set_flag/wait_flag pairs a real kernel needs between the pipes.
// Compiled with each kernel against ptolab's headers (ptosim) and against
// pto-isa's with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#pragma once
#include <pto/pto-inst.hpp>

namespace ptobench {

constexpr int R = 64, C = 128;
using InTile = pto::Tile<pto::TileType::Vec, float, R, C, pto::BLayout::RowMajor, R, C>;
constexpr uint32_t kScratch = 2 * R * C * sizeof(float);  // UB after x and y (y is at most R x C floats)

template <class Out, class Body>
AICORE inline void load_run_store(__gm__ uint8_t* out, __gm__ uint8_t* in, Body body) {
    using namespace pto;
    using InGlobal = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using OutGlobal = GlobalTensor<float, Shape<1, 1, 1, Out::Rows, Out::Cols>, Stride<1, 1, 1, Out::Cols, 1>>;
    InTile x;
    Out y;
    TASSIGN(x, 0x0);
    TASSIGN(y, R * C * sizeof(float));
    InGlobal gin(reinterpret_cast<__gm__ float*>(in));
    OutGlobal gout(reinterpret_cast<__gm__ float*>(out));

    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    body(x, y);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}

}  // namespace ptobench
