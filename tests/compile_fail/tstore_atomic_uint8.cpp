// Atomic add into GM has no unsigned 8-bit mode (pto-isa's SetAtomicAdd: int8 only).
// expect: TSTORE: atomic add on 8-bit elements exists for int8_t only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(uint8_t* p) {
    Tile<TileType::Vec, uint8_t, 16, 32> t;
    GlobalTensor<uint8_t, Shape<1, 1, 1, 16, 32>, Stride<512, 512, 512, 32, 1>> g(p);
    TSTORE<decltype(t), decltype(g), AtomicType::AtomicAdd>(g, t);
}
