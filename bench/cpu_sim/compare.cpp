// The driver of bench/pto_isa_cpu_sim_speed.sh: loads the two builds of the
// kernels in bench/cpu_sim (pto-isa's CPU simulation and ptosim, each a
// shared library exporting ptobench_time, see entry.cpp), runs them side by
// side in this one process on the same inputs, checks that their outputs
// agree within each kernel's stated tolerance and prints the median time of
// one kernel call on each and their ratio.
//
//   compare <pto-isa CPU sim library> <ptosim library> [--rounds N] [--quick] [--kernels a,b,...]
//           [--names "first,second"] [--dump DIR]
//
// --names labels the two libraries (default "pto-isa CPU sim,ptosim"):
// bench/pto_isa_executed_speed.sh compares two ptosim builds with it.
// --dump DIR writes each kernel's output bytes, DIR/<kernel>.first.bin and
// DIR/<kernel>.second.bin: two runs (say, ptosim before and after a change)
// compared byte for byte with cmp.
//
// Per kernel: warm-up calls on both, then N rounds; a round times a batch of
// calls on one side and then the other, alternating which goes first. The
// batch size aims at about 20 ms of the slower side per round (at least one
// call). Then N single-call launches on ptosim, each timed whole (launch
// set-up included): the "a launch per call" column. --quick: one warm-up
// call and one round of one call (the test's setting). Exit status 1 when
// any output differs beyond its tolerance.
#include <dlfcn.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using TimeFn = int (*)(const char*, uint8_t*, uint8_t*, uint8_t*, int, double*);

enum class In { None, Float, Half };

struct Spec {
    const char* name;
    const char* label;
    In in0, in1;
    int in_elems, out_elems;  // the output is float
    float lo, hi, step;       // inputs: uniform in [lo, hi), rounded down to a multiple of step when step > 0
    double atol, rtol;        // |isa - ptosim| <= atol + rtol * |isa|
    const char* why;          // what the tolerance allows for
};

// Matmul inputs are multiples of 1/8 in [-2, 2): every product is a multiple
// of 1/64 and every partial sum stays below 2^11, so fp32 holds each exactly
// and any summation order gives the same bits.
const Spec kSpecs[] = {
    {"row_softmax", "row softmax 64x128 fp32", In::Float, In::None, 64 * 128, 64 * 128, -8, 8, 0, 1e-6, 1e-5,
     "exp rounding (1 ulp each) and the row-sum order"},
    {"tadd", "TADD 64x128 fp32", In::Float, In::Float, 64 * 128, 64 * 128, -100, 100, 0, 0, 0,
     "one IEEE addition per element on both"},
    {"texp", "TEXP 64x128 fp32", In::Float, In::None, 64 * 128, 64 * 128, -10, 10, 0, 0, 4e-7,
     "the two exp implementations, each within 1 ulp"},
    {"ttrans", "TTRANS 64x128 fp32", In::Float, In::None, 64 * 128, 64 * 128, -100, 100, 0, 0, 0,
     "a transposition moves the bits"},
    {"tcvt", "TCVT fp32->fp16->fp32 64x128", In::Float, In::None, 64 * 128, 64 * 128, -100, 100, 0, 0, 0,
     "one rounding to nearest even, then an exact widening"},
    {"tcolsum", "TCOLSUM 64x128 fp32", In::Float, In::None, 64 * 128, 128, -100, 100, 0, 1e-4, 1e-5,
     "the order of a column's 64 additions"},
    {"tmuls", "TMULS + TMAX 64x128 fp32", In::Float, In::None, 64 * 128, 64 * 128, -100, 100, 0, 0, 0,
     "one IEEE multiplication and a maximum per element"},
    {"matmul128", "matmul 128^3 fp16->fp32", In::Half, In::Half, 128 * 128, 128 * 128, -2, 2, 0.125, 0, 0,
     "inputs chosen so that every sum is exact"},
    {"matmul256_ksplit", "matmul 256^3 K-split fp16->fp32", In::Half, In::Half, 256 * 256, 256 * 256, -2, 2, 0.125, 0,
     0, "inputs chosen so that every sum is exact"},
};

struct Lib {
    void* handle;
    TimeFn time;
};

Lib load(const char* path) {
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        std::fprintf(stderr, "compare: %s\n", dlerror());
        std::exit(2);
    }
    auto f = reinterpret_cast<TimeFn>(dlsym(h, "ptobench_time"));
    if (!f) {
        std::fprintf(stderr, "compare: %s has no ptobench_time\n", path);
        std::exit(2);
    }
    return {h, f};
}

std::vector<uint8_t> make_input(In kind, int elems, const Spec& s, uint64_t seed) {
    std::vector<uint8_t> bytes;
    uint64_t x = seed;
    auto next = [&] {  // 53 random bits in [0, 1)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(x >> 11) / 9007199254740992.0;
    };
    auto value = [&] {
        double v = s.lo + (s.hi - s.lo) * next();
        if (s.step > 0) v = std::floor(v / s.step) * s.step;
        return v;
    };
    if (kind == In::Float) {
        bytes.resize(elems * sizeof(float));
        for (int i = 0; i < elems; ++i) {
            const float v = static_cast<float>(value());
            std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof v);
        }
    } else if (kind == In::Half) {
        bytes.resize(elems * sizeof(_Float16));
        for (int i = 0; i < elems; ++i) {
            const _Float16 v = static_cast<_Float16>(value());  // exact: multiples of 1/8 below 2
            std::memcpy(bytes.data() + i * sizeof(_Float16), &v, sizeof v);
        }
    }
    return bytes;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Diff {
    double max_abs = 0, max_rel = 0;
    long bad = 0;
};

Diff compare(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const Spec& s) {
    Diff d;
    for (int i = 0; i < s.out_elems; ++i) {
        float x, y;
        std::memcpy(&x, a.data() + i * sizeof(float), sizeof x);
        std::memcpy(&y, b.data() + i * sizeof(float), sizeof y);
        if (std::isnan(x) || std::isnan(y)) {  // also an output left unwritten (both start as NaN)
            ++d.bad;
            d.max_abs = d.max_rel = std::numeric_limits<double>::infinity();
            continue;
        }
        const double diff = std::fabs(static_cast<double>(x) - y);
        const double mag = std::fabs(static_cast<double>(x));
        d.max_abs = std::max(d.max_abs, diff);
        if (diff > 0) d.max_rel = std::max(d.max_rel, mag > 0 ? diff / mag : std::numeric_limits<double>::infinity());
        if (diff > s.atol + s.rtol * mag) ++d.bad;
    }
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s <pto-isa CPU sim library> <ptosim library> [--rounds N] [--quick] "
                             "[--kernels a,b,...] [--names first,second]\n", argv[0]);
        return 2;
    }
    const Lib isa = load(argv[1]), sim = load(argv[2]);
    int rounds = 11, warm = 3;
    bool quick = false;
    std::string only, dump, first = "pto-isa CPU sim", second = "ptosim";
    for (int i = 3; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc) dump = argv[++i];
        else if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
        else if (!std::strcmp(argv[i], "--names") && i + 1 < argc && std::strchr(argv[i + 1], ',')) {
            const std::string n = argv[++i];
            first = n.substr(0, n.find(','));
            second = n.substr(n.find(',') + 1);
        }
        else {
            std::fprintf(stderr, "compare: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (quick) rounds = warm = 1;

    std::printf("| Kernel | %s (us) | %s (us) | Ratio | %s, a launch per call (us) | Max abs diff | "
                "Max rel diff | Tolerance |\n", first.c_str(), second.c_str(), second.c_str());
    std::printf("|---|--:|--:|--:|--:|--:|--:|---|\n");
    int failed = 0;
    for (const Spec& s : kSpecs) {
        if (!only.empty() && only.find("," + std::string(s.name) + ",") == std::string::npos) continue;
        const auto in0 = make_input(s.in0, s.in_elems, s, 1);
        const auto in1 = make_input(s.in1, s.in_elems, s, 2);
        auto in0_isa = in0, in1_isa = in1, in0_sim = in0, in1_sim = in1;  // each side its own copy
        std::vector<uint8_t> out_isa(s.out_elems * sizeof(float)), out_sim(out_isa.size());
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (int i = 0; i < s.out_elems; ++i) {
            std::memcpy(out_isa.data() + i * sizeof(float), &nan, sizeof nan);
            std::memcpy(out_sim.data() + i * sizeof(float), &nan, sizeof nan);
        }
        auto run = [&](const Lib& lib, std::vector<uint8_t>& out, std::vector<uint8_t>& a, std::vector<uint8_t>& b,
                       int calls, std::vector<double>& ns) {
            std::vector<double> t(calls);
            const int rc = lib.time(s.name, out.data(), a.data(), b.empty() ? nullptr : b.data(), calls, t.data());
            if (rc != 0) {
                std::fprintf(stderr, "compare: %s: %s failed (%d)\n", s.name, (&lib == &isa ? first : second).c_str(),
                             rc);
                std::exit(2);
            }
            ns.insert(ns.end(), t.begin(), t.end());
        };
        std::vector<double> warm_isa, warm_sim, t_isa, t_sim;
        run(isa, out_isa, in0_isa, in1_isa, warm, warm_isa);
        run(sim, out_sim, in0_sim, in1_sim, warm, warm_sim);
        const double slower = std::max(median(warm_isa), median(warm_sim));
        const int calls = quick ? 1 : std::clamp(static_cast<int>(20e6 / std::max(slower, 1.0)), 1, 1000);
        for (int r = 0; r < rounds; ++r) {
            if (r % 2 == 0) {
                run(isa, out_isa, in0_isa, in1_isa, calls, t_isa);
                run(sim, out_sim, in0_sim, in1_sim, calls, t_sim);
            } else {
                run(sim, out_sim, in0_sim, in1_sim, calls, t_sim);
                run(isa, out_isa, in0_isa, in1_isa, calls, t_isa);
            }
        }
        // ptosim with a launch of its own per call (set-up, one core's fiber,
        // the call, tear-down), as a host program's launch of the kernel.
        std::vector<double> t_launch, unused;
        for (int r = 0; r < rounds; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            run(sim, out_sim, in0_sim, in1_sim, 1, unused);
            t_launch.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
        }
        const Diff d = compare(out_isa, out_sim, s);
        if (!dump.empty())
            for (const auto& [side, out] : {std::pair{"first", &out_isa}, std::pair{"second", &out_sim}}) {
                const std::string path = dump + "/" + s.name + "." + side + ".bin";
                FILE* f = std::fopen(path.c_str(), "wb");
                if (!f || std::fwrite(out->data(), 1, out->size(), f) != out->size() || std::fclose(f) != 0) {
                    std::fprintf(stderr, "compare: cannot write %s\n", path.c_str());
                    std::exit(2);
                }
            }
        const double us_isa = median(t_isa) / 1e3, us_sim = median(t_sim) / 1e3, us_launch = median(t_launch) / 1e3;
        char tol[64];
        if (s.atol == 0 && s.rtol == 0) std::snprintf(tol, sizeof tol, "exact");
        else std::snprintf(tol, sizeof tol, "abs %.0e + rel %.0e", s.atol, s.rtol);
        std::printf("| %s | %.1f | %.1f | %.1fx | %.1f | %.2e | %.2e | %s%s |\n", s.label, us_isa, us_sim, us_isa / us_sim,
                    us_launch, d.max_abs, d.max_rel, tol, d.bad ? " **MISMATCH**" : "");
        if (d.bad) {
            std::fprintf(stderr, "compare: %s: %ld of %d outputs differ beyond the tolerance, %s: %s\n", s.name, d.bad,
                         s.out_elems, tol, s.why);
            ++failed;
        }
        std::fflush(stdout);
    }
    if (quick) std::printf("\n--quick: one warm-up and one timed call each; the outputs are checked, the times are not a measurement.\n");
    else
        std::printf("\nMedian host wall time of one kernel call; ratio = %s / %s (>1: %s faster).\n"
                    "A launch per call: ptosim::run_launch of one core around each call, set-up included (not in the ratio).\n",
                    first.c_str(), second.c_str(), second.c_str());
    std::printf("%s\n", failed ? "Outputs differ beyond the tolerance: see above." : "All outputs agree within their tolerance.");
    return failed ? 1 : 0;
}
