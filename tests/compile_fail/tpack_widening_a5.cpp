// TPACK only narrows: 4 -> 2, 4 -> 1 or 2 -> 1 bytes.
// expect: TPACK: packs 4-byte elements into 2- or 1-byte ones, or 2-byte into 1-byte
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, uint16_t, 8, 64> src;
    Tile<TileType::Vec, uint32_t, 8, 64> dst;
    TPACK(dst, src);
}
