// What the executed-pto-isa build adds to the builtins both preludes share
// (cce/scalar.hpp, cce/sync.hpp, cce/operands.hpp): entry attributes, the
// uint32_t get_block_idx pto-isa declares, the half conversion calls clang
// emits (docs/intrinsics/README.md).
#pragma once
#include <cce/types.hpp>
#include <cce/operands.hpp>
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

// pto-isa declares get_block_idx() as returning uint32_t; so does this.
inline uint32_t get_block_idx() { return static_cast<uint32_t>(ptosim::core().block_idx); }
