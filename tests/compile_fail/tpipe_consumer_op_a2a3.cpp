// On A2A3 every FIFO entry is read back from GM with TLOAD.
// expect: TPipe: on A2A3 the consumer operation must be TSyncOpType::TLOAD
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
bool c2v = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TSTORE_C2GM_UFOFF, TSyncOpType::NONE>::is_c2v;
