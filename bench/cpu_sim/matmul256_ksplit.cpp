// C (256 x 256, float) = A * B (256 x 256, half) as a kernel tiles it for
// A2A3's 128 KiB L0C: four 128 x 128 output tiles, each summed over four
// k-steps of 64 (TLOAD to L1, TMOV to L0A/L0B, TMATMUL then TMATMUL_ACC),
// then stored (bench_ptosim's BM_Matmul256_KSplit_Fp16ToFp32).
// Built unchanged against ptolab's headers (ptosim) and against pto-isa's
// with -D__CPU_SIM (bench/pto_isa_cpu_sim_speed.sh).
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ AICORE void ptobench_matmul256_ksplit(__gm__ uint8_t* out, __gm__ uint8_t* a,
                                                            __gm__ uint8_t* b) {
    constexpr int S = 256, T = 128, K = 64;
    using GA = GlobalTensor<half, Shape<1, 1, 1, T, K>, Stride<1, 1, 1, S, 1>>;
    using GB = GlobalTensor<half, Shape<1, 1, 1, K, T>, Stride<1, 1, 1, S, 1>>;
    using GC = GlobalTensor<float, Shape<1, 1, 1, T, T>, Stride<1, 1, 1, S, 1>>;
    using MatA = Tile<TileType::Mat, half, T, K, BLayout::ColMajor, T, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, T, BLayout::ColMajor, K, T, SLayout::RowMajor, 512>;
    MatA am;
    MatB bm;
    TileLeft<half, T, K> al;
    TileRight<half, K, T> br;
    TileAcc<float, T, T> acc;
    TASSIGN(am, 0x0);
    TASSIGN(bm, T * K * sizeof(half));
    TASSIGN(al, 0x0);
    TASSIGN(br, 0x0);
    TASSIGN(acc, 0x0);
    __gm__ half* pa = reinterpret_cast<__gm__ half*>(a);
    __gm__ half* pb = reinterpret_cast<__gm__ half*>(b);
    __gm__ float* pc = reinterpret_cast<__gm__ float*>(out);

    for (int t = 0; t < (S / T) * (S / T); ++t) {
        const int bi = t / (S / T) * T, bj = t % (S / T) * T;
        for (int k0 = 0; k0 < S; k0 += K) {
            GA ga(pa + bi * S + k0);
            GB gb(pb + k0 * S + bj);
            TLOAD(am, ga);
            TLOAD(bm, gb);
            set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
            TMOV(al, am);
            TMOV(br, bm);
            set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);  // L1 free for the next k-step's loads
            wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
            set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
            wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
            if (k0 == 0) TMATMUL(acc, al, br);
            else TMATMUL_ACC(acc, acc, al, br);
            set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);  // L0A/L0B free for the next k-step's moves
            wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
        }
        set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        GC gc(pc + bi * S + bj);
        TSTORE(gc, acc);
        set_flag(PIPE_FIX, PIPE_M, EVENT_ID0);  // L0C free for the next tile's TMATMUL
        wait_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
    }
    pipe_barrier(PIPE_ALL);  // the pipes drain at a kernel's end; the benchmark calls it again
}
