// The A2A3 vector unit has no int8 addition.
// expect: TADD: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> a, b, c;
    TADD(c, a, b);
}
