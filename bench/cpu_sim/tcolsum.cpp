// y(j) = sum_i x(i, j) of a 64 x 128 float tile: TLOAD, TCOLSUM, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include "single_tile.hpp"

using namespace pto;

extern "C" __global__ AICORE void ptobench_tcolsum(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    using Out = Tile<TileType::Vec, float, 1, ptobench::C, BLayout::RowMajor, 1, ptobench::C>;
    ptobench::load_run_store<Out>(out, in, [](auto& x, auto& y) { TCOLSUM(y, x); });
}
