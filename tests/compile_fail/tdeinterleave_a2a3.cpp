// TDeInterleave exists on A5 only.
// expect: TINTERLEAVE/TDEINTERLEAVE: A5-only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 4, 64> d0, d1, s0, s1;
    TDEINTERLEAVE(d1, d0, s1, s0);
}
