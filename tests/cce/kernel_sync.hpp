// What the kernels of these tests share, written as public kernels write
// it: UB addresses as local-memory pointers, and the flag pairs that order
// the DMA and the vector pipe.
#pragma once
#include <cstdint>

namespace {
template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }
__aicore__ void mte2_to_v() {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
__aicore__ void v_to_mte3() {
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
}
}  // namespace
