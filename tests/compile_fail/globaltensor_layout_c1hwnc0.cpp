// C1HWNC0 is a layout name without simulated addressing.
// expect: GlobalTensor: the simulator supports the ND, DN, NZ, MX_A_ND/DN/ZZ, MX_B_ND/DN/NN, NC1HWC0
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(half* p) {
    GlobalTensor<half, Shape<1, 1, 1, 16, 16>, Stride<256, 256, 256, 16, 1>, Layout::C1HWNC0> g(p);
    (void)g;
}
