// A producer tile narrower than the consumer's would store no column block at all.
// expect: TPUSH Vec->GM_FIFO: the producer tile must be at least as wide as the consumer's
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using Vec8x8 = Tile<TileType::Vec, float, 8, 8>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Vec8x8, Mat16, TSyncOpType::TSTORE_V2GM, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    Vec8x8 v;
    TPUSH(v, pipe);
}
