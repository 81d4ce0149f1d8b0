// All TMRGSORT tiles share one element type.
// expect: TMRGSORT: all tiles must have the same element type
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using L = Tile<TileType::Vec, float, 1, 64>;
    using H = Tile<TileType::Vec, half, 1, 128>;
    using M = Tile<TileType::Vec, float, 1, 256>;
    L s0, s1;
    H s2;
    M tmp, dst;
    MrgSortExecutedNumList n;
    TMRGSORT<M, M, L, L, H, true>(dst, n, tmp, s0, s1, s2);
}
