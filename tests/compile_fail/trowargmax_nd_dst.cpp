// Row arg-reductions write a one-column DN index tile.
// expect: TROWARGMAX: the destination must be a one-column DN tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> src, tmp;
    Tile<TileType::Vec, uint32_t, 16, 8, BLayout::RowMajor, 16, 1> dst;
    TROWARGMAX(dst, src, tmp);
}
