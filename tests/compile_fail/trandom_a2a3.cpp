// pto-isa implements TRANDOM for A5 only.
// expect: TRANDOM: not available on A2A3
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint32_t, 4, 256> d;
    TRandomKey key = {1, 2};
    TRandomCounter ctr = {0, 0, 0, 0};
    TRANDOM(d, key, ctr);
}
