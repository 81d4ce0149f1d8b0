// The NCHW -> NC1HWC0 conversion is an A5 data mover; A2A3 loads NC1HWC0 as is.
// expect: TLOAD into a ConvTile: unsupported layout pair
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>> t;
    GlobalTensor<half, Shape<1, 1, 16, 4, 4>, Stride<256, 256, 16, 4, 1>, Layout::NCHW> g(p);
    TLOAD(t, g);
}
