// The atomic store modes of the GM-bound DMA (set_atomic_none / _add /
// _<type>), the same on A2A3 and A5: MTE3 stores then add into GM
// (docs/intrinsics/README.md, "Atomics").
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_ATOMIC(name, add, type)                                                  \
    inline void name(ptosim_cce::where_t w = ptosim_cce::where_t::current()) {             \
        ptosim::cce::set_atomic(ptosim_cce::here(w), #name, add, type);                      \
    }
PTOSIM_CCE_ATOMIC(set_atomic_none, 0, -1)
PTOSIM_CCE_ATOMIC(set_atomic_add, 1, -1)
PTOSIM_CCE_ATOMIC(set_atomic_f32, -1, int(ptosim::cce::Dt::F32))
PTOSIM_CCE_ATOMIC(set_atomic_f16, -1, int(ptosim::cce::Dt::F16))
PTOSIM_CCE_ATOMIC(set_atomic_bf16, -1, int(ptosim::cce::Dt::BF16))
PTOSIM_CCE_ATOMIC(set_atomic_s32, -1, int(ptosim::cce::Dt::S32))
PTOSIM_CCE_ATOMIC(set_atomic_s16, -1, int(ptosim::cce::Dt::S16))
PTOSIM_CCE_ATOMIC(set_atomic_s8, -1, int(ptosim::cce::Dt::S8))
#undef PTOSIM_CCE_ATOMIC
