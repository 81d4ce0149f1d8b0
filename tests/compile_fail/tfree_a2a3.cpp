// A2A3 consumers free their entry in TPOP; there is no release channel.
// expect: TFREE is not available on A2A3
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
using P = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>;
void kernel(float* gm) {
    P pipe(gm);
    TFREE(pipe.cons);
}
