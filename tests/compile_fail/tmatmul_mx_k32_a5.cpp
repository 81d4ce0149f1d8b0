// The A5 MX cube consumes k in steps of 64 (two 32-element scale blocks).
// expect: TMATMUL_MX/TGEMV_MX: the Left tile's Cols (k) must be a multiple of 64
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float8_e4m3_t, 16, 32> a;
    TileRight<float8_e4m3_t, 32, 32> b;
    TileLeftScale<float8_e8m0_t, 16, 1> sa;
    TileRightScale<float8_e8m0_t, 1, 32> sb;
    TileAcc<float, 16, 32> c;
    TGEMV_MX(c, a, sa, b, sb);
}
