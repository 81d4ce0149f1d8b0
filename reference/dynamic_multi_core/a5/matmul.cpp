// C[m, n] = A[m, k] * B[k, n]: fp16 inputs, fp32 output, Cube cores only.
// Dynamic: m, n (any size >= 1) and k (a multiple of 64). Static: the 64x64
// output tile and the 64-wide K step. Persistent: block b computes output
// tiles b, b + block_dim, ...; block_dim should not exceed the Cube cores.
#include "cube_tile.hpp"
using namespace pto;
using namespace ref;

using GC = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

__global__ AICORE void matmul_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* c, uint32_t m, uint32_t n,
                                     uint32_t k) {
    const uint32_t tiles_n = ceil_div(n, BN);
    const uint32_t tiles = ceil_div(m, BM) * tiles_n;
    Acc acc(BM, BN);
    TASSIGN(acc, 0);
    for (uint32_t t = get_block_idx(); t < tiles; t += get_block_num()) {
        const uint32_t tm = t / tiles_n, tn = t % tiles_n;
        const uint32_t mv = min_u(BM, m - tm * BM), nv = min_u(BN, n - tn * BN);
        cube_tile(a, b, acc, tm, tn, mv, nv, n, k);
        GC gc(c + static_cast<int64_t>(tm) * BM * n + tn * BN,
              typename GC::Shape(static_cast<int>(mv), static_cast<int>(nv)), typename GC::Stride(static_cast<int>(n)));
        TSTORE(gc, acc);
        // The next tile's TMATMUL overwrites L0C only after this store has read it.
        set_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
    }
}

extern "C" void call_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c, uint32_t m,
                            uint32_t n, uint32_t k) {
    matmul_kernel<<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)c, m, n, k);
}
