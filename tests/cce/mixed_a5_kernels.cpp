// A5 kernels that mix PTO tile instructions on ptolab's own headers with
// A5's register-based vector intrinsics on the tiles' UB addresses, built
// with no header choice: ptocc compiles ptolab's headers (GCC), and A5's
// intrinsic families come with them as they come with the executed-pto-isa
// build (docs/ptocc.md, "Headers"; docs/intrinsics/README.md, "One family
// list, two preludes").
#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int kR = 16, kC = 64, kRegs = kR * kC / 64;  // 64 floats a register
using VecF = Tile<TileType::Vec, float, kR, kC>;
using VecH = Tile<TileType::Vec, half, kR, kC>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, kR, kC>, Stride<1, 1, 1, kC, 1>>;
using GmH = GlobalTensor<half, Shape<1, 1, 1, kR, kC>, Stride<1, 1, 1, kC, 1>>;

template <class T, class TileT>
__aicore__ __ubuf__ T* ub(const TileT& t) { return (__ubuf__ T*)t.data(); }
}  // namespace

// out = (a + b) * 2 + a: vadd and vmuls in a vector function between TLOAD
// and TADD.
__global__ __aicore__ void a5_add_scale(__gm__ float* out, __gm__ float* a, __gm__ float* b) {
    VecF ta, tb, tc;
    TASSIGN(ta, 0x0);
    TASSIGN(tb, 0x1000);
    TASSIGN(tc, 0x2000);
    GmF ga(a), gb(b), go(out);
    TLOAD(ta, ga);
    TLOAD(tb, gb);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    __VEC_SCOPE__ {
        vector_f32 x, y, z;
        const vector_bool all = pset_b32(PAT_ALL);
        for (uint16_t i = 0; i < kRegs; ++i) {
            vlds(x, ub<float>(ta), i * 64, NORM);
            vlds(y, ub<float>(tb), i * 64, NORM);
            vadd(z, x, y, all, MODE_ZEROING);
            vmuls(z, z, 2.0f, all, MODE_ZEROING);
            vsts(z, ub<float>(tc), i * 64, NORM_B32, all);
        }
    }
    pipe_barrier(PIPE_V);
    TADD(tc, tc, ta);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, tc);
}

// out = half(x) rounded to nearest even by vcvt in a vector function, packed
// into a half tile that TSTORE writes; the last register's tail (plt_b32)
// is 40 elements, the rest of the tile keeps what TEXPANDS put there.
__global__ __aicore__ void a5_to_half(__gm__ half* out, __gm__ float* x) {
    VecF tx;
    VecH th;
    TASSIGN(tx, 0x0);
    TASSIGN(th, 0x1000);
    GmF gx(x);
    GmH go(out);
    TLOAD(tx, gx);
    TEXPANDS(th, half(-3.0f));
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    pipe_barrier(PIPE_V);
    __VEC_SCOPE__ {
        vector_f32 f;
        vector_f16 h;
        uint32_t left = kR * kC - 24;
        for (uint16_t i = 0; i < kRegs; ++i) {
            const vector_bool m = plt_b32(left, POST_UPDATE);
            vlds(f, ub<float>(tx), i * 64, NORM);
            vcvt(h, f, m, ROUND_R, RS_ENABLE, PART_EVEN);
            vsts(h, ub<half>(th), i * 64, PK_B32, m);
        }
    }
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, th);
}

// A register store whose 256 bytes run past UB's end stops the launch at
// its line.
__global__ __aicore__ void a5_past_ub(__gm__ float* out) {
    VecF t;
    TASSIGN(t, 0x0);
    __VEC_SCOPE__ {
        vector_f32 z;
        const vector_bool all = pset_b32(PAT_ALL);
        vdup(z, 1.0f, all, MODE_ZEROING);
        vsts(z, (__ubuf__ float*)(uintptr_t)(PTO_UBUF_SIZE_BYTES - 64), 0, NORM_B32, all);  // line: a5_past_ub
    }
    GmF go(out);
    TSTORE(go, t);
}

// A SIMT vector function beside the tile instructions: TMULS and TSTORE
// write out = 3 * a, then 64 threads add their index to out in GM.
__simt_vf__ LAUNCH_BOUND(1024) void add_thread_index(__gm__ float* out) {
    out[threadIdx.x] += static_cast<float>(threadIdx.x);
}
__global__ __aicore__ void a5_simt_after_tstore(__gm__ float* out, __gm__ float* a) {
    VecF t;
    TASSIGN(t, 0x0);
    GmF ga(a), go(out);
    TLOAD(t, ga);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMULS(t, t, 3.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, t);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    cce::async_invoke<add_thread_index>(cce::dim3{64}, out);
}

// The same SIMT body handed a tile's UB address: over ptolab's headers it
// cannot dereference it, and the start is refused at its line.
__global__ __aicore__ void a5_simt_ub_argument(__gm__ float* out) {
    VecF t;
    TASSIGN(t, 0x100);
    cce::async_invoke<add_thread_index>(cce::dim3{64}, ub<float>(t));  // line: a5_simt_ub_argument
    GmF go(out);
    TSTORE(go, t);
}

// A Hadamard transform written as public A5 kernels write one (pto::MaskReg,
// vlds/vsts, a vector function), on tiles TLOAD fills and TSTORE writes:
// each row of 256 floats becomes H_256 x / 16 (H in Sylvester's order), by
// the constant-geometry butterfly: log2(256) passes of
// y[i] = x[2i] + x[2i+1], y[128 + i] = x[2i] - x[2i+1], ping-ponging
// between the tile and a scratch tile.
namespace {
constexpr int kHRows = 4, kHN = 256, kHPasses = 8;
using HadTile = Tile<TileType::Vec, float, kHRows, kHN>;
using HadGm = GlobalTensor<float, Shape<1, 1, 1, kHRows, kHN>, Stride<1, 1, 1, kHN, 1>>;

__aicore__ void hadamard_rows(__ubuf__ float* x, __ubuf__ float* scratch) {
    __VEC_SCOPE__ {
        RegTensor<float> even, odd, sum, diff;
        const MaskReg all = pset_b32(PAT_ALL);
        for (int pass = 0; pass < kHPasses; ++pass) {
            __ubuf__ float* from = pass % 2 == 0 ? x : scratch;
            __ubuf__ float* to = pass % 2 == 0 ? scratch : x;
            for (uint16_t r = 0; r < kHRows; ++r) {
                for (uint16_t k = 0; k < kHN / 128; ++k) {
                    vlds(even, odd, from, r * kHN + k * 128, DINTLV_B32);
                    vadd(sum, even, odd, all, MODE_ZEROING);
                    vsub(diff, even, odd, all, MODE_ZEROING);
                    if (pass == kHPasses - 1) {
                        vmuls(sum, sum, 1.0f / 16, all, MODE_ZEROING);
                        vmuls(diff, diff, 1.0f / 16, all, MODE_ZEROING);
                    }
                    vsts(sum, to, r * kHN + k * 64, NORM_B32, all);
                    vsts(diff, to, r * kHN + kHN / 2 + k * 64, NORM_B32, all);
                }
            }
        }
    }
}
}  // namespace

__global__ __aicore__ void a5_hadamard(__gm__ float* out, __gm__ float* x) {
    HadTile t, scratch;
    TASSIGN(t, 0x0);
    TASSIGN(scratch, 0x1000);
    HadGm gx(x), go(out);
    TLOAD(t, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    hadamard_rows((__ubuf__ float*)t.data(), (__ubuf__ float*)scratch.data());
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, t);
}

extern "C" void launch_a5_add_scale(float* o, float* a, float* b, void* s) { a5_add_scale<<<1, nullptr, s>>>(o, a, b); }
extern "C" void launch_a5_to_half(void* o, float* x, void* s) { a5_to_half<<<1, nullptr, s>>>((half*)o, x); }
extern "C" void launch_a5_past_ub(float* o, void* s) { a5_past_ub<<<1, nullptr, s>>>(o); }
extern "C" void launch_a5_simt_after_tstore(float* o, float* a, void* s) { a5_simt_after_tstore<<<1, nullptr, s>>>(o, a); }
extern "C" void launch_a5_simt_ub_argument(float* o, void* s) { a5_simt_ub_argument<<<1, nullptr, s>>>(o); }
extern "C" void launch_a5_hadamard(float* o, float* x, void* s) { a5_hadamard<<<1, nullptr, s>>>(o, x); }
