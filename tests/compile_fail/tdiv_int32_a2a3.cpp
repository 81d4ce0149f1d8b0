// A2A3 TDIV divides half and float only.
// expect: TDIV: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> a, b, c;
    TDIV(c, a, b);
}
