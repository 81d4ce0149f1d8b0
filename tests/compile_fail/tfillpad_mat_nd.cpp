// The Mat-tile form of TFILLPAD pads Nz L1 tiles only, as pto-isa's.
// expect: TFILLPAD on a Mat tile: the tile must be Nz (BLayout::ColMajor, SLayout::RowMajor)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Mat, half, 32, 32, BLayout::RowMajor, 32, 32, SLayout::NoneBox, 512, PadValue::Zero> m;
    TFILLPAD(m, m);
}
