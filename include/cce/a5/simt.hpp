// A5's SIMT dialect: __simt_vf__ functions started by cce::async_invoke
// (Ascend C's asc_vf_call) over a thread block, and the built-in variables
// threadIdx, blockDim, blockIdx and gridDim; the GM atomics are
// cce/a5/atomic.hpp's. The body runs once per thread, thread after thread
// (x fastest), on the calling Vector core, as one vector-pipe record
// (docs/intrinsics/a5-simt.md); each thread runs on its own stack, so that it
// can wait at a block barrier or a warp sum for the others.
#pragma once
#include <cce/operands.hpp>
#include <ptosim/simt.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#ifndef __simt_callee__
#define __simt_callee__
#endif
// The register budget hint of a SIMT function (pto-isa's spelling and
// Ascend C's); it changes nothing a thread computes.
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(threads)
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(threads)
#endif

namespace ptosim_cce {
// One component of a built-in variable: read as a uint32_t, it asks the
// runtime for the running thread's value. Out of line, so that a read
// outside a SIMT body faults at the reading line.
template <ptosim::cce::SimtVar V, int Axis>
struct simt_index {
    [[gnu::noinline]] operator uint32_t() const {
        return ptosim::cce::simt_builtin(V, Axis, __builtin_return_address(0));
    }
};
template <ptosim::cce::SimtVar V>
struct simt_dim3 {
    simt_index<V, 0> x;
    simt_index<V, 1> y;
    simt_index<V, 2> z;
};
// What the runtime learns of an argument: UB and GM pointers (restrict or
// not), their constness and pointee size; anything else is no pointer.
template <class T>
struct simt_arg_of {
    static ptosim::cce::SimtArg get(const T&) { return {}; }
};
template <class T>
constexpr uint32_t simt_elem() {
    if constexpr (std::is_void_v<T>) return 1;
    else return sizeof(T);
}
#if defined(PTOSIM_CCE)
template <class T>
struct simt_arg_of<__ubuf__ T*> {
    static ptosim::cce::SimtArg get(__ubuf__ T* p) {
        return {ptosim::Space::UB, !std::is_const_v<T>, simt_elem<T>(), off(p)};
    }
};
#endif
// Over ptolab's own headers (GCC, no address spaces) __ubuf__ T* and
// __gm__ T* are the same type, so one of the two can be told: the GM one,
// since a GM pointer is a host address the SIMT body can dereference and a
// UB pointer, an offset into the core's buffer, is not (a body that
// dereferences one stops with the crash report's local-memory hint;
// docs/intrinsics/README.md, "One family list, two preludes").
template <class T>
struct simt_arg_of<__gm__ T*> {
    static ptosim::cce::SimtArg get(__gm__ T* p) {
#if !defined(PTOSIM_CCE)
        // A value inside the core's UB is a UB offset (a host address is
        // never that low): async_invoke refuses it below.
        const uint64_t at = static_cast<uint64_t>((uintptr_t)p);
        if (at < ptosim::core().mem_size[static_cast<int>(ptosim::Space::UB)])
            return {ptosim::Space::UB, !std::is_const_v<T>, simt_elem<T>(), at};
#endif
        return {ptosim::Space::GM, !std::is_const_v<T>, simt_elem<T>(), static_cast<uint64_t>((uintptr_t)host(p))};
    }
};
#if !defined(PTOSIM_CCE)
// A SIMT body over ptolab's own headers dereferences its pointers as the
// host's: a UB pointer, an offset into the core's buffer, cannot be one.
[[noreturn]] inline void simt_ub_argument(const void* caller, int index, uint64_t at) {
    char what[96];
    __builtin_snprintf(what, sizeof what, "argument %d holds %#llx, an offset into this core's UB", index + 1,
                       static_cast<unsigned long long>(at));
    ptosim::fault(ptosim::caller_loc(caller),
                  std::string("cce::async_invoke: ") + what +
                      " (a __ubuf__ pointer): over ptolab's own headers, built with GCC, which has no local address "
                      "spaces, a SIMT body cannot dereference a UB pointer; pass GM pointers, or build the kernel with "
                      "--pto-headers=pto-isa (docs/intrinsics/a5-simt.md)");
}
#endif
template <class T>
struct simt_arg_of<T* __restrict__> : simt_arg_of<T*> {};
template <class A>
ptosim::cce::SimtArg simt_arg(const A& a) {
    return simt_arg_of<std::remove_cv_t<A>>::get(a);
}
}  // namespace ptosim_cce
inline constexpr ptosim_cce::simt_dim3<ptosim::cce::SimtVar::ThreadIdx> threadIdx{};
inline constexpr ptosim_cce::simt_dim3<ptosim::cce::SimtVar::BlockDim> blockDim{};
inline constexpr ptosim_cce::simt_dim3<ptosim::cce::SimtVar::BlockIdx> blockIdx{};
inline constexpr ptosim_cce::simt_dim3<ptosim::cce::SimtVar::GridDim> gridDim{};

// bisheng's thread-index builtins (pto-isa's engram kernels read them).
[[gnu::noinline]] inline uint32_t __cce_simt_get_TID_X() {
    return ptosim::cce::simt_builtin(ptosim::cce::SimtVar::ThreadIdx, 0, __builtin_return_address(0));
}
[[gnu::noinline]] inline uint32_t __cce_simt_get_TID_Y() {
    return ptosim::cce::simt_builtin(ptosim::cce::SimtVar::ThreadIdx, 1, __builtin_return_address(0));
}
[[gnu::noinline]] inline uint32_t __cce_simt_get_TID_Z() {
    return ptosim::cce::simt_builtin(ptosim::cce::SimtVar::ThreadIdx, 2, __builtin_return_address(0));
}
// A barrier of the thread block and a warp's sum: the thread waits until
// every thread of its block (its warp) reached it (docs/intrinsics/a5-simt.md).
[[gnu::noinline]] inline void __sync_workitems() { ptosim::cce::simt_barrier(__builtin_return_address(0)); }
[[gnu::noinline]] inline float __builtin_cce_redux_add_f32(float v) {
    return ptosim::cce::simt_warp_sum(v, __builtin_return_address(0));
}
// e^x in a SIMT body, as the vector pipe's vexp gives it: the exact value
// rounded once to float.
inline float __builtin_cce_expf(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

namespace cce {
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
};
// Starts Kernel over the dims.x x dims.y x dims.z thread block. Each thread
// gets its own copy of the arguments (asc_vf_call passes raw pointers and
// scalars by value). Out of line: its return address is the starting line.
template <auto Kernel, class... A>
[[gnu::noinline]] void async_invoke(const dim3& dims, A&&... args) {
    auto held = std::forward_as_tuple(args...);
    using Held = decltype(held);
    const uint32_t d[3] = {dims.x, dims.y, dims.z};
    const ptosim::cce::SimtArg described[sizeof...(A) + 1] = {ptosim_cce::simt_arg(args)..., {}};
#if !defined(PTOSIM_CCE)
    for (int i = 0; i < static_cast<int>(sizeof...(A)); ++i)
        if (described[i].space == ptosim::Space::UB)
            ptosim_cce::simt_ub_argument(__builtin_return_address(0), i, described[i].at);
#endif
    ptosim::cce::simt_run(
        __builtin_return_address(0), __PRETTY_FUNCTION__, d, described, static_cast<int>(sizeof...(A)),
        [](void* p) { std::apply([](auto&... a) { Kernel(a...); }, *static_cast<Held*>(p)); }, &held);
}
}  // namespace cce
