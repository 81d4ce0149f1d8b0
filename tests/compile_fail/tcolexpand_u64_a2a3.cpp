// 64-bit broadcasts are not simulated.
// expect: TCOLEXPAND: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint64_t, 16, 64> dst;
    Tile<TileType::Vec, uint64_t, 1, 64> src;
    TCOLEXPAND(dst, src);
}
