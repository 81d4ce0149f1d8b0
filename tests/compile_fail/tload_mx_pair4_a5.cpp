// Dimension 4 of an MX scale tensor is the k pair.
// expect: dimension 4 is the scale pair along k and must be 2
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, Shape<1, 1, 16, 1, 4>, Stride<64, 64, 4, 4, 1>, Layout::MX_A_ND> g(p);
    Tile<TileType::Mat, E, 16, 4, BLayout::RowMajor, 16, 4, SLayout::RowMajor, 32> t;
    TLOAD(t, g);
}
