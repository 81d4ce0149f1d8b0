// z[rows, 256] = x + y in fp16 on A5 Vector cores (no mask state to set up, unlike A2A3). Dynamic: rows (any >= 1).
// Static: the hidden width H = 256 and the 32-row tile. Persistent: block b
// handles row tiles b, b + block_dim, ...; block_dim should not exceed the
// Vector cores. A tail tile is narrower through the tile's valid rows.
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int H = 256, TR = 32;

__global__ AICORE void add_kernel(__gm__ half* x, __gm__ half* y, __gm__ half* z, uint32_t rows) {
    using GT = GlobalTensor<half, Shape<1, 1, 1, DYNAMIC, H>, Stride<1, 1, 1, H, 1>>;
    using VT = Tile<TileType::Vec, half, TR, H, BLayout::RowMajor, DYNAMIC, H>;
    VT tx(TR), ty(TR), tz(TR);
    TASSIGN(tx, 0);
    TASSIGN(ty, TR * H * sizeof(half));
    TASSIGN(tz, 2 * TR * H * sizeof(half));
    const uint32_t tiles = (rows + TR - 1) / TR;
    for (uint32_t t = get_block_idx(); t < tiles; t += get_block_num()) {
        const uint32_t r0 = t * TR;
        const int valid = static_cast<int>(rows - r0 < TR ? rows - r0 : TR);
        tx.SetValidRow(valid);  // the row count is the tile's one dynamic dimension
        ty.SetValidRow(valid);
        tz.SetValidRow(valid);
        const int64_t off = static_cast<int64_t>(r0) * H;
        GT gx(x + off, typename GT::Shape(valid)), gy(y + off, typename GT::Shape(valid)),
            gz(z + off, typename GT::Shape(valid));
        TLOAD(tx, gx);
        TLOAD(ty, gy);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(tz, tx, ty);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(gz, tz);
        // The next iteration reloads UB: the store must have read tz first.
        set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    }
}

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z, uint32_t rows) {
    add_kernel<<<block_dim, nullptr, stream>>>((__gm__ half*)x, (__gm__ half*)y, (__gm__ half*)z, rows);
}
