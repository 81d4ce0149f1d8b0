// What the executed-pto-isa build adds to the builtins both preludes share
// (cce/scalar.hpp, cce/sync.hpp): entry attributes, the uint32_t
// get_block_idx pto-isa declares, and the conversions of local-memory and GM
// pointers the intrinsic wrappers use (docs/intrinsics/README.md).
#pragma once
#include <cce/types.hpp>
#include <cce/scalar.hpp>
#include <ptosim/cce.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

// Entry attributes for bisheng's code generator; they change nothing about
// what a function computes.
#define __global__
#define __aicore__
// Kernel-type attributes (CANN: __vector__, __cube__, __mix__(cube, vec));
// ptocc reads them to choose the cores a kernel built without a core-type
// suffix runs on (docs/ptocc.md, "Kernel type"). They compute nothing.
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube, vec)
#endif

typedef half float16_t;

// LLVM 14 lowers __fp16 conversions on x86 to these runtime calls (the
// binary16 value as its 16 bits), which neither libgcc nor the C library
// provides; the kernel image carries its own, on ptosim's conversions. Weak,
// so every translation unit of a kernel may define them.
extern "C" {
__attribute__((weak, used, visibility("hidden"))) float __gnu_h2f_ieee(uint16_t h) {
    return ptosim::half_bits_to_float(h);
}
__attribute__((weak, used, visibility("hidden"))) uint16_t __gnu_f2h_ieee(float f) {
    return ptosim::float_to_half_bits(f);
}
// A double rounds once: to float rounded to odd, whose nearest-even
// rounding to binary16 is the double's.
__attribute__((weak, used, visibility("hidden"))) uint16_t __truncdfhf2(double d) {
    float f = static_cast<float>(d);
    if (__builtin_isfinite(f) && static_cast<double>(f) != d) {
        if (__builtin_fabs(static_cast<double>(f)) > __builtin_fabs(d)) f = __builtin_nextafterf(f, 0.0f);
        f = __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, f) | 1u);
    }
    return ptosim::float_to_half_bits(f);
}
}
typedef uint16_t aclFloat16;  // acl_base.h's raw 16-bit pattern (must match ptolab's acl headers)

namespace ptosim_cce {
// What a not-yet-simulated intrinsic "returns": it faults first, so the value
// is never used; it converts to whatever the call site expects.
struct Unsimulated {
    template <class T>
    operator T() const { return T{}; }
};
// The offset a local-memory pointer holds (the device's address in its buffer).
template <class P>
inline uint64_t off(P* p) { return static_cast<uint64_t>((uintptr_t)p); }
// A GM pointer as the host address it is.
template <class P>
inline void* host(P* p) { return (void*)p; }
// A scalar operand's bytes as the element type T (low bytes).
template <class T, class S>
inline uint64_t scalar_bits(S s) {
    const T v = static_cast<T>(s);
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &v, sizeof(T));
    return bits;
}
}  // namespace ptosim_cce

// pto-isa declares get_block_idx() as returning uint32_t; so does this.
inline uint32_t get_block_idx() { return static_cast<uint32_t>(ptosim::core().block_idx); }

// The address-update modes of the Cube's load_* intrinsics.
namespace __cce_scalar {
enum addr_cal_mode_t : int { inc = 0, dec = 1 };
}  // namespace __cce_scalar
// pto-isa at cannmirror defdb75f names it unqualified (npu/a2a3/TExtract.hpp:
// addr_cal_mode_t(0)), later trees qualified; bisheng takes both.
using __cce_scalar::addr_cal_mode_t;
