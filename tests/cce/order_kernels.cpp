// Kernels on the A2A3 sort, gather and transpose intrinsics alone
// (docs/intrinsics/sort.md, gather.md, transpose.md), built by ptocc over
// ptosim's intrinsic layer.
#include <cstdint>

namespace {
constexpr uint64_t kA = 0x0, kB = 0x1000, kC = 0x2000, kOut = 0x4000, kOut2 = 0x6000;

template <class T>
__aicore__ __ubuf__ T* ub(uint64_t at) { return (__ubuf__ T*)at; }

__aicore__ void in(uint64_t at, __gm__ void* src, uint32_t bytes) {
    copy_gm_to_ubuf_align_b32(ub<uint32_t>(at), (__gm__ uint32_t*)src, 0, 1, bytes, 0, 0, 0, 0);
}
__aicore__ void go_v() {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
__aicore__ void out(__gm__ void* dst, uint64_t at, uint32_t bytes) {
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)dst, ub<uint32_t>(at), 0, 1, bytes, 0, 0, 0, 0);
}
}  // namespace

// vbitsort of two repeats of 32 float scores with indices: 64 structures.
__global__ __aicore__ void sort32(__gm__ uint32_t* o, __gm__ float* scores, __gm__ uint32_t* idx) {
    in(kA, scores, 64 * 4);
    in(kB, idx, 64 * 4);
    go_v();
    vbitsort(ub<float>(kOut), ub<float>(kA), ub<uint32_t>(kB), 2);
    out(o, kOut, 64 * 8);
}

// Three sorted lists (3, 2 and 4 structures) at kA, kA + 0x100, kA + 0x200:
// merged whole into o[0..18) words, then again stopping at the first
// exhausted list into o[32..50) (preset to 0xEEEEEEEE); o[64..66) is
// VMS4_SR after the second merge.
__global__ __aicore__ void merge(__gm__ uint32_t* o, __gm__ uint32_t* lists) {
    in(kA, lists, 0x300);
    go_v();
    vector_dup(ub<uint32_t>(kOut), 0xEEEEEEEEu, 2, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    __ubuf__ float* l[3] = {ub<float>(kA), ub<float>(kA + 0x100), ub<float>(kA + 0x200)};
    const uint64_t count = 3 | uint64_t(2) << 16 | uint64_t(4) << 32;
    vmrgsort4(ub<float>(kOut), l, count, 1 | 0x7 << 8);
    vmrgsort4(ub<float>(kOut + 128), l, count, 1 | 0x7 << 8 | 1 << 12);
    pipe_barrier(PIPE_ALL);
    *ub<uint64_t>(kOut + 256) = static_cast<uint64_t>(get_vms4_sr());
    out(o, kOut, 66 * 4);
}

// vgather of 40 words (counter mode) from a 64-word table through byte
// offsets: o[0..48) (the last 8 preset to 7); then vreducev2 pattern 1 over
// two repeats of 64 words: o[48..112), its count at o[112]; then pattern 0
// over 20 words with src1's bits: o[120..134), its count at o[113].
__global__ __aicore__ void gather(__gm__ uint32_t* o, __gm__ uint32_t* table, __gm__ uint32_t* offs,
                                  __gm__ uint32_t* words) {
    in(kA, table, 64 * 4);
    in(kB, offs, 64 * 4);
    in(kC, words, 128 * 4);
    go_v();
    vector_dup(ub<uint32_t>(kOut), 7u, 4, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 40);
    vgather(ub<uint32_t>(kOut), ub<uint32_t>(kB), kA, 8, 1);
    set_mask_norm();
    set_vector_mask(-1, -1);
    vreducev2(ub<uint32_t>(kOut + 48 * 4), ub<uint32_t>(kC), ub<uint32_t>(kC), 2, 1, 1, 8, 0);
    pipe_barrier(PIPE_ALL);
    const int64_t kept = get_rsvd_cnt();
    __ubuf__ uint32_t* bits = ub<uint32_t>(kB + 0x400);
    bits[0] = 0x000F0FF3u;
    pipe_barrier(PIPE_ALL);
    set_mask_count();
    set_vector_mask(0, 20);
    vreducev2(ub<uint32_t>(kOut + 120 * 4), ub<uint32_t>(kC), bits, 1, 1, 0, 8, 0);
    set_mask_norm();
    set_vector_mask(-1, -1);
    pipe_barrier(PIPE_ALL);
    ub<uint32_t>(kOut)[112] = static_cast<uint32_t>(kept);
    ub<uint32_t>(kOut)[113] = static_cast<uint32_t>(get_rsvd_cnt());
    out(o, kOut, 136 * 4);
}

// scatter_vnchwconv_b16 of a 16 x 16 matrix of halves (rows 32 bytes apart)
// into o16; _b32 of 16 rows of 8 words into o32; _b8 of 16 rows of 32 bytes,
// their low halves into the high halves of 16 blocks preset to 0xEE, into o8.
__global__ __aicore__ void transpose(__gm__ uint16_t* o16, __gm__ uint32_t* o32, __gm__ uint8_t* o8,
                                     __gm__ uint16_t* m16, __gm__ uint32_t* m32, __gm__ uint8_t* m8) {
    in(kA, m16, 512);
    in(kB, m32, 512);
    in(kC, m8, 512);
    go_v();
    vector_dup(ub<uint32_t>(kOut2), 0xEEEEEEEEu, 2, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    uint64_t src[16], dst[16];
    for (int i = 0; i < 16; ++i) {
        src[i] = kA + i * 32;
        dst[i] = kOut + i * 32;
    }
    set_va_reg_sb(VA2, src);
    set_va_reg_sb(VA3, src + 8);
    set_va_reg_sb(VA0, dst);
    set_va_reg_sb(VA1, dst + 8);
    scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
    for (int i = 0; i < 16; ++i) {
        src[i] = kB + i * 32;
        dst[i] = kOut + 512 + i * 32;
    }
    set_va_reg_sb(VA4, src);
    set_va_reg_sb(VA5, src + 8);
    set_va_reg_sb(VA6, dst);
    set_va_reg_sb(VA7, dst + 8);
    scatter_vnchwconv_b32(VA6, VA4, 1, 0, 0);
    for (int i = 0; i < 16; ++i) {
        src[i] = kC + i * 32;
        dst[i] = kOut2 + i * 32;
    }
    set_va_reg_sb(VA2, src);
    set_va_reg_sb(VA3, src + 8);
    set_va_reg_sb(VA0, dst);
    set_va_reg_sb(VA1, dst + 8);
    scatter_vnchwconv_b8(VA0, VA2, 1, 0, 0, true, false);
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o16, ub<uint32_t>(kOut), 0, 1, 512, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32(o32, ub<uint32_t>(kOut + 512), 0, 1, 512, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o8, ub<uint32_t>(kOut2), 0, 1, 512, 0, 0, 0, 0);
}

// vgatherb: eight blocks of a 64-word table through byte offsets, written two
// blocks apart over a region preset to 7: o[0..128) words.
__global__ __aicore__ void gatherb(__gm__ uint32_t* o, __gm__ uint32_t* table, __gm__ uint32_t* offs) {
    in(kA, table, 64 * 4);
    in(kB, offs, 8 * 4);
    go_v();
    vector_dup(ub<uint32_t>(kOut), 7u, 2, 1, 1, 8, 8);
    pipe_barrier(PIPE_V);
    vgatherb(ub<uint32_t>(kOut), ub<uint32_t>(kB), kA, 16, 2, 1);
    out(o, kOut, 128 * 4);
}

// scatter_vnchwconv_b32 of two repeats whose destinations step 32 blocks:
// the first repeat's blocks all lie in UB's 192 KiB (the last one its final
// 32 bytes), the second repeat's last one starts 32 blocks later, past the
// end; every source block is inside.
__global__ __aicore__ void transpose_past_ub() {
    uint64_t src[16], dst[16];
    for (int i = 0; i < 16; ++i) {
        src[i] = kA + i * 32;
        dst[i] = 192 * 1024 - 2048 + i * 32;
    }
    dst[15] = 192 * 1024 - 32;
    set_va_reg_sb(VA2, src);
    set_va_reg_sb(VA3, src + 8);
    set_va_reg_sb(VA0, dst);
    set_va_reg_sb(VA1, dst + 8);
    scatter_vnchwconv_b32(VA0, VA2, 2, 32, 1);
}

extern "C" void launch_transpose_past_ub(void* st) { transpose_past_ub<<<1, nullptr, st>>>(); }
extern "C" void launch_gatherb(uint32_t* o, uint32_t* t, uint32_t* f, void* st) { gatherb<<<1, nullptr, st>>>(o, t, f); }
extern "C" void launch_sort32(uint32_t* o, float* s, uint32_t* i, void* st) { sort32<<<1, nullptr, st>>>(o, s, i); }
extern "C" void launch_merge(uint32_t* o, uint32_t* l, void* st) { merge<<<1, nullptr, st>>>(o, l); }
extern "C" void launch_gather(uint32_t* o, uint32_t* t, uint32_t* f, uint32_t* w, void* st) {
    gather<<<1, nullptr, st>>>(o, t, f, w);
}
extern "C" void launch_transpose(uint16_t* o16, uint32_t* o32, uint8_t* o8, uint16_t* m16, uint32_t* m32, uint8_t* m8,
                                 void* st) {
    transpose<<<1, nullptr, st>>>(o16, o32, o8, m16, m32, m8);
}

// The address lists of pto-isa's TTRANS over several repeats (docs/speed.md):
// m32 is 48 rows of 16 words (64 bytes a row), m16 32 rows of 16 halves.
// o32[0..384): columns 0..7 of m32 as 8 rows of 48 words (3 repeats, each
// the next 16 rows and the next 16 words of every destination row);
// o32[384..640): columns 8..15, 3 repeats whose destinations step 8 blocks,
// so that each repeat overwrites half of the one before; o32[640..768): one
// repeat with the source rows listed in reverse (lists of no regular form).
// o16: m16's 16 columns as 16 rows of 32 halves (2 repeats).
__global__ __aicore__ void transpose_tiles(__gm__ uint32_t* o32, __gm__ uint16_t* o16, __gm__ uint32_t* m32,
                                           __gm__ uint16_t* m16) {
    in(kA, m32, 48 * 64);
    in(kB, m16, 32 * 32);
    go_v();
    uint64_t src[16], dst[16];
    // The source list in VA2/VA3 (VA4/VA5 with `high`), the destination's
    // in VA0/VA1 (VA6/VA7).
    const auto lists = [&](bool high) {
        set_va_reg_sb(high ? VA4 : VA2, src);
        set_va_reg_sb(high ? VA5 : VA3, src + 8);
        set_va_reg_sb(high ? VA6 : VA0, dst);
        set_va_reg_sb(high ? VA7 : VA1, dst + 8);
    };
    for (int i = 0; i < 16; ++i) {
        src[i] = kA + i * 64;
        dst[i] = kOut + (i / 2) * 192 + (i % 2) * 32;
    }
    lists(false);
    scatter_vnchwconv_b32(VA0, VA2, 3, 2, 32);
    for (int i = 0; i < 16; ++i) {
        src[i] = kA + 32 + i * 64;
        dst[i] = kOut + 1536 + (i / 2) * 64 + (i % 2) * 32;
    }
    lists(true);
    scatter_vnchwconv_b32(VA6, VA4, 3, 8, 32);
    for (int i = 0; i < 16; ++i) {
        src[i] = kA + (15 - i) * 64;
        dst[i] = kOut + 2560 + (i / 2) * 64 + (i % 2) * 32;
    }
    lists(false);
    scatter_vnchwconv_b32(VA0, VA2, 1, 0, 0);
    for (int i = 0; i < 16; ++i) {
        src[i] = kB + i * 32;
        dst[i] = kC + i * 64;
    }
    lists(false);
    scatter_vnchwconv_b16(VA0, VA2, 2, 1, 16);
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm_align_b32(o32, ub<uint32_t>(kOut), 0, 1, 768 * 4, 0, 0, 0, 0);
    copy_ubuf_to_gm_align_b32((__gm__ uint32_t*)o16, ub<uint32_t>(kC), 0, 1, 16 * 64, 0, 0, 0, 0);
}
extern "C" void launch_transpose_tiles(uint32_t* o32, uint16_t* o16, uint32_t* m32, uint16_t* m16, void* st) {
    transpose_tiles<<<1, nullptr, st>>>(o32, o16, m32, m16);
}
