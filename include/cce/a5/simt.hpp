// A5's SIMT dialect (__simt_vf__ functions started by cce::async_invoke over
// a thread grid, threadIdx; the GM atomics are cce/a5/atomic.hpp's). Not simulated: the names exist so
// that pto-isa's headers, which define SIMT kernels next to everything else,
// compile; starting one, or reading a thread index, stops the launch with a
// fault at that line (docs/intrinsics/a5-vreg.md, "SIMT").
#pragma once
#include <cce/builtins.hpp>

#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(threads)
#endif

namespace ptosim_cce {
struct simt_index {
    [[gnu::noinline]] operator uint32_t() const {
        ptosim::cce::not_simulated("threadIdx (A5 SIMT)", __builtin_return_address(0));
    }
};
struct simt_dim3 {
    simt_index x, y, z;
};
}  // namespace ptosim_cce
inline constexpr ptosim_cce::simt_dim3 threadIdx{}, blockDim{};

namespace cce {
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
};
template <auto Kernel, class... A>
[[gnu::noinline]] void async_invoke(const dim3&, A&&...) {
    ptosim::cce::not_simulated("cce::async_invoke (A5 SIMT vector functions)", __builtin_return_address(0));
}
}  // namespace cce
