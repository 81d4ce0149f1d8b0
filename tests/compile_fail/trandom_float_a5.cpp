// TRANDOM writes int32_t or uint32_t words.
// expect: TRANDOM: dst must be int32_t or uint32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 4, 256> d;
    TRandomKey key = {1, 2};
    TRandomCounter ctr = {0, 0, 0, 0};
    TRANDOM(d, key, ctr);
}
