// Weights in L1 hold 32-byte C0 blocks: 16 halves.
// expect: the weight ConvTile's last dimension is C0: 32 bytes of elements
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 8192, Layout::FRACTAL_Z, ConvTileShape<2, 1, 16, 8>> src;
    TileRight<half, 16, 16> dst;
    TMOV(dst, src);
}
