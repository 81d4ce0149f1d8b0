// TTRI masks are 16- or 32-bit elements.
// expect: TTRI: unsupported element type
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using T = Tile<TileType::Vec, int8_t, 16, 64>;
    T dst;
    TTRI<T, 0>(dst, 0);
}
