// ptolab's own PTO headers do not carry A5's register layer; using a vector register type names the build that does.
// expect: ptosim: A5 register-based vector code (vector_* registers, vlds/vsts/vadd... under __VEC_SCOPE__) runs over ptosim's CCE intrinsic layer, not over ptolab's own PTO headers: build the kernel with --pto-headers=pto-isa
#include <pto/pto-inst.hpp>
void kernel() {
    vector_f16 v;
    (void)v;
}
