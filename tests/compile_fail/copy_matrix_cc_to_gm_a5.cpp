// The twelve-argument copy_matrix_cc_to_gm is A2A3's.
// expect: copy_matrix_cc_to_gm: the twelve-argument form is A2A3's
#include <pto/pto-inst.hpp>
void kernel(float* gm) {
    copy_matrix_cc_to_gm(gm, reinterpret_cast<float*>(uintptr_t{0}), 0, 16, 16, 16, 16, 0, NoQuant, 0, false, true);
}
