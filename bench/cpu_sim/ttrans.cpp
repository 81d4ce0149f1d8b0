// y = x transposed, a 64 x 128 float tile into a 128 x 64 one: TLOAD, TTRANS,
// TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_ttrans(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    constexpr int R = 64, C = 128;
    using GI = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using GO = GlobalTensor<float, Shape<1, 1, 1, C, R>, Stride<1, 1, 1, R, 1>>;
    using TI = Tile<TileType::Vec, float, R, C, BLayout::RowMajor, R, C>;
    using TO = Tile<TileType::Vec, float, C, R, BLayout::RowMajor, C, R>;
    TI x;
    TO y;
    TI tmp;
    TASSIGN(x, 0x0);
    TASSIGN(y, R * C * 4);
    TASSIGN(tmp, 2 * R * C * 4);
    GI gin(reinterpret_cast<__gm__ float*>(in));
    GO gout(reinterpret_cast<__gm__ float*>(out));
    TLOAD(x, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TTRANS(y, x, tmp);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, y);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
