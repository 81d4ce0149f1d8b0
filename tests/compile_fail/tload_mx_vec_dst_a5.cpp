// MX scale layouts load into L1 (Mat) scale tiles only.
// expect: the destination is a Mat tile with SFractalSize TileConfig::fractalMxSize
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, TileShape2D<E, 16, 2, Layout::MX_A_ND>, BaseShape2D<E, 16, 2, Layout::MX_A_ND>, Layout::MX_A_ND> g(p);
    Tile<TileType::Vec, E, 16, 32> t;
    TLOAD(t, g);
}
