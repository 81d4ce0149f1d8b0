// A2A3's vreducev2 gathers 16- and 32-bit elements only.
// expect: TGATHER (mask pattern): unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using T = Tile<TileType::Vec, int8_t, 4, 64>;
    T src, dst;
    TGATHER<T, T, MaskPattern::P0101>(dst, src);
}
