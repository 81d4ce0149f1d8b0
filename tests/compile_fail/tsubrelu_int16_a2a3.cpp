// TSUBRELU takes half and float only.
// expect: TSUBRELU: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int16_t, 16, 64> d, a, b;
    TSUBRELU(d, a, b);
}
