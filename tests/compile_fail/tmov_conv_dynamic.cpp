// The Zn view of the weights needs its rows and columns at compile time.
// expect: moves out of a ConvTile need its ConvTileShape to be static
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 8192, Layout::FRACTAL_Z, ConvTileShape<DYNAMIC, 1, 16, 16>> src(2);
    TileRight<half, 32, 16> dst;
    TMOV(dst, src);
}
