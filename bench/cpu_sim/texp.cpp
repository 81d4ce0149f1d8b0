// y = exp(x) on a 64 x 128 float tile: TLOAD, TEXP, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_texp(__gm__ uint8_t* out, __gm__ uint8_t* x) {
    constexpr int R = 64, C = 128;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using T = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    T a, y;
    TASSIGN(a, 0x0);
    TASSIGN(y, R * C * sizeof(float));
    G gx(reinterpret_cast<__gm__ float*>(x)), gy(reinterpret_cast<__gm__ float*>(out));

    TLOAD(a, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TEXP(y, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gy, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
