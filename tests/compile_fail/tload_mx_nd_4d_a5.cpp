// The ND/DN scale layouts are 3-D.
// expect: dimensions 0 and 1 must be 1
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, Shape<1, 2, 16, 1, 2>, Stride<64, 32, 2, 2, 1>, Layout::MX_A_ND> g(p);
    Tile<TileType::Mat, E, 32, 2, BLayout::RowMajor, 32, 2, SLayout::RowMajor, 32> t;
    TLOAD(t, g);
}
