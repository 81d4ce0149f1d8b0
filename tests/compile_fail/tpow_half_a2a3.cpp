// A2A3 TPOW has no half (npu/a2a3/TPow.hpp: float and 8/16/32-bit integers).
// expect: TPOW/TPOWS: unsupported element type for this target and PowAlgorithm
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, half, 16, 64> d, a, b, t;
    TPOW(d, a, b, t);
}
