// TMRGSORT lists are single-row tiles.
// expect: TMRGSORT: all tiles must have exactly one row (Rows == 1)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 2, 256> src, dst;
    TMRGSORT(dst, src, 64);
}
