// pybind11 module over this directory's kernel libraries (AOT path): Python
// passes addresses and sizes as integers; block_dim is the caller's choice
// (see cases.py for the policy).
#include <pybind11/pybind11.h>

#include <cstdint>

extern "C" void call_add(uint32_t, void*, uint8_t* x, uint8_t* y, uint8_t* z, uint32_t rows);
extern "C" void call_matmul(uint32_t, void*, uint8_t* a, uint8_t* b, uint8_t* c, uint32_t m, uint32_t n, uint32_t k);
extern "C" void call_matmul_add(uint32_t, void*, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws, uint8_t* out,
                                uint32_t m, uint32_t n, uint32_t k);


namespace {
uint8_t* p(uintptr_t v) { return reinterpret_cast<uint8_t*>(v); }
void* s(uintptr_t v) { return reinterpret_cast<void*>(v); }
}  // namespace

PYBIND11_MODULE(pto_dynamic_a2a3, m) {
    m.doc() = "a2a3 dynamic multi-core reference kernels";
    m.def("add", [](uint32_t bd, uintptr_t st, uintptr_t x, uintptr_t y, uintptr_t z, uint32_t rows) {
        call_add(bd, s(st), p(x), p(y), p(z), rows);
    }, "z[rows,256] = x + y, fp16");
    m.def("matmul", [](uint32_t bd, uintptr_t st, uintptr_t a, uintptr_t b, uintptr_t c, uint32_t mm, uint32_t n, uint32_t k) {
        call_matmul(bd, s(st), p(a), p(b), p(c), mm, n, k);
    }, "c[m,n] = a[m,k] @ b[k,n], fp16 -> fp32, k a multiple of 64");
    m.def("matmul_add", [](uint32_t bd, uintptr_t st, uintptr_t a, uintptr_t b, uintptr_t d, uintptr_t ws, uintptr_t out,
                           uint32_t mm, uint32_t n, uint32_t k) {
        call_matmul_add(bd, s(st), p(a), p(b), p(d), p(ws), p(out), mm, n, k);
    }, "out = a @ b + d, mix kernel; ws holds block_dim 64x64 fp32 slots (unused on A5)");

}
