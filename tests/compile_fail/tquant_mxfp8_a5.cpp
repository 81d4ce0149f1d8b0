// The form with exponent, maximum and scaling tiles quantises to MX fp8 only.
// expect: TQUANT with exponent, maximum and scaling tiles is the QuantType::MXFP8 form
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float8_e4m3_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float8_e8m0_t, 1, 32> exp;
    Tile<TileType::Vec, float, 1, 32> mx;
    TQUANT<QuantType::INT8_SYM, decltype(dst), decltype(src), decltype(exp), decltype(mx)>(dst, src, &exp, &mx, &src);
}
