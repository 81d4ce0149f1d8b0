// A2A3's img2col load moves int8_t, half, bfloat16_t and float only.
// expect: TIMG2COL element type unsupported on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using Fmap = ConvTile<TileType::Mat, int16_t, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>>;
    Fmap src;
    TileLeft<int16_t, 16, 16> dst;
    TIMG2COL(dst, src, 0, 0);
}
