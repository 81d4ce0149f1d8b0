// TCOLPROD has no 8-bit types, even on A5.
// expect: TCOLPROD: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> src;
    Tile<TileType::Vec, int8_t, 1, 64> dst;
    TCOLPROD(dst, src);
}
