// C = A * B for one Cube tile: A 64x64 fp16, B 64x64 fp16, C 64x64 fp32.
// Path: GM -> L1 (ND to Nz on load) -> L0A/L0B -> Cube -> L0C -> GM (FIX pipe).
// One source for both targets: on A5 TileLeft is Nz instead of Zz,
// and the alias hides that difference.
#include <pto/pto-inst.hpp>
using namespace pto;

template <int M, int K, int N>
__global__ AICORE void matmul_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* c) {
    using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, M, K>, BaseShape2D<half, M, K>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, N>, BaseShape2D<half, K, N>>;
    using GC = GlobalTensor<float, TileShape2D<float, M, N>, BaseShape2D<float, M, N>>;

    MatA l1a;
    MatB l1b;
    TASSIGN(l1a, 0);
    TASSIGN(l1b, M * K * sizeof(half));
    GA ga(a);
    GB gb(b);
    TLOAD(l1a, ga);
    TLOAD(l1b, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);

    TileLeft<half, M, K> l0a;
    TileRight<half, K, N> l0b;
    TASSIGN(l0a, 0);
    TASSIGN(l0b, 0);
    TMOV(l0a, l1a);
    TMOV(l0b, l1b);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);

    TileAcc<float, M, N> l0c;
    TASSIGN(l0c, 0);
    TMATMUL(l0c, l0a, l0b);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    GC gc(c);
    TSTORE(gc, l0c);
}

extern "C" void call_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c) {
    matmul_kernel<64, 64, 64><<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)c);
}
