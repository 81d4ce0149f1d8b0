// y = (float)(half)x on a 64 x 128 float tile, rounded to nearest even: TLOAD,
// TCVT to half, TCVT back to float, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include "single_tile.hpp"

using namespace pto;

extern "C" __global__ AICORE void ptobench_tcvt(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    using namespace ptobench;
    load_run_store<InTile>(out, in, [](auto& x, auto& y) {
        Tile<TileType::Vec, half, R, C, BLayout::RowMajor, R, C> h;
        TASSIGN(h, kScratch);
        TCVT(h, x, RoundMode::CAST_RINT);
        pipe_barrier(PIPE_V);
        TCVT(y, h, RoundMode::CAST_NONE);
    });
}
