// TCI generates integer sequences only.
// expect: TCI: the element type must be int32_t, uint32_t, int16_t or uint16_t
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using T = Tile<TileType::Vec, float, 1, 64>;
    T dst;
    TCI<T, float, 0>(dst, 0.0f);
}
