// fp8 conversions exist on A5 only (pto-isa docs/isa/TCVT.md).
// expect: TCVT: this source -> destination element type conversion is not supported
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 32> s;
    Tile<TileType::Vec, float8_e4m3_t, 16, 32> d;
    TCVT(d, s, RoundMode::CAST_RINT);
}
