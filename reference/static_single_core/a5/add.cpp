// z = x + y on one 64x64 fp16 tile, one A5 Vector core (dav-c310-vec), in
// pto-isa's unit-test style. Unlike A2A3 there is no vector mask state to
// initialise here: A5 vector instructions take their extent from the tile.
#include <pto/pto-inst.hpp>
using namespace pto;

template <typename T, int kRows, int kCols>
__global__ AICORE void add_kernel(__gm__ T* x, __gm__ T* y, __gm__ T* z) {
    using GT = GlobalTensor<T, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;
    using VT = Tile<TileType::Vec, T, kRows, kCols>;
    GT gx(x), gy(y), gz(z);
    VT tx, ty, tz;
    TASSIGN(tx, 0);
    TASSIGN(ty, kRows * kCols * sizeof(T));
    TASSIGN(tz, 2 * kRows * kCols * sizeof(T));

    TLOAD(tx, gx);
    TLOAD(ty, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // loads land before the add reads UB
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(tz, tx, ty);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);  // the add finishes before the store reads UB
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gz, tz);
}

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z) {
    add_kernel<half, 64, 64><<<block_dim, nullptr, stream>>>((__gm__ half*)x, (__gm__ half*)y, (__gm__ half*)z);
}
