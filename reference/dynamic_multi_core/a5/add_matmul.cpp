// out[m, n] = (X[m, 64] + Y[m, 64]) * B[64, n] as a persistent A5 mix kernel
// (Vector -> Cube). Dynamic: m, n (>= 1). Static: K = 64, 64x64 tiles.
// Per tile each Vector core adds its 32-row half of X and Y in UB (row-major
// ND) and TINSERTs it into the Cube core's L1 A tile, which is Nz: the insert
// does the ND -> Nz conversion on the way (MTE3). It then signals kReady; the
// Cube core waits for both halves, multiplies, stores, and hands the L1 tile
// back with kFree once it has been copied to L0A.
#include "cube_tile.hpp"
using namespace pto;
using namespace ref;

constexpr int HR = BM / 2, KS = BK;
constexpr int kReady = 0, kFree = 1;
constexpr int kSubBlock1 = 16;
constexpr uint64_t kAInL1 = 0;                         // the A tile, written by the Vector cores
constexpr uint64_t kBInL1 = BM * KS * sizeof(half);    // the B tile, loaded by the Cube core
using MatAFull = Tile<TileType::Mat, half, BM, KS, BLayout::ColMajor, BM, KS, SLayout::RowMajor, 512>;

__global__ AICORE void add_matmul_kernel(__gm__ half* x, __gm__ half* y, __gm__ half* b, __gm__ float* out,
                                         uint32_t m, uint32_t n) {
    const uint32_t tiles_n = ceil_div(n, BN);
    const uint32_t tiles = ceil_div(m, BM) * tiles_n;
    const uint32_t first = get_block_idx(), step = get_block_num();
#if defined(__DAV_CUBE__)
    using GC = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
    MatAFull l1a;
    MatB l1b(BN);
    L0A l0a;
    L0B l0b;
    Acc acc(BM, BN);
    TASSIGN(l1a, kAInL1);
    TASSIGN(l1b, kBInL1);
    TASSIGN(l0a, 0);
    TASSIGN(l0b, 0);
    TASSIGN(acc, 0);
    for (uint32_t t = first; t < tiles; t += step) {
        const uint32_t tm = t / tiles_n, tn = t % tiles_n;
        const uint32_t mv = min_u(BM, m - tm * BM), nv = min_u(BN, n - tn * BN);
        l1b.SetValidShape(KS, nv);
        acc.SetValidShape(mv, nv);
        GB gb(b + tn * BN, typename GB::Shape(static_cast<int>(nv)), typename GB::Stride(static_cast<int>(n)));
        TLOAD(l1b, gb);  // B does not depend on the Vector cores: load it before waiting
        wait_intra_block(PIPE_MTE1, kReady);
        wait_intra_block(PIPE_MTE1, kReady + kSubBlock1);
        set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
        TMOV(l0a, l1a);
        TMOV(l0b, l1b);
        pipe_barrier(PIPE_MTE1);
        // The next tile's TLOAD of B overwrites L1: MTE1 must be done reading it.
        set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID0);
        if (t + step < tiles) {  // L1 A is copied out: the Vector cores may write the next tile
            set_intra_block(PIPE_MTE1, kFree);
            set_intra_block(PIPE_MTE1, kFree + kSubBlock1);
        }
        set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
        TMATMUL(acc, l0a, l0b);
        // The next tile's TMOV overwrites L0A/L0B: the Cube must be done reading them.
        set_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
        wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID1);
        set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
        GC gc(out + static_cast<int64_t>(tm) * BM * n + tn * BN,
              typename GC::Shape(static_cast<int>(mv), static_cast<int>(nv)), typename GC::Stride(static_cast<int>(n)));
        TSTORE(gc, acc);
        set_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
        wait_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
    }
#endif
#if defined(__DAV_VEC__)
    using VT = Tile<TileType::Vec, half, HR, KS, BLayout::RowMajor, DYNAMIC, KS>;
    using GX = GlobalTensor<half, Shape<1, 1, 1, DYNAMIC, KS>, Stride<1, 1, 1, KS, 1>>;
    const uint32_t r0 = get_subblockid() * HR;
    VT tx(HR), ty(HR), ts(HR);
    MatAFull l1a;
    TASSIGN(tx, 0);
    TASSIGN(ty, HR * KS * sizeof(half));
    TASSIGN(ts, 2 * HR * KS * sizeof(half));
    TASSIGN(l1a, kAInL1);
    for (uint32_t t = first; t < tiles; t += step) {
        const uint32_t tm = t / tiles_n;
        const uint32_t mv = min_u(BM, m - tm * BM);
        const int rv = mv > r0 ? static_cast<int>(min_u(HR, mv - r0)) : 0;
        if (rv > 0) {
            tx.SetValidShape(rv, KS);
            ty.SetValidShape(rv, KS);
            ts.SetValidShape(rv, KS);
            const int64_t off = (static_cast<int64_t>(tm) * BM + r0) * KS;
            GX gx(x + off, typename GX::Shape(rv)), gy(y + off, typename GX::Shape(rv));
            TLOAD(tx, gx);
            TLOAD(ty, gy);
            set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            TADD(ts, tx, ty);
            set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        }
        if (t != first) wait_intra_block(PIPE_MTE3, kFree);  // the Cube core has copied the previous A out of L1
        if (rv > 0) TINSERT(l1a, ts, static_cast<uint16_t>(r0), 0);
        pipe_barrier(PIPE_ALL);
        set_intra_block(PIPE_MTE3, kReady);
    }
#endif
}

extern "C" void call_add_matmul(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* b, uint8_t* out,
                                uint32_t m, uint32_t n) {
    add_matmul_kernel<<<block_dim, nullptr, stream>>>((__gm__ half*)x, (__gm__ half*)y, (__gm__ half*)b,
                                                      (__gm__ float*)out, m, n);
}
