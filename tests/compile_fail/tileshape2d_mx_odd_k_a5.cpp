// Scales pair up along k, so an MX shape helper needs an even K/32.
// expect: the scale count along k (K/32) must be even
#include <pto/pto-inst.hpp>
using namespace pto;
using E = float8_e8m0_t;
void kernel(__gm__ E* p) {
    GlobalTensor<E, TileShape2D<E, 16, 3, Layout::MX_A_ZZ>, BaseShape2D<E, 16, 3, Layout::MX_A_ZZ>, Layout::MX_A_ZZ> g(p);
    (void)g;
}
