// What the intrinsic-only kernels of this directory share: a local buffer's
// address as a typed pointer of its space (L1, L0A, L0B, L0C, UB), and a
// set_flag/wait_flag pair on EVENT_ID0.
#pragma once
#include <cstdint>

namespace {
template <class T>
__aicore__ __cbuf__ T* l1(uint64_t at) { return (__cbuf__ T*)at; }
template <class T>
__aicore__ __ca__ T* l0a(uint64_t at) { return (__ca__ T*)at; }
template <class T>
__aicore__ __cb__ T* l0b(uint64_t at) { return (__cb__ T*)at; }
template <class T>
__aicore__ __cc__ T* l0c(uint64_t at) { return (__cc__ T*)at; }
template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }

__aicore__ void sync(pipe_t from, pipe_t to) {
    set_flag(from, to, EVENT_ID0);
    wait_flag(from, to, EVENT_ID0);
}
}  // namespace
