// A5's high-precision TPOW is for half, float and bfloat16 only.
// expect: TPOW/TPOWS: unsupported element type for this target and PowAlgorithm
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> d, a, b, t;
    TPOW<PowAlgorithm::HIGH_PRECISION>(d, a, b, t);
}
