// A Vector-only kernel with no core-type guard around its vector code, built
// without a core-type suffix: x += 1 in place, one 64-float row per block.
// Run on two sub-blocks it would add 2 (tests/cc/test_kernel_type.py).
#include "kind_record.hpp"
using namespace pto;

constexpr int kCols = 64;

__global__ AICORE void bump(__gm__ float* x, __gm__ int32_t* rec) {
#if defined(__DAV_C220_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
#endif
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, kCols>, Stride<1, 1, 1, kCols, 1>>;
    using V = Tile<TileType::Vec, float, 1, kCols>;
    G g(x + get_block_idx() * kCols);
    V t;
    TASSIGN(t, 0);
    TLOAD(t, g);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADDS(t, t, 1.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(g, t);
    pipe_barrier(PIPE_ALL);
    record_core(rec);
}

extern "C" void call_bump(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* rec) {
    bump<<<block_dim, nullptr, stream>>>((__gm__ float*)x, (__gm__ int32_t*)rec);
}
