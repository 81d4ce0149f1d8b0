// A5 converts half only to HiFloat8 among the 8-bit floats (TCVT.md notes:
// "FP16 -> FP8_E4M3 and FP16 -> FP8_E5M2 are not supported").
// expect: TCVT: this source -> destination element type conversion is not supported
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, half, 16, 32> s;
    Tile<TileType::Vec, float8_e4m3_t, 16, 32> d;
    TCVT(d, s, RoundMode::CAST_RINT);
}
