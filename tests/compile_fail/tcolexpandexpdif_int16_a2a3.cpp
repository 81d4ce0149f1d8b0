// The exp-diff broadcast takes half or float only.
// expect: TCOLEXPANDEXPDIF: unsupported element type on this target
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, int16_t, 16, 64> dst, src0;
    Tile<TileType::Vec, int16_t, 1, 64> src1;
    TCOLEXPANDEXPDIF(dst, src0, src1);
}
