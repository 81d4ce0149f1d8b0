// Deliberately broken: the launch on line 8 passes two kernel arguments to a
// one-parameter kernel; the second launch, tab-indented, passes none.
#include <pto/pto-inst.hpp>

__global__ AICORE void one_arg(__gm__ float* x) { (void)x; }

extern "C" void call_one_arg(uint32_t n, void* stream, uint8_t* x) {
    one_arg<<<n, nullptr, stream>>>((__gm__ float*)x, (__gm__ float*)x);
}

extern "C" void call_no_arg(uint32_t n, void* stream) {
	one_arg<<<n, nullptr, stream>>>();
}
