// Vector kernel for ptocc's tests: z = x + y, one 32x64 float tile per block.
// Build: ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE vec_add.cpp -o libvec_add.so
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int kRows = 32, kCols = 64;

template <typename T, int R, int C>
__global__ AICORE void vec_add(__gm__ T* x, __gm__ T* y, __gm__ T* z) {
    using G = GlobalTensor<T, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    using V = Tile<TileType::Vec, T, R, C>;
#if defined(__DAV_C220_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
#endif
    const int64_t off = get_block_idx() * R * C;
    G gx(x + off), gy(y + off), gz(z + off);
    V a, b, c;
    TASSIGN(a, 0);
    TASSIGN(b, R * C * sizeof(T));
    TASSIGN(c, 2 * R * C * sizeof(T));
    TLOAD(a, gx);
    TLOAD(b, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(c, a, b);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gz, c);
}

extern "C" void call_vec_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z) {
    vec_add<float, kRows, kCols><<<block_dim, nullptr, stream>>>((__gm__ float*)x, (__gm__ float*)y,
                                                                 (__gm__ float*)z);
}
