// TEXP takes half or float.
// expect: TEXP: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> a, b;
    TEXP(b, a);
}
