// A5 register-based vector code is not simulated; using a vector register type says so.
// expect: ptosim: A5 register-based vector code (vector_* registers
#include <pto/pto-inst.hpp>
void kernel() {
    vector_f16 v;
    (void)v;
}
