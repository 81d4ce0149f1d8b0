// Symmetric int8 quantisation writes int8_t (npu/a2a3/TQuant.hpp).
// expect: TQUANT<INT8_SYM>: the destination must be int8_t
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint8_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> scale;
    TQUANT<QuantType::INT8_SYM>(dst, src, scale);
}
