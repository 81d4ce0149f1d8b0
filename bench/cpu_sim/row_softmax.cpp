// Row softmax of a 64 x 128 float tile, max-subtract-exp-sum-divide per row:
// y(i, j) = exp(x(i, j) - max_j x(i, j)) / sum_j exp(x(i, j) - max_j x(i, j)).
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_row_softmax(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    constexpr int R = 64, C = 128;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using Full = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    using PerRow = Tile<TileType::Vec, float, R, 1, BLayout::ColMajor, R, 1>;
    Full x, tmp;
    PerRow rowMax, rowSum;
    TASSIGN(x, 0x0);
    TASSIGN(tmp, R * C * sizeof(float));
    TASSIGN(rowMax, 2 * R * C * sizeof(float));
    TASSIGN(rowSum, 2 * R * C * sizeof(float) + R * sizeof(float));
    G gin(reinterpret_cast<__gm__ float*>(in)), gout(reinterpret_cast<__gm__ float*>(out));

    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TROWMAX(rowMax, x, tmp);
    pipe_barrier(PIPE_V);
    TROWEXPANDSUB(x, x, rowMax);
    pipe_barrier(PIPE_V);
    TEXP(x, x);
    pipe_barrier(PIPE_V);
    TROWSUM(rowSum, x, tmp);
    pipe_barrier(PIPE_V);
    TROWEXPANDDIV(x, x, rowSum);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, x);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
