// Simulator speed: instruction sequences timed inside one simulated core, and
// launch/dispatch overheads. Figures are host wall time, not device time.
#include <pto/pto-inst.hpp>
#include <ptosim/runtime.hpp>
#include <benchmark/benchmark.h>
#include <vector>

using namespace pto;

namespace {

void run_on_core(ptosim::KernelKind kind, std::function<void()> body, uint32_t blocks = 1) {
    ptosim::LaunchSpec s;
    s.kernel = "bench";
    s.site = {__FILE__, __LINE__};
    s.target = ptosim::Target::A2A3;
    s.kind = kind;
    s.block_dim = blocks;
    (kind == ptosim::KernelKind::Vec ? s.aiv_body : s.aic_body) = std::move(body);
    ptosim::Status st = ptosim::run_launch(ptosim::Device::get(), s);
    if (!st.ok()) std::abort();
}

// TLOAD x2 (GM ND -> L1 NZ), TMOV x2 (L1 -> L0A/L0B), TMATMUL, TSTORE (L0C -> GM ND).
void BM_Matmul128_Fp16ToFp32(benchmark::State& state) {
    constexpr int S = 128;
    std::vector<half> a(S * S), b(S * S);
    std::vector<float> c(S * S);
    for (int i = 0; i < S * S; ++i) {
        a[i] = half(static_cast<float>(i % 7) * 0.25f);
        b[i] = half(static_cast<float>(i % 5) * 0.5f);
    }
    run_on_core(ptosim::KernelKind::Cube, [&] {
        using Mat = Tile<TileType::Mat, half, S, S, BLayout::ColMajor, S, S, SLayout::RowMajor, 512>;
        using GIn = GlobalTensor<half, TileShape2D<half, S, S>, BaseShape2D<half, S, S>>;
        using GOut = GlobalTensor<float, TileShape2D<float, S, S>, BaseShape2D<float, S, S>>;
        Mat am, bm;
        TileLeft<half, S, S> al;
        TileRight<half, S, S> br;
        TileAcc<float, S, S> acc;
        TASSIGN(am, 0);
        TASSIGN(bm, S * S * sizeof(half));
        TASSIGN(al, 0);
        TASSIGN(br, 0);
        TASSIGN(acc, 0);
        GIn ga(a.data()), gb(b.data());
        GOut gc(c.data());
        for (auto _ : state) {
            TLOAD(am, ga);
            TLOAD(bm, gb);
            TMOV(al, am);
            TMOV(br, bm);
            TMATMUL(acc, al, br);
            TSTORE(gc, acc);
        }
    });
    benchmark::DoNotOptimize(c.data());
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * S * S * S * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Matmul128_Fp16ToFp32)->Unit(benchmark::kMicrosecond);

// TLOAD x2 + TADD + TSTORE on a 64x128 fp32 tile.
void BM_VecAdd64x128_Fp32(benchmark::State& state) {
    constexpr int R = 64, C = 128;
    std::vector<float> x(R * C, 1.5f), y(R * C, 2.25f), z(R * C);
    run_on_core(ptosim::KernelKind::Vec, [&] {
        using G = GlobalTensor<float, TileShape2D<float, R, C>, BaseShape2D<float, R, C>>;
        using T = Tile<TileType::Vec, float, R, C>;
        T a, b, o;
        TASSIGN(a, 0);
        TASSIGN(b, R * C * 4);
        TASSIGN(o, 2 * R * C * 4);
        G gx(x.data()), gy(y.data()), gz(z.data());
        for (auto _ : state) {
            TLOAD(a, gx);
            TLOAD(b, gy);
            TADD(o, a, b);
            TSTORE(gz, o);
        }
    });
    benchmark::DoNotOptimize(z.data());
    state.counters["elems/s"] = benchmark::Counter(double(R) * C * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VecAdd64x128_Fp32)->Unit(benchmark::kMicrosecond);

// The same sequence with one dispatch subscriber attached, to show what a
// checker or tracer costs on top of the bare dispatch point.
void BM_VecAdd64x128_WithSubscriber(benchmark::State& state) {
    uint64_t seen = 0;
    int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord&) { ++seen; });
    BM_VecAdd64x128_Fp32(state);
    ptosim::unsubscribe(id);
    benchmark::DoNotOptimize(seen);
}
BENCHMARK(BM_VecAdd64x128_WithSubscriber)->Unit(benchmark::kMicrosecond);

// Whole launches of an empty kernel: scheduler, fibers and buffers.
void BM_LaunchEmptyKernel(benchmark::State& state) {
    const auto blocks = static_cast<uint32_t>(state.range(0));
    for (auto _ : state) run_on_core(ptosim::KernelKind::Vec, [] {}, blocks);
}
BENCHMARK(BM_LaunchEmptyKernel)->Arg(1)->Arg(48)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
