// y(j) = sum_i x(i, j) of a 64 x 128 float tile: TLOAD, TCOLSUM, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_tcolsum(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    constexpr int R = 64, C = 128;
    using GI = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using GO = GlobalTensor<float, Shape<1, 1, 1, 1, C>, Stride<1, 1, 1, C, 1>>;
    using TI = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    using TO = Tile<TileType::Vec, float, 1, C, BLayout::RowMajor, 1, C>;
    TI x;
    TO y;
    TASSIGN(x, 0x0);
    TASSIGN(y, R * C * 4);
    GI gin(reinterpret_cast<__gm__ float*>(in));
    GO gout(reinterpret_cast<__gm__ float*>(out));
    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TCOLSUM(y, x);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
