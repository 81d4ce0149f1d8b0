// The scalar unit reads and writes UB only; a Mat (L1) tile has no GetValue.
// expect: Tile::GetValue: scalar access exists for Vec (UB) tiles only
#include <pto/pto-inst.hpp>
using namespace pto;
float kernel() {
    Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor> m;
    return m.GetValue(0);
}
