// SetValidCol on a tile whose valid column count is static: pto-isa refuses
// it at compile time (pto_tile.hpp), and so do ptolab's headers.
// expect: SetValidCol: the tile's valid column count is static; declare it DYNAMIC
#include <pto/pto-inst.hpp>
using namespace pto;
__global__ AICORE void k() {
    Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, DYNAMIC, 64> t(16);
    t.SetValidCol(8);
}
