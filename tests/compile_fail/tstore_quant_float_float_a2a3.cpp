// A2A3 has no scaled float -> float fixpipe mode (A5's QF322F32_PRE).
// expect: A2A3 quantised TSTORE converts a float Acc
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(float* out) {
    TileAcc<float, 16, 16> acc;
    GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> g(out);
    TSTORE(g, acc, uint64_t{0x3f800000});
}
