// A2A3's bias table loader widens half only; a bfloat16_t bias needs A5.
// expect: only moves out of Acc and half (A5 also bfloat16_t) -> float Bias moves convert
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Mat, bfloat16_t, 1, 32, BLayout::RowMajor, 1, 32> m;
    TileBias<float, 32> b;
    TMOV(b, m);
}
