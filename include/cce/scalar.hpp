// bisheng's scalar builtins shared by ptolab's own headers and the
// executed-pto-isa build: min/max, annotations, instruction-cache preloads,
// the system counter, trap and cce::printf. Device code only: both kernel
// preludes (pto/common/cce_builtins.hpp, cce/bisheng.hpp) include it.
#pragma once
#include <cce/sync.hpp>
#include <ptosim/core.hpp>

#include <cstdint>
#include <type_traits>

// bisheng's device min/max accept mixed operand types. std::min is more
// specialised than these, so with `using namespace std` it wins for
// same-typed operands (same result) and the call is never ambiguous.
template <class A, class B>
constexpr std::common_type_t<A, B> min(A a, B b) {
    return b < a ? std::common_type_t<A, B>(b) : std::common_type_t<A, B>(a);
}
template <class A, class B>
constexpr std::common_type_t<A, B> max(A a, B b) {
    return a < b ? std::common_type_t<A, B>(b) : std::common_type_t<A, B>(a);
}

// Parameter-direction and task-function annotations for bisheng's code
// generator; they change nothing about what a function computes.
#ifndef __in__
#define __in__
#endif
#ifndef __out__
#define __out__
#endif
#ifndef __inout__
#define __inout__
#endif
#ifndef __tf__
#define __tf__
#endif
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __cce_get_tile_ptr
#define __cce_get_tile_ptr
#endif

// bisheng's function-attribute spelling `[aicore] inline T f()`: with aicore
// an empty bracket pair it reads as the standard empty attribute `[[]]`.
#ifndef aicore
#define aicore []
#endif

// Instruction-cache preloading (preload, get_icache_prl_st): the simulator
// has no instruction cache, so a preload completes at once.
inline void preload(const void*, int64_t = 0) {}
inline int64_t get_icache_prl_st() { return 0; }

// The system counter. ptosim has no clock of its own yet, so the counter is
// the number of instructions and intrinsics this core has dispatched:
// monotonic and deterministic, which is what kernels use it for (ordering,
// seeds, elapsed-work measurements); it is not device cycles.
inline int64_t get_sys_cnt() { return static_cast<int64_t>(ptosim::sys_cnt(ptosim::core())); }

// Scalar bit helpers: x with bit `bit` cleared / set.
inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(uint64_t{1} << bit); }
inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | (uint64_t{1} << bit); }

// trap() stops the core with a fault at the caller's line, like the device
// exception it raises on hardware.
inline void trap(ptosim_cce::where_t where = ptosim_cce::where_t::current()) {
    ptosim::fault(ptosim_cce::here(where), "trap() called by the kernel: the core stops here, as on the device");
}

namespace cce {
// Device printf: ptosim::device_printf (stdout at once, or in core order when
// a launch runs on several host threads; bisheng buffers it until the kernel
// ends; the text is the same).
template <class... Args>
inline int printf(const char* format, Args... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    if constexpr (sizeof...(Args) == 0) return ptosim::device_printf("%s", format);
    else return ptosim::device_printf(format, ptosim_cce::vararg(args)...);
#pragma GCC diagnostic pop
}
}  // namespace cce
