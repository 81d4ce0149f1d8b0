// SetValidRow on a tile whose valid row count is static: pto-isa refuses it
// at compile time (pto_tile.hpp), and so do ptolab's headers.
// expect: SetValidRow: the tile's valid row count is static; declare it DYNAMIC
#include <pto/pto-inst.hpp>
using namespace pto;
__global__ AICORE void k() {
    Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, DYNAMIC> t(64);
    t.SetValidRow(8);
}
