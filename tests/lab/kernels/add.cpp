// The seed's ctypes runner kernel: y = x1 + x2 over a runtime length n, as a
// persistent multi-core kernel (block b handles tiles b, b + block_num, ...;
// the last tile may be partial). Built by ptolab.compile_kernel through ptocc.
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int kCols = 256;

template <typename T>
__global__ AICORE void add_kernel(__gm__ T* y, __gm__ T* x1, __gm__ T* x2, int64_t n) {
#if defined(__DAV_C220_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
#endif
    using G = GlobalTensor<T, Shape<1, 1, 1, 1, DYNAMIC>, Stride<1, 1, 1, kCols, 1>>;
    using V = Tile<TileType::Vec, T, 1, kCols, BLayout::RowMajor, 1, DYNAMIC>;
    const int64_t tiles = (n + kCols - 1) / kCols;
    for (int64_t t = get_block_idx(); t < tiles; t += get_block_num()) {
        const int64_t len = n - t * kCols < kCols ? n - t * kCols : kCols;
        V a(len), b(len), c(len);
        TASSIGN(a, 0x0);
        TASSIGN(b, 0x1000);
        TASSIGN(c, 0x2000);
        G g1(x1 + t * kCols, typename G::Shape(len)), g2(x2 + t * kCols, typename G::Shape(len));
        G gy(y + t * kCols, typename G::Shape(len));
        TLOAD(a, g1);
        TLOAD(b, g2);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(c, a, b);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(gy, c);
        set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    }
}

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* y, uint8_t* x1, uint8_t* x2, int64_t n) {
    add_kernel<float><<<block_dim, nullptr, stream>>>((__gm__ float*)y, (__gm__ float*)x1, (__gm__ float*)x2, n);
}

extern "C" void call_add_half(uint32_t block_dim, void* stream, uint8_t* y, uint8_t* x1, uint8_t* x2, int64_t n) {
    add_kernel<half><<<block_dim, nullptr, stream>>>((__gm__ half*)y, (__gm__ half*)x1, (__gm__ half*)x2, n);
}
