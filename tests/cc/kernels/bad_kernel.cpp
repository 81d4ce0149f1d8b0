// Deliberately broken: line 9 uses an undeclared name, inside a file that
// also has a launch, so the diagnostic must survive the rewrite.
#include <pto/pto-inst.hpp>

__global__ AICORE void bad(__gm__ float* x) { (void)x; }

extern "C" void call_bad(uint32_t n, void* stream, uint8_t* x) {
    bad<<<n, nullptr, stream>>>((__gm__ float*)x);
    int y = undeclared_name_here;
}
