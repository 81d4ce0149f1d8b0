// 8-bit TSELS exists on A5 only.
// expect: TSELS: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> dst, src;
    Tile<TileType::Vec, uint8_t, 16, 32> mask;
    TSELS(dst, mask, src, int8_t{1});
}
