// The quantising store writes the same layouts as the plain accumulator store.
// expect: quantised TSTORE writes an ND or NZ global tensor (on A2A3 also NC1HWC0
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(int8_t* p) {
    TileAcc<float, 16, 32> acc;
    GlobalTensor<int8_t, Shape<1, 32, 1, 4, 4>, Stride<512, 16, 16, 4, 1>, Layout::NCDHW> g(p);
    TSTORE(g, acc, static_cast<uint64_t>(0));
}
