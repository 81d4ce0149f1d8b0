// A5 TPOWS takes bfloat16 only with PowAlgorithm::HIGH_PRECISION.
// expect: TPOW/TPOWS: unsupported element type for this target and PowAlgorithm
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 16, 64> d, a, t;
    TPOWS(d, a, bfloat16_t(2.0f), t);
}
