// A Vector core cannot push into the Vector cores' own UB FIFO.
// expect: TPUSH: a Vec tile goes into a GM_FIFO or a MAT_FIFO
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::VEC_FIFO, 2, 1, Vec16, Vec16, TSyncOpType::TINSERT_V2L1, TSyncOpType::NONE>;
void kernel() {
    Vec16 ring;
    P pipe(ring);
    Vec16 v;
    TPUSH(v, pipe);
}
