// out = A * B + D as one mix kernel (one Cube core + its two Vector cores).
// A2A3 has no direct L0C -> UB path, so the Cube core writes A*B to a GM
// workspace and releases both Vector cores with an FFTS flag; each Vector core
// adds D to its half of the rows. Shapes: A 64x64 fp16, B 64x64 fp16, D/out 64x64 fp32.
#include <pto/pto-inst.hpp>
#include <runtime/rt_ffts.h>
using namespace pto;

constexpr int M = 64, K = 64, N = 64;
constexpr int kReadyFlag = 0;
// config = 1 | mode << 4 | flag << 8; mode 2 links a Cube core with its own two Vector cores.
constexpr uint64_t kCubeToVec = 1 | (2 << 4) | (kReadyFlag << 8);

__global__ AICORE void matmul_add_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* d, __gm__ float* ws,
                                         __gm__ float* out, uint64_t ffts_addr) {
    set_ffts_base_addr(ffts_addr);
#if defined(__DAV_C220_CUBE__)
    using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, M, K>, BaseShape2D<half, M, K>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, N>, BaseShape2D<half, K, N>>;
    using GW = GlobalTensor<float, TileShape2D<float, M, N>, BaseShape2D<float, M, N>>;
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
    GW gw(ws);
    TSTORE(gw, l0c);
    // The workspace write must be complete before the Vector cores read it.
    pipe_barrier(PIPE_ALL);
    ffts_cross_core_sync(PIPE_FIX, kCubeToVec);
#endif
#if defined(__DAV_C220_VEC__)
    set_mask_norm();
    set_vector_mask(-1, -1);
    constexpr int H = M / 2;  // rows per Vector core
    using VT = Tile<TileType::Vec, float, H, N>;
    using GH = GlobalTensor<float, Shape<1, 1, 1, H, N>, Stride<1, 1, 1, N, 1>>;
    const int64_t row0 = get_subblockid() * H;
    VT tw, td, to;
    TASSIGN(tw, 0);
    TASSIGN(td, H * N * sizeof(float));
    TASSIGN(to, 2 * H * N * sizeof(float));
    GH gd(d + row0 * N), gw(ws + row0 * N), go(out + row0 * N);
    TLOAD(td, gd);  // D does not depend on the Cube result: load it before waiting
    wait_flag_dev(kReadyFlag);
    TLOAD(tw, gw);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(to, tw, td);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, to);
#endif
}

// The FFTS control address is fetched here, on the host side of the library,
// so callers (ctypes, pybind, ACL) need not know about FFTS.
extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out) {
    uint64_t ffts_addr = 0;
    uint32_t ffts_len = 0;
    rtGetC2cCtrlAddr(&ffts_addr, &ffts_len);
    matmul_add_kernel<<<block_dim, nullptr, stream>>>((__gm__ half*)a, (__gm__ half*)b, (__gm__ float*)d,
                                                      (__gm__ float*)ws, (__gm__ float*)out, ffts_addr);
}
