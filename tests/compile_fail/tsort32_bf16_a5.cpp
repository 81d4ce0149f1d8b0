// TSORT32 sorts half or float values on both targets.
// expect: TSORT32: dst and src must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 1, 32> src;
    Tile<TileType::Vec, uint32_t, 1, 32> idx;
    Tile<TileType::Vec, bfloat16_t, 1, 128> dst;
    TSORT32(dst, src, idx);
}
