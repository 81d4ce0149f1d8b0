// MX block-scaled GEMV is an A5 cube instruction.
// expect: TMATMUL_MX/TGEMV_MX: MX block-scaled matmul exists on A5 only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float8_e5m2_t, 1, 64> a;
    TileRight<float8_e5m2_t, 64, 32> b;
    TileLeftScale<float8_e8m0_t, 1, 2> sa;
    TileRightScale<float8_e8m0_t, 2, 32> sb;
    TileAcc<float, 1, 32> c;
    TGEMV_MX(c, a, sa, b, sb);
}
