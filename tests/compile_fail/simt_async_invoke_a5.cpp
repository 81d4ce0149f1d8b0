// A5 SIMT vector functions are not simulated; starting one says so.
// expect: ptosim: A5 SIMT vector functions (__simt_vf__ started with cce::async_invoke) are not simulated
#include <pto/pto-inst.hpp>
__simt_vf__ AICORE LAUNCH_BOUND(1024) void simt_body(float* p) { p[0] = 1.0f; }
void kernel(float* p) {
    cce::async_invoke<simt_body>(cce::dim3{32, 4}, p);
}
