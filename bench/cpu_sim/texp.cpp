// y = exp(x) on a 64 x 128 float tile: TLOAD, TEXP, TSTORE.
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include "single_tile.hpp"

using namespace pto;

extern "C" __global__ AICORE void ptobench_texp(__gm__ uint8_t* out, __gm__ uint8_t* x) {
    ptobench::load_run_store<ptobench::InTile>(out, x, [](auto& a, auto& y) { TEXP(y, a); });
}
