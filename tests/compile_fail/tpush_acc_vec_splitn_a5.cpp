// pto-isa's column split divides by ConsN / ProdN.
// expect: needs ConsN >= ProdN
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using Vec16x8 = Tile<TileType::Vec, float, 16, 8>;
using P = TPipe<0, FIFOType::VEC_FIFO, 2, 1, Acc16, Vec16x8, TSyncOpType::TMOV_C2UB, TSyncOpType::NONE>;
void kernel() {
    Vec16x8 ring;
    P pipe(ring);
    Acc16 a;
    TPUSH(a, pipe);
}
