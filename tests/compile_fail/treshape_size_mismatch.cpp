// TRESHAPE only reinterprets: both views span the same bytes.
// expect: TRESHAPE: dst and src must span the same number of bytes
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float, 16, 32> dst;
    TRESHAPE(dst, src);
}
