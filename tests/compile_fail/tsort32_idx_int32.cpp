// TSORT32 indices are uint32_t.
// expect: TSORT32: the idx tile must be uint32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 1, 32> src;
    Tile<TileType::Vec, int32_t, 1, 32> idx;
    Tile<TileType::Vec, float, 1, 64> dst;
    TSORT32(dst, src, idx);
}
