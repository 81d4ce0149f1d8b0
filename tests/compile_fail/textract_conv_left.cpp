// FRACTAL_Z weights are the right-hand matrix of a convolution's matmul.
// expect: TMOV/TEXTRACT from a ConvTile: the destination must be a Right tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 8192, Layout::FRACTAL_Z, ConvTileShape<2, 1, 16, 16>> src;
    TileLeft<half, 16, 32> dst;
    TEXTRACT(dst, src, 0, 0);
}
