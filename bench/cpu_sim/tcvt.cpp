// y = (float)(half)x on a 64 x 128 float tile, rounded to nearest even: TLOAD,
// TCVT to half, TCVT back to float, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_tcvt(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    constexpr int R = 64, C = 128;
    using G = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using TF = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    using TH = Tile<TileType::Vec, half, R, C, BLayout::RowMajor, R, C>;
    TF x, y;
    TH h;
    TASSIGN(x, 0x0);
    TASSIGN(y, R * C * 4);
    TASSIGN(h, 2 * R * C * 4);
    G gin(reinterpret_cast<__gm__ float*>(in)), gout(reinterpret_cast<__gm__ float*>(out));
    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TCVT(h, x, RoundMode::CAST_RINT);
    pipe_barrier(PIPE_V);
    TCVT(y, h, RoundMode::CAST_NONE);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
