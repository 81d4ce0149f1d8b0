// Entries are addressed as tile id % Depth.
// expect: TPipe: the FIFO depth must be at least 1
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
bool c2v = TPipe<0, FIFOType::GM_FIFO, 0, 1, Acc16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::TLOAD>::is_c2v;
