// The Cube half of the cookbook's matmul_add mix kernels: C = A * B for one
// 32x32x32 half block, left in L0C. Shared by the A2A3 and A5 mix tests.
#pragma once
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/tmatmul.hpp>
#include "sim_test_util.hpp"

namespace mixk {
using namespace pto;
constexpr int M = 32, K = 32, N = 32;

inline TileAcc<float, M, N> cube_matmul(__gm__ half* a, __gm__ half* b) {
    using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, N, BLayout::ColMajor, K, N, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, M, K>, BaseShape2D<half, M, K>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, N>, BaseShape2D<half, K, N>>;
    MatA am;
    MatB bm;
    TASSIGN(am, 0);
    TASSIGN(bm, M * K * sizeof(half));
    GA ga(a);
    GB gb(b);
    TLOAD(am, ga);
    TLOAD(bm, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TileLeft<half, M, K> al;
    TileRight<half, K, N> br;
    TASSIGN(al, 0);
    TASSIGN(br, 0);
    TMOV(al, am);
    TMOV(br, bm);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TileAcc<float, M, N> acc;
    TASSIGN(acc, 0);
    TMATMUL(acc, al, br);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    return acc;
}

// out = A * B + D, reference in float with ascending k.
inline std::vector<float> reference(const std::vector<half>& a, const std::vector<half>& b, const std::vector<float>& d,
                                    int blocks) {
    std::vector<float> out(d.size());
    for (int g = 0; g < blocks; ++g)
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                float acc = 0;
                for (int p = 0; p < K; ++p)
                    acc += static_cast<float>(a[g * M * K + i * K + p]) * static_cast<float>(b[g * K * N + p * N + j]);
                out[g * M * N + i * N + j] = acc + d[g * M * N + i * N + j];
            }
    return out;
}

struct Inputs {
    std::vector<half> a, b;
    std::vector<float> d, out, ws;
    explicit Inputs(int blocks)
        : a(blocks * M * K), b(blocks * K * N), d(blocks * M * N), out(blocks * M * N, 0.0f), ws(blocks * M * N, 0.0f) {
        testutil::Rng rng;
        for (auto& v : a) v = half(static_cast<float>(rng.uniform(-2, 2)));
        for (auto& v : b) v = half(static_cast<float>(rng.uniform(-2, 2)));
        for (auto& v : d) v = static_cast<float>(rng.uniform(-10, 10));
    }
};

}  // namespace mixk
