// fp4 MX operands are documented for A5 but not simulated; they are refused
// rather than computed wrongly.
// expect: fp4 (float4_e2m1x2_t, float4_e1m2x2_t) operands are not simulated
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float4_e2m1x2_t, 16, 64> a;
    TileRight<float4_e2m1x2_t, 64, 64> b;
    TileLeftScale<float8_e8m0_t, 16, 2> sa;
    TileRightScale<float8_e8m0_t, 2, 64> sb;
    TileAcc<float, 16, 64> c;
    TMATMUL_MX(c, a, sa, b, sb);
}
