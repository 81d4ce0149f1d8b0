// The load reads the 5-D NC1HWC0 fractal feature map, not NCHW.
// expect: TIMG2COL reads a 5-D NC1HWC0 ConvTile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using Fmap = ConvTile<TileType::Mat, half, 4096, Layout::NCHW, ConvTileShape<1, 16, 4, 4>>;
    Fmap src;
    TileLeft<half, 16, 16> dst;
    TIMG2COL(dst, src, 0, 0);
}
