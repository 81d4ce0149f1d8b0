// TMRGSORT merges half or float structures.
// expect: TMRGSORT: tiles must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using L = Tile<TileType::Vec, int32_t, 1, 64>;
    using M = Tile<TileType::Vec, int32_t, 1, 128>;
    L s0, s1;
    M tmp, dst;
    MrgSortExecutedNumList n;
    TMRGSORT<M, M, L, L, false>(dst, n, tmp, s0, s1);
}
