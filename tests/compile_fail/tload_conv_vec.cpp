// Convolution data is loaded into L1 for the cube.
// expect: TLOAD: a ConvTile destination must be in L1 (TileType::Mat)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    ConvTile<TileType::Vec, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>> t;
    GlobalTensor<half, Shape<1, 1, 4, 4, 16>, Stride<256, 256, 64, 16, 1>, Layout::NC1HWC0> g(p);
    TLOAD(t, g);
}
