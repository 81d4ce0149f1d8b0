// C (128 x 128, float) = A (128 x 128, half) * B (128 x 128, half), one tile:
// TLOAD A and B to L1 (NZ Mat tiles), TMOV to L0A/L0B, TMATMUL into L0C,
// TSTORE from the Acc tile (bench_ptosim's BM_Matmul128_Fp16ToFp32).
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_matmul128(__gm__ uint8_t* out, __gm__ uint8_t* a, __gm__ uint8_t* b) {
    constexpr int S = 128;
    using GIn = GlobalTensor<half, Shape<1, 1, 1, S, S>, Stride<1, 1, 1, S, 1>>;
    using GOut = GlobalTensor<float, Shape<1, 1, 1, S, S>, Stride<1, 1, 1, S, 1>>;
    using Mat = Tile<TileType::Mat, half, S, S, BLayout::ColMajor, S, S, SLayout::RowMajor, 512>;
    Mat am, bm;
    TileLeft<half, S, S> al;
    TileRight<half, S, S> br;
    TileAcc<float, S, S> acc;
    TASSIGN(am, 0x0);
    TASSIGN(bm, S * S * sizeof(half));
    TASSIGN(al, 0x0);
    TASSIGN(br, 0x0);
    TASSIGN(acc, 0x0);
    GIn ga(reinterpret_cast<__gm__ half*>(a)), gb(reinterpret_cast<__gm__ half*>(b));
    GOut gc(reinterpret_cast<__gm__ float*>(out));

    TLOAD(am, ga);
    TLOAD(bm, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TMOV(al, am);
    TMOV(br, bm);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TMATMUL(acc, al, br);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    TSTORE(gc, acc);
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
