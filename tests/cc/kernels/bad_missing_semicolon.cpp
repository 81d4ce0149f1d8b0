// Deliberately broken: line 12 lacks its ';', so the compiler's first error
// is at the TLOAD on line 13, whose tokens come from a call-site macro.
#include <pto/pto-inst.hpp>
using namespace pto;

__global__ AICORE void bad_semicolon(__gm__ float* x) {
    using G = GlobalTensor<float, Shape<1, 1, 1, 8, 8>, Stride<1, 1, 1, 8, 8>>;
    using V = Tile<TileType::Vec, float, 8, 8>;
    G g(x);
    V a;
    TASSIGN(a, 0);
    int unused = 1
    TLOAD(a, g);
}
