// ptolab's own PTO headers do not carry A5's register layer; calling a register intrinsic names the build that does.
// expect: ptosim: A5 register-based vector intrinsics (vlds, vsts, vadd, vcvt, pset_b*, ...) run over ptosim's CCE intrinsic layer, not over ptolab's own PTO headers: build the kernel with --pto-headers=pto-isa
#include <pto/pto-inst.hpp>
void kernel(float* dst, float* a, float* b) {
    vadd(dst, a, b);
}
