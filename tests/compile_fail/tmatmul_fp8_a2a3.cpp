// fp8 matmul is an A5 cube feature; A2A3 rejects it at compile time.
// expect: TMATMUL/TGEMV: fp8 and hifloat8 operands need the A5 cube
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float8_e4m3_t, 16, 64> a;
    TileRight<float8_e4m3_t, 64, 32> b;
    TileAcc<float, 16, 32> c;
    TMATMUL(c, a, b);
}
