// Element-wise throughput inside one simulated vector core: one instruction
// per iteration on a 64x128 tile (32 KiB fp32, 16 KiB fp16), reported as
// elements per second of host wall time.
// The instruction headers this benchmark runs, not all of pto/pto-inst.hpp, so
// that editing another family does not rebuild it; the call-site macros last.
#include <pto/inst/elementwise_ops.hpp>
#include <pto/inst/tload_tstore.hpp>
#include <pto/common/tassign.hpp>
#include <pto/call_sites.hpp>
#include <ptosim/runtime.hpp>
#include <benchmark/benchmark.h>
#include <vector>

using namespace pto;

namespace {

constexpr int R = 64, C = 128;

void run_on_vec_core(std::function<void()> body) {
    ptosim::LaunchSpec s;
    s.kernel = "bench_elementwise";
    s.site = {__FILE__, __LINE__};
    s.target = ptosim::Target::A2A3;
    s.kind = ptosim::KernelKind::Vec;
    s.block_dim = 1;
    s.aiv_body = std::move(body);
    if (!ptosim::run_launch(ptosim::Device::get(), s).ok()) std::abort();
}

enum class Op { Add, Mul, Exp };

template <class T, Op op>
void BM_Elementwise(benchmark::State& state) {
    std::vector<T> x(R * C), y(R * C);
    for (int i = 0; i < R * C; ++i) {
        x[i] = T(static_cast<float>(i % 97) * 0.03125f - 1.5f);
        y[i] = T(static_cast<float>(i % 31) * 0.25f);
    }
    run_on_vec_core([&] {
        using G = GlobalTensor<T, TileShape2D<T, R, C>, BaseShape2D<T, R, C>>;
        using V = Tile<TileType::Vec, T, R, C>;
        V a, b, o;
        TASSIGN(a, 0);
        TASSIGN(b, R * C * sizeof(T));
        TASSIGN(o, 2 * R * C * sizeof(T));
        G gx(x.data()), gy(y.data());
        TLOAD(a, gx);
        TLOAD(b, gy);
        for (auto _ : state) {
            if constexpr (op == Op::Add) TADD(o, a, b);
            else if constexpr (op == Op::Mul) TMUL(o, a, b);
            else TEXP(o, a);
            benchmark::ClobberMemory();
        }
    });
    state.counters["elements/s"] =
        benchmark::Counter(static_cast<double>(R) * C * state.iterations(), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Elementwise<float, Op::Add>)->Name("TADD_fp32_64x128")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Elementwise<half, Op::Add>)->Name("TADD_fp16_64x128")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Elementwise<float, Op::Mul>)->Name("TMUL_fp32_64x128")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Elementwise<half, Op::Mul>)->Name("TMUL_fp16_64x128")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Elementwise<float, Op::Exp>)->Name("TEXP_fp32_64x128")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Elementwise<half, Op::Exp>)->Name("TEXP_fp16_64x128")->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
