// A TSUBVIEW keeps the source's row stride, so the static shapes must match.
// expect: TSUBVIEW: dst and src must have the same static Rows and Cols
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 4, 64> src;
    Tile<TileType::Vec, float, 2, 32> view;
    TSUBVIEW(view, src, 0, 0);
}
