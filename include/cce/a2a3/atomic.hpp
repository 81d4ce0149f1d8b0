// A2A3's scalar GM atomics (docs/intrinsics/atomic.md): set_st_atomic_cfg,
// st_atomic, ld_dev, and st_dev. The runtime side is src/sim/cce/atomic.cpp.
#pragma once
#include <cce/operands.hpp>

inline void set_st_atomic_cfg(atomic_type_t type, atomic_op_t op, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    using ptosim::cce::Dt;
    static constexpr Dt kTypes[] = {Dt::F32, Dt::F16, Dt::S16, Dt::S32, Dt::S8, Dt::BF16};
    ptosim::cce::set_st_atomic_cfg(ptosim_cce::here(w), kTypes[type], op);
}

template <class T, class V>
inline void st_atomic(V value, __gm__ T* addr, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::st_atomic(ptosim_cce::here(w), ptosim_cce::host(addr), ptosim_cce::scalar_bits<T>(value), sizeof(T));
}

// `offset` counts elements (pto-isa passes 0; not documented).
template <class T>
inline T ld_dev(__gm__ T* addr, int64_t offset, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    const uint64_t bits = ptosim::cce::ld_dev(ptosim_cce::here(w), ptosim_cce::host(addr + offset), sizeof(T));
    T v;
    __builtin_memcpy(&v, &bits, sizeof(T));
    return v;
}

// A store past the data cache; `offset` counts elements, as ld_dev's.
template <class V, class T>
inline void st_dev(V value, __gm__ T* addr, int64_t offset, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::st_dev(ptosim_cce::here(w), ptosim_cce::host(addr + offset), ptosim_cce::scalar_bits<T>(value),
                        sizeof(T));
}
