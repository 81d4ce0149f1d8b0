// A ConvTile is filled from GM only.
// expect: TLOAD(convTile, src): src must be a GlobalTensor
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 4, 4, 16>> t;
    Tile<TileType::Mat, half, 16, 16> m;
    TLOAD(t, m);
}
