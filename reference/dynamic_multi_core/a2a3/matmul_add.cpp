// out[m, n] = A[m, k] * B[k, n] + D[m, n] as a persistent A2A3 mix kernel.
// Dynamic: m, n (>= 1), k (a multiple of 64). Static: 64x64 tiles.
// Per tile, the Cube core writes A*B into its block's 64x64 GM workspace slot
// and releases its two Vector cores (FFTS mode 2, flag 0); each adds D to its
// 32-row half and, unless it was the block's last tile, hands the slot back
// (FFTS mode 2, flag 1: the Cube core needs both Vector cores' signals).
// The number of tiles a block processes is its number of rounds.
#include <runtime/rt_ffts.h>

#include "cube_tile.hpp"
using namespace pto;
using namespace ref;

constexpr int kReadyFlag = 0, kFreeFlag = 1;
constexpr uint64_t ffts_mode2(int flag) { return 1 | (2 << 4) | (static_cast<uint64_t>(flag) << 8); }

__global__ AICORE void matmul_add_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* d, __gm__ float* ws,
                                         __gm__ float* out, uint32_t m, uint32_t n, uint32_t k, uint64_t ffts_addr) {
    set_ffts_base_addr(ffts_addr);
    const uint32_t tiles_n = ceil_div(n, BN);
    const uint32_t tiles = ceil_div(m, BM) * tiles_n;
    const uint32_t first = get_block_idx(), step = get_block_num();
    __gm__ float* slot = ws + static_cast<int64_t>(get_block_idx()) * BM * BN;
#if defined(__DAV_C220_CUBE__)
    using GW = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, BN, 1>>;
    Acc acc(BM, BN);
    TASSIGN(acc, 0);
    for (uint32_t t = first; t < tiles; t += step) {
        const uint32_t tm = t / tiles_n, tn = t % tiles_n;
        const uint32_t mv = min_u(BM, m - tm * BM), nv = min_u(BN, n - tn * BN);
        cube_tile(a, b, acc, tm, tn, mv, nv, n, k);
        if (t != first) wait_flag_dev(kFreeFlag);  // both Vector cores are done with the slot
        GW gw(slot, typename GW::Shape(static_cast<int>(mv), static_cast<int>(nv)));
        TSTORE(gw, acc);
        pipe_barrier(PIPE_ALL);  // the slot is in GM before the Vector cores are told
        ffts_cross_core_sync(PIPE_FIX, ffts_mode2(kReadyFlag));
    }
#endif
#if defined(__DAV_C220_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
    constexpr int HR = BM / 2;  // rows per Vector core
    using VT = Tile<TileType::Vec, float, HR, BN, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using GS = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, BN, 1>>;
    using GO = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
    const uint32_t r0 = get_subblockid() * HR;
    VT tw(HR, BN), td(HR, BN), to(HR, BN);
    TASSIGN(tw, 0);
    TASSIGN(td, HR * BN * sizeof(float));
    TASSIGN(to, 2 * HR * BN * sizeof(float));
    for (uint32_t t = first; t < tiles; t += step) {
        const uint32_t tm = t / tiles_n, tn = t % tiles_n;
        const uint32_t mv = min_u(BM, m - tm * BM), nv = min_u(BN, n - tn * BN);
        // A short tail tile can leave sub-block 1 with no rows; it still takes part in the handshake.
        const int rv = mv > r0 ? static_cast<int>(min_u(HR, mv - r0)) : 0;
        wait_flag_dev(kReadyFlag);
        if (rv > 0) {
            tw.SetValidShape(rv, nv);
            td.SetValidShape(rv, nv);
            to.SetValidShape(rv, nv);
            const int64_t goff = (static_cast<int64_t>(tm) * BM + r0) * n + tn * BN;
            GS gs(slot + r0 * BN, typename GS::Shape(rv, static_cast<int>(nv)));
            GO gd(d + goff, typename GO::Shape(rv, static_cast<int>(nv)), typename GO::Stride(static_cast<int>(n)));
            GO go(out + goff, typename GO::Shape(rv, static_cast<int>(nv)), typename GO::Stride(static_cast<int>(n)));
            TLOAD(tw, gs);
            TLOAD(td, gd);
            set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            TADD(to, tw, td);
            set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            TSTORE(go, to);
        }
        pipe_barrier(PIPE_ALL);
        if (t + step < tiles) ffts_cross_core_sync(PIPE_MTE3, ffts_mode2(kFreeFlag));
    }
#endif
}

// ws: block_dim * 64 * 64 fp32 (one slot per block). The FFTS control
// address is fetched here so callers need not know about FFTS.
extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out, uint32_t m, uint32_t n, uint32_t k) {
    uint64_t ffts_addr = 0;
    uint32_t ffts_len = 0;
    rtGetC2cCtrlAddr(&ffts_addr, &ffts_len);
    matmul_add_kernel<<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)d,
                                                      (__gm__ float*)ws, (__gm__ float*)out, m, n, k, ffts_addr);
}
