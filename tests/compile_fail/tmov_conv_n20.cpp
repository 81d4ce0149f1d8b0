// Read as a Zn matrix, the weights' N must fill whole 16-column fractals.
// expect: a weight ConvTile's N must be a multiple of 16
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 8192, Layout::FRACTAL_Z, ConvTileShape<1, 3, 3, 20, 16>> src;
    TileRight<half, 144, 20> dst;
    TMOV(dst, src);
}
