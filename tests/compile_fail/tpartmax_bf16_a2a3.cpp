// bfloat16 partial ops exist on A5 only.
// expect: TPARTMAX: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 16, 64> dst, src0, src1;
    TPARTMAX(dst, src0, src1);
}
