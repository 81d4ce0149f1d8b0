// y = max(1.5 x, x) on a 64 x 128 float tile: TLOAD, TMULS, TMAX, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_tmuls(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    constexpr int R = 64, C = 128;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using T = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    T x, y;
    TASSIGN(x, 0x0);
    TASSIGN(y, R * C * 4);
    G gin(reinterpret_cast<__gm__ float*>(in)), gout(reinterpret_cast<__gm__ float*>(out));
    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMULS(y, x, 1.5f);
    pipe_barrier(PIPE_V);
    TMAX(y, y, x);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
