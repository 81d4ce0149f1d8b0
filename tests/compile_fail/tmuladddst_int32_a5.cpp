// TMULADDDST takes half and float only.
// expect: TMULADDDST: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> d, a, b;
    TMULADDDST(d, a, b);
}
