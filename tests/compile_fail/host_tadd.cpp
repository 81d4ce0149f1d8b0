// Host code (no kernel target) sees PTO's element types and enums, not its
// tiles or instructions.
// expect: 'TADD' is not a member of 'pto'
#include <pto/pto-inst.hpp>
void host(int t) {
    pto::TADD(t, t, t);
}
