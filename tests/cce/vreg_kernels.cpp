// Kernels written in A5's register-based vector API alone, as public A5
// kernels are: no PTO header, UB addresses as integers, vector functions
// (__VEC_SCOPE__) over vector registers and predicates, the loop's tail
// handled by plt_b*. Built by ptocc for dav-c310 over ptosim's register layer.
#include <cstdint>
#include <type_traits>

#include "kernel_sync.hpp"

namespace {
constexpr uint64_t kA = 0x0, kB = 0x2000, kOut = 0x4000;

template <class T>
__aicore__ void in(uint64_t at, __gm__ T* src, uint32_t n) {
    copy_gm_to_ubuf_align_v2(ub<T>(at), src, 0, 1, n * sizeof(T), 0, 0, false, 0, 0, 0);
}
template <class T>
__aicore__ void out_to(__gm__ T* dst, uint64_t at, uint32_t n) {
    copy_ubuf_to_gm_align_v2(dst, ub<T>(at), 0, 1, n * sizeof(T), 0, 0, 0);
}
}  // namespace

// out = a + b over n floats, 64 a register; plt_b32 counts the tail down.
__global__ __aicore__ void vreg_add_f32(__gm__ float* out, __gm__ float* a, __gm__ float* b, uint32_t n) {
    in(kA, a, n);
    in(kB, b, n);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y, z;
        uint32_t left = n;
        const uint16_t repeats = static_cast<uint16_t>((n + 63) / 64);
        for (uint16_t i = 0; i < repeats; ++i) {
            vector_bool m = plt_b32(left, POST_UPDATE);
            vlds(x, ub<float>(kA), i * 64, NORM);
            vlds(y, ub<float>(kB), i * 64, NORM);
            vadd(z, x, y, m, MODE_ZEROING);
            vsts(z, ub<float>(kOut), i * 64, NORM_B32, m);
        }
    }
    v_to_mte3();
    out_to(out, kOut, n);
}

// A register stored before anything was written to it, after a call that
// leaves non-zero bytes on the stack where the register may lie: zero.
[[gnu::noinline]] __aicore__ void scribble_stack() {
    volatile uint8_t junk[2048];
    for (int i = 0; i < 2048; ++i) junk[i] = static_cast<uint8_t>(0xa5 ^ i);
}
__global__ __aicore__ void vreg_unwritten(__gm__ float* out) {
    scribble_stack();
    __VEC_SCOPE__ {
        vector_f32 never;
        vector_bool all = pset_b32(PAT_ALL);
        vsts(never, ub<float>(kOut), 0, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 64);
}

// |a| through a mask register the kernel declares and never sets: the
// shape of pto-isa's own TQUANT bug (docs/conformance-pto-isa-a5.md). The
// second half is the same with the mask set, and a register copied from a
// never-written one.
__global__ __aicore__ void vreg_unset_mask(__gm__ uint32_t* out, __gm__ uint32_t* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_u32 x, r, abs_mask, set_mask;
        vector_bool all = pset_b32(PAT_ALL);
        vlds(x, ub<uint32_t>(kA), 0, NORM);
        vand(r, x, abs_mask, all, MODE_ZEROING);
        vsts(r, ub<uint32_t>(kOut), 0, NORM_B32, all);
        vbr(set_mask, 0x7fffffffu);
        vand(r, x, set_mask, all, MODE_ZEROING);
        vsts(r, ub<uint32_t>(kOut), 64, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
}

// half: out = max(a * b, a) * 0.5 + 1 over n elements, pointers post-updated.
__global__ __aicore__ void vreg_chain_f16(__gm__ half* out, __gm__ half* a, __gm__ half* b, uint32_t n) {
    in(kA, a, n);
    in(kB, b, n);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f16 x, y, t;
        __ubuf__ half* pa = ub<half>(kA);
        __ubuf__ half* pb = ub<half>(kB);
        __ubuf__ half* po = ub<half>(kOut);
        uint32_t left = n;
        for (uint16_t i = 0; i < (n + 127) / 128; ++i) {
            vector_bool m = plt_b16(left, POST_UPDATE);
            vlds(x, pa, 128, NORM, POST_UPDATE);
            vlds(y, pb, 128, NORM, POST_UPDATE);
            vmul(t, x, y, m, MODE_ZEROING);
            vmax(t, t, x, m, MODE_ZEROING);
            vmuls(t, t, 0.5f, m, MODE_ZEROING);
            vadds(t, t, 1.0f, m, MODE_ZEROING);
            vsts(t, po, 128, NORM_B16, m, POST_UPDATE);
        }
    }
    v_to_mte3();
    out_to(out, kOut, n);
}

// bfloat16: out = exp(a) - b over 128 elements (one register).
__global__ __aicore__ void vreg_exp_bf16(__gm__ bfloat16_t* out, __gm__ bfloat16_t* a, __gm__ bfloat16_t* b) {
    in(kA, a, 128);
    in(kB, b, 128);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_bf16 x, y;
        vector_bool all = pset_b16(PAT_ALL);
        vlds(x, ub<bfloat16_t>(kA), 0, NORM);
        vlds(y, ub<bfloat16_t>(kB), 0, NORM);
        vexp(x, x, all, MODE_ZEROING);
        vsub(x, x, y, all, MODE_ZEROING);
        vsts(x, ub<bfloat16_t>(kOut), 0, NORM_B16, all);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
}

// int32 over 64 elements: out[0..64) = a * b + a (wrapping), out[64..128) =
// min(max(a, b), 1000), out[128..192) = a with its even elements replaced
// by b under a merging mask; out[192..256) = a >> 40 (the sign), out[256..320)
// = a << 32 (zero).
__global__ __aicore__ void vreg_int32(__gm__ int32_t* out, __gm__ int32_t* a, __gm__ int32_t* b) {
    in(kA, a, 64);
    in(kB, b, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_s32 x, y, t;
        vector_bool all = pset_b32(PAT_ALL);
        vector_bool even = pset_b32(PAT_M4);  // replaced below by a compare
        vlds(x, ub<int32_t>(kA), 0, NORM);
        vlds(y, ub<int32_t>(kB), 0, NORM);
        vmul(t, x, y, all, MODE_ZEROING);
        vadd(t, t, x, all, MODE_ZEROING);
        vsts(t, ub<int32_t>(kOut), 0, NORM_B32, all);
        vmax(t, x, y, all, MODE_ZEROING);
        vmins(t, t, 1000, all, MODE_ZEROING);
        vsts(t, ub<int32_t>(kOut), 64, NORM_B32, all);
        vector_s32 idx, bit;
        vci(idx, 0, INC_ORDER);
        vector_s32 one;
        vdup(one, 1, all, MODE_ZEROING);
        vand(bit, idx, one, all, MODE_ZEROING);
        vcmps_eq(even, bit, 0, all);
        t = x;
        vmov(t, y, even, MODE_MERGING);
        vsts(t, ub<int32_t>(kOut), 128, NORM_B32, all);
        // Shifts by the element's width or more: zero, or the sign.
        vshrs(t, x, 40, all, MODE_ZEROING);
        vsts(t, ub<int32_t>(kOut), 192, NORM_B32, all);
        vshls(t, x, 32, all, MODE_ZEROING);
        vsts(t, ub<int32_t>(kOut), 256, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 320);
}

// Predicate patterns and zeroing: 64 floats of a through each pattern's
// predicate with MODE_ZEROING, every element stored: out[64 * p + i].
__global__ __aicore__ void vreg_patterns(__gm__ float* out, __gm__ float* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, t;
        vector_bool all = pset_b32(PAT_ALL);
        vlds(x, ub<float>(kA), 0, NORM);
        const vector_bool pats[] = {pset_b32(PAT_VL8), pset_b32(PAT_H), pset_b32(PAT_M3), pset_b32(PAT_ALLF)};
        for (int p = 0; p < 4; ++p) {
            vadds(t, x, 100.0f, pats[p], MODE_ZEROING);
            vsts(t, ub<float>(kOut), p * 64, NORM_B32, all);
        }
    }
    v_to_mte3();
    out_to(out, kOut, 256);
}

// Reductions and selects over 64 floats: out[0] = sum, out[1] = max,
// out[2] = min; out[64..128) = a < b ? a : b; out[128..192) = 0 where
// (i < 32 ? a < b : a >= b), else 1.
__global__ __aicore__ void vreg_reduce(__gm__ float* out, __gm__ float* a, __gm__ float* b) {
    in(kA, a, 64);
    in(kB, b, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y, r;
        vector_bool all = pset_b32(PAT_ALL);
        vector_bool one = pset_b32(PAT_VL1);
        vlds(x, ub<float>(kA), 0, NORM);
        vlds(y, ub<float>(kB), 0, NORM);
        vcadd(r, x, all, MODE_ZEROING);
        vsts(r, ub<float>(kOut), 0, NORM_B32, one);
        vcmax(r, x, all, MODE_ZEROING);
        vsts(r, ub<float>(kOut), 1, ONEPT_B32, all);
        vcmin(r, x, all, MODE_ZEROING);
        vsts(r, ub<float>(kOut), 2, ONEPT_B32, all);
        vector_bool lt;
        vcmp_lt(lt, x, y, all);
        vsel(r, x, y, lt);
        vsts(r, ub<float>(kOut), 64, NORM_B32, all);
        // psel: the lt lanes where the first half is, the ge lanes elsewhere.
        vector_bool ge, half_sel, pick;
        vcmp_ge(ge, x, y, all);
        half_sel = pset_b32(PAT_H);
        psel(pick, lt, ge, half_sel);
        vdup(r, 1.0f, all, MODE_ZEROING);
        vdup(r, 0.0f, pick, MODE_MERGING);
        vsts(r, ub<float>(kOut), 128, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 192);
}

// 64-bit integers from 32-bit halves, as pto-isa builds them: 64 int64 of a
// and b split into low and high words (DINTLV_B32), added and subtracted
// with the carry chained from the low words, interleaved back (INTLV_B32):
// out[0..64) = a + b, out[64..128) = a - b; and out[128..192) = the low
// words' full unsigned product, as (hi << 32 | lo).
__global__ __aicore__ void vreg_int64(__gm__ int64_t* out, __gm__ int64_t* a, __gm__ int64_t* b) {
    in(kA, a, 64);
    in(kB, b, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_s32 alo, ahi, blo, bhi, lo, hi;
        vector_bool all = pset_b32(PAT_ALL), carry, carry_out;
        vlds(alo, ahi, ub<int32_t>(kA), 0, DINTLV_B32);
        vlds(blo, bhi, ub<int32_t>(kB), 0, DINTLV_B32);
        vaddc(carry, lo, alo, blo, all);
        vaddcs(carry_out, hi, ahi, bhi, carry, all);
        vsts(lo, hi, ub<int32_t>(kOut), 0, INTLV_B32, all);
        vsubc(carry, lo, alo, blo, all);
        vsubcs(carry_out, hi, ahi, bhi, carry, all);
        vsts(lo, hi, ub<int32_t>(kOut), 128, INTLV_B32, all);
        vmull((vector_u32&)lo, (vector_u32&)hi, (vector_u32&)alo, (vector_u32&)blo, all);
        vsts(lo, hi, ub<int32_t>(kOut), 256, INTLV_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 192);
}

// Multiply-adds over 64 floats: out[0..64) = b + a * 2 (vaxpy), out[64..128)
// = a * b + a (vmadd, the destination the multiplicand), out[128..192) =
// a + a * b (vmula, the destination the addend).
__global__ __aicore__ void vreg_fma_f32(__gm__ float* out, __gm__ float* a, __gm__ float* b) {
    in(kA, a, 64);
    in(kB, b, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y, t;
        vector_bool all = pset_b32(PAT_ALL);
        vlds(x, ub<float>(kA), 0, NORM);
        vlds(y, ub<float>(kB), 0, NORM);
        t = y;
        vaxpy(t, x, 2.0f, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 0, NORM_B32, all);
        t = x;
        vmadd(t, y, x, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 64, NORM_B32, all);
        t = x;
        vmula(t, x, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 128, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 192);
}

// An aligned load from an address that is not 32-byte aligned.
__global__ __aicore__ void vreg_misaligned(__gm__ float* out) {
    __VEC_SCOPE__ {
        vector_f32 x;
        vlds(x, ub<float>(kA), 3, NORM);
        vsts(x, ub<float>(kOut), 0, NORM_B32, pset_b32(PAT_ALL));
    }
    out_to(out, kOut, 8);
}

// Conversions: 64 floats in, each vcvt's whole destination register out
// (the parts it does not write included), vtrc, and a widening back.
__global__ __aicore__ void vreg_convert(__gm__ half* oh, __gm__ int16_t* o16, __gm__ int32_t* o32, __gm__ float* of,
                                        __gm__ float* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, t;
        vector_f16 h, h2;
        vector_s16 s;
        vector_s32 i32;
        const vector_bool all32 = pset_b32(PAT_ALL), all16 = pset_b16(PAT_ALL);
        vlds(x, ub<float>(kA), 0, NORM);
        // f32 -> f16 toward zero into the odd halves, not saturating.
        vcvt(h, x, all32, ROUND_Z, RS_DISABLE, PART_ODD);
        vsts(h, ub<half>(kOut), 0, NORM_B16, all16);
        // Ties away, saturating, the even halves (the type-tag rounding form).
        vcvt(h2, x, all32, __cce_simd::RoundAType(), RS_ENABLE, PART_EVEN);
        vsts(h2, ub<half>(kOut), 128, NORM_B16, all16);
        // f32 -> s16: nearest even, saturating, 40 elements active.
        uint32_t forty = 40;
        vcvt(s, x, plt_b32(forty, POST_UPDATE), ROUND_R, RS_ENABLE, PART_EVEN);
        vsts(s, ub<int16_t>(kOut + 0x400), 0, NORM_B16, all16);
        // Floor, not saturating: the low bits.
        vcvt(s, x, all32, ROUND_F, RS_DISABLE, PART_EVEN);
        vsts(s, ub<int16_t>(kOut + 0x400), 128, NORM_B16, all16);
        // CTRL[60] with CTRL[59] set: low bits although the instruction saturates.
        const uint64_t ctrl = get_ctrl();
        set_ctrl(ctrl | (1ull << 60) | (1ull << 59));
        vcvt(s, x, all32, RS_ENABLE, ROUND_F, PART_EVEN);
        set_ctrl(ctrl);
        vsts(s, ub<int16_t>(kOut + 0x400), 256, NORM_B16, all16);
        // f32 -> s32 ceiling, not saturating.
        vcvt(i32, x, all32, ROUND_C, RS_DISABLE);
        vsts(i32, ub<int32_t>(kOut + 0x800), 0, NORM_B32, all32);
        // vtrc floor over 32 elements, the rest zero.
        uint32_t half_count = 32;
        vtrc(t, x, ROUND_F, plt_b32(half_count, POST_UPDATE));
        vsts(t, ub<float>(kOut + 0xA00), 0, NORM_B32, all32);
        // f16 -> f32 from the odd halves of the first conversion.
        vcvt(t, h, all16, PART_ODD);
        vsts(t, ub<float>(kOut + 0xA00), 64, NORM_B32, all32);
    }
    v_to_mte3();
    out_to(oh, kOut, 256);
    out_to(o16, kOut + 0x400, 384);
    out_to(o32, kOut + 0x800, 64);
    out_to(of, kOut + 0xA00, 128);
}

// Interleaves of registers and predicates, predicate loads, stores, packs.
__global__ __aicore__ void vreg_rearrange(__gm__ int32_t* out, __gm__ uint8_t* bits) {
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_s32 a, b, c, d, e, f;
        vci(a, 0, INC_ORDER);
        vci(b, 100, INC_ORDER);
        vintlv(c, d, a, b);
        vsts(c, ub<int32_t>(kOut), 0, NORM_B32, all);
        vsts(d, ub<int32_t>(kOut), 64, NORM_B32, all);
        vdintlv(e, f, c, d);
        vsts(e, ub<int32_t>(kOut), 128, NORM_B32, all);
        vsts(f, ub<int32_t>(kOut), 192, NORM_B32, all);
        // Elements 0..4 of 32 bits: predicate bits 0..19.
        uint32_t five = 5;
        vector_bool p = plt_b32(five), q, r, x, y;
        __ubuf__ uint8_t* pb = ub<uint8_t>(kB);
        psts(p, pb, 0, NORM);
        psts(p, pb, 32, PK);
        // Packed twice: one bit per element.
        ppack(q, p, LOWER);
        ppack(q, q, LOWER);
        psts(q, pb, 64, NORM);
        // Back: upsampled load, unpacked: the 32-bit predicate again.
        plds(r, pb, 64, US);
        punpack(r, r, LOWER);
        vsel(e, a, b, r);
        vsts(e, ub<int32_t>(kOut), 256, NORM_B32, all);
        uint32_t three = 3;
        pdintlv_b8(x, y, plt_b32(three), all);
        psts(x, pb, 96, NORM);
        pintlv_b16(x, y, p, all);
        psts(y, pb, 128, NORM);
    }
    v_to_mte3();
    out_to(out, kOut, 320);
    out_to(bits, kB, 160);
}

// Unaligned loads and stores, and vselr.
__global__ __aicore__ void vreg_unaligned(__gm__ float* out, __gm__ float* a) {
    in(kA, a, 80);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y;
        vector_u32 idx;
        vector_align u;
        __ubuf__ float* src = ub<float>(kA) + 3;
        vldas(u, src);
        vldus(x, u, src);
        __ubuf__ float* p = ub<float>(kOut) + 1;
        vstus(u, 5, x, p, POST_UPDATE);
        vstus(u, 7, x, p, POST_UPDATE);
        vstas(u, p, 0, POST_UPDATE);
        const vector_bool all = pset_b32(PAT_ALL);
        vci(idx, 0u, INC_ORDER);
        vmuls(idx, idx, 3u, all);
        vselr(y, x, idx);
        vsts(y, ub<float>(kOut), 64, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
}

// vmod on int32 and float: the remainder with the divisor's sign.
__global__ __aicore__ void vreg_mod(__gm__ int32_t* out, __gm__ float* fout, __gm__ int32_t* a, __gm__ int32_t* b,
                                    __gm__ float* fa, __gm__ float* fb) {
    in(kA, a, 64);
    in(kB, b, 64);
    in(kA + 0x400, fa, 64);
    in(kB + 0x400, fb, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_s32 x, y;
        vector_f32 u, v;
        vlds(x, ub<int32_t>(kA), 0, NORM);
        vlds(y, ub<int32_t>(kB), 0, NORM);
        vmod(x, x, y, all, MODE_ZEROING);
        vsts(x, ub<int32_t>(kOut), 0, NORM_B32, all);
        vlds(u, ub<float>(kA + 0x400), 0, NORM);
        vlds(v, ub<float>(kB + 0x400), 0, NORM);
        vmod(u, u, v, all, MODE_ZEROING);
        vsts(u, ub<float>(kOut + 0x400), 0, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 64);
    out_to(fout, kOut + 0x400, 64);
}

// vgather2 and vscatter with reversed indices; an 8-bit gather into 16-bit slots.
__global__ __aicore__ void vreg_gather(__gm__ float* out, __gm__ uint16_t* out16, __gm__ float* a, __gm__ uint8_t* b) {
    in(kA, a, 64);
    in(kB, b, 256);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_u32 idx, top;
        vector_f32 x;
        vci(idx, 0u, INC_ORDER);
        vdup(top, 63u, all, MODE_ZEROING);
        vsub(idx, top, idx, all, MODE_ZEROING);
        uint32_t sixty = 60;
        vgather2(x, ub<float>(kA), idx, plt_b32(sixty));
        vsts(x, ub<float>(kOut), 64, NORM_B32, all);
        vscatter(x, ub<float>(kOut), idx, all);
        vector_u16 i16, y;
        const vector_bool all16 = pset_b16(PAT_ALL);
        vci(i16, (uint16_t)0, INC_ORDER);
        vmuls(i16, i16, (uint16_t)2, all16);
        vgather2(y, ub<uint8_t>(kB), i16, all16);
        vsts(y, ub<uint16_t>(kOut + 0x400), 0, NORM_B16, all16);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
    out_to(out16, kOut + 0x400, 128);
}

// Per-block reductions under a 60-element predicate.
__global__ __aicore__ void vreg_block_reduce(__gm__ float* out, __gm__ float* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        uint32_t sixty = 60;
        const vector_bool m = plt_b32(sixty);
        vector_f32 x, d;
        vlds(x, ub<float>(kA), 0, NORM);
        vcgadd(d, x, m, MODE_ZEROING);
        vsts(d, ub<float>(kOut), 0, NORM_B32, all);
        vcgmax(d, x, m, MODE_ZEROING);
        vsts(d, ub<float>(kOut), 64, NORM_B32, all);
        vcgmin(d, x, m, MODE_ZEROING);
        vsts(d, ub<float>(kOut), 128, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 192);
}

// 16-bit integer sums into 32-bit elements: vcadd of 128 int16 (all, then
// a prefix of 100) and of 128 uint16, and vcgadd of the int16, each stored
// as 64 int32.
__global__ __aicore__ void vreg_reduce16(__gm__ int32_t* out, __gm__ int16_t* a) {
    in(kA, a, 128);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all16 = pset_b16(PAT_ALL), all32 = pset_b32(PAT_ALL);
        uint32_t hundred = 100;
        const vector_bool first100 = plt_b16(hundred);
        vector_s16 x;
        vector_u16 u;
        vector_s32 d;
        vector_u32 du;
        vlds(x, ub<int16_t>(kA), 0, NORM);
        vlds(u, ub<uint16_t>(kA), 0, NORM);
        vcadd(d, x, all16, MODE_ZEROING);
        vsts(d, ub<int32_t>(kOut), 0, NORM_B32, all32);
        vcadd(d, x, first100, MODE_ZEROING);
        vsts(d, ub<int32_t>(kOut), 64, NORM_B32, all32);
        vcadd(du, u, all16, MODE_ZEROING);
        vsts(du, ub<uint32_t>(kOut), 128, NORM_B32, all32);
        vcgadd(d, x, all16, MODE_ZEROING);
        vsts(d, ub<int32_t>(kOut), 192, NORM_B32, all32);
    }
    v_to_mte3();
    out_to(out, kOut, 256);
}

// bfloat16 <-> fp4 (E2M1) pairs: PART_P0 puts each pair's byte at 4i.
__global__ __aicore__ void vreg_fp4(__gm__ uint8_t* out, __gm__ bfloat16_t* back_out, __gm__ bfloat16_t* a) {
    in(kA, a, 128);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all16 = pset_b16(PAT_ALL), all8 = pset_b8(PAT_ALL);
        vector_bf16 x, y;
        vector_f4e2m1x2 f;
        vlds(x, ub<bfloat16_t>(kA), 0, NORM);
        vcvt(f, x, all16, ROUND_R, PART_P0);
        vsts((vector_u8&)f, ub<uint8_t>(kOut), 0, NORM_B8, all8);
        vcvt(y, f, all8, PART_P0);
        vsts(y, ub<bfloat16_t>(kOut + 0x400), 0, NORM_B16, all16);
    }
    v_to_mte3();
    out_to(out, kOut, 256);
    out_to(back_out, kOut + 0x400, 128);
}

// vpack to 16 bits and vunpack back, sign-extending; the higher half too.
__global__ __aicore__ void vreg_pack(__gm__ int16_t* out16, __gm__ int32_t* out32) {
    __VEC_SCOPE__ {
        const vector_bool all32 = pset_b32(PAT_ALL), all16 = pset_b16(PAT_ALL);
        vector_s32 x, y;
        vector_s16 p, q;
        vci(x, -32, INC_ORDER);
        vpack((vector_u16&)p, (vector_u32&)x, LOWER);
        vsts(p, ub<int16_t>(kOut), 0, NORM_B16, all16);
        vpack((vector_u16&)q, (vector_u32&)x, HIGHER);
        vsts(q, ub<int16_t>(kOut), 128, NORM_B16, all16);
        vunpack(y, p, LOWER);
        vsts(y, ub<int32_t>(kOut + 0x400), 0, NORM_B32, all32);
        vunpack(y, q, HIGHER);
        vsts(y, ub<int32_t>(kOut + 0x400), 64, NORM_B32, all32);
        vunpack((vector_u32&)y, (vector_u16&)q, HIGHER);
        vsts(y, ub<int32_t>(kOut + 0x400), 128, NORM_B32, all32);
    }
    v_to_mte3();
    out_to(out16, kOut, 256);
    out_to(out32, kOut + 0x400, 192);
}

// vsqz packs the int32s above 50 of two registers; vstur stores each
// squeeze at base + AR (AR advancing by the bytes stored), sprsts saves AR.
// Then a vstur without POST_UPDATE (AR kept), and an int16 squeeze of five
// elements (AR counts bytes: 10). Output words: [0, 128) the stream,
// [128, 192) a zeroing squeeze's whole register, 256 + {0,1,2} the three AR
// stores, [512, 576) the stream written at 0x800 + AR, [640, 648) the int16
// stream.
__global__ __aicore__ void vreg_squeeze(__gm__ int32_t* out, __gm__ int32_t* a, __gm__ int16_t* h) {
    in(kA, a, 128);
    in(kB, h, 128);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_align ureg;
        vector_s32 x, y;
        vector_bool m;
        sprclr(SPR_AR);
        for (uint16_t j = 0; j < 2; ++j) {
            vlds(x, ub<int32_t>(kA), j * 64, NORM);
            vcmps_gt(m, x, 50, all);
            vsqz(y, x, m, MODE_STORED);
            vstur(ureg, y, ub<int32_t>(kOut), POST_UPDATE);
        }
        vstar(ureg, ub<int32_t>(kOut));
        sprsts(SPR_AR, ub<uint32_t>(kOut + 0x400), 0);

        vlds(x, ub<int32_t>(kA), 0, NORM);
        vcmps_gt(m, x, 50, all);
        vsqz(y, x, m, MODE_ZEROING);
        vsts(y, ub<int32_t>(kOut + 0x200), 0, NORM_B32, all);
        vsqz(y, x, m, MODE_STORED);
        vstur(ureg, y, ub<int32_t>(kOut + 0x800));
        vstar(ureg, ub<int32_t>(kOut + 0x800));
        sprsts(SPR_AR, ub<uint32_t>(kOut + 0x400), 4);

        sprclr(SPR_AR);
        vector_s16 s, t;
        uint32_t five = 5;
        const vector_bool m16 = plt_b16(five);
        vlds(s, ub<int16_t>(kB), 0, NORM);
        vsqz(t, s, m16, MODE_STORED);
        vstur(ureg, t, ub<int16_t>(kOut + 0xA00), POST_UPDATE);
        vstar(ureg, ub<int16_t>(kOut + 0xA00));
        sprsts(SPR_AR, ub<uint32_t>(kOut + 0x400), 8);
    }
    v_to_mte3();
    out_to(out, kOut, 768);
}

// A vstur with no stored squeeze before it has no count to store: a fault.
__global__ __aicore__ void vreg_squeeze_unpaired(__gm__ int32_t* out) {
    __VEC_SCOPE__ {
        vector_align ureg;
        vector_s32 x;
        vbr(x, 7);
        sprclr(SPR_AR);
        vstur(ureg, x, ub<int32_t>(kOut), POST_UPDATE);
    }
    v_to_mte3();
    out_to(out, kOut, 64);
}

// chistv2 / dhistv2 over 256 bytes, 200 active, added to bins that start at 1.
__global__ __aicore__ void vreg_histogram(__gm__ uint16_t* out, __gm__ uint8_t* a) {
    in(kA, a, 256);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all16 = pset_b16(PAT_ALL);
        uint32_t n = 200;
        const vector_bool m = plt_b8(n);
        vector_u8 x;
        vector_u16 c0, c1, f0, f1;
        vlds(x, ub<uint8_t>(kA), 0, NORM);
        vbr(c0, (uint16_t)1);
        vbr(c1, (uint16_t)1);
        vbr(f0, (uint16_t)1);
        vbr(f1, (uint16_t)1);
        chistv2(c0, x, m, Bin_N0);
        chistv2(c1, x, m, Bin_N1);
        dhistv2(f0, x, m, Bin_N0);
        dhistv2(f1, x, m, Bin_N1);
        vsts(c0, ub<uint16_t>(kOut), 0, NORM_B16, all16);
        vsts(c1, ub<uint16_t>(kOut), 128, NORM_B16, all16);
        vsts(f0, ub<uint16_t>(kOut), 256, NORM_B16, all16);
        vsts(f1, ub<uint16_t>(kOut), 384, NORM_B16, all16);
    }
    v_to_mte3();
    out_to(out, kOut, 512);
}

// The operand constants as pto-isa builds them from their types; vcmax's
// index; a signed-to-unsigned widening.
__global__ __aicore__ void vreg_literals(__gm__ float* out, __gm__ uint32_t* idx_out, __gm__ int32_t* u_out,
                                         __gm__ float* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL), all16 = pset_b16(PAT_ALL);
        vector_f32 x, y;
        constexpr decltype(BRC_B32) brc{};
        vlds(x, ub<float>(kA) + 8, 0, brc);  // element 8 broadcast
        vsts(x, ub<float>(kOut), 0, NORM_B32, all);
        vlds(x, ub<float>(kA), 0, NORM);
        using Z = decltype(ROUND_Z);
        vtrc(y, x, Z(), all);
        vsts(y, ub<float>(kOut), 64, NORM_B32, all);
        uint32_t sixty = 60;
        vcmax(y, x, plt_b32(sixty), MODE_ZEROING);
        vsts((vector_u32&)y, ub<uint32_t>(kOut + 0x400), 0, NORM_B32, all);
        vcmin(y, x, plt_b32(sixty), MODE_ZEROING);
        vsts((vector_u32&)y, ub<uint32_t>(kOut + 0x400), 64, NORM_B32, all);
        vector_s16 h;
        vector_u32 u;
        vci(h, (int16_t)-64, INC_ORDER);
        vcvt(u, h, all16, PART_EVEN);
        vsts(u, ub<uint32_t>(kOut + 0x800), 0, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
    out_to(idx_out, kOut + 0x400, 128);
    out_to(u_out, kOut + 0x800, 64);
}

// GM -> UB under loop 1 (two iterations), padded to the 32-byte boundary.
__global__ __aicore__ void vreg_dma_loops(__gm__ float* out, __gm__ float* a) {
    set_mov_pad_val(0x7f7fffffull);  // FLT_MAX's bits
    set_loop1_stride_outtoub((uint64_t(128) << 40) | 64);
    set_loop_size_outtoub((uint64_t(1) << 21) | 2);
    copy_gm_to_ubuf_align_v2(ub<float>(kA), a, 0, 1, 40, 0, 0, true, 0, 0, 0);
    set_loop_size_outtoub((uint64_t(1) << 21) | 1);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    out_to(out, kA, 64);
}

// set_atomic_add with set_atomic_s32: the UB->GM store adds a's 64 int32
// into out; after set_atomic_none a store overwrites again (out + 64).
__global__ __aicore__ void vreg_atomic_store(__gm__ int32_t* out, __gm__ int32_t* a) {
    in(kA, a, 64);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    set_atomic_s32();
    set_atomic_add();
    out_to(out, kA, 64);
    set_atomic_none();
    out_to(out + 64, kA, 64);
}

// vlds BLK and UNPK4_B8; vci DEC_ORDER.
__global__ __aicore__ void vreg_blk(__gm__ float* out, __gm__ uint32_t* out4, __gm__ int32_t* outi, __gm__ float* a) {
    in(kA, a, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_f32 x;
        vector_u32 u;
        vector_s32 i;
        vlds(x, ub<float>(kA), 8, BLK);  // the block of elements 8..15
        vsts(x, ub<float>(kOut), 0, NORM_B32, all);
        vlds((vector_u8&)u, ub<uint8_t>(kA), 0, UNPK4_B8);
        vsts(u, ub<uint32_t>(kOut + 0x400), 0, NORM_B32, all);
        vci(i, 100, DEC_ORDER);
        vsts(i, ub<int32_t>(kOut + 0x800), 0, NORM_B32, all);
    }
    v_to_mte3();
    out_to(out, kOut, 64);
    out_to(out4, kOut + 0x400, 64);
    out_to(outi, kOut + 0x800, 64);
}

// vexpdif on half sources' odd elements and on float sources.
__global__ __aicore__ void vreg_expdif(__gm__ float* out, __gm__ half* a, __gm__ half* b, __gm__ float* fa) {
    in(kA, a, 128);
    in(kB, b, 128);
    in(kA + 0x400, fa, 64);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all16 = pset_b16(PAT_ALL), all32 = pset_b32(PAT_ALL);
        vector_f16 x, y;
        vector_f32 d, u;
        vlds(x, ub<half>(kA), 0, NORM);
        vlds(y, ub<half>(kB), 0, NORM);
        vexpdif(d, x, y, all16, PART_ODD);
        vsts(d, ub<float>(kOut), 0, NORM_B32, all32);
        vlds(u, ub<float>(kA + 0x400), 0, NORM);
        vexpdif(d, u, u, all32, PART_EVEN);
        vsts(d, ub<float>(kOut), 64, NORM_B32, all32);
    }
    v_to_mte3();
    out_to(out, kOut, 128);
}

// vcpadd (pairs into the low half, element 60's partner and 61..63
// inactive), vgatherb (32-byte blocks by byte offsets, elements 60..63
// masked off), the E2B_B32 load and the A5 form of copy_ubuf_to_ubuf (two
// 1-block bursts, one block apart in the source, two in the destination),
// then the older form with A2A3's sid first (one 2-block burst).
__global__ __aicore__ void vreg_pair_gatherb(__gm__ float* out, __gm__ float* a, __gm__ uint32_t* offsets) {
    in(kA, a, 64);
    in(kB, offsets, 8);
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        uint32_t n = 61;
        const vector_bool first61 = plt_b32(n, POST_UPDATE);
        uint32_t m = 60;
        const vector_bool first60 = plt_b32(m, POST_UPDATE);
        vector_f32 x, y, g;
        vector_u32 idx;
        vlds(x, ub<float>(kA), 0, NORM);
        vcpadd(y, x, first61);
        vsts(y, ub<float>(kOut), 0, NORM_B32, all);
        vlds(idx, ub<uint32_t>(kB), 0, NORM);
        vgatherb(g, ub<float>(kA), idx, first60);
        vsts(g, ub<float>(kOut), 64, NORM_B32, all);
        // E2B_B32: a[8..15], element k broadcast to every slot of block k.
        vector_f32 e;
        vlds(e, ub<float>(kA + 32), 0, E2B_B32);
        vsts(e, ub<float>(kOut), 160, NORM_B32, all);
    }
    copy_ubuf_to_ubuf(ub<float>(kOut + 512), ub<float>(kA), 2, 1, 1, 2);
    copy_ubuf_to_ubuf(ub<float>(kOut + 896), ub<float>(kA + 128), 0, 1, 2, 0, 0);
    v_to_mte3();
    out_to(out, kOut, 128 + 32 + 64 + 16);
}

// vsstb: the register's 32-byte blocks three blocks apart (elements 60..63
// masked off, over zeros), then twice with POST_UPDATE, contiguous blocks,
// the pointer advancing eight blocks. In and out through A5's
// copy_gm_to_ubuf / copy_ubuf_to_gm (32-byte blocks). Then the PK4_B32 store.
__global__ __aicore__ void vreg_block_store(__gm__ float* out, __gm__ float* a) {
    copy_gm_to_ubuf(ub<float>(kA), a, 0, 1, 8, 0, 0);  // the 32-byte-block form: 8 blocks
    mte2_to_v();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        uint32_t m = 60;
        const vector_bool first60 = plt_b32(m, POST_UPDATE);
        vector_f32 x, zero;
        vbr(zero, 0.0f);
        for (int i = 0; i < 3; ++i) vsts(zero, ub<float>(kOut), i * 64, NORM_B32, all);
        vlds(x, ub<float>(kA), 0, NORM);
        vsstb(x, ub<float>(kOut), 3u << 16, first60);
        __ubuf__ float* p = ub<float>(kOut + 1024);
        vsstb(x, p, 1u << 16 | 8u, all, POST_UPDATE);
        vsstb(x, p, 1u << 16 | 8u, all, POST_UPDATE);
        // PK4_B32: the low byte of each active 32-bit element, packed. Named
        // by a value of its type, as the March 2026 pto-isa's TPACK does
        // (std::conditional_t<..., decltype(PK4_B32), ...>).
        constexpr auto pk4 = std::conditional_t<true, decltype(PK4_B32), decltype(NORM_B32)>();
        vsts((vector_s32&)x, ub<int32_t>(kOut + 1536), 0, pk4, first60);
    }
    v_to_mte3();
    copy_ubuf_to_gm(out, ub<float>(kOut), 0, 1, 50, 0, 0);
}

// A5's GM atomics: every block adds 1 to counter[0] and polls it with
// atomicAdd(p, 0) until all have arrived (the soft SYNCALL pattern), then
// records what it saw; block 0 also applies atomicMax/atomicMin to
// counter[1]/[2] and the float atomicAdd to out[1], keeping the old values.
__global__ __aicore__ void vreg_atomics(__gm__ int32_t* seen, __gm__ int32_t* counter, __gm__ float* f) {
    const int32_t n = static_cast<int32_t>(get_block_num());
    const int32_t arrived = atomicAdd(counter, 1);
    while (atomicAdd(counter, 0) < n) {
    }
    seen[get_block_idx()] = arrived;
    if (get_block_idx() == 0) {
        seen[n] = atomicMax(counter + 1, 17);
        seen[n + 1] = atomicMin(counter + 2, -3);
        const float old = atomicAdd(f, 0.25f);
        seen[n + 2] = static_cast<int32_t>(old * 4.0f);
    }
}

// Element stores of A5's one-byte float classes through UB and GM pointers,
// as ptocc's rewrite of pto-isa's headers writes them (`p[i] = v;` becomes
// `::ptosim_cce::store_to(p[i]) = v;`, cce/store_to.hpp): an E4M3 element
// from GM into UB, from UB to UB, and back out to GM; a float4 pair likewise.
__global__ __aicore__ void vreg_store_classes(__gm__ float8_e4m3_t* out8, __gm__ float8_e4m3_t* in8,
                                              __gm__ float4_e2m1x2_t* out4, __gm__ float4_e2m1x2_t* in4) {
    __ubuf__ float8_e4m3_t* p = ub<float8_e4m3_t>(kA);
    __ubuf__ float4_e2m1x2_t* q = ub<float4_e2m1x2_t>(kB);
    ::ptosim_cce::store_to(p[0]) = in8[0];
    ::ptosim_cce::store_to(p[1]) = p[0];
    ::ptosim_cce::store_to(out8[0]) = p[1];
    ::ptosim_cce::store_to(out8[1]) = in8[1];
    ::ptosim_cce::store_to(q[0]) = in4[0];
    ::ptosim_cce::store_to(out4[0]) = q[0];
}

extern "C" void launch_vreg_unwritten(float* out, void* s) { vreg_unwritten<<<1, nullptr, s>>>(out); }
extern "C" void launch_vreg_unset_mask(uint32_t* out, uint32_t* a, void* s) {
    vreg_unset_mask<<<1, nullptr, s>>>(out, a);
}
// Every form with a light path (ptosim/cce_a5.hpp) next to forms without one,
// under prefix, empty and non-prefix masks, zeroing and merging: float
// arithmetic with NaN and signed zeros among the inputs (a, b: 128 floats),
// 32- and 16-bit integers that wrap, scalar forms, vci both ways, pset and
// plt, NORM, unpacking and broadcasting loads, NORM and packing stores,
// gathers and scatters. out[0..1792) 32-bit results, out16 the 16-bit
// ones; ops[0] the instructions the core counted between its two reads of
// the system counter.
__global__ __aicore__ void vreg_light(__gm__ float* out, __gm__ uint16_t* out16, __gm__ int64_t* ops,
                                      __gm__ float* a, __gm__ float* b) {
    in(kA, a, 128);
    in(kB, b, 128);
    mte2_to_v();
    const int64_t start = get_sys_cnt();
    __VEC_SCOPE__ {
        vector_f32 x, y, x2, y2, t;
        vector_bool all = pset_b32(PAT_ALL);
        vector_bool vl16 = pset_b32(PAT_VL16);
        vector_bool half_m = pset_b32(PAT_H);
        vector_bool none = pset_b32(PAT_ALLF);
        vector_bool m3 = pset_b32(PAT_M3);  // not a prefix: the full path
        uint32_t left = 100;
        vector_bool p1 = plt_b32(left, POST_UPDATE);  // 64, left 36
        vector_bool p2 = plt_b32(left, POST_UPDATE);  // 36, left 0
        vector_bool p3 = plt_b32(left);               // none
        vlds(x, ub<float>(kA), 0, NORM);
        vlds(y, ub<float>(kB), 0, NORM);
        vlds(x2, ub<float>(kA), 64, NORM);
        vlds(y2, ub<float>(kB), 64, NORM);
        int at = 0;
        const auto put = [&](vector_f32& r, const vector_bool& m) {
            vsts(r, ub<float>(kOut), at, NORM_B32, m);
            at += 64;
        };
        vadd(t, x, y, all, MODE_ZEROING); put(t, all);
        vsub(t, x, y2, p2, MODE_ZEROING); put(t, all);
        t = x2; vmul(t, t, y, vl16, MODE_MERGING); put(t, all);
        vdiv(t, x, y, half_m, MODE_ZEROING); put(t, all);
        vmax(t, x, y, all, MODE_ZEROING); put(t, all);
        vmin(t, y, x, p1, MODE_ZEROING); put(t, all);
        t = y; vmax(t, x2, y2, m3, MODE_MERGING); put(t, all);
        vmin(t, x, y, none, MODE_ZEROING); put(t, all);
        vadds(t, x, 0.1f, all, MODE_ZEROING); put(t, all);
        vmuls(t, x2, -3.0f, p2, MODE_ZEROING); put(t, all);
        vmaxs(t, y, 0.0f, all, MODE_ZEROING); put(t, all);
        t = x; vmins(t, y2, -0.0f, vl16, MODE_MERGING); put(t, all);
        // Stores of a part of the register, and of none of it.
        vsts(x2, ub<float>(kOut), at, NORM_B32, p2);
        vsts(y2, ub<float>(kOut), at, NORM_B32, none);
        vsts(y, ub<float>(kOut), at + 64, NORM_B32, m3);
        at += 128;
        // 32-bit integers from the float bits: wrapping products and sums.
        vector_s32 i, j, k;
        vector_u32 u;
        vlds(i, ub<int32_t>(kA), 0, NORM);
        vlds(j, ub<int32_t>(kB), 0, NORM);
        vmul(k, i, j, all, MODE_ZEROING);
        vsts(k, ub<int32_t>(kOut), at, NORM_B32, all);
        vadd(k, i, j, p2, MODE_ZEROING);
        vsub(k, k, i, all, MODE_ZEROING);
        vsts(k, ub<int32_t>(kOut), at + 64, NORM_B32, all);
        vmax(k, i, j, all, MODE_ZEROING);
        vmins(k, k, 12345, vl16, MODE_MERGING);
        vsts(k, ub<int32_t>(kOut), at + 128, NORM_B32, all);
        vci(u, 7u, DEC_ORDER);
        vmuls(u, u, 0x9e3779b9u, all, MODE_ZEROING);
        vadds(u, u, 0xfffffff0u, half_m, MODE_MERGING);
        vmaxs(u, u, 0x80000000u, p2, MODE_ZEROING);
        vsts(u, ub<uint32_t>(kOut), at + 192, NORM_B32, all);
        // Broadcasts: element 5 of a everywhere, then a's second block in every block.
        vector_f32 bb;
        vlds(bb, ub<float>(kA), 5, BRC_B32);
        vsts(bb, ub<float>(kOut), at + 256, NORM_B32, all);
        vlds(bb, ub<float>(kA), 8, BLK);
        vsts(bb, ub<float>(kOut), at + 320, NORM_B32, all);
        // float <-> half: a's second half narrowed into the odd halves, then
        // widened back from them; a partial mask takes the full path.
        vector_f16 hh;
        vcvt(hh, x2, all, RS_DISABLE, PART_ODD);
        vsts((vector_f32&)hh, ub<float>(kOut), at + 384, NORM_B32, all);
        vector_f32 ff;
        vcvt(ff, hh, pset_b16(PAT_ALL), PART_ODD);
        vsts(ff, ub<float>(kOut), at + 448, NORM_B32, all);
        vcvt(hh, x, p2, PART_EVEN);
        vsts((vector_f32&)hh, ub<float>(kOut), at + 512, NORM_B32, all);
        // 16-bit: 128 elements a register.
        vector_u16 h, g;
        vector_s16 sh;
        vector_bool all16 = pset_b16(PAT_ALL);
        uint32_t left16 = 100;
        vector_bool q = plt_b16(left16, POST_UPDATE);
        vci(h, uint16_t(65500), INC_ORDER);
        vlds(g, ub<uint16_t>(kA), 0, NORM);
        vmul(g, g, h, all16, MODE_ZEROING);
        vadd(g, g, h, q, MODE_MERGING);
        vsts(g, ub<uint16_t>(kOut + 4096 * 4), 0, NORM_B16, all16);
        vlds(sh, ub<int16_t>(kB), 0, NORM);
        vmins(sh, sh, int16_t(-5), q, MODE_ZEROING);
        vmax(sh, sh, (vector_s16&)h, all16, MODE_ZEROING);
        vsts(sh, ub<int16_t>(kOut + 4096 * 4), 128, NORM_B16, all16);
        // The unpacking loads and the packing store: out16[256..292) the low
        // halves of a's first 36 halves widened, out16[384..512) b's bytes.
        vector_u32 w32;
        vlds(w32, ub<uint16_t>(kA), 0, UNPK_B16);
        vsts(w32, ub<uint16_t>(kOut + 4096 * 4), 256, PK_B32, p2);
        vector_u16 w16;
        vlds(w16, ub<uint8_t>(kB), 0, UNPK_B8);
        vsts(w16, ub<uint16_t>(kOut + 4096 * 4), 384, NORM_B16, all16);
        // Gathers and scatters: reversed indices under a prefix and a
        // non-prefix mask (out[1536..1664)); repeated indices, the later
        // element staying (out[1664..1728)); 16-bit elements with 16-bit
        // indices (out16[512..640)).
        vector_u32 rev, upto20;
        vci(rev, 0u, DEC_ORDER);  // 63 - i
        vci(upto20, 0u, INC_ORDER);
        vmins(upto20, upto20, 20u, all, MODE_ZEROING);
        vector_f32 gg;
        vgather2(gg, ub<float>(kA), rev, p2);
        vsts(gg, ub<float>(kOut), 1536, NORM_B32, all);
        vgather2(gg, ub<float>(kB), rev, m3);
        vsts(gg, ub<float>(kOut), 1600, NORM_B32, all);
        vscatter(x2, ub<float>(kOut + 1664 * 4), upto20, p1);
        vscatter(y2, ub<float>(kOut + 1664 * 4), rev, none);
        vector_u16 rev16;
        vci(rev16, uint16_t(0), DEC_ORDER);  // 127 - i
        vscatter(g, ub<uint16_t>(kOut + 4096 * 4 + 512 * 2), rev16, q);
    }
    ops[0] = get_sys_cnt() - start;
    v_to_mte3();
    out_to(out, kOut, 1792);
    out_to(out16, kOut + 4096 * 4, 640);
}

// The light paths of TTRANS, TCVT and the row softmax (a5-vreg.md, "Speed:
// the light paths"), from a's 256 floats: scatters and gathers whose indices
// step by a constant (pto-isa's TTRANS builds them with vci, vmuls and
// vadds) and the forms next to them that do not (a step that wraps, one
// index off the line, a step of 0); 16-bit ones; the float reductions,
// vexp, float <-> half conversions, vbr, vdup and ONEPT stores. out[0..3200) the 32-bit
// results, ops[0] the instructions counted between the two counter reads.
__global__ __aicore__ void vreg_light_more(__gm__ float* out, __gm__ int64_t* ops, __gm__ float* a) {
    constexpr uint64_t kO = kOut;
    in(kA, a, 256);
    mte2_to_v();
    const int64_t start = get_sys_cnt();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        const vector_bool all16 = pset_b16(PAT_ALL);
        uint32_t left = 36;
        const vector_bool p36 = plt_b32(left);
        vector_f32 x, y;
        vlds(x, ub<float>(kA), 0, NORM);
        vlds(y, ub<float>(kA), 64, NORM);
        vector_u32 idx;
        // [0, 320): 5i + 2, the whole register.
        vci(idx, 0u, INC_ORDER);
        vmuls(idx, idx, 5u, all, MODE_ZEROING);
        vadds(idx, idx, 2u, all, MODE_ZEROING);
        vscatter(x, ub<float>(kO), idx, all);
        // [896, 1216): the same with its last index moved to 300 (not a line).
        vector_u32 bent;
        vmins(bent, idx, 300u, all, MODE_ZEROING);
        vscatter(x, ub<float>(kO + 896 * 4), bent, all);
        // [320, 512): 3i + 1 under a prefix of 36.
        vci(idx, 0u, INC_ORDER);
        vmuls(idx, idx, 3u, all, MODE_ZEROING);
        vadds(idx, idx, 1u, all, MODE_ZEROING);
        vscatter(y, ub<float>(kO + 320 * 4), idx, p36);
        // [1408, 1472): gathered from 3i + 1, the whole register; [1472,
        // 1536): the same indices under the prefix, the rest zero.
        vector_f32 g;
        vgather2(g, ub<float>(kA), idx, all);
        vsts(g, ub<float>(kO), 1408, NORM_B32, all);
        vgather2(g, ub<float>(kA), idx, p36);
        vsts(g, ub<float>(kO), 1472, NORM_B32, all);
        // [512, 576): every index 7, the last element stays.
        vector_u32 seven;
        vci(seven, 0u, INC_ORDER);
        vmuls(seven, seven, 0u, all, MODE_ZEROING);
        vadds(seven, seven, 7u, all, MODE_ZEROING);
        vscatter(x, ub<float>(kO + 512 * 4), seven, all);
        // [576, 896): 300 - 4i, a step that wraps the index type.
        vector_u32 down;
        vci(down, 0u, DEC_ORDER);
        vmuls(down, down, 4u, all, MODE_ZEROING);
        vadds(down, down, 48u, all, MODE_ZEROING);
        vscatter(y, ub<float>(kO + 576 * 4), down, all);
        // [1216, 1408): 16-bit elements at 3i + 1, 128 of them; [1536,
        // 1600): 16-bit elements gathered from 2i + 1.
        vector_u16 h, i16;
        vlds(h, ub<uint16_t>(kA), 0, NORM);
        vci(i16, uint16_t(0), INC_ORDER);
        vmuls(i16, i16, uint16_t(3), all16, MODE_ZEROING);
        vadds(i16, i16, uint16_t(1), all16, MODE_ZEROING);
        vscatter(h, ub<uint16_t>(kO + 1216 * 4), i16, all16);
        vci(i16, uint16_t(0), INC_ORDER);
        vmuls(i16, i16, uint16_t(2), all16, MODE_ZEROING);
        vadds(i16, i16, uint16_t(1), all16, MODE_ZEROING);
        vector_u16 gh;
        vgather2(gh, ub<uint16_t>(kA), i16, all16);
        vsts(gh, ub<uint16_t>(kO + 1536 * 4), 0, NORM_B16, all16);
        // Reductions, 64 floats a result from 1600 on: the sum, maximum and
        // minimum of whole registers and of a prefix of 36; z0 holds NaNs
        // and infinities, z1 zeros of both signs among negatives.
        vector_f32 z0, z1, r;
        vlds(z0, ub<float>(kA), 128, NORM);
        vlds(z1, ub<float>(kA), 192, NORM);
        int at = 1600;
        const auto put = [&](vector_f32& v) {
            vsts(v, ub<float>(kO), at, NORM_B32, all);
            at += 64;
        };
        vcadd(r, x, all, MODE_ZEROING); put(r);    // 1600
        vcadd(r, z0, all, MODE_ZEROING); put(r);   // 1664
        vcadd(r, y, p36, MODE_ZEROING); put(r);    // 1728
        vcmax(r, x, all, MODE_ZEROING); put(r);    // 1792
        vcmin(r, x, all, MODE_ZEROING); put(r);    // 1856
        vcmax(r, z0, all, MODE_ZEROING); put(r);   // 1920
        vcmax(r, z1, all, MODE_ZEROING); put(r);   // 1984
        vcmin(r, z1, p36, MODE_ZEROING); put(r);   // 2048
        vcmax(r, y, p36, MODE_ZEROING); put(r);    // 2112
        vcmin(r, z0, p36, MODE_ZEROING); put(r);   // 2176
        r = x;
        vcadd(r, r, all, MODE_ZEROING); put(r);    // 2240: in place
        // vexp of whole registers (NaNs and infinities in z0) and of a prefix.
        vexp(r, x, all, MODE_ZEROING); put(r);     // 2304
        r = z0;
        vexp(r, r, all, MODE_ZEROING); put(r);     // 2368: in place
        vexp(r, y, p36, MODE_ZEROING); put(r);     // 2432
        // float -> half into the even and the odd halves (z0's NaNs,
        // infinities, subnormals and overflows included) and back; the
        // halves of z0 hold infinities and NaNs, which the widening leaves
        // to the row conversion; a conversion in place.
        vector_f16 hx, hz;
        vcvt(hx, x, all, ROUND_R, RS_DISABLE, PART_EVEN);
        vsts((vector_f32&)hx, ub<float>(kO), at, NORM_B32, all);     // 2496
        vcvt(hz, z0, all, RS_DISABLE, PART_ODD);
        vsts((vector_f32&)hz, ub<float>(kO), at + 64, NORM_B32, all);  // 2560
        vcvt(r, hx, all16, PART_EVEN);
        vsts(r, ub<float>(kO), at + 128, NORM_B32, all);               // 2624
        vcvt(r, hz, all16, PART_ODD);
        vsts(r, ub<float>(kO), at + 192, NORM_B32, all);               // 2688
        vector_f32 q = z1;
        vcvt((vector_f16&)q, q, all, RS_DISABLE, PART_ODD);
        vcvt(q, (vector_f16&)q, all16, PART_ODD);
        vsts(q, ub<float>(kO), at + 256, NORM_B32, all);               // 2752
        // Broadcasts: vbr of -inf's bits into 32-bit elements; a float
        // scalar under the prefix, zeroing and merging; element 63 of z0
        // (a NaN's payload kept) everywhere; a 16-bit scalar.
        at += 320;
        vector_u32 b32;
        vbr(b32, 0xff800000u);
        vsts(b32, ub<uint32_t>(kO), at, NORM_B32, all);                // 2816
        vdup(r, 2.5f, p36, MODE_ZEROING);
        vsts(r, ub<float>(kO), at + 64, NORM_B32, all);                // 2880
        r = x;
        vdup(r, -0.0f, p36, MODE_MERGING);
        vsts(r, ub<float>(kO), at + 128, NORM_B32, all);               // 2944
        r = z1;
        vdup(r, z0, all, POS_HIGHEST, MODE_ZEROING);
        vsts(r, ub<float>(kO), at + 192, NORM_B32, all);               // 3008
        vector_u16 b16;
        vdup(b16, uint16_t(0xabcd), all16, MODE_ZEROING);
        vsts(b16, ub<uint16_t>(kO + 3072 * 4), 0, NORM_B16, all16);    // 3072
        // ONEPT stores of element 0: x's under every mask, y's under a
        // mask without element 0 (nothing stored), 16-bit at an odd place.
        vsts(x, ub<float>(kO), 3136, ONEPT_B32, all);
        vsts(y, ub<float>(kO), 3137, ONEPT_B32, pset_b32(PAT_ALLF));
        vector_bool from1;
        pxor(from1, all, pset_b32(PAT_VL1), all);  // every element but 0
        vsts(y, ub<float>(kO), 3138, ONEPT_B32, from1);
        vsts(h, ub<uint16_t>(kO + 3139 * 4), 1, ONEPT_B16, all16);
    }
    ops[0] = get_sys_cnt() - start;
    v_to_mte3();
    out_to(out, kO, 3200);
}

// vcmax and vcmin of four registers (a: 256 floats) over their first 60
// elements: out[4 * r + 0/1] the maximum's bits and index, out[4 * r + 2/3]
// the minimum's.
// Registers whose bytes are written only when read (registers.hpp): ones
// never written, and index lines built by vci and scalar arithmetic, read
// by stores, by arithmetic, under other element widths, as copies, as the
// destination of a gather through them, and after the forms that end a
// line (a signed minimum, a prefix predicate); the halves of float <->
// half conversions and UNPK_B16 loads kept side by side, read by packing
// and whole stores, by conversions of either part and in place; const
// registers; floats widened from finite halves, read by a prefix store,
// by arithmetic, in place and as a copy. out[0..2016) the 32-bit
// results, ops[0] the instructions counted between the two counter reads.
__global__ __aicore__ void vreg_lazy(__gm__ uint32_t* out, __gm__ int64_t* ops, __gm__ float* a) {
    constexpr uint64_t kO = kOut;
    in(kA, a, 256);
    mte2_to_v();
    const int64_t start = get_sys_cnt();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        const vector_bool all16 = pset_b16(PAT_ALL);
        uint32_t left = 36;
        const vector_bool p36 = plt_b32(left);
        vector_f32 x;
        vlds(x, ub<float>(kA), 0, NORM);
        // [0, 64): never written; [64, 128): x + a never written register;
        // [128, 192): merging into one, 36 elements 2x, the rest zero;
        // [192, 256): copies of one, as floats and as u32.
        vector_f32 fresh0, fresh1, fresh2, fresh3;
        vsts(fresh0, ub<float>(kO), 0, NORM_B32, all);
        vector_f32 r;
        vadd(r, x, fresh1, all, MODE_ZEROING);
        vsts(r, ub<float>(kO), 64, NORM_B32, all);
        vadd(fresh2, x, x, p36, MODE_MERGING);
        vsts(fresh2, ub<float>(kO), 128, NORM_B32, all);
        vector_f32 copy = fresh3;
        vector_u32 seen(copy);
        vsts(seen, ub<uint32_t>(kO), 192, NORM_B32, p36);
        vsts(copy, ub<float>(kO), 192 + 36, NORM_B32, all);  // 192 + 36 .. 292, overwritten below from 256
        // [256, 320): 3(5 + i) stored; [320, 384): 73 - i (DEC_ORDER).
        vector_u32 line;
        vci(line, 5u, INC_ORDER);
        vmuls(line, line, 3u, all, MODE_ZEROING);
        vsts(line, ub<uint32_t>(kO), 256, NORM_B32, all);
        vector_u32 down;
        vci(down, 10u, DEC_ORDER);
        vsts(down, ub<uint32_t>(kO), 320, NORM_B32, all);
        // [384, 448): 16-bit 65533 + i, wrapping past 65535.
        vector_u16 h;
        vci(h, uint16_t(65530), INC_ORDER);
        vadds(h, h, uint16_t(3), all16, MODE_ZEROING);
        vsts(h, ub<uint16_t>(kO + 384 * 4), 0, NORM_B16, all16);
        // [448, 512): a 32-bit line 0x10002 + i plus 1 in each 16-bit half.
        vector_u32 wide;
        vci(wide, 0x10002u, INC_ORDER);
        vadds((vector_u16&)wide, (vector_u16&)wide, uint16_t(1), all16, MODE_ZEROING);
        vsts(wide, ub<uint32_t>(kO), 448, NORM_B32, all);
        // [512, 576): a line added to itself: 2i.
        vector_u32 twice;
        vci(line, 0u, INC_ORDER);
        vadd(twice, line, line, all, MODE_ZEROING);
        vsts(twice, ub<uint32_t>(kO), 512, NORM_B32, all);
        // [576, 640): a minimum that changes nothing keeps the line: x
        // scattered to 576 + i.
        vci(line, 0u, INC_ORDER);
        vmins(line, line, 100u, all, MODE_ZEROING);
        vadds(line, line, 576u, all, MODE_ZEROING);
        vscatter(x, ub<float>(kO), line, all);
        // [640, 704): signed 206 - 2i; [704, 768): its minimum with 100
        // (signed: the bytes' path).
        vector_s32 sl;
        vci(sl, -3, INC_ORDER);
        vmuls(sl, sl, -2, all, MODE_ZEROING);
        vadds(sl, sl, 200, all, MODE_ZEROING);
        vsts(sl, ub<int32_t>(kO), 640, NORM_B32, all);
        vmins(sl, sl, 100, all, MODE_ZEROING);
        vsts(sl, ub<int32_t>(kO), 704, NORM_B32, all);
        // [768, 832): gathered from a[2i] into the index register itself.
        vector_u32 gi;
        vci(gi, 0u, INC_ORDER);
        vmuls(gi, gi, 2u, all, MODE_ZEROING);
        vgather2((vector_f32&)gi, ub<float>(kA), gi, all);
        vsts(gi, ub<uint32_t>(kO), 768, NORM_B32, all);
        // [832, 896): x scattered through a copy of a line, to 832 + i.
        vci(line, 832u, INC_ORDER);
        vector_u32 cp = line;
        vscatter(x, ub<float>(kO), cp, all);
        // [896, 960): 0x40000000 + i times 4 wraps to 4i.
        vector_u32 wrap;
        vci(wrap, 0x40000000u, INC_ORDER);
        vmuls(wrap, wrap, 4u, all, MODE_ZEROING);
        vsts(wrap, ub<uint32_t>(kO), 896, NORM_B32, all);
        // [960, 1024): 1 + i under the prefix of 36, the rest zero.
        vector_u32 part;
        vci(part, 0u, INC_ORDER);
        vadds(part, part, 1u, p36, MODE_ZEROING);
        vsts(part, ub<uint32_t>(kO), 960, NORM_B32, all);
        // [1024, 1088): a line selected against x where the prefix is on.
        vector_u32 sel;
        vci(line, 7u, INC_ORDER);
        vsel(sel, line, (vector_u32&)x, p36);
        vsts(sel, ub<uint32_t>(kO), 1024, NORM_B32, all);
        // Halves kept side by side. [1088, 1120): x to half (the even
        // part) packed; [1120, 1138): 36 of them packed.
        vector_f16 hx, hy;
        vcvt(hx, x, all, ROUND_R, RS_DISABLE, PART_EVEN);
        vsts((vector_f32&)hx, ub<float>(kO), 1088, PK_B32, all);
        vsts((vector_f32&)hx, ub<float>(kO + 1120 * 4), 0, PK_B32, p36);
        // [1152, 1216): the odd part, stored whole; [1216, 1280): widened
        // from the odd part; [1280, 1344): hx widened from the odd part
        // (zeros).
        vcvt(hy, x, all, ROUND_R, RS_DISABLE, PART_ODD);
        vsts((vector_f32&)hy, ub<float>(kO), 1152, NORM_B32, all);
        vector_f32 wy;
        vcvt(wy, hy, all16, PART_ODD);
        vsts(wy, ub<float>(kO), 1216, NORM_B32, all);
        vcvt(wy, hx, all16, PART_ODD);
        vsts(wy, ub<float>(kO), 1280, NORM_B32, all);
        // [1344, 1408): halves loaded by UNPK_B16 from a[128..160), with an
        // infinity and a NaN among them, widened; [1408, 1472): from
        // a[0..32), widened; [1472, 1504): packed back; [1504, 1568):
        // stored whole.
        vector_f16 u, u2;
        vlds(u, ub<half>(kA), 256, UNPK_B16);
        vcvt(wy, u, all16, PART_EVEN);
        vsts(wy, ub<float>(kO), 1344, NORM_B32, all);
        vlds(u2, ub<half>(kA), 0, UNPK_B16);
        vcvt(wy, u2, all16, PART_EVEN);
        vsts(wy, ub<float>(kO), 1408, NORM_B32, all);
        vsts((vector_f32&)u2, ub<float>(kO), 1472, PK_B32, all);
        vsts((vector_f32&)u2, ub<float>(kO), 1504, NORM_B32, all);
        // [1568, 1632): widened in place; [1632, 1696): x narrowed in
        // place, then added to itself as integers.
        vector_f16 u3;
        vlds(u3, ub<half>(kA), 0, UNPK_B16);
        vcvt((vector_f32&)u3, u3, all16, PART_EVEN);
        vsts((vector_f32&)u3, ub<float>(kO), 1568, NORM_B32, all);
        vector_f32 q = x;
        vcvt((vector_f16&)q, q, all, ROUND_R, RS_DISABLE, PART_EVEN);
        vadd((vector_u32&)q, (vector_u32&)q, (vector_u32&)q, all, MODE_ZEROING);
        vsts(q, ub<float>(kO), 1632, NORM_B32, all);
        // [1696, 1760): a const register never written; [1760, 1824): a
        // const copy of a line (5 + 2i), read through the const object.
        const vector_f32 czero;
        vsts(czero, ub<float>(kO), 1696, NORM_B32, all);
        vci(line, 5u, INC_ORDER);
        vmuls(line, line, 2u, all, MODE_ZEROING);
        vadds(line, line, 3u, all, MODE_ZEROING);
        const vector_u32 cline = line;
        vsts(cline, ub<uint32_t>(kO), 1760, NORM_B32, all);
        // Floats widened from finite halves (1 + 0x1f3 i: subnormals and
        // normals, loaded by UNPK_B16 from a line stored at 2016):
        // [1824, 1888) stored under p36 (the rest as UB was);
        // [1888, 1952) widened in place, then added to itself;
        // [1952, 2016) a copy of a widened register, stored whole.
        vector_u16 fin;
        vci(fin, uint16_t(0), INC_ORDER);
        vmuls(fin, fin, uint16_t(0x1f3), all16, MODE_ZEROING);
        vadds(fin, fin, uint16_t(1), all16, MODE_ZEROING);
        vsts(fin, ub<uint16_t>(kO + 2016 * 4), 0, NORM_B16, all16);
        vector_f16 hf, hf2, hf3;
        vlds(hf, ub<half>(kO + 2016 * 4), 0, UNPK_B16);
        vector_f32 wf;
        vcvt(wf, hf, all16, PART_EVEN);
        vsts(wf, ub<float>(kO), 1824, NORM_B32, p36);
        vlds(hf2, ub<half>(kO + 2016 * 4), 0, UNPK_B16);
        vcvt((vector_f32&)hf2, hf2, all16, PART_EVEN);
        vadd((vector_f32&)hf2, (vector_f32&)hf2, (vector_f32&)hf2, all, MODE_ZEROING);
        vsts((vector_f32&)hf2, ub<float>(kO), 1888, NORM_B32, all);
        vlds(hf3, ub<half>(kO + 2016 * 4), 0, UNPK_B16);
        vector_f32 wf3;
        vcvt(wf3, hf3, all16, PART_EVEN);
        const vector_f32 wcopy = wf3;
        vsts(wcopy, ub<float>(kO), 1952, NORM_B32, all);
    }
    ops[0] = get_sys_cnt() - start;
    v_to_mte3();
    out_to(out, kO, 2016);
}

__global__ __aicore__ void vreg_extremes(__gm__ uint32_t* out, __gm__ float* a) {
    in(kA, a, 256);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y;
        const vector_bool all = pset_b32(PAT_ALL);
        for (int r = 0; r < 4; ++r) {
            uint32_t sixty = 60;
            vlds(x, ub<float>(kA), r * 64, NORM);
            vcmax(y, x, plt_b32(sixty), MODE_ZEROING);
            vsts(y, ub<float>(kOut), r * 128, NORM_B32, all);
            vcmin(y, x, plt_b32(sixty), MODE_ZEROING);
            vsts(y, ub<float>(kOut), r * 128 + 64, NORM_B32, all);
        }
    }
    v_to_mte3();
    out_to(out, kOut, 512);
}

// The same over whole registers (PAT_ALL: every one of the 64 elements).
__global__ __aicore__ void vreg_extremes_all(__gm__ uint32_t* out, __gm__ float* a) {
    in(kA, a, 256);
    mte2_to_v();
    __VEC_SCOPE__ {
        vector_f32 x, y;
        const vector_bool all = pset_b32(PAT_ALL);
        for (int r = 0; r < 4; ++r) {
            vlds(x, ub<float>(kA), r * 64, NORM);
            vcmax(y, x, all, MODE_ZEROING);
            vsts(y, ub<float>(kOut), r * 128, NORM_B32, all);
            vcmin(y, x, all, MODE_ZEROING);
            vsts(y, ub<float>(kOut), r * 128 + 64, NORM_B32, all);
        }
    }
    v_to_mte3();
    out_to(out, kOut, 512);
}

extern "C" void launch_vreg_add_f32(float* out, float* a, float* b, uint32_t n, void* s) {
    vreg_add_f32<<<1, nullptr, s>>>(out, a, b, n);
}
extern "C" void launch_vreg_chain_f16(uint16_t* out, uint16_t* a, uint16_t* b, uint32_t n, void* s) {
    vreg_chain_f16<<<1, nullptr, s>>>((half*)out, (half*)a, (half*)b, n);
}
extern "C" void launch_vreg_exp_bf16(uint16_t* out, uint16_t* a, uint16_t* b, void* s) {
    vreg_exp_bf16<<<1, nullptr, s>>>((bfloat16_t*)out, (bfloat16_t*)a, (bfloat16_t*)b);
}
extern "C" void launch_vreg_int32(int32_t* out, int32_t* a, int32_t* b, void* s) {
    vreg_int32<<<1, nullptr, s>>>(out, a, b);
}
extern "C" void launch_vreg_patterns(float* out, float* a, void* s) { vreg_patterns<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_reduce(float* out, float* a, float* b, void* s) {
    vreg_reduce<<<1, nullptr, s>>>(out, a, b);
}
extern "C" void launch_vreg_int64(int64_t* out, int64_t* a, int64_t* b, void* s) {
    vreg_int64<<<1, nullptr, s>>>(out, a, b);
}
extern "C" void launch_vreg_fma_f32(float* out, float* a, float* b, void* s) {
    vreg_fma_f32<<<1, nullptr, s>>>(out, a, b);
}
extern "C" void launch_vreg_misaligned(float* out, void* s) { vreg_misaligned<<<1, nullptr, s>>>(out); }
extern "C" void launch_vreg_convert(uint16_t* oh, int16_t* o16, int32_t* o32, float* of, float* a, void* s) {
    vreg_convert<<<1, nullptr, s>>>((half*)oh, o16, o32, of, a);
}
extern "C" void launch_vreg_rearrange(int32_t* out, uint8_t* bits, void* s) {
    vreg_rearrange<<<1, nullptr, s>>>(out, bits);
}
extern "C" void launch_vreg_unaligned(float* out, float* a, void* s) { vreg_unaligned<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_mod(int32_t* out, float* fout, int32_t* a, int32_t* b, float* fa, float* fb, void* s) {
    vreg_mod<<<1, nullptr, s>>>(out, fout, a, b, fa, fb);
}
extern "C" void launch_vreg_gather(float* out, uint16_t* out16, float* a, uint8_t* b, void* s) {
    vreg_gather<<<1, nullptr, s>>>(out, out16, a, b);
}
extern "C" void launch_vreg_block_reduce(float* out, float* a, void* s) { vreg_block_reduce<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_reduce16(int32_t* out, int16_t* a, void* s) { vreg_reduce16<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_fp4(uint8_t* out, uint16_t* back_out, uint16_t* a, void* s) {
    vreg_fp4<<<1, nullptr, s>>>(out, (bfloat16_t*)back_out, (bfloat16_t*)a);
}
extern "C" void launch_vreg_pack(int16_t* out16, int32_t* out32, void* s) { vreg_pack<<<1, nullptr, s>>>(out16, out32); }
extern "C" void launch_vreg_histogram(uint16_t* out, uint8_t* a, void* s) { vreg_histogram<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_literals(float* out, uint32_t* idx, int32_t* u, float* a, void* s) {
    vreg_literals<<<1, nullptr, s>>>(out, idx, u, a);
}
extern "C" void launch_vreg_dma_loops(float* out, float* a, void* s) { vreg_dma_loops<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_atomic_store(int32_t* out, int32_t* a, void* s) {
    vreg_atomic_store<<<1, nullptr, s>>>(out, a);
}
extern "C" void launch_vreg_blk(float* out, uint32_t* out4, int32_t* outi, float* a, void* s) {
    vreg_blk<<<1, nullptr, s>>>(out, out4, outi, a);
}
extern "C" void launch_vreg_expdif(float* out, uint16_t* a, uint16_t* b, float* fa, void* s) {
    vreg_expdif<<<1, nullptr, s>>>(out, (half*)a, (half*)b, fa);
}
extern "C" void launch_vreg_pair_gatherb(float* out, float* a, uint32_t* offsets, void* s) {
    vreg_pair_gatherb<<<1, nullptr, s>>>(out, a, offsets);
}
extern "C" void launch_vreg_block_store(float* out, float* a, void* s) { vreg_block_store<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_atomics(int32_t* seen, int32_t* counter, float* f, uint32_t blocks, void* s) {
    vreg_atomics<<<blocks, nullptr, s>>>(seen, counter, f);
}
extern "C" void launch_vreg_store_classes(uint8_t* out8, uint8_t* in8, uint8_t* out4, uint8_t* in4, void* s) {
    vreg_store_classes<<<1, nullptr, s>>>((float8_e4m3_t*)out8, (float8_e4m3_t*)in8, (float4_e2m1x2_t*)out4,
                                          (float4_e2m1x2_t*)in4);
}
extern "C" void launch_vreg_squeeze(int32_t* out, int32_t* a, int16_t* h, void* s) {
    vreg_squeeze<<<1, nullptr, s>>>(out, a, h);
}
extern "C" void launch_vreg_squeeze_unpaired(int32_t* out, void* s) { vreg_squeeze_unpaired<<<1, nullptr, s>>>(out); }
extern "C" void launch_vreg_light(float* out, uint16_t* out16, int64_t* ops, float* a, float* b, void* s) {
    vreg_light<<<1, nullptr, s>>>(out, out16, ops, a, b);
}
extern "C" void launch_vreg_light_more(float* out, int64_t* ops, float* a, void* s) {
    vreg_light_more<<<1, nullptr, s>>>(out, ops, a);
}
// Float add, subtract, multiply and divide of whole registers into a
// destination that is neither operand, and one in place, with NaNs of
// several payloads (two in one lane, NaNs made from numbers): x = a[0..64), y = a[64..128); out[0..448) the results (add,
// sub, mul, div, add of the scalar s, multiply by s, add in place),
// ops[0] the instructions counted between the two counter reads.
__global__ __aicore__ void vreg_nan_whole(__gm__ float* out, __gm__ int64_t* ops, __gm__ float* a, float s) {
    in(kA, a, 128);
    mte2_to_v();
    const int64_t start = get_sys_cnt();
    __VEC_SCOPE__ {
        const vector_bool all = pset_b32(PAT_ALL);
        vector_f32 x, y, t;
        vlds(x, ub<float>(kA), 0, NORM);
        vlds(y, ub<float>(kA), 64, NORM);
        vadd(t, x, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 0, NORM_B32, all);
        vsub(t, x, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 64, NORM_B32, all);
        vmul(t, x, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 128, NORM_B32, all);
        vdiv(t, x, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 192, NORM_B32, all);
        vadds(t, x, s, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 256, NORM_B32, all);
        vmuls(t, x, s, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 320, NORM_B32, all);
        t = x;
        vadd(t, t, y, all, MODE_ZEROING);
        vsts(t, ub<float>(kOut), 384, NORM_B32, all);
    }
    ops[0] = get_sys_cnt() - start;
    v_to_mte3();
    out_to(out, kOut, 448);
}
extern "C" void launch_vreg_nan_whole(float* out, int64_t* ops, float* a, float s, void* st) {
    vreg_nan_whole<<<1, nullptr, st>>>(out, ops, a, s);
}
extern "C" void launch_vreg_lazy(uint32_t* out, int64_t* ops, float* a, void* s) { vreg_lazy<<<1, nullptr, s>>>(out, ops, a); }
extern "C" void launch_vreg_extremes(uint32_t* out, float* a, void* s) { vreg_extremes<<<1, nullptr, s>>>(out, a); }
extern "C" void launch_vreg_extremes_all(uint32_t* out, float* a, void* s) {
    vreg_extremes_all<<<1, nullptr, s>>>(out, a);
}
