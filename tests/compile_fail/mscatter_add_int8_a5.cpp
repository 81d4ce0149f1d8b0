// A5's SIMT atomicAdd takes int32, uint32, float, half and bfloat16 only.
// expect: MSCATTER: this atomic op does not support the element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ int8_t* p) {
    GlobalTensor<int8_t, Shape<1, 1, 1, 16, 32>, Stride<512, 512, 512, 32, 1>> table(p);
    Tile<TileType::Vec, int8_t, 4, 32> src;
    Tile<TileType::Vec, int32_t, 4, 32> idx;
    MSCATTER<Coalesce::Elem, ScatterAtomicOp::Add>(table, src, idx);
}
