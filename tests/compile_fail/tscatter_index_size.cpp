// TSCATTER pairs 32-bit elements with 32-bit indices (16-bit with 16-bit).
// expect: TSCATTER: index size must match the element size
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 4, 64> dst, src;
    Tile<TileType::Vec, uint16_t, 4, 64> idx;
    TSCATTER(dst, src, idx);
}
