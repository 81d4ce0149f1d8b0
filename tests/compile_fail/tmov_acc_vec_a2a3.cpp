// The A2A3 Cube core has no path from L0C to a Vector core's UB.
// expect: unsupported tile pair for this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileAcc<float, 32, 32> acc;
    Tile<TileType::Vec, float, 32, 32> v;
    TMOV(v, acc);
}
