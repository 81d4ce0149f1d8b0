// B scales (MX_B_*) belong in an NN tile; a ZZ tile would put them in the A box order.
// expect: MX_B_NN/MX_B_ND/MX_B_DN scales into an NN tile
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, TileShape2D<E, 2, 16, Layout::MX_B_ND>, BaseShape2D<E, 2, 16, Layout::MX_B_ND>, Layout::MX_B_ND> g(p);
    Tile<TileType::Mat, E, 16, 16, BLayout::RowMajor, 16, 16, SLayout::RowMajor, 32> t;
    TLOAD(t, g);
}
