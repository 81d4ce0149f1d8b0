// A2A3's fixpipe writes NC1HWC0 convolution outputs; NCHW is A5's NZ->DN store.
// expect: Acc tiles to ND or NZ, on A2A3 also NC1HWC0, on A5 also NHWC, NCHW and NCDHW
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(float* p) {
    TileAcc<float, 16, 16> acc;
    GlobalTensor<float, Shape<1, 1, 16, 4, 4>, Stride<256, 256, 16, 4, 1>, Layout::NCHW> g(p);
    TSTORE(g, acc);
}
