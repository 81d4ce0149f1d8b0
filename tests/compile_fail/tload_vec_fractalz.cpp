// FRACTAL_Z weights have no rows x columns view for a plain tile.
// expect: convolution layouts load into a ConvTile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    Tile<TileType::Mat, half, 16, 16> t;
    GlobalTensor<half, Shape<1, 1, 1, 16, 16>, Stride<256, 256, 256, 16, 1>, Layout::FRACTAL_Z> g(p);
    TLOAD(t, g);
}
