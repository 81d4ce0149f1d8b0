// TDEQUANT reads int8_t or int16_t codes only (TDEQUANT.md, "Supported Input Dtypes").
// expect: TDEQUANT: int8_t or int16_t source into a float destination
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> dst;
    Tile<TileType::Vec, int32_t, 16, 64> src;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> p;
    TDEQUANT(dst, src, p, p);
}
