// A2A3 column arg-reductions read half, float, uint16_t or uint32_t; int8_t is A5-only.
// expect: TCOLARGMAX: unsupported source type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int8_t, 16, 64> src, tmp;
    Tile<TileType::Vec, uint32_t, 1, 64> dst;
    TCOLARGMAX(dst, src, tmp);
}
