// The bias row must have the accumulator's element type (float here); the
// public TGEMV.md example's half bias is rejected by the implementation.
// expect: TGEMV_BIAS: the bias must be a one-row Bias tile of the accumulator's element type
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<half, 1, 16> a;
    TileRight<half, 16, 16> b;
    Tile<TileType::Bias, half, 1, 16> bias;
    TileAcc<float, 1, 16> c;
    TGEMV_BIAS(c, a, b, bias);
}
