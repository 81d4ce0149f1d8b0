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

// An MXFP4 quantisation written as public A5 kernels write one: blocks of
// 32 floats share an E8M0 scale 2^X, X = floor(log2(max |x|)) - 2 (E2M1's
// largest exponent), and each element becomes x / 2^X in E2M1, through
// bfloat16 (A5 converts to fp4 from 16-bit floats), two elements a byte,
// the first in the low nibble. Pass 1 scales each block into a scratch tile
// and writes its E8M0 byte; pass 2 converts 128 scaled floats at a time
// (even and odd elements into the two halves of each 32-bit slot, then
// pairs into one byte a slot) and packs the bytes.
namespace {
constexpr int kQRows = 4, kQCols = 128, kQBlocks = kQRows * kQCols / 32;
using QIn = Tile<TileType::Vec, float, kQRows, kQCols>;
using QOut = Tile<TileType::Vec, uint8_t, kQRows, kQCols / 2>;
using QScale = Tile<TileType::Vec, uint8_t, 1, 32>;
using QInGm = GlobalTensor<float, Shape<1, 1, 1, kQRows, kQCols>, Stride<1, 1, 1, kQCols, 1>>;
using QOutGm = GlobalTensor<uint8_t, Shape<1, 1, 1, kQRows, kQCols / 2>, Stride<1, 1, 1, kQCols / 2, 1>>;
using QScaleGm = GlobalTensor<uint8_t, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>>;

__aicore__ void mxfp4_quantise(__ubuf__ float* x, __ubuf__ float* scaled, __ubuf__ uint8_t* packed,
                               __ubuf__ uint8_t* scales) {
    __VEC_SCOPE__ {
        const MaskReg all = pset_b32(PAT_ALL);
        const MaskReg all16 = pset_b16(PAT_ALL);
        uint32_t n32 = 32, n1 = 1;
        const MaskReg block = plt_b32(n32, POST_UPDATE);
        const MaskReg first = plt_b32(n1, POST_UPDATE);
        RegTensor<float> v, y;
        RegTensor<int32_t> bits, top, exp, factor, e8m0, abs_mask, k256, k2;
        vdup(abs_mask, 0x7fffffff, all, MODE_ZEROING);
        vdup(k256, 256, all, MODE_ZEROING);
        vdup(k2, 2, all, MODE_ZEROING);
        for (uint16_t b = 0; b < kQBlocks; ++b) {
            vlds(v, x, b * 32, NORM);
            vand(bits, (vector_s32&)v.reg, abs_mask, block, MODE_ZEROING);
            vcmax(top, bits, block, MODE_ZEROING);      // the largest |x| (as bits) in element 0
            vdup(exp, top, all, POS_LOWEST, MODE_ZEROING);
            vshrs(exp, exp, 23, all, MODE_ZEROING);     // its biased exponent e
            vsub(factor, k256, exp, all, MODE_ZEROING);  // 2^-X = 2^(129 - e): bits (256 - e) << 23
            vshls(factor, factor, 23, all, MODE_ZEROING);
            vmul(y, v, (vector_f32&)factor.reg, block, MODE_ZEROING);
            vsts(y, scaled, b * 32, NORM_B32, block);
            vsub(e8m0, exp, k2, all, MODE_ZEROING);     // E8M0: X + 127 = e - 2
            vsts(e8m0, scales, b, PK4_B32, first);
        }
        RegTensor<float> even, odd;
        RegTensor<bfloat16_t> lo, hi, both;
        RegTensor<float4_e2m1x2_t> fp4;
        for (uint16_t c = 0; c < kQRows * kQCols / 128; ++c) {
            vlds(even, odd, scaled, c * 128, DINTLV_B32);
            vcvt(lo, even, all, ROUND_R, RS_DISABLE, PART_EVEN);
            vcvt(hi, odd, all, ROUND_R, RS_DISABLE, PART_ODD);
            vor((vector_u16&)both.reg, (vector_u16&)lo.reg, (vector_u16&)hi.reg, all16, MODE_ZEROING);
            vcvt(fp4, both, all16, ROUND_R, PART_P0);
            vsts(fp4, packed, c * 64, PK4_B32, all);
        }
    }
}
}  // namespace

__global__ __aicore__ void a5_mxfp4(__gm__ uint8_t* out, __gm__ uint8_t* scale_out, __gm__ float* x) {
    QIn tx, scratch;
    QOut tq;
    QScale ts;
    TASSIGN(tx, 0x0);
    TASSIGN(scratch, 0x800);
    TASSIGN(tq, 0x1000);
    TASSIGN(ts, 0x1100);
    QInGm gx(x);
    QOutGm gq(out);
    QScaleGm gs(scale_out);
    TLOAD(tx, gx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    mxfp4_quantise((__ubuf__ float*)tx.data(), (__ubuf__ float*)scratch.data(), (__ubuf__ uint8_t*)tq.data(),
                   (__ubuf__ uint8_t*)ts.data());
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gq, tq);
    TSTORE(gs, ts);
}

// What GCC cannot give ptolab's headers: the kernel's own scalar code reads
// a tile element through a __ubuf__ pointer, which holds the tile's UB
// offset (0x0 here), so the read is of host address 0xc and the process
// stops with the crash report's local-memory hint at this line.
__global__ __aicore__ void a5_ub_deref(__gm__ float* out, __gm__ float* a) {
    VecF t;
    TASSIGN(t, 0x0);
    GmF ga(a);
    TLOAD(t, ga);
    set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    const __ubuf__ volatile float* p = (__ubuf__ float*)t.data();
    out[0] = p[3];  // line: a5_ub_deref
}

extern "C" void launch_a5_add_scale(float* o, float* a, float* b, void* s) { a5_add_scale<<<1, nullptr, s>>>(o, a, b); }
extern "C" void launch_a5_to_half(void* o, float* x, void* s) { a5_to_half<<<1, nullptr, s>>>((half*)o, x); }
extern "C" void launch_a5_past_ub(float* o, void* s) { a5_past_ub<<<1, nullptr, s>>>(o); }
extern "C" void launch_a5_simt_after_tstore(float* o, float* a, void* s) { a5_simt_after_tstore<<<1, nullptr, s>>>(o, a); }
extern "C" void launch_a5_simt_ub_argument(float* o, void* s) { a5_simt_ub_argument<<<1, nullptr, s>>>(o); }
extern "C" void launch_a5_hadamard(float* o, float* x, void* s) { a5_hadamard<<<1, nullptr, s>>>(o, x); }
extern "C" void launch_a5_mxfp4(uint8_t* o, uint8_t* sc, float* x, void* s) { a5_mxfp4<<<1, nullptr, s>>>(o, sc, x); }
extern "C" void launch_a5_ub_deref(float* o, float* a, void* s) { a5_ub_deref<<<1, nullptr, s>>>(o, a); }
