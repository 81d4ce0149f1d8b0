// HiFloat8 multiplies only with HiFloat8 (A5 CheckMadValid); mixing it with
// an OCP fp8 operand is rejected.
// expect: TMATMUL: Left and Right element types must be the same
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<hifloat8_t, 16, 64> a;
    TileRight<float8_e4m3_t, 64, 32> b;
    TileAcc<float, 16, 32> c;
    TMATMUL(c, a, b);
}
