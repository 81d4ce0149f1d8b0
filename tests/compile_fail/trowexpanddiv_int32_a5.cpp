// Row-broadcast division takes half or float only.
// expect: TROWEXPANDDIV: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> dst, src0;
    Tile<TileType::Vec, int32_t, 16, 1, BLayout::ColMajor> src1;
    TROWEXPANDDIV(dst, src0, src1);
}
