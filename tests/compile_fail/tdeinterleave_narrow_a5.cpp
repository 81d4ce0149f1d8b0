// The single-source TDeInterleave loads two 256-byte registers from one row.
// expect: TDEINTERLEAVE (single source): the source row must span at least two 256-byte vector registers
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 4, 64> d0, d1, src;
    TDeInterleave(d1, d0, src);
}
