// Kernel with CCE assembly for ptocc's tests: the idioms public kernels use
// (read PC and the system counter, spin on nop) and one statement ptosim
// cannot run. Build: ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec device_asm.cpp
#include <pto/pto-inst.hpp>
using namespace pto;

__global__ AICORE void asm_idioms(__gm__ uint64_t* out) {
    uint64_t pc = 7, before = 0, after = 0;
    asm volatile("MOV %0, PC\n" : "+l"(pc));
    asm volatile("MOV %0, SYS_CNT\n" : "+l"(before));
    using V = Tile<TileType::Vec, float, 8, 8>;
    V a;
    TASSIGN(a, 0);
    TEXPANDS(a, 1.0f);
    asm("nop");
    asm volatile("MOV %0, SYS_CNT\n" : "+l"(after));
    out[0] = pc;
    out[1] = after - before;
}

__global__ AICORE void asm_unknown(__gm__ uint64_t* out) {
    uint64_t v = 0;
    asm volatile("LD %0, [%1]" : "=l"(v) : "l"(out));
    out[0] = v;
}

extern "C" void call_asm_idioms(void* stream, uint64_t* out) { asm_idioms<<<1, nullptr, stream>>>(out); }
extern "C" void call_asm_unknown(void* stream, uint64_t* out) { asm_unknown<<<1, nullptr, stream>>>(out); }
