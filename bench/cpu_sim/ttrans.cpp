// y = x transposed, a 64 x 128 float tile into a 128 x 64 one: TLOAD, TTRANS,
// TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include "single_tile.hpp"

using namespace pto;

extern "C" __global__ AICORE void ptobench_ttrans(__gm__ uint8_t* out, __gm__ uint8_t* in) {
    using namespace ptobench;
    using Out = Tile<TileType::Vec, float, C, R, BLayout::RowMajor, C, R>;
    load_run_store<Out>(out, in, [](auto& x, auto& y) {
        InTile tmp;
        TASSIGN(tmp, kScratch);
        TTRANS(y, x, tmp);
    });
}
