// A consumer tile narrower than the producer's would load no column block at all.
// expect: TPOP GM_FIFO->Vec: the consumer tile must be at least as wide as the producer's
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using Acc16x32 = TileAcc<float, 16, 32, 16, 32>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16x32, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    Vec16 v;
    TPOP(v, pipe);
}
