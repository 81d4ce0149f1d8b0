// y = max(1.5 x, x) on a 64 x 128 float tile: TLOAD, TMULS, TMAX, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include "single_tile.hpp"

using namespace pto;

extern "C" __global__ AICORE void ptobench_tmuls(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    ptobench::load_run_store<ptobench::InTile>(out, in, [](auto& x, auto& y) {
        TMULS(y, x, 1.5f);
        pipe_barrier(PIPE_V);
        TMAX(y, y, x);
    });
}
