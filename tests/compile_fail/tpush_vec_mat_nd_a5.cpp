// The UB -> L1 copy reads fractal (NZ) Vec tiles only.
// expect: TPUSH Vec->MAT_FIFO: the Vec tile must be NZ
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using Mat32 = Tile<TileType::Mat, float, 32, 16, BLayout::ColMajor, 32, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::MAT_FIFO, 2, 1, Vec16, Mat32, TSyncOpType::TINSERT_V2L1, TSyncOpType::NONE>;
void kernel() {
    Mat32 ring;
    P pipe(ring);
    Vec16 v;
    TPUSH(v, pipe);
}
