// The MX cube pairs fp8 with fp8 and fp4 with fp4 (a5/TMatmul.hpp
// isSupportedFp8Combo/isSupportedFp4Combo), never one with the other.
// expect: TMATMUL_MX/TGEMV_MX: operands are float8_e4m3_t/float8_e5m2_t (any pair) or float4_e2m1x2_t/float4_e1m2x2_t (any pair) into a float Acc
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float4_e2m1x2_t, 16, 64> a;
    TileRight<float8_e4m3_t, 64, 64> b;
    TileLeftScale<float8_e8m0_t, 16, 2> sa;
    TileRightScale<float8_e8m0_t, 2, 64> sb;
    TileAcc<float, 16, 64> c;
    TMATMUL_MX(c, a, sa, b, sb);
}
