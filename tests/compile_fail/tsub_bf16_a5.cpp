// TSUB on A5 takes no bfloat16_t (pto-isa docs/isa/TSUB.md).
// expect: TSUB: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 16, 64> a, b, c;
    TSUB(c, a, b);
}
