// The MX fp8 form of TQUANT is declared but not simulated.
// expect: TQUANT<QuantType::MXFP8>: MX fp8 quantisation is not simulated
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float8_e4m3_t, 16, 64> dst;
    Tile<TileType::Vec, float, 16, 64> src;
    Tile<TileType::Vec, float8_e8m0_t, 1, 32> exp;
    Tile<TileType::Vec, float, 1, 32> mx, scaling;
    TQUANT<QuantType::MXFP8, decltype(dst), decltype(src), decltype(exp), decltype(mx)>(dst, src, &exp, &mx, &scaling);
}
