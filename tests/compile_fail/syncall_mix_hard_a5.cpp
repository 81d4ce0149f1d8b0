// A5 has no FFTS context for mix kernels, so the hardware Mix barrier does not exist there.
// expect: SYNCALL<SyncCoreType::Mix> in hardware mode is not supported on A5
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    SYNCALL<SyncCoreType::Mix>();
}
