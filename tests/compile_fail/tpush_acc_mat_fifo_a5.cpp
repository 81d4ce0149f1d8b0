// The Cube core's accumulator cannot go into its own L1 FIFO.
// expect: TPUSH: an Acc tile goes into a GM_FIFO or a VEC_FIFO
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::MAT_FIFO, 2, 1, Acc16, Mat16, TSyncOpType::TMOV_C2UB, TSyncOpType::NONE>;
void kernel() {
    Mat16 ring;
    P pipe(ring);
    Acc16 a;
    TPUSH(a, pipe);
}
