// The A5 TCMP mask is made of 32-bit words.
// expect: TCMP: the mask destination holds uint8_t on A2A3 and uint32_t on A5
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> a, b;
    Tile<TileType::Vec, uint8_t, 16, 32> mask;
    TCMP(mask, a, b, CmpMode::GT);
}
