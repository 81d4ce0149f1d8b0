// TFILLPAD needs a pad value on the destination tile type.
// expect: TFILLPAD: the destination tile type needs a PadValue
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> dst, src;
    TFILLPAD(dst, src);
}
