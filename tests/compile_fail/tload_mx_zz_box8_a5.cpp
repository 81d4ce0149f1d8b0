// MX_A_ZZ holds 16 x 2 boxes.
// expect: MX_A_ZZ/MX_B_NN GlobalTensors hold 16 x 2 boxes; dimension 3 must be 16
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, Shape<1, 2, 1, 8, 2>, Stride<32, 16, 16, 2, 1>, Layout::MX_A_ZZ> g(p);
    Tile<TileType::Mat, E, 16, 2, BLayout::RowMajor, 16, 2, SLayout::RowMajor, 32> t;
    TLOAD(t, g);
}
