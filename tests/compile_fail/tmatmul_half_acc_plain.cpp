// A half accumulator spelled without the 1024-byte fractal still fails the
// TMATMUL type check.
// expect: TMATMUL: supported (C, A, B) types
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<half, 32, 32> a;
    TileRight<half, 32, 32> b;
    Tile<TileType::Acc, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512> c;
    TMATMUL(c, a, b);
}
