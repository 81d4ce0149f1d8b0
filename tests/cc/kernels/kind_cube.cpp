// A Cube-only kernel without core-type guards, built without a core-type
// suffix: C = A * B per block, 32x32x32, half inputs, float result; records
// the cores that ran it (tests/cc/test_kernel_type.py).
#include "kind_record.hpp"
using namespace pto;

constexpr int M = 32, K = 32, N = 32;

__global__ AICORE void cube_matmul(__gm__ half* a, __gm__ half* b, __gm__ float* c, __gm__ int32_t* rec) {
    using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, M, K>, BaseShape2D<half, M, K>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, N>, BaseShape2D<half, K, N>>;
    using GC = GlobalTensor<float, TileShape2D<float, M, N>, BaseShape2D<float, M, N>>;
    const int64_t blk = get_block_idx();
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
    GC gc(c + blk * M * N);
    TSTORE(gc, acc);
    pipe_barrier(PIPE_ALL);
    record_core(rec);
}

extern "C" void call_cube_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c, uint8_t* rec) {
    cube_matmul<<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)c, (__gm__ int32_t*)rec);
}
