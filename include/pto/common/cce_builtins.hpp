// What bisheng gives every kernel translation unit without an include: the
// CCE intrinsics (pto/common/intrinsics.hpp), the parameter and task-function
// qualifiers, min/max, the system counter, memory barriers, cce::printf and
// trap. ptocc includes this header first in every kernel compile. Public kernels use them unqualified, so
// they live at global scope as in CCE. What each one does on the simulator
// and why: docs/api.md, "Device builtins".
#pragma once
#include <pto/common/type.hpp>
#include <cce/scalar.hpp>
#include <pto/common/intrinsics.hpp>
#include <pto/common/cce_dma.hpp>
#include <pto/common/cce_mx.hpp>
#include <ptosim/core.hpp>

#include <cmath>
#include <cstdio>
#include <source_location>
#include <type_traits>

#if PTOSIM_TARGET_A5
// A5's register-based vector programming model (vector_* registers, vlds /
// vsts / vadd ... under __VEC_SCOPE__) runs over ptosim's CCE intrinsic
// layer (include/cce/a5, docs/intrinsics/a5-vreg.md), which the
// executed-pto-isa build compiles with clang; ptolab's own tile-level
// headers, compiled here, do not carry it. The names exist so that code
// mentioning them compiles where it is never used; any use stops the build
// and names the build that runs it.
namespace ptosim_impl_vreg {
template <class T>
struct unsimulated_register {
    static_assert(sizeof(T) == 0,
                  "ptosim: A5 register-based vector code (vector_* registers, vlds/vsts/vadd... under __VEC_SCOPE__) "
                  "runs over ptosim's CCE intrinsic layer, not over ptolab's own PTO headers: build the kernel with "
                  "--pto-headers=pto-isa (or PTOCC_PTO_HEADERS=pto-isa), with a pto-isa tree on -I or none.");
};
template <class... T>
struct unsimulated_intrinsic {
    static_assert(sizeof...(T) < 0,
                  "ptosim: A5 register-based vector intrinsics (vlds, vsts, vadd, vcvt, pset_b*, ...) run over "
                  "ptosim's CCE intrinsic layer, not over ptolab's own PTO headers: build the kernel with "
                  "--pto-headers=pto-isa (or PTOCC_PTO_HEADERS=pto-isa), with a pto-isa tree on -I or none.");
    static void call() {}
};
}  // namespace ptosim_impl_vreg

#define PTOSIM_UNSIMULATED_VREG(name, elem) using name = ptosim_impl_vreg::unsimulated_register<elem>;
PTOSIM_UNSIMULATED_VREG(vector_bool, bool)
PTOSIM_UNSIMULATED_VREG(vector_u8, uint8_t)
PTOSIM_UNSIMULATED_VREG(vector_s8, int8_t)
PTOSIM_UNSIMULATED_VREG(vector_u16, uint16_t)
PTOSIM_UNSIMULATED_VREG(vector_s16, int16_t)
PTOSIM_UNSIMULATED_VREG(vector_u32, uint32_t)
PTOSIM_UNSIMULATED_VREG(vector_s32, int32_t)
PTOSIM_UNSIMULATED_VREG(vector_u64, uint64_t)
PTOSIM_UNSIMULATED_VREG(vector_s64, int64_t)
PTOSIM_UNSIMULATED_VREG(vector_f16, half)
PTOSIM_UNSIMULATED_VREG(vector_bf16, bfloat16_t)
PTOSIM_UNSIMULATED_VREG(vector_f32, float)
PTOSIM_UNSIMULATED_VREG(vector_f8e4m3, float8_e4m3_t)
PTOSIM_UNSIMULATED_VREG(vector_f8e5m2, float8_e5m2_t)
PTOSIM_UNSIMULATED_VREG(vector_hif8, hifloat8_t)
PTOSIM_UNSIMULATED_VREG(vector_align, char)
PTOSIM_UNSIMULATED_VREG(vector_address, void*)
#undef PTOSIM_UNSIMULATED_VREG

#define PTOSIM_UNSIMULATED_INTRINSIC(name)                                \
    template <class... Args>                                              \
    inline void name(Args&&...) {                                         \
        ptosim_impl_vreg::unsimulated_intrinsic<Args...>::call();         \
    }
PTOSIM_UNSIMULATED_INTRINSIC(vlds)
PTOSIM_UNSIMULATED_INTRINSIC(vldas)
PTOSIM_UNSIMULATED_INTRINSIC(vldus)
PTOSIM_UNSIMULATED_INTRINSIC(vsts)
PTOSIM_UNSIMULATED_INTRINSIC(vstas)
PTOSIM_UNSIMULATED_INTRINSIC(vstus)
PTOSIM_UNSIMULATED_INTRINSIC(vsstb)
PTOSIM_UNSIMULATED_INTRINSIC(vcvt)
PTOSIM_UNSIMULATED_INTRINSIC(vdup)
PTOSIM_UNSIMULATED_INTRINSIC(vbr)
PTOSIM_UNSIMULATED_INTRINSIC(vci)
PTOSIM_UNSIMULATED_INTRINSIC(vadd)
PTOSIM_UNSIMULATED_INTRINSIC(vadds)
PTOSIM_UNSIMULATED_INTRINSIC(vsub)
PTOSIM_UNSIMULATED_INTRINSIC(vmul)
PTOSIM_UNSIMULATED_INTRINSIC(vmuls)
PTOSIM_UNSIMULATED_INTRINSIC(vdiv)
PTOSIM_UNSIMULATED_INTRINSIC(vmax)
PTOSIM_UNSIMULATED_INTRINSIC(vmin)
PTOSIM_UNSIMULATED_INTRINSIC(vmins)
PTOSIM_UNSIMULATED_INTRINSIC(vabs)
PTOSIM_UNSIMULATED_INTRINSIC(vexp)
PTOSIM_UNSIMULATED_INTRINSIC(vexpdif)
PTOSIM_UNSIMULATED_INTRINSIC(vsqrt)
PTOSIM_UNSIMULATED_INTRINSIC(vand)
PTOSIM_UNSIMULATED_INTRINSIC(vor)
PTOSIM_UNSIMULATED_INTRINSIC(vxor)
PTOSIM_UNSIMULATED_INTRINSIC(vshl)
PTOSIM_UNSIMULATED_INTRINSIC(vshr)
PTOSIM_UNSIMULATED_INTRINSIC(vshls)
PTOSIM_UNSIMULATED_INTRINSIC(vshrs)
PTOSIM_UNSIMULATED_INTRINSIC(vsel)
PTOSIM_UNSIMULATED_INTRINSIC(vselr)
PTOSIM_UNSIMULATED_INTRINSIC(vtrc)
PTOSIM_UNSIMULATED_INTRINSIC(vmod)
PTOSIM_UNSIMULATED_INTRINSIC(vcmax)
PTOSIM_UNSIMULATED_INTRINSIC(vcgmax)
PTOSIM_UNSIMULATED_INTRINSIC(vintlv)
PTOSIM_UNSIMULATED_INTRINSIC(vdintlv)
PTOSIM_UNSIMULATED_INTRINSIC(vgatherb)
PTOSIM_UNSIMULATED_INTRINSIC(vscatter)
PTOSIM_UNSIMULATED_INTRINSIC(vbitsort)
PTOSIM_UNSIMULATED_INTRINSIC(pset_b8)
PTOSIM_UNSIMULATED_INTRINSIC(pset_b16)
PTOSIM_UNSIMULATED_INTRINSIC(pset_b32)
PTOSIM_UNSIMULATED_INTRINSIC(plt_b8)
PTOSIM_UNSIMULATED_INTRINSIC(plt_b16)
PTOSIM_UNSIMULATED_INTRINSIC(plt_b32)
PTOSIM_UNSIMULATED_INTRINSIC(pintlv_b16)
PTOSIM_UNSIMULATED_INTRINSIC(pdintlv_b8)
#undef PTOSIM_UNSIMULATED_INTRINSIC

// The register-scope marker, so that code under it parses up to the first use.
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif

// A5 SIMT vector functions (__simt_vf__ functions started with
// cce::async_invoke over a thread grid, warp reductions, __sync_workitems)
// are not simulated either: the names parse, and starting one stops the build.
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(threads)
#endif
namespace ptosim_impl_simt {
template <class... T>
struct unsimulated {
    static_assert(sizeof...(T) < 0,
                  "ptosim: A5 SIMT builtins (__cce_simt_get_TID_X/Y/Z, __sync_workitems, warp reductions) are not "
                  "simulated; ptosim runs the PTO tile instructions. Write the kernel with tile instructions, or build "
                  "it with bisheng for the device or CANN's simulator.");
    static uint32_t call() { return 0; }
};
}  // namespace ptosim_impl_simt
#define PTOSIM_UNSIMULATED_SIMT(name)                                   \
    template <class... Args>                                            \
    inline uint32_t name(Args&&...) {                                   \
        return ptosim_impl_simt::unsimulated<Args...>::call();          \
    }
PTOSIM_UNSIMULATED_SIMT(__cce_simt_get_TID_X)
PTOSIM_UNSIMULATED_SIMT(__cce_simt_get_TID_Y)
PTOSIM_UNSIMULATED_SIMT(__cce_simt_get_TID_Z)
PTOSIM_UNSIMULATED_SIMT(__sync_workitems)
PTOSIM_UNSIMULATED_SIMT(__builtin_cce_redux_add_f32)
#undef PTOSIM_UNSIMULATED_SIMT
// bisheng's scalar exponential builtin.
inline float __builtin_cce_expf(float x) { return std::exp(x); }
namespace cce {
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
};
template <auto Function, class... Args>
inline void async_invoke(dim3, Args&&...) {
    static_assert(sizeof...(Args) < 0,
                  "ptosim: A5 SIMT vector functions (__simt_vf__ started with cce::async_invoke) are not simulated; "
                  "ptosim runs the PTO tile instructions. Write the kernel with tile instructions, or build it with "
                  "bisheng for the device or CANN's simulator.");
}
}  // namespace cce
#endif
