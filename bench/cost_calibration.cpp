// Per-instruction agreement of the cost model with pto-isa's published
// formulas (docs/cost-model.md, "Per-instruction calibration"): runs each
// calibrated vector instruction as a one-instruction kernel on ptosim with
// timing on, over the published shape grid, and prints the simulated cycles
// next to the formula's, with the ratio. On A5 it also prints the cycles
// pto-isa's fit tests give for each case (the figures its formulas were
// fitted to). No NPU is involved: the "model" column is ptosim's simulated
// time, the "formula" column pto-isa's formula evaluated here, the
// "published" column pto-isa's own figure.
//
//   bench_cost_calibration_a2a3 [--all]   # A2A3: Ascend910B2 profile
//   bench_cost_calibration_a5 [--all]     # A5: Ascend950DT profile
//
// Without --all it prints one line per op and type (the grid's extremes);
// with --all one line per shape.
#include <pto/pto-inst.hpp>
#include <ptosim/c_api.h>
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>

#include "../src/sim/cost_calibration_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace pto;
namespace cost = ptosim::cost;

namespace {

// The profile each program times with.
constexpr const char* kSoc = PTOSIM_TARGET_A5 ? "Ascend950DT" : "Ascend910B2";

enum class Ty { F32, F16 };
const char* ty_name(Ty t) { return t == Ty::F32 ? "fp32" : "fp16"; }

// The simulated cycles of one launch that runs `body` on one vector core:
// the profile's figures with a 1 GHz clock (a microsecond is 1000 cycles),
// no issue slot, no launch overhead and no block start-up, so the launch's
// time is the instruction's cost.
double cycles_of(std::function<void()> body, bool calibrated = true) {
    cost::Params p = cost::params_for(*ptosim::find_soc(kSoc));
    if (!calibrated) p.calibration = cost::Calibration::None;
    p.clock_ghz = 1;
    p.issue = 0;
    p.launch_us = 0;
    p.block_start = 0;
    cost::override_params(&p);
    ptosim::LaunchSpec s;
    s.kernel = "bench_cost_calibration";
    s.site = {__FILE__, __LINE__};
    s.target = PTOSIM_TARGET_A5 ? ptosim::Target::A5 : ptosim::Target::A2A3;
    s.kind = ptosim::KernelKind::Vec;
    s.block_dim = 1;
    s.aiv_body = std::move(body);
    const ptosim::Status st = ptosim::run_launch(ptosim::Device::get(), s);
    cost::override_params(nullptr);
    if (!st.ok()) {
        std::fprintf(stderr, "bench_cost_calibration: launch failed: %s\n", st.message.c_str());
        std::exit(1);
    }
    return std::round(ptosim_last_launch_time_us() * 1000);
}

double round_cycles(double v) { return v <= 0 ? 0 : static_cast<double>(std::llround(v)); }

struct Point {
    std::string op, type, shape;
    double model, formula, published;  // published < 0: none
    double before;                     // the op-class rates alone
};

std::string shape_str(int r, int c, int vr, int vc) {
    std::string s = std::to_string(vr) + "x" + std::to_string(vc);
    if (r != vr || c != vc) s += " of " + std::to_string(r) + "x" + std::to_string(c);
    return s;
}

void print(const char* title, const std::vector<Point>& pts, bool all) {
    std::printf("%s\n\n", title);
    const bool pub = std::any_of(pts.begin(), pts.end(), [](const Point& p) { return p.published >= 0; });
    if (all) {
        std::printf("| Op | Type | Shape | Model (cycles) | Formula (cycles) | Model / formula | Class rates (cycles) |%s\n",
                    pub ? " Published (cycles) | Model / published |" : "");
        std::printf("|---|---|---|--:|--:|--:|--:|%s\n", pub ? "--:|--:|" : "");
        for (const Point& p : pts) {
            std::printf("| %s | %s | %s | %.0f | %.0f | %.3f | %.0f |", p.op.c_str(), p.type.c_str(), p.shape.c_str(),
                        p.model, p.formula, p.model / p.formula, p.before);
            if (pub) std::printf(" %.0f | %.3f |", p.published, p.model / p.published);
            std::printf("\n");
        }
    }
    // One line per op and type: how many shapes, the extreme ratios.
    std::map<std::pair<std::string, std::string>, std::vector<const Point*>> by;
    for (const Point& p : pts) by[{p.op, p.type}].push_back(&p);
    std::printf("%s| Op | Type | Shapes | Model / formula, min | max | Class rates / formula, min | max |%s\n",
                all ? "\n" : "", pub ? " Model / published, min | median | max |" : "");
    std::printf("|---|---|--:|--:|--:|--:|--:|%s\n", pub ? "--:|--:|--:|" : "");
    int within = 0, total = 0, pub_within = 0, pub_total = 0;
    double lo_all = 1e9, hi_all = 0;
    for (const auto& [k, v] : by) {
        double lo = 1e9, hi = 0, blo = 1e9, bhi = 0;
        std::vector<double> r;
        for (const Point* p : v) {
            blo = std::min(blo, p->before / p->formula);
            bhi = std::max(bhi, p->before / p->formula);
            const double q = p->model / p->formula;
            lo = std::min(lo, q);
            hi = std::max(hi, q);
            ++total;
            if (std::fabs(q - 1) <= 0.05) ++within;
            if (p->published > 0) {
                r.push_back(p->model / p->published);
                ++pub_total;
                if (std::fabs(r.back() - 1) <= 0.05) ++pub_within;
            }
        }
        lo_all = std::min(lo_all, lo);
        hi_all = std::max(hi_all, hi);
        std::printf("| %s | %s | %zu | %.3f | %.3f | %.2f | %.2f |", k.first.c_str(), k.second.c_str(), v.size(), lo, hi,
                    blo, bhi);
        if (pub) {
            std::sort(r.begin(), r.end());
            if (r.empty()) std::printf(" — | — | — |");
            else std::printf(" %.3f | %.3f | %.3f |", r.front(), r[r.size() / 2], r.back());
        }
        std::printf("\n");
    }
    std::printf("\n%d of %d shapes within 5%% of the formula (ratios %.3f to %.3f)", within, total, lo_all, hi_all);
    if (pub) std::printf("; %d of %d within 5%% of the published figure", pub_within, pub_total);
    std::printf(".\n\n");
}

// Every operand on one address: the cost depends on the shapes only, and the
// widest A5 tiles leave room for one.
template <class T>
void at0(T& t) {
    TASSIGN(t, 0);
}

#if !PTOSIM_TARGET_A5
// ------------------------------------------------------------------ A2A3

using ptosim::cost::calibration::Dt;
using Formula = ptosim::cost::calibration::A2A3Row;
constexpr const auto& kFormulas = ptosim::cost::calibration::kA2A3;

constexpr int kRows = 16;  // the tiles' declared rows; the grid's valid rows are 1, 4 and 16

template <class T>
constexpr int kCols = sizeof(T) == 4 ? 512 : 1024;  // 32 KiB per tile
template <class T>
using Dyn = Tile<TileType::Vec, T, kRows, kCols<T>, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
template <class T>
using Full = Tile<TileType::Vec, T, kRows, kCols<T>>;

template <class T>
double run_a2a3(const std::string& op, int vr, int vc, bool calibrated) {
    return cycles_of([&] {
        Dyn<T> d(vr, vc), a(vr, vc), b(vr, vc);
        TASSIGN(d, 0);
        TASSIGN(a, 0x8000);
        TASSIGN(b, 0x10000);
        const T one = T(1.0f);
        if (op == "TMUL") TMUL(d, a, b);
        else if (op == "TSUB") TSUB(d, a, b);
        else if (op == "TADDS") TADDS(d, a, one);
        else if (op == "TMULS") TMULS(d, a, one);
        else if (op == "TDIVS") TDIVS(d, a, one);
        else if (op == "TMINS") TMINS(d, a, one);
        else if (op == "TEXP") TEXP(d, a);
        else if (op == "TSQRT") TSQRT(d, a);
        else if (op == "TROWSUM" || op == "TROWMAX") {
            Tile<TileType::Vec, T, kRows, 32 / sizeof(T), BLayout::RowMajor, DYNAMIC, 1> r(vr);
            Full<T> tmp;
            TASSIGN(r, 0x10000);
            TASSIGN(tmp, 0x18000);
            if (op == "TROWSUM") TROWSUM(r, a, tmp);
            else TROWMAX(r, a, tmp);
        } else if (op == "TCOLSUM" || op == "TCOLMAX") {
            Tile<TileType::Vec, T, 1, kCols<T>, BLayout::RowMajor, 1, DYNAMIC> c(vc);
            TASSIGN(c, 0x10000);
            if (op == "TCOLSUM") TCOLSUM(c, a);
            else TCOLMAX(c, a);
        } else if (op == "TROWEXPAND") {
            Dyn<T> s(vr, 1);
            TASSIGN(s, 0x10000);
            TROWEXPAND(d, s);
        } else {
            std::fprintf(stderr, "bench_cost_calibration: no kernel for %s\n", op.c_str());
            std::exit(1);
        }
    }, calibrated);
}

// The cases of pto-isa's A2A3 cost-model tests with a cycle count.
struct StCase {
    const char* op;
    Ty ty;
    int rows, cols;
    double published;
    bool binary;  // TCOLSUM's pairwise form
};
constexpr StCase kStCases[] = {
#include "cost_calibration_a2a3_cases.inc"
};

// One instruction of a case on tiles of R x C declared (R x C fits the
// case): three 64 KiB slots, the source in the first, the destination in
// the second, the other source or the scratch tile in the third.
template <class T, int R, int C>
void st_kernel(const StCase& c) {
    using D = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    D a(c.rows, c.cols), d(c.rows, c.cols), b(c.rows, c.cols);
    TASSIGN(a, 0);
    TASSIGN(d, 0x10000);
    TASSIGN(b, 0x20000);
    const std::string op = c.op;
    const T one = T(1.0f);
    if (op == "TMUL") TMUL(d, a, b);
    else if (op == "TSUB") TSUB(d, a, b);
    else if (op == "TADDS") TADDS(d, a, one);
    else if (op == "TMULS") TMULS(d, a, one);
    else if (op == "TDIVS") TDIVS(d, a, one);
    else if (op == "TMINS") TMINS(d, a, one);
    else if (op == "TEXP") TEXP(d, a);
    else if (op == "TSQRT") TSQRT(d, a);
    else if (op == "TROWSUM" || op == "TROWMAX") {
        Tile<TileType::Vec, T, R, 32 / sizeof(T), BLayout::RowMajor, DYNAMIC, 1> r(c.rows);
        Tile<TileType::Vec, T, R, C> tmp;
        TASSIGN(r, 0x10000);
        TASSIGN(tmp, 0x20000);
        if (op == "TROWSUM") TROWSUM(r, a, tmp);
        else TROWMAX(r, a, tmp);
    } else if (op == "TCOLSUM" || op == "TCOLMAX") {
        Tile<TileType::Vec, T, 1, C, BLayout::RowMajor, 1, DYNAMIC> r(c.cols);
        Tile<TileType::Vec, T, R, C> tmp;
        TASSIGN(r, 0x10000);
        TASSIGN(tmp, 0x20000);
        if (op == "TCOLMAX") TCOLMAX(r, a);
        else if (c.binary) TCOLSUM(r, a, tmp, true);
        else TCOLSUM(r, a);
    } else if (op == "TROWEXPAND") {
        D s(c.rows, 1);
        TASSIGN(s, 0x20000);
        TROWEXPAND(d, s);
    } else {
        std::fprintf(stderr, "bench_cost_calibration: no kernel for %s\n", op.c_str());
        std::exit(1);
    }
}

template <class T>
double run_st(const StCase& c, bool calibrated) {
    return cycles_of([&] {
        if (c.rows <= 64 && c.cols <= 256) st_kernel<T, 64, 256>(c);
        else if (c.rows <= 256 && c.cols <= 64) st_kernel<T, 256, 64>(c);
        else if (c.rows <= 8 && c.cols <= 448) st_kernel<T, 8, 448>(c);
        else if (c.rows == 1 && c.cols <= 3072) st_kernel<T, 1, 3072>(c);
        else {
            std::fprintf(stderr, "bench_cost_calibration: no tile for %dx%d\n", c.rows, c.cols);
            std::exit(1);
        }
    }, calibrated);
}

// The published formula's cycles at a case's shape: its column class's
// row, or, between classes, none (negative).
double a2a3_formula(const std::string& op, Ty t, int rows, int cols) {
    for (const Formula& f : kFormulas) {
        if (op != f.op) continue;
        if (f.dt == Dt::Any || (f.dt == (t == Ty::F32 ? Dt::F32 : Dt::F16) && static_cast<int>(f.cols) == cols))
            return round_cycles(f.slope * rows * cols + f.bias);
    }
    return -1;
}

void print_st(const std::vector<Point>& pts) {
    std::printf("A2A3: the cases of pto-isa's tests/costmodel/st with a cycle count, for the ops and types the formulas "
                "cover\n\n");
    std::printf("| Op | Type | Shape | Model (cycles) | Formula (cycles) | Published (cycles) | Model / published | "
                "Class rates (cycles) | Class rates / published |\n");
    std::printf("|---|---|---|--:|--:|--:|--:|--:|--:|\n");
    int within = 0, within_before = 0;
    std::vector<double> r;
    for (const Point& p : pts) {
        char formula[32];
        if (p.formula >= 0) std::snprintf(formula, sizeof formula, "%.0f", p.formula);
        else std::snprintf(formula, sizeof formula, "between classes");
        std::printf("| %s | %s | %s | %.0f | %s | %.0f | %.2f | %.0f | %.2f |\n", p.op.c_str(), p.type.c_str(),
                    p.shape.c_str(), p.model, formula, p.published, p.model / p.published, p.before,
                    p.before / p.published);
        r.push_back(p.model / p.published);
        if (std::fabs(p.model / p.published - 1) <= 0.05) ++within;
        if (std::fabs(p.before / p.published - 1) <= 0.05) ++within_before;
    }
    std::sort(r.begin(), r.end());
    std::printf("\n%d of %zu cases within 5%% of the published figure with the formulas (median ratio %.2f), %d with the "
                "class rates alone.\n\n",
                within, pts.size(), r[r.size() / 2], within_before);
}

// The sort unit: pto-isa's two measured intrinsic figures (fp32, 910B3;
// docs/cost-model.md, "A2A3: the sort unit") against one-instruction tile
// kernels: TSORT32 over one row of 32 x repeat scores (vbitsort: 16 x
// repeat + 21), and TMRGSORT of one row with blockLen 64 (a repeat merges
// four lists of 32 structures: 78 x repeat + 20). The blockLen-256 rows
// are ptosim's scaling of the same figure by the structures written, not
// a measurement.
template <int N>
double run_sort32(bool calibrated) {
    return cycles_of([] {
        Tile<TileType::Vec, float, 1, 2 * N> d;
        Tile<TileType::Vec, float, 1, N> src;
        Tile<TileType::Vec, uint32_t, 1, N> idx;
        TASSIGN(d, 0);
        TASSIGN(src, 0x10000);
        TASSIGN(idx, 0x18000);
        TSORT32(d, src, idx);
    }, calibrated);
}

template <int N>
double run_merge(uint32_t block_len, bool calibrated) {
    return cycles_of([block_len] {
        Tile<TileType::Vec, float, 1, N> d, src;
        TASSIGN(d, 0);
        TASSIGN(src, 0x10000);
        TMRGSORT(d, src, block_len);
    }, calibrated);
}

void print_sort() {
    struct Row {
        const char* op;
        std::string shape;
        double model, figure, before;
        bool measured;
    };
    std::vector<Row> rows;
    auto sort32 = [&](int repeat, double m, double b) {
        rows.push_back({"TSORT32 (vbitsort)", "1x" + std::to_string(32 * repeat), m, 16.0 * repeat + 21, b, true});
    };
    sort32(1, run_sort32<32>(true), run_sort32<32>(false));
    sort32(8, run_sort32<256>(true), run_sort32<256>(false));
    sort32(32, run_sort32<1024>(true), run_sort32<1024>(false));
    sort32(64, run_sort32<2048>(true), run_sort32<2048>(false));
    auto merge = [&](int cols, uint32_t block_len, double m, double b) {
        const int repeat = cols / static_cast<int>(block_len * 4);
        // The measured figure is per repeat of 128 structures (blockLen 64);
        // a blockLen-256 repeat writes four times as many.
        const double figure = 78.0 * repeat * (block_len / 64.0) + 20;
        rows.push_back({"TMRGSORT (vmrgsort4)", "1x" + std::to_string(cols) + " blockLen " + std::to_string(block_len), m,
                        figure, b, block_len == 64});
    };
    merge(256, 64, run_merge<256>(64, true), run_merge<256>(64, false));
    merge(2048, 64, run_merge<2048>(64, true), run_merge<2048>(64, false));
    merge(8192, 64, run_merge<8192>(64, true), run_merge<8192>(64, false));
    merge(2048, 256, run_merge<2048>(256, true), run_merge<2048>(256, false));
    std::printf("A2A3: the sort unit, fp32, against pto-isa's intrinsic figures (measured for vbitsort and for "
                "vmrgsort4 at blockLen 64)\n\n");
    std::printf("| Instruction | Shape | Model (cycles) | Figure (cycles) | Model / figure | Figure measured | "
                "Class rate (cycles) |\n");
    std::printf("|---|---|--:|--:|--:|---|--:|\n");
    int within = 0;
    for (const Row& r : rows) {
        std::printf("| %s | %s | %.0f | %.0f | %.3f | %s | %.0f |\n", r.op, r.shape.c_str(), r.model, r.figure,
                    r.model / r.figure, r.measured ? "yes" : "no (scaled)", r.before);
        if (std::fabs(r.model / r.figure - 1) <= 0.05) ++within;
    }
    std::printf("\n%d of %zu shapes within 5%% of the figure.\n\n", within, rows.size());
}

// The measured vector intrinsics (docs/cost-model.md, "A2A3: the measured
// vector intrinsics"): each as a one-intrinsic kernel on tiles' UB
// addresses, full mask, repeats 1, 8, 64 and 255, and vadd in counter mode
// over 100 floats (two repeats and the counter-mode floor), against
// head + slope x repeat + tail (+ 16).
struct IntrinsicCase {
    const char* op;
    double fixed, slope;
    bool counter_floor;
};
template <class T, class F>
double run_intrinsic(F issue, bool counter, bool calibrated) {
    return cycles_of([&] {
        Tile<TileType::Vec, T, 1, 255 * 256 / int(sizeof(T))> a;
        TASSIGN(a, 0);
        auto* u = (__ubuf__ T*)a.data();
        if (counter) {
            set_mask_count();
            set_vector_mask(0, 100);
        } else {
            set_vector_mask(-1, -1);
        }
        issue(u);
        if (counter) set_mask_norm();
    }, calibrated);
}
void print_intrinsics() {
    struct Row {
        std::string op, shape;
        double model, figure, before;
    };
    std::vector<Row> rows;
    auto add = [&](const IntrinsicCase& c, const char* ty, auto run) {
        for (int rep : {1, 8, 64, 255})
            rows.push_back({c.op, std::string(ty) + ", repeat " + std::to_string(rep), run(rep, false, true),
                            c.fixed + c.slope * rep, run(rep, false, false)});
        if (c.counter_floor)
            rows.push_back({c.op, std::string(ty) + ", counter mode, 100 elements", run(0, true, true),
                            c.fixed + c.slope * std::ceil(100.0 / (std::string(ty) == "fp32" ? 64 : 128)) + 16,
                            run(0, true, false)});
    };
    const auto binary = [](auto op) {
        return [op](int rep, bool counter, bool cal) {
            return run_intrinsic<float>([&](auto* u) { op(u, u + 64 * 255, u, rep); }, counter, cal);
        };
    };
#define PTOSIM_BENCH_BINARY(name) binary([](auto* d, auto* a, auto* b, int r) { name(d, a, b, r, 1, 1, 1, 8, 8, 8); })
#define PTOSIM_BENCH_UNARY(name)                                                                                  \
    [](int rep, bool counter, bool cal) {                                                                        \
        return run_intrinsic<float>([&](auto* u) { name(u, u, rep, 1, 1, 8, 8); }, counter, cal);                \
    }
#define PTOSIM_BENCH_SCALAR(name)                                                                                 \
    [](int rep, bool counter, bool cal) {                                                                        \
        return run_intrinsic<float>([&](auto* u) { name(u, u, 0.5f, rep, 1, 1, 8, 8); }, counter, cal);          \
    }
    add({"vadd", 24, 2, true}, "fp32", PTOSIM_BENCH_BINARY(vadd));
    add({"vsub", 24, 2, true}, "fp32", PTOSIM_BENCH_BINARY(vsub));
    add({"vmul", 25, 2, true}, "fp32", PTOSIM_BENCH_BINARY(vmul));
    add({"vdiv", 30, 4, true}, "fp32", PTOSIM_BENCH_BINARY(vdiv));
    add({"vmax", 24, 2, true}, "fp32", PTOSIM_BENCH_BINARY(vmax));
    add({"vmin", 24, 2, true}, "fp32", PTOSIM_BENCH_BINARY(vmin));
    add({"vexp", 31, 2, false}, "fp32", PTOSIM_BENCH_UNARY(vexp));
    add({"vln", 33, 2, false}, "fp32", PTOSIM_BENCH_UNARY(vln));
    add({"vrelu", 23, 1, false}, "fp32", PTOSIM_BENCH_UNARY(vrelu));
    add({"vrsqrt", 24, 1, false}, "fp32", PTOSIM_BENCH_UNARY(vrsqrt));
    add({"vmuls", 26, 1, false}, "fp32", PTOSIM_BENCH_SCALAR(vmuls));
    add({"vmaxs", 23, 1, false}, "fp32", PTOSIM_BENCH_SCALAR(vmaxs));
    add({"vlrelu", 26, 1, false}, "fp32", PTOSIM_BENCH_SCALAR(vlrelu));
#undef PTOSIM_BENCH_BINARY
#undef PTOSIM_BENCH_UNARY
#undef PTOSIM_BENCH_SCALAR
    for (const char* name : {"vand", "vor"}) {
        const bool is_and = std::strcmp(name, "vand") == 0;
        add({name, 20, 2, true}, "int16", [is_and](int rep, bool counter, bool cal) {
            return run_intrinsic<int16_t>([&](auto* u) {
                if (is_and) vand(u, u + 128 * 255, u, rep, 1, 1, 1, 8, 8, 8);
                else vor(u, u + 128 * 255, u, rep, 1, 1, 1, 8, 8, 8);
            }, counter, cal);
        });
    }
    std::printf("A2A3: the measured vector intrinsics, one intrinsic a kernel, against pto-isa's figures (910B3 "
                "measurements; vmin by symmetry with vmax)\n\n");
    std::printf("| Intrinsic | Case | Model (cycles) | Figure (cycles) | Model / figure | Class rate (cycles) |\n");
    std::printf("|---|---|--:|--:|--:|--:|\n");
    int within = 0;
    for (const Row& r : rows) {
        std::printf("| %s | %s | %.0f | %.0f | %.3f | %.0f |\n", r.op.c_str(), r.shape.c_str(), r.model, r.figure,
                    r.model / r.figure, r.before);
        if (std::fabs(r.model / r.figure - 1) <= 0.05) ++within;
    }
    std::printf("\n%d of %zu cases within 5%% of the figure.\n\n", within, rows.size());
}

int run(bool all) {
    std::vector<Point> pts;
    for (const Formula& f : kFormulas) {
        std::vector<Ty> types;
        if (f.dt == Dt::Any) types = {Ty::F32, Ty::F16};
        else types = {f.dt == Dt::F32 ? Ty::F32 : Ty::F16};
        for (Ty t : types) {
            // A formula for any column count is run at the column classes
            // the other formulas have: 32 to the widest tile.
            std::vector<int> cols;
            if (f.cols) cols = {static_cast<int>(f.cols)};
            else cols = {32, 64, 128, 256, t == Ty::F32 ? 512 : 1024};
            for (int vc : cols)
                for (int vr : {1, 4, kRows}) {
                    auto run = [&](bool cal) {
                        return t == Ty::F32 ? run_a2a3<float>(f.op, vr, vc, cal) : run_a2a3<half>(f.op, vr, vc, cal);
                    };
                    const double formula = round_cycles(f.slope * vr * vc + f.bias);
                    pts.push_back({f.op, ty_name(t), shape_str(vr, vc, vr, vc), run(true), formula, -1, run(false)});
                }
        }
    }
    print("A2A3 (profile Ascend910B2): every row of pto-isa's formula_params.csv at 1, 4 and 16 valid rows", pts, all);
    std::vector<Point> st;
    for (const StCase& c : kStCases) {
        auto run = [&](bool cal) { return c.ty == Ty::F32 ? run_st<float>(c, cal) : run_st<half>(c, cal); };
        st.push_back({std::string(c.op) + (c.binary ? " (binary)" : ""), ty_name(c.ty), shape_str(c.rows, c.cols, c.rows, c.cols),
                      run(true), a2a3_formula(c.op, c.ty, c.rows, c.cols), c.published, run(false)});
    }
    print_st(st);
    print_sort();
    print_intrinsics();
    return 0;
}

#else
// ------------------------------------------------------------------ A5

using ptosim::cost::calibration::Dt;
using ptosim::cost::calibration::Kind;
using Formula = ptosim::cost::calibration::A5Row;
constexpr const auto& kFormulas = ptosim::cost::calibration::kA5;

struct Case {
    const char* op;
    Ty ty;
    int rows, cols, valid_rows, valid_cols;
    double measured;
};
constexpr Case kCases[] = {
#include "cost_calibration_a5_cases.inc"
};

struct CvtCase {
    Dt src, dst;
    int rows, cols, valid_rows, valid_cols;
    double measured;
};
constexpr CvtCase kCvtCases[] = {
#include "cost_calibration_a5_tcvt_cases.inc"
};

// TSEL's cases (pto-isa 3186c381, tests/costmodel/st_a5_fit/testcase/tsel_fit/main.cpp,
// the "profiling" figure of each): element type, declared rows and columns,
// valid rows and columns, cycles.
struct SelCase {
    Dt ty;
    int rows, cols, valid_rows, valid_cols;
    double measured;
};
constexpr SelCase kSelCases[] = {
    {Dt::I8, 1, 256, 1, 256, 54},     {Dt::I8, 1, 1280, 1, 1280, 64},   {Dt::I8, 1, 2560, 1, 2560, 74},
    {Dt::I8, 2, 640, 2, 512, 66},     {Dt::I8, 2, 896, 2, 768, 67},     {Dt::I8, 2, 2688, 2, 2560, 95},
    {Dt::I8, 3, 640, 3, 512, 77},     {Dt::F32, 1, 64, 1, 64, 60},      {Dt::F32, 1, 320, 1, 320, 91},
    {Dt::F32, 1, 1280, 1, 1280, 97},  {Dt::F32, 2, 160, 2, 128, 73},    {Dt::F32, 3, 224, 3, 192, 206},
    {Dt::F32, 10, 672, 10, 640, 791},
};

const char* dt_name(Dt d) {
    switch (d) {
        case Dt::F32: return "fp32";
        case Dt::F16: return "fp16";
        case Dt::BF16: return "bf16";
        case Dt::E4M3: return "fp8_e4m3";
        case Dt::E5M2: return "fp8_e5m2";
        case Dt::HiF8: return "hif8";
        case Dt::I8: return "int8";
        default: return "?";
    }
}

bool scalar_op(const std::string& op) { return op == "TDIVS" || op == "TMINS" || op == "TNEG"; }

// pto-isa's A5 formula for a case, evaluated from the case's shape.
double a5_formula(const Case& c) {
    const std::string op = c.op;
    const bool two_d = scalar_op(op) ? c.valid_cols != c.cols : !(c.rows == 1 || c.valid_cols == c.cols);
    const int per_loop = c.ty == Ty::F32 ? 64 : 128;  // elements of one 256-byte vector register
    const int run = two_d ? c.valid_cols : c.valid_rows * c.valid_cols;
    const double loops = (run + per_loop - 1) / per_loop;  // per row (2D) or in all (1D)
    const double outer = two_d ? c.valid_rows : 1;
    const Dt dt = c.ty == Ty::F32 ? Dt::F32 : Dt::F16;
    const char* variant = op == "TRECIP" ? "default" : "";
    for (const Formula& f : kFormulas) {
        if (op != f.op || f.src != dt || f.two_d != two_d || std::strcmp(f.variant, variant) != 0) continue;
        return round_cycles(f.kind == Kind::Linear ? f.p0 * loops * outer + f.p1 : (f.p0 * loops + f.p1) * outer + f.p2);
    }
    std::fprintf(stderr, "bench_cost_calibration: no A5 formula for %s\n", c.op);
    std::exit(1);
}

// The one-instruction kernel of a case. Tiles of a shape the model would
// treat the same way: one declared row of the case's columns for the
// one-run (1D) cases of TDIVS/TMINS/TNEG, whose path depends on the
// declared columns; one declared row for the other 1D cases (a run of
// valid rows x columns elements); a 20 x 1344 tile, wider than every
// case's valid columns, for the row-by-row (2D) cases.
template <class T, int R, int C>
void a5_kernel(const std::string& op, int vr, int vc) {
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> d(vr, vc);
    at0(d);
    const T one = T(1.0f);
    if (op == "TADD") TADD(d, d, d);
    else if (op == "TSUB") TSUB(d, d, d);
    else if (op == "TMUL") TMUL(d, d, d);
    else if (op == "TDIVS") TDIVS(d, d, one);
    else if (op == "TMINS") TMINS(d, d, one);
    else if (op == "TNEG") TNEG(d, d);
    else if (op == "TEXP") TEXP(d, d);
    else if (op == "TSQRT") TSQRT(d, d);
    else if (op == "TRSQRT") TRSQRT(d, d);
    else if (op == "TRECIP") TRECIP(d, d);
    else {
        std::fprintf(stderr, "bench_cost_calibration: no kernel for %s\n", op.c_str());
        std::exit(1);
    }
}

// pto-isa's A5 TCVT formula for a case (round to nearest, saturating):
// loops of 64 elements from fp16/bf16 to fp32; else of the source type's
// 32-bit or 16-bit lanes, except that row by row the narrowing conversions
// from fp32 and the 16-bit to 16/8-bit ones count 16-bit lanes.
double cvt_formula(const CvtCase& c) {
    const bool two_d = !(c.rows == 1 || c.valid_cols == c.cols);
    const bool wide16 = c.src == Dt::F16 || c.src == Dt::BF16;
    int per_loop = wide16 ? 128 : 64;
    if (wide16 && c.dst == Dt::F32) per_loop = 64;
    else if (two_d && ((c.src == Dt::F32 && c.dst != Dt::F32) || (wide16 && (c.dst == Dt::F16 || c.dst == Dt::HiF8))))
        per_loop = 128;
    const int run = two_d ? c.valid_cols : c.valid_rows * c.valid_cols;
    const double loops = (run + per_loop - 1) / per_loop;
    const double outer = two_d ? c.valid_rows : 1;
    for (const Formula& f : kFormulas) {
        if (std::strcmp(f.op, "TCVT") != 0 || f.src != c.src || f.dst != c.dst || f.two_d != two_d ||
            std::strcmp(f.variant, "CAST_RINT_SAT_ON_normal") != 0)
            continue;
        return round_cycles(f.kind == Kind::Linear ? f.p0 * loops * outer + f.p1 : (f.p0 * loops + f.p1) * outer + f.p2);
    }
    std::fprintf(stderr, "bench_cost_calibration: no A5 TCVT formula for %s -> %s\n", dt_name(c.src), dt_name(c.dst));
    std::exit(1);
}

template <class D, class S>
double run_cvt(const CvtCase& c, bool calibrated) {
    const bool two_d = !(c.rows == 1 || c.valid_cols == c.cols);
    auto body = [&]<int R, int C>(int vr, int vc) {
        Tile<TileType::Vec, D, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> d(vr, vc);
        Tile<TileType::Vec, S, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> s(vr, vc);
        TASSIGN(d, 0);
        TASSIGN(s, 0x20000);
        TCVT(d, s, RoundMode::CAST_RINT);
    };
    return cycles_of([&] {
        if (two_d) body.template operator()<20, 1344>(c.valid_rows, c.valid_cols);
        else body.template operator()<1, 4096>(1, c.valid_rows * c.valid_cols);
    }, calibrated);
}

template <class D, class S>
void add_cvt(std::vector<Point>& pts, const CvtCase& c) {
    pts.push_back({"TCVT", std::string(dt_name(c.src)) + " -> " + dt_name(c.dst),
                   shape_str(c.rows, c.cols, c.valid_rows, c.valid_cols), run_cvt<D, S>(c, true), cvt_formula(c),
                   c.measured, run_cvt<D, S>(c, false)});
}

void run_cvts(std::vector<Point>& pts) {
    for (const CvtCase& c : kCvtCases) {
        const auto pair = [&](Dt s, Dt d) { return c.src == s && c.dst == d; };
        if (pair(Dt::F32, Dt::F16)) add_cvt<half, float>(pts, c);
        else if (pair(Dt::F32, Dt::BF16)) add_cvt<bfloat16_t, float>(pts, c);
        else if (pair(Dt::F16, Dt::F32)) add_cvt<float, half>(pts, c);
        else if (pair(Dt::BF16, Dt::F32)) add_cvt<float, bfloat16_t>(pts, c);
        else if (pair(Dt::BF16, Dt::F16)) add_cvt<half, bfloat16_t>(pts, c);
        else if (pair(Dt::F32, Dt::E4M3)) add_cvt<float8_e4m3_t, float>(pts, c);
        else if (pair(Dt::F32, Dt::E5M2)) add_cvt<float8_e5m2_t, float>(pts, c);
        else if (pair(Dt::F32, Dt::HiF8)) add_cvt<hifloat8_t, float>(pts, c);
        else if (pair(Dt::F16, Dt::HiF8)) add_cvt<hifloat8_t, half>(pts, c);
        else if (pair(Dt::E4M3, Dt::F32)) add_cvt<float, float8_e4m3_t>(pts, c);
        else if (pair(Dt::E5M2, Dt::F32)) add_cvt<float, float8_e5m2_t>(pts, c);
        else if (pair(Dt::HiF8, Dt::F32)) add_cvt<float, hifloat8_t>(pts, c);
        else {
            std::fprintf(stderr, "bench_cost_calibration: no TCVT kernel for %s -> %s\n", dt_name(c.src), dt_name(c.dst));
            std::exit(1);
        }
    }
}

// pto-isa's A5 TSEL formula for a case: 8-bit and 16-bit elements one
// variant; 32-bit elements row by row another, in one run by the parity of
// the loop count.
double sel_formula(const SelCase& c) {
    const bool two_d = !(c.rows == 1 || c.valid_cols == c.cols);
    const int per_loop = c.ty == Dt::F32 ? 64 : c.ty == Dt::I8 ? 256 : 128;
    const int run = two_d ? c.valid_cols : c.valid_rows * c.valid_cols;
    const int loops = (run + per_loop - 1) / per_loop;
    const double outer = two_d ? c.valid_rows : 1;
    const char* variant = c.ty != Dt::F32 ? "TSel_b16_8" : two_d ? "TSel_b32" : loops % 2 == 0 ? "TSel_b32_even" : "TSel_b32_odd";
    for (const Formula& f : kFormulas) {
        if (std::strcmp(f.op, "TSEL") != 0 || f.src != c.ty || f.two_d != two_d || std::strcmp(f.variant, variant) != 0)
            continue;
        return round_cycles(f.kind == Kind::Linear ? f.p0 * loops * outer + f.p1 : (f.p0 * loops + f.p1) * outer + f.p2);
    }
    std::fprintf(stderr, "bench_cost_calibration: no A5 TSEL formula for %s\n", dt_name(c.ty));
    std::exit(1);
}

// TSEL on R x C tiles with a bit mask wide enough for C columns.
template <class T, int R, int C>
void sel_kernel(int vr, int vc) {
    constexpr int mask_cols = (C / 8 + 31) / 32 * 32;
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> d(vr, vc), a(vr, vc), b(vr, vc);
    Tile<TileType::Vec, uint8_t, R, mask_cols> m;
    TASSIGN(d, 0);
    TASSIGN(a, 0x10000);
    TASSIGN(b, 0x20000);
    TASSIGN(m, 0x30000);
    TSEL(d, m, a, b);
}

template <class T>
double run_sel(const SelCase& c, bool calibrated) {
    const bool two_d = !(c.rows == 1 || c.valid_cols == c.cols);
    return cycles_of([&] {
        if (!two_d) sel_kernel<T, 1, 4096>(1, c.valid_rows * c.valid_cols);
        else if (sizeof(T) == 1) sel_kernel<T, 3, 2688>(c.valid_rows, c.valid_cols);
        else sel_kernel<T, 10, 704>(c.valid_rows, c.valid_cols);
    }, calibrated);
}

void run_sels(std::vector<Point>& pts) {
    for (const SelCase& c : kSelCases) {
        auto run = [&](bool cal) { return c.ty == Dt::F32 ? run_sel<float>(c, cal) : run_sel<int8_t>(c, cal); };
        pts.push_back({"TSEL", dt_name(c.ty), shape_str(c.rows, c.cols, c.valid_rows, c.valid_cols), run(true),
                       sel_formula(c), c.measured, run(false)});
    }
}

template <class T>
double run_case(const Case& c, bool calibrated) {
    const std::string op = c.op;
    const bool two_d = scalar_op(op) ? c.valid_cols != c.cols : !(c.rows == 1 || c.valid_cols == c.cols);
    return cycles_of([&] {
        if (two_d) return a5_kernel<T, 20, 1344>(op, c.valid_rows, c.valid_cols);
        const int n = c.valid_rows * c.valid_cols;
        if (!scalar_op(op)) return a5_kernel<T, 1, 4096>(op, 1, n);
        switch (n) {
            case 64: return a5_kernel<T, 1, 64>(op, 1, n);
            case 128: return a5_kernel<T, 1, 128>(op, 1, n);
            case 192: return a5_kernel<T, 1, 192>(op, 1, n);
            case 320: return a5_kernel<T, 1, 320>(op, 1, n);
            case 640: return a5_kernel<T, 1, 640>(op, 1, n);
            case 1280: return a5_kernel<T, 1, 1280>(op, 1, n);
            default:
                std::fprintf(stderr, "bench_cost_calibration: no 1-row tile of %d columns\n", n);
                std::exit(1);
        }
    }, calibrated);
}

int run(bool all) {
    std::vector<Point> pts;
    for (const Case& c : kCases) {
        auto run = [&](bool cal) { return c.ty == Ty::F32 ? run_case<float>(c, cal) : run_case<half>(c, cal); };
        pts.push_back({c.op, ty_name(c.ty), shape_str(c.rows, c.cols, c.valid_rows, c.valid_cols), run(true),
                       a5_formula(c), c.measured, run(false)});
    }
    run_cvts(pts);
    run_sels(pts);
    print("A5 (profile Ascend950DT): every case of pto-isa's tests/costmodel/st_a5_fit (the fp4 TCVTs and "
          "high-precision TRECIP aside)",
          pts, all);
    return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    const bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
    const ptosim::Status st = ptosim::Device::get().select_soc(kSoc);
    if (!st.ok()) {
        std::fprintf(stderr, "bench_cost_calibration: %s\n", st.message.c_str());
        return 1;
    }
    ptosim_enable_timing(1);
    return run(all);
}
