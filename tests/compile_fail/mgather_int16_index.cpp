// MGATHER indices are int32_t or uint32_t.
// expect: MGATHER: indices must be int32_t or uint32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ float* p) {
    GlobalTensor<float, Shape<1, 1, 1, 16, 8>, Stride<128, 128, 128, 8, 1>> table(p);
    Tile<TileType::Vec, float, 4, 8> dst;
    Tile<TileType::Vec, int16_t, 4, 16> idx;
    MGATHER<Coalesce::Elem>(dst, table, idx);
}
