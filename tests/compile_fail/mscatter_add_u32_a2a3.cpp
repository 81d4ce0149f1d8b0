// A2A3's atomic add takes signed integers and floats only.
// expect: MSCATTER: this atomic op does not support the element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ uint32_t* p) {
    GlobalTensor<uint32_t, Shape<1, 1, 1, 16, 8>, Stride<128, 128, 128, 8, 1>> table(p);
    Tile<TileType::Vec, uint32_t, 4, 8> src;
    Tile<TileType::Vec, int32_t, 4, 8> idx;
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Add>(table, src, idx);
}
