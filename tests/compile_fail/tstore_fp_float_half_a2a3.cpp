// A2A3 converts per-column (vector) parameters from a float accumulator to 8-bit outputs only.
// expect: A2A3 quantised TSTORE converts a float Acc
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* out) {
    TileAcc<float, 16, 16> acc;
    Tile<TileType::Scaling, uint64_t, 1, 16> fp;
    GlobalTensor<half, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> g(out);
    TSTORE_FP(g, acc, fp);
}
