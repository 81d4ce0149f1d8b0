// A2A3 has no atomic max/min on the store path (MSCATTER page, "Atomic Type Support").
// expect: MSCATTER: ScatterAtomicOp::Max/Min are A5-only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ int32_t* p) {
    GlobalTensor<int32_t, Shape<1, 1, 1, 16, 8>, Stride<128, 128, 128, 8, 1>> table(p);
    Tile<TileType::Vec, int32_t, 4, 8> src;
    Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, 4> idx;
    MSCATTER<Coalesce::Row, ScatterAtomicOp::Max>(table, src, idx);
}
