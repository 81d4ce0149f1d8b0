// int8 row maxima exist on A5 only.
// expect: TROWMAX: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> src, tmp;
    Tile<TileType::Vec, int8_t, 16, 1, BLayout::ColMajor> dst;
    TROWMAX(dst, src, tmp);
}
