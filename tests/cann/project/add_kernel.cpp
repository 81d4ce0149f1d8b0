// z = x + y on 16x64 float tiles, one tile per block; the entry point the host calls.
#include <pto/pto-inst.hpp>
#include <cstdint>

using namespace pto;

namespace {
constexpr int kRows = 16, kCols = 64;
}

__global__ AICORE void add_tiles(__gm__ float* x, __gm__ float* y, __gm__ float* z) {
    using Global = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;
    using VecTile = Tile<TileType::Vec, float, kRows, kCols>;
    const int64_t base = get_block_idx() * kRows * kCols;
    Global gx(x + base), gy(y + base), gz(z + base);
    VecTile tx, ty, tz;
    TASSIGN(tx, 0);
    TASSIGN(ty, kRows * kCols * sizeof(float));
    TASSIGN(tz, 2 * kRows * kCols * sizeof(float));
    TLOAD(tx, gx);
    TLOAD(ty, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(tz, tx, ty);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gz, tz);
}

extern "C" void launch_add(uint32_t blocks, void* stream, uint8_t* x, uint8_t* y, uint8_t* z) {
    add_tiles<<<blocks, nullptr, stream>>>((__gm__ float*)x, (__gm__ float*)y, (__gm__ float*)z);
}
