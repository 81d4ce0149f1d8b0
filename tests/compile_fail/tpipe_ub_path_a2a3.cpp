// A2A3 has no direct Cube <-> Vector path: its FIFOs go through GM.
// expect: TMOV_C2UB and TINSERT_V2L1 move data without GM and exist on A5 only
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
bool c2v = TPipe<0, FIFOType::GM_FIFO, 2, 1, Acc16, Vec16, TSyncOpType::TMOV_C2UB, TSyncOpType::TLOAD>::is_c2v;
