// A feature map reaches L0A through TIMG2COL, not TMOV.
// expect: moves out of a ConvTile read FRACTAL_Z or FRACTAL_Z_3D weights
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>> src;
    TileRight<half, 16, 16> dst;
    TMOV(dst, src);
}
