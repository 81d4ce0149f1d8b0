// MXFP8 is not an affine per-row quantisation: the scale/offset form rejects it.
// expect: TQUANT<QuantType::MXFP8>: the MX form takes exponent, maximum and scaling tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale;
    TQUANT<QuantType::MXFP8>(dst, src, scale);
}
