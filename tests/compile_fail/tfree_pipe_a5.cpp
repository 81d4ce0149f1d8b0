// TFREE works on the consumer object, as in pto-isa.
// expect: TFREE takes the pipe's consumer, TFREE(pipe.cons)
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    TFREE(pipe);
}
