// The compare form of TGATHER supports CmpMode::GT and CmpMode::EQ only.
// expect: TGATHER (compare): only CmpMode::GT and CmpMode::EQ
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    using D = Tile<TileType::Vec, int32_t, 4, 64>;
    using S = Tile<TileType::Vec, float, 4, 64>;
    using K = Tile<TileType::Vec, int32_t, 1, 8>;
    using U = Tile<TileType::Vec, uint8_t, 4, 64>;
    D dst;
    S src;
    K k;
    K cnt;
    U tmp;
    TGATHER<D, S, K, K, U, CmpMode::LT>(dst, src, k, cnt, tmp, 0);
}
