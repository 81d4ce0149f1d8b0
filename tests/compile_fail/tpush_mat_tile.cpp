// The Cube core pushes its accumulator, not an L1 tile.
// expect: TPUSH: the producer tile is an Acc tile (Cube core) or a Vec tile (Vector core)
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Mat16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    Mat16 m;
    TPUSH(m, pipe);
}
