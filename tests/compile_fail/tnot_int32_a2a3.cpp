// A2A3 TNOT takes 16-bit integers only.
// expect: TNOT: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> a, b;
    TNOT(b, a);
}
