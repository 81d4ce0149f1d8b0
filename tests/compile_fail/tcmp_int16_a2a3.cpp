// A2A3 compares int32, half and float tiles only.
// expect: TCMP: unsupported source element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int16_t, 16, 64> a, b;
    Tile<TileType::Vec, uint8_t, 16, 32> mask;
    TCMP(mask, a, b, CmpMode::LT);
}
