// The cube accumulates in float or int32 only; a half Acc tile is rejected.
// expect: 1024-byte (accumulator) fractals hold 4-byte elements only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<half, 32, 32> a;
    TileRight<half, 32, 32> b;
    TileAcc<half, 32, 32> c;
    TMATMUL(c, a, b);
}
