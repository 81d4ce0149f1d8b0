// Element-wise operands share one element type.
// expect: TSUB: all operands must have the destination's element type
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> a, c;
    Tile<TileType::Vec, half, 16, 64> b;
    TSUB(c, a, b);
}
