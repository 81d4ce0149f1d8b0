// A5's element atomics on GM: atomicAdd, atomicMax, atomicMin(addr, value),
// each returning the old value. pto-isa's A5 soft SYNCALL counts arrivals
// with atomicAdd(counter, 1) and polls with atomicAdd(counter, 0); its
// MSCATTER accumulates with them (docs/intrinsics/atomic.md, "A5").
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_ATOMIC_RMW(name, op)                                                                            \
    template <class T, class V>                                                                                    \
    inline T name(__gm__ T* addr, V value, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {              \
        const uint64_t old = ptosim::cce::atomic_rmw(ptosim_cce::here(w), #name, ptosim_cce::host(addr),          \
                                                     ptosim::cce::dt_of<T>(), ptosim_cce::scalar_bits<T>(value), op); \
        T v;                                                                                                       \
        __builtin_memcpy(&v, &old, sizeof(T));                                                                     \
        return v;                                                                                                  \
    }
PTOSIM_CCE_ATOMIC_RMW(atomicAdd, 0)
PTOSIM_CCE_ATOMIC_RMW(atomicMax, 1)
PTOSIM_CCE_ATOMIC_RMW(atomicMin, 2)
#undef PTOSIM_CCE_ATOMIC_RMW
