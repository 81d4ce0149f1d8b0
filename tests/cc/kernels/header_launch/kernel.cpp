// A kernel source whose launch of its own and whose headers' launch and
// device asm ptocc rewrites (docs/ptocc.md, "Launch syntax").
#include "launcher.hpp"

__global__ __aicore__ void twice(__gm__ int* out) { out[get_block_idx()] *= 2; }

extern "C" void call_header_launch(int* out, uint64_t* cycles, void* stream) {
    launch_fill_and_time<int>(out, cycles, 21, stream);
    twice<<<4, nullptr, stream>>>(out);
}
