// FMATRIX is configured from a ConvTile, which carries the feature-map geometry.
// expect: img2col configuration comes from a ConvTile in L1
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Mat, half, 16, 16> t;
    TSETFMATRIX(t);
}
