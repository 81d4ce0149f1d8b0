// float values pair with 32-bit indices; 16-bit indices go with half.
// expect: TPARTARGMAX/TPARTARGMIN: the index type must be an integer of the value's size
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> d, s0, s1;
    Tile<TileType::Vec, int16_t, 16, 64> di, i0, i1;
    TPARTARGMAX(d, s0, s1, di, i0, i1);
}
