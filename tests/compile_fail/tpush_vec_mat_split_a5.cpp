// Each sub-block inserts one half of the Mat entry.
// expect: TPUSH Vec->MAT_FIFO: with V2C1_VECS each sub-block
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using Nz16 = Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::MAT_FIFO, 2, 1, Nz16, Mat16, TSyncOpType::TINSERT_V2L1, TSyncOpType::NONE>;
void kernel() {
    Mat16 ring;
    P pipe(ring);
    Nz16 v;
    TPUSH(v, pipe);
}
