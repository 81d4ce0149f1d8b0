// pybind11 module over the kernel libraries' extern "C" entry points. Python
// passes raw addresses (tensor.data_ptr(), the stream handle) as integers, so
// the module works the same with ptolab tensors and torch_npu tensors.
#include <pybind11/pybind11.h>

#include <cstdint>

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);
extern "C" void call_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c);
extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out);

namespace {
uint8_t* p(uintptr_t v) { return reinterpret_cast<uint8_t*>(v); }
void* s(uintptr_t v) { return reinterpret_cast<void*>(v); }
}  // namespace

PYBIND11_MODULE(pto_static_a2a3, m) {
    m.doc() = "A2A3 static single-core reference kernels: add, matmul, matmul_add";
    m.def("add", [](uint32_t bd, uintptr_t st, uintptr_t x, uintptr_t y, uintptr_t z) { call_add(bd, s(st), p(x), p(y), p(z)); },
          "z = x + y, 64x64 fp16");
    m.def("matmul", [](uint32_t bd, uintptr_t st, uintptr_t a, uintptr_t b, uintptr_t c) { call_matmul(bd, s(st), p(a), p(b), p(c)); },
          "c = a @ b, 64x64x64 fp16 -> fp32");
    m.def("matmul_add",
          [](uint32_t bd, uintptr_t st, uintptr_t a, uintptr_t b, uintptr_t d, uintptr_t ws, uintptr_t out) {
              call_matmul_add(bd, s(st), p(a), p(b), p(d), p(ws), p(out));
          },
          "out = a @ b + d, mix kernel; ws is a 64x64 fp32 workspace");
}
