// A5 register-based vector intrinsics are not simulated; calling one says so.
// expect: ptosim: A5 register-based vector intrinsics (vlds, vsts, vadd
#include <pto/pto-inst.hpp>
void kernel(float* dst, float* a, float* b) {
    vadd(dst, a, b);
}
