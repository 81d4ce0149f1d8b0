// TROWSUM sums half or float rows only.
// expect: TROWSUM: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> src, tmp;
    Tile<TileType::Vec, int32_t, 16, 1, BLayout::ColMajor> dst;
    TROWSUM(dst, src, tmp);
}
