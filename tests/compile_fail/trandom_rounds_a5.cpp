// TRANDOM runs 7 or 10 Philox rounds.
// expect: TRANDOM: Rounds must be 7 or 10
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint32_t, 4, 256> d;
    TRandomKey key = {1, 2};
    TRandomCounter ctr = {0, 0, 0, 0};
    TRANDOM<8>(d, key, ctr);
}
