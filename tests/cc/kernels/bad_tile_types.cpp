// Deliberately broken: TADD on line 9 mixes element types, which a static_assert
// in ptolab's headers rejects inside a template instantiation.
#include <pto/pto-inst.hpp>
using namespace pto;

__global__ AICORE void bad_types() {
    Tile<TileType::Vec, float, 8, 8> a, b;
    Tile<TileType::Vec, int32_t, 8, 8> c;
    TADD(c, a, b);
}
