// A5 dropped the direct int32 -> fp16 conversion.
// expect: TCVT: this source -> destination element type conversion is not supported
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> s;
    Tile<TileType::Vec, half, 16, 64> d;
    TCVT(d, s, RoundMode::CAST_RINT);
}
