// A5 has no L1 -> GM store path.
// expect: A5 does not
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    Tile<TileType::Mat, half, 32, 32> m;
    GlobalTensor<half, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> g(p);
    TSTORE(g, m);
}
