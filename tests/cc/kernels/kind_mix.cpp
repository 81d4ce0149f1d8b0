// A2A3 mix kernel in the cookbook's matmul_add shape, guarded with __DAV_CUBE__
// and __DAV_VEC__, recording the cores that ran it: the
// Cube core computes A*B into a GM workspace and signals its two Vector
// sub-blocks over FFTS (mode 2, flag 0); each adds D to half of the rows.
// Built by tests/cc/test_kernel_type.py without a core-type suffix.
#include "kind_record.hpp"
using namespace pto;

constexpr int M = 32, K = 32, N = 32;

__global__ AICORE void matmul_add(__gm__ half* a, __gm__ half* b, __gm__ float* d, __gm__ float* ws,
                                  __gm__ float* out, uint64_t ffts, __gm__ int32_t* rec) {
    set_ffts_base_addr(ffts);
    const int64_t blk = get_block_idx();
#if defined(__DAV_CUBE__)
    using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, M, K>, BaseShape2D<half, M, K>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, N>, BaseShape2D<half, K, N>>;
    using GW = GlobalTensor<float, TileShape2D<float, M, N>, BaseShape2D<float, M, N>>;
    MatA am;
    MatB bm;
    TASSIGN(am, 0);
    TASSIGN(bm, M * K * sizeof(half));
    GA ga(a + blk * M * K);
    GB gb(b + blk * K * N);
    TLOAD(am, ga);
    TLOAD(bm, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TileLeft<half, M, K> al;
    TileRight<half, K, N> br;
    TASSIGN(al, 0);
    TASSIGN(br, 0);
    TMOV(al, am);
    TMOV(br, bm);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TileAcc<float, M, N> acc;
    TASSIGN(acc, 0);
    TMATMUL(acc, al, br);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    GW gw(ws + blk * M * N);
    TSTORE(gw, acc);
    pipe_barrier(PIPE_ALL);
    ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (0 << 8));
    record_core(rec);
#endif
#if defined(__DAV_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
    constexpr int H = M / 2;
    using T = Tile<TileType::Vec, float, H, N>;
    using G = GlobalTensor<float, TileShape2D<float, H, N>, BaseShape2D<float, H, N>>;
    const int64_t off = blk * M * N + get_subblockid() * H * N;
    wait_flag_dev(0);
    T w, dt, o;
    TASSIGN(w, 0);
    TASSIGN(dt, 0x2000);
    TASSIGN(o, 0x4000);
    G gw(ws + off), gd(d + off), go(out + off);
    TLOAD(w, gw);
    TLOAD(dt, gd);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(o, w, dt);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, o);
    record_core(rec);
#endif
}

extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out, uint64_t ffts, uint8_t* rec) {
    matmul_add<<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)d,
                                               (__gm__ float*)ws, (__gm__ float*)out, ffts, (__gm__ int32_t*)rec);
}
