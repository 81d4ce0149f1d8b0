// Kernels that mix PTO tile instructions on ptolab's own headers with CCE
// intrinsics on the tiles' UB addresses, built with no header choice: ptocc
// compiles ptolab's headers (GCC), and bisheng's intrinsics come with them as
// they come with the executed-pto-isa build (docs/ptocc.md, "Headers").
#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int kR = 16, kC = 64, kRepeats = kR * kC / 64;
using VecF = Tile<TileType::Vec, float, kR, kC>;
using VecH = Tile<TileType::Vec, half, kR, kC>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, kR, kC>, Stride<1, 1, 1, kC, 1>>;
using GmH = GlobalTensor<half, Shape<1, 1, 1, kR, kC>, Stride<1, 1, 1, kC, 1>>;

template <class T, class TileT>
__aicore__ __ubuf__ T* ub(const TileT& t) { return (__ubuf__ T*)t.data(); }
}  // namespace

// out = (a + b) * 2 + a: vadd and vmuls between TLOAD and TADD.
__global__ __aicore__ void add_scale(__gm__ float* out, __gm__ float* a, __gm__ float* b) {
    VecF ta, tb, tc;
    TASSIGN(ta, 0x0);
    TASSIGN(tb, 0x1000);
    TASSIGN(tc, 0x2000);
    GmF ga(a), gb(b), go(out);
    TLOAD(ta, ga);
    TLOAD(tb, gb);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_vector_mask(-1, -1);
    vadd(ub<float>(tc), ub<float>(ta), ub<float>(tb), kRepeats, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vmuls(ub<float>(tc), ub<float>(tc), 2.0f, kRepeats, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    TADD(tc, tc, ta);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, tc);
}

// out = half(x) rounded toward zero by vconv_f322f16z into a half tile that
// TSTORE writes; the CTRL saturation bit set and restored around it.
__global__ __aicore__ void to_half(__gm__ half* out, __gm__ float* x) {
    VecF tx;
    VecH th;
    TASSIGN(tx, 0x0);
    TASSIGN(th, 0x1000);
    GmF gx(x);
    GmH go(out);
    TLOAD(tx, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_vector_mask(-1, -1);
    const uint64_t ctrl = get_ctrl();
    set_ctrl(sbitset0(ctrl, 59));
    vconv_f322f16z(ub<half>(th), ub<float>(tx), kRepeats, 1, 1, 4, 8);
    set_ctrl(ctrl);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, th);
}

// An intrinsic whose destination runs past UB stops the launch at its line.
__global__ __aicore__ void past_ub(__gm__ float* out) {
    VecF t;
    TASSIGN(t, 0x0);
    set_vector_mask(-1, -1);
    vector_dup((__ubuf__ float*)(uintptr_t)(192 * 1024 - 32), 1.0f, 1, 1, 1, 8, 8);  // line: past_ub
    GmF go(out);
    TSTORE(go, t);
}

extern "C" void launch_add_scale(float* o, float* a, float* b, void* s) { add_scale<<<1, nullptr, s>>>(o, a, b); }
extern "C" void launch_to_half(void* o, float* x, void* s) { to_half<<<1, nullptr, s>>>((half*)o, x); }
extern "C" void launch_past_ub(float* o, void* s) { past_ub<<<1, nullptr, s>>>(o); }
