// expect: TGET_SCALE_ADDR: MX scale stores exist on A5 only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileLeft<float8_e4m3_t, 16, 64> a;
    TileLeftScale<float8_e8m0_t, 16, 2> sa;
    TGET_SCALE_ADDR(sa, a);
}
