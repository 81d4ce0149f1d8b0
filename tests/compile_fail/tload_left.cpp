// GM data reaches L0A only through L1 (TLOAD into Mat, then TMOV/TEXTRACT).
// expect: TLOAD: the destination must be a Vec (UB) or Mat (L1) tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    TileLeft<half, 32, 32> l;
    GlobalTensor<half, Shape<1, 1, 1, 32, 32>, Stride<1, 1, 1, 32, 1>> g(p);
    TLOAD(l, g);
}
