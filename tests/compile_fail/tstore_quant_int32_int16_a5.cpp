// A5 dropped the int32 -> int16 shift mode of A2A3.
// expect: A5 quantised TSTORE converts a float Acc
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(int16_t* out) {
    TileAcc<int32_t, 16, 16> acc;
    GlobalTensor<int16_t, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> g(out);
    TSTORE(g, acc, uint64_t{2});
}
