// TPAIRREDUCESUM takes half and float only.
// expect: TPAIRREDUCESUM: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int32_t, 16, 64> d, a;
    TPAIRREDUCESUM(d, a);
}
