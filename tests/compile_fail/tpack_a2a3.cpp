// TPACK is an A5 instruction.
// expect: TPACK: an A5 instruction (A2A3 has no narrowing store; use TCVT)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint32_t, 8, 64> src;
    Tile<TileType::Vec, uint16_t, 8, 64> dst;
    TPACK(dst, src);
}
