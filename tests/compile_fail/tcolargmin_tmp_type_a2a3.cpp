// On A2A3 the column arg-reduction scratch tile has the source's element type.
// expect: TCOLARGMIN: on A2A3 the tmp tile must have the source's element type
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, half, 16, 64> src;
    Tile<TileType::Vec, float, 16, 64> tmp;
    Tile<TileType::Vec, int32_t, 1, 64> dst;
    TCOLARGMIN(dst, src, tmp);
}
