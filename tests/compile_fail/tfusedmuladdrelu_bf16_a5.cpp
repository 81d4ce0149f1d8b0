// TFUSEDMULADDRELU takes half and float only.
// expect: TFUSEDMULADDRELU: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, bfloat16_t, 16, 64> d, a, b;
    TFUSEDMULADDRELU(d, a, b);
}
