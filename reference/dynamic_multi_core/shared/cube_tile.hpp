// The Cube half shared by matmul.cpp and matmul_add.cpp: one 64x64 output
// tile of C = A * B with a runtime K (a multiple of 64), left in L0C.
// A is [m, k] row-major, B is [k, n] row-major, both fp16; the tile starts
// at row tm*64, column tn*64 and is mv x nv valid (tails are narrower).
#pragma once
#include <pto/pto-inst.hpp>

namespace ref {
using namespace pto;

constexpr int BM = 64, BN = 64, BK = 64;

using MatA = Tile<TileType::Mat, half, BM, BK, BLayout::ColMajor, DYNAMIC, BK, SLayout::RowMajor, 512>;
using MatB = Tile<TileType::Mat, half, BK, BN, BLayout::ColMajor, BK, DYNAMIC, SLayout::RowMajor, 512>;
using GA = GlobalTensor<half, Shape<1, 1, 1, DYNAMIC, BK>, Stride<1, 1, 1, DYNAMIC, 1>>;
using GB = GlobalTensor<half, Shape<1, 1, 1, BK, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
using L0A = TileLeft<half, BM, BK>;
using L0B = TileRight<half, BK, BN>;
using Acc = TileAcc<float, BM, BN, DYNAMIC, DYNAMIC>;

// L0A/L0B are used whole: rows or columns past a tail hold stale L1 data and
// produce accumulator entries that are never stored, which is cheaper than
// zero-filling them for every tail tile.
AICORE inline void cube_tile(__gm__ half* a, __gm__ half* b, Acc& acc, uint32_t tm, uint32_t tn, uint32_t mv,
                             uint32_t nv, uint32_t n, uint32_t k) {
    MatA l1a(mv);
    MatB l1b(nv);
    L0A l0a;
    L0B l0b;
    TASSIGN(l1a, 0);
    TASSIGN(l1b, BM * BK * sizeof(half));
    TASSIGN(l0a, 0);
    TASSIGN(l0b, 0);
    acc.SetValidShape(mv, nv);
    for (uint32_t kk = 0; kk < k; kk += BK) {
        GA ga(a + static_cast<int64_t>(tm) * BM * k + kk, typename GA::Shape(static_cast<int>(mv)),
              typename GA::Stride(static_cast<int>(k)));
        GB gb(b + static_cast<int64_t>(kk) * n + tn * BN, typename GB::Shape(static_cast<int>(nv)),
              typename GB::Stride(static_cast<int>(n)));
        TLOAD(l1a, ga);
        TLOAD(l1b, gb);
        set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        TMOV(l0a, l1a);
        TMOV(l0b, l1b);
        // The next chunk's (or tile's) TLOAD overwrites L1: MTE1 must be done reading it.
        set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
        set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        if (kk == 0)
            TMATMUL(acc, l0a, l0b);
        else
            TMATMUL_ACC(acc, l0a, l0b);
        // The next chunk's TMOV overwrites L0A/L0B: the Cube must be done reading them.
        set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
        wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
    }
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
}

AICORE inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
AICORE inline uint32_t min_u(uint32_t a, uint32_t b) { return a < b ? a : b; }

}  // namespace ref
