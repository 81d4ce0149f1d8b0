// Partial arg-reductions take half or float values.
// expect: TPARTARGMAX/TPARTARGMIN: the value tiles must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 16, 64> d, s0, s1;
    Tile<TileType::Vec, uint16_t, 16, 64> di, i0, i1;
    TPARTARGMIN(d, s0, s1, di, i0, i1);
}
