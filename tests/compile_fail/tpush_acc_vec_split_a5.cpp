// Two sub-blocks share the accumulator: each Vec tile is half of it.
// expect: TPUSH Acc->VEC_FIFO: with V2C1_VECS the Vec tile is the Acc tile split in rows
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::VEC_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TMOV_C2UB, TSyncOpType::NONE>;
void kernel() {
    Vec16 ring;
    P pipe(ring);
    Acc16 a;
    TPUSH(a, pipe);
}
