// TFREE releases a FIFO entry; other objects have none.
// expect: TFREE(cons): cons must be a TPipe<...>::Consumer
#include <pto/pto-inst.hpp>
using namespace pto;
using Acc16 = TileAcc<float, 16, 16, 16, 16>;
using Vec16 = Tile<TileType::Vec, float, 16, 16>;
using Mat16 = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
void kernel() {
    int x = 0;
    TFREE(x);
}
