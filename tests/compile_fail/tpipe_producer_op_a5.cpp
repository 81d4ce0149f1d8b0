// A FIFO's producer is a store, a TMOV or a TINSERT; TLOAD only consumes.
// expect: TPipe: the producer operation must be TSTORE_C2GM_UFON, TSTORE_C2GM_UFOFF, TMOV_C2UB (Cube)
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
bool c2v = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TLOAD, TSyncOpType::TLOAD>::is_c2v;
