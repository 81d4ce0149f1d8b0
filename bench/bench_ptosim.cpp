// Simulator speed: instruction sequences timed inside one simulated core, and
// launch/dispatch overheads. Figures are host wall time, not device time.
// The instruction headers this benchmark runs, not all of pto/pto-inst.hpp, so
// that editing another family does not rebuild it; the call-site macros last.
#include <pto/inst/elementwise.hpp>
#include <pto/inst/fixpipe.hpp>
#include <pto/inst/tmatmul.hpp>
#include <pto/common/intrinsics.hpp>
#include <pto/common/tassign.hpp>
#include <pto/call_sites.hpp>
#include <ptosim/runtime.hpp>
#include <benchmark/benchmark.h>
#include <cstring>
#include <vector>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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

// C (S x S, fp32) = A * B (fp16), as a kernel tiles it for A2A3's 128 KiB
// L0C: 128 x 128 output tiles t = first, first + step, ..., each summed over
// k-steps of 64 (TLOAD, TMOV to L0A/L0B, TMATMUL then TMATMUL_ACC), then stored.
template <int S>
void ksplit_matmul(const half* a, const half* b, float* c, int first, int step) {
    constexpr int T = 128, K = 64;
    using MatA = Tile<TileType::Mat, half, T, K, BLayout::ColMajor, T, K, SLayout::RowMajor, 512>;
    using MatB = Tile<TileType::Mat, half, K, T, BLayout::ColMajor, K, T, SLayout::RowMajor, 512>;
    using GA = GlobalTensor<half, TileShape2D<half, T, K>, BaseShape2D<half, S, S>>;
    using GB = GlobalTensor<half, TileShape2D<half, K, T>, BaseShape2D<half, S, S>>;
    using GC = GlobalTensor<float, TileShape2D<float, T, T>, BaseShape2D<float, S, S>>;
    MatA am;
    MatB bm;
    TileLeft<half, T, K> al;
    TileRight<half, K, T> br;
    TileAcc<float, T, T> acc;
    TASSIGN(am, 0);
    TASSIGN(bm, T * K * sizeof(half));
    TASSIGN(al, 0);
    TASSIGN(br, 0);
    TASSIGN(acc, 0);
    constexpr int tiles = (S / T) * (S / T);
    for (int t = first; t < tiles; t += step) {
        const int bi = t / (S / T) * T, bj = t % (S / T) * T;
        for (int k0 = 0; k0 < S; k0 += K) {
            GA ga(const_cast<half*>(a) + bi * S + k0);
            GB gb(const_cast<half*>(b) + k0 * S + bj);
            TLOAD(am, ga);
            TLOAD(bm, gb);
            TMOV(al, am);
            TMOV(br, bm);
            if (k0 == 0) TMATMUL(acc, al, br);
            else TMATMUL_ACC(acc, al, br);
        }
        GC gc(c + bi * S + bj);
        TSTORE(gc, acc);
    }
}

template <int S>
void fill_operands(std::vector<half>& a, std::vector<half>& b) {
    for (int i = 0; i < S * S; ++i) {
        a[i] = half(static_cast<float>(i % 7) * 0.25f);
        b[i] = half(static_cast<float>(i % 5) * 0.5f);
    }
}

// 256^3 on one core: four output tiles of four k-steps each.
void BM_Matmul256_KSplit_Fp16ToFp32(benchmark::State& state) {
    constexpr int S = 256;
    std::vector<half> a(S * S), b(S * S);
    std::vector<float> c(S * S);
    fill_operands<S>(a, b);
    run_on_core(ptosim::KernelKind::Cube, [&] {
        for (auto _ : state) ksplit_matmul<S>(a.data(), b.data(), c.data(), 0, 1);
    });
    benchmark::DoNotOptimize(c.data());
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * S * S * S * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Matmul256_KSplit_Fp16ToFp32)->Unit(benchmark::kMicrosecond);

// One host core's fp32 multiply-add peak, the yardstick for the matmul
// figures: twelve independent chains of 8-lane FMAs (two FMA pipes with
// four-cycle latency need at least eight), no memory traffic.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2,fma"), noinline)) float fma_chains(long n) {
    // Named variables, not an array, so all twelve stay in registers.
    __m256 a0 = _mm256_set1_ps(0), a1 = _mm256_set1_ps(1), a2 = _mm256_set1_ps(2), a3 = _mm256_set1_ps(3),
           a4 = _mm256_set1_ps(4), a5 = _mm256_set1_ps(5), a6 = _mm256_set1_ps(6), a7 = _mm256_set1_ps(7),
           a8 = _mm256_set1_ps(8), a9 = _mm256_set1_ps(9), a10 = _mm256_set1_ps(10), a11 = _mm256_set1_ps(11);
    const __m256 x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
    for (long i = 0; i < n; ++i) {
        a0 = _mm256_fmadd_ps(a0, x, y);
        a1 = _mm256_fmadd_ps(a1, x, y);
        a2 = _mm256_fmadd_ps(a2, x, y);
        a3 = _mm256_fmadd_ps(a3, x, y);
        a4 = _mm256_fmadd_ps(a4, x, y);
        a5 = _mm256_fmadd_ps(a5, x, y);
        a6 = _mm256_fmadd_ps(a6, x, y);
        a7 = _mm256_fmadd_ps(a7, x, y);
        a8 = _mm256_fmadd_ps(a8, x, y);
        a9 = _mm256_fmadd_ps(a9, x, y);
        a10 = _mm256_fmadd_ps(a10, x, y);
        a11 = _mm256_fmadd_ps(a11, x, y);
    }
    const __m256 s = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                      _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7))),
        _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    return _mm256_cvtss_f32(s);
}

void BM_PeakFmaFp32(benchmark::State& state) {
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        state.SkipWithError("no AVX2/FMA on this host");
        return;
    }
    constexpr long kIters = 100000;
    float sink = 0;
    for (auto _ : state) {
        long n = kIters;
        benchmark::DoNotOptimize(n);  // a call with constant arguments would be hoisted
        sink += fma_chains(n);
    }
    benchmark::DoNotOptimize(sink);
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * 8 * 12 * kIters * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PeakFmaFp32)->Unit(benchmark::kMicrosecond);
#endif

// The add benchmarks' two 64x128 fp32 operand tiles and their sum, one
// after the other in UB (constructed inside a kernel).
struct AddTiles {
    static constexpr int R = 64, C = 128;
    using G = GlobalTensor<float, TileShape2D<float, R, C>, BaseShape2D<float, R, C>>;
    using T = Tile<TileType::Vec, float, R, C>;
    T a, b, o;
    AddTiles() {
        TASSIGN(a, 0);
        TASSIGN(b, R * C * 4);
        TASSIGN(o, 2 * R * C * 4);
    }
};

// TLOAD x2 + TADD + TSTORE on a 64x128 fp32 tile.
void BM_VecAdd64x128_Fp32(benchmark::State& state) {
    constexpr int R = AddTiles::R, C = AddTiles::C;
    std::vector<float> x(R * C, 1.5f), y(R * C, 2.25f), z(R * C);
    run_on_core(ptosim::KernelKind::Vec, [&] {
        AddTiles t;
        AddTiles::G gx(x.data()), gy(y.data()), gz(z.data());
        for (auto _ : state) {
            TLOAD(t.a, gx);
            TLOAD(t.b, gy);
            TADD(t.o, t.a, t.b);
            TSTORE(gz, t.o);
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

// Whole launches of an empty kernel: scheduler, fibers and buffers, on the
// serial schedule and on two host threads, in wall time (the launching
// thread waits for the other one).
void BM_LaunchEmptyKernel(benchmark::State& state) {
    const auto blocks = static_cast<uint32_t>(state.range(0));
    ptosim::set_sim_threads(static_cast<int>(state.range(1)));
    for (auto _ : state) run_on_core(ptosim::KernelKind::Vec, [] {}, blocks);
    ptosim::set_sim_threads(0);
    // Seconds per block, printed with an SI prefix ("189n" is 0.189 us).
    state.counters["per_block"] = benchmark::Counter(static_cast<double>(blocks) * state.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LaunchEmptyKernel)->ArgNames({"blocks", "threads"})->Args({1, 1})->Args({48, 1})->Args({48, 2})
    ->Unit(benchmark::kMicrosecond)->UseRealTime();

// A launch per call of a small kernel that uses local memory: every block
// adds its own 64x128 fp32 tiles (TLOAD x2 + TADD + TSTORE), so each launch
// also finds the Vector cores' UB written by the one before.
void BM_LaunchVecAdd64x128(benchmark::State& state) {
    constexpr int R = AddTiles::R, C = AddTiles::C;
    const auto blocks = static_cast<uint32_t>(state.range(0));
    std::vector<float> x(size_t{blocks} * R * C, 1.5f), y(size_t{blocks} * R * C, 2.25f), z(size_t{blocks} * R * C);
    auto body = [&] {
        AddTiles t;
        const size_t at = static_cast<size_t>(get_block_idx()) * R * C;
        AddTiles::G gx(x.data() + at), gy(y.data() + at), gz(z.data() + at);
        TLOAD(t.a, gx);
        TLOAD(t.b, gy);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(t.o, t.a, t.b);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(gz, t.o);
    };
    ptosim::set_sim_threads(static_cast<int>(state.range(1)));
    for (auto _ : state) run_on_core(ptosim::KernelKind::Vec, body, blocks);
    ptosim::set_sim_threads(0);
    if (z.front() != 3.75f || z.back() != 3.75f) state.SkipWithError("wrong sum");
    state.counters["per_block"] = benchmark::Counter(static_cast<double>(blocks) * state.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LaunchVecAdd64x128)->ArgNames({"blocks", "threads"})->Args({1, 1})->Args({48, 1})->Args({48, 2})
    ->Unit(benchmark::kMicrosecond)->UseRealTime();

// C (2048 x 2048, fp32) = A * B (fp16) on 24 Cube cores, each block taking
// every 24th of the 256 output tiles of 128 x 128, summed over k-steps of 64:
// the multi-core scaling figure, run on 1 and 2 host threads. The result of
// every run is compared byte for byte with the serial schedule's.
void BM_MatmulMulticore2048(benchmark::State& state) {
    constexpr int S = 2048, kBlocks = 24;
    static std::vector<half> a(S * S), b(S * S);
    static std::vector<float> serial;
    std::vector<float> c(S * S);
    fill_operands<S>(a, b);
    auto body = [&c] {
        ksplit_matmul<S>(a.data(), b.data(), c.data(), static_cast<int>(get_block_idx()),
                         static_cast<int>(get_block_num()));
    };
    if (serial.empty()) {
        ptosim::set_sim_threads(1);
        run_on_core(ptosim::KernelKind::Cube, body, kBlocks);
        serial = c;
    }
    ptosim::set_sim_threads(static_cast<int>(state.range(0)));
    for (auto _ : state) run_on_core(ptosim::KernelKind::Cube, body, kBlocks);
    ptosim::set_sim_threads(0);
    if (std::memcmp(c.data(), serial.data(), c.size() * sizeof(float)) != 0)
        state.SkipWithError("the result differs from the serial schedule's");
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * S * S * S * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatmulMulticore2048)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
