// A vector tile stores through a rows x columns view, which FRACTAL_Z lacks.
// expect: this transfer takes an ND, DN or NZ GlobalTensor
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    Tile<TileType::Vec, half, 16, 16> t;
    GlobalTensor<half, Shape<1, 1, 1, 16, 16>, Stride<256, 256, 256, 16, 1>, Layout::FRACTAL_Z> g(p);
    TSTORE(g, t);
}
