// img2col feeds the Cube's left operand: the destination is L0A only.
// expect: TIMG2COL writes a Left (L0A) tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using Fmap = ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>>;
    Fmap src;
    Tile<TileType::Mat, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512> dst;
    TIMG2COL(dst, src, 0, 0);
}
