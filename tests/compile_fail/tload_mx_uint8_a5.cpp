// Scale tensors and tiles are float8_e8m0_t, as pto-isa's A5 loader requires.
// expect: MX scale layouts hold float8_e8m0_t, in the GlobalTensor and in the tile
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    using U = uint8_t;
    GlobalTensor<U, TileShape2D<U, 16, 2, Layout::MX_A_ND>, BaseShape2D<U, 16, 2, Layout::MX_A_ND>, Layout::MX_A_ND> g((__gm__ U*)p);
    Tile<TileType::Mat, U, 16, 2, BLayout::RowMajor, 16, 2, SLayout::RowMajor, 32> t;
    TLOAD(t, g);
}
