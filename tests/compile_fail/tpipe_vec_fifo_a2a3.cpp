// Only A5 can move an accumulator straight into UB.
// expect: TPipe: A2A3 FIFOs live in GM (FIFOType::GM_FIFO)
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
bool c2v = TPipe<0, FIFOType::VEC_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>::is_c2v;
