// A2A3 Vector kernel taking void* arguments, as a torch extension passes
// tensor.data_ptr(): copies x to z after a pause, so that a program freeing
// x right after the launch frees it while the launch is still queued.
// Build: ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE free_after_launch.cpp -o lib.so
#include <pto/pto-inst.hpp>

#include <chrono>
#include <thread>
using namespace pto;

__global__ AICORE void slow_copy(__gm__ void* x, __gm__ void* z) {
    using G = GlobalTensor<float, Shape<1, 1, 1, 32, 64>, Stride<1, 1, 1, 64, 1>>;
    using V = Tile<TileType::Vec, float, 32, 64>;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const int64_t off = get_block_idx() * 32 * 64;
    G gx((__gm__ float*)x + off), gz((__gm__ float*)z + off);
    V t;
    TASSIGN(t, 0);
    TLOAD(t, gx);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(gz, t);
}

extern "C" void call_slow_copy(uint32_t block_dim, void* stream, void* x, void* z) {
    slow_copy<<<block_dim, nullptr, stream>>>(x, z);
}
