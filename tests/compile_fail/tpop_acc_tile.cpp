// Nothing pops into an accumulator.
// expect: TPOP: the consumer tile is a Vec tile (Vector core) or a Mat tile (Cube core)
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Vec16, Acc16, TSyncOpType::TSTORE_V2GM, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    Acc16 a;
    TPOP(a, pipe);
}
