// Calibrated vector costs: the per-instruction formulas pto-isa publishes
// for A2A3 and A5 (the tables in cost_calibration_a2a3.inc and
// cost_calibration_a5.inc, with their source), applied to ptosim's records.
// docs/cost-model.md, "Per-instruction calibration", says which shape and
// which loop counts each formula takes and what happens between the
// published column classes.
#include <ptosim/cost.hpp>

#include "cost_calibration_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptosim::cost {

namespace {

using calibration::Dt;
using calibration::Kind;
using calibration::kA2A3;
using calibration::kA5;
using calibration::A2A3Row;
using calibration::A5Row;

const char* dt_name(Dt d) {
    switch (d) {
        case Dt::F32: return "fp32";
        case Dt::F16: return "fp16";
        case Dt::BF16: return "bf16";
        case Dt::I8: return "int8";
        case Dt::HiF8: return "hif8";
        case Dt::E4M3: return "fp8_e4m3";
        case Dt::E5M2: return "fp8_e5m2";
        case Dt::E1M2: return "fp4_e1m2";
        case Dt::E2M1: return "fp4_e2m1";
        case Dt::Any: return "any";
        default: return "?";
    }
}

Dt dt_of(const char* name) {
    const std::string_view s(name ? name : "");
    if (s == "float") return Dt::F32;
    if (s == "half") return Dt::F16;
    if (s == "bfloat16_t") return Dt::BF16;
    if (s == "int8_t") return Dt::I8;
    if (s == "hifloat8_t") return Dt::HiF8;
    if (s == "float8_e4m3_t") return Dt::E4M3;
    if (s == "float8_e5m2_t") return Dt::E5M2;
    if (s == "float4_e1m2x2_t") return Dt::E1M2;
    if (s == "float4_e2m1x2_t") return Dt::E2M1;
    return Dt::Other;
}

double round_cycles(double v) { return v <= 0 ? 0 : static_cast<double>(std::llround(v)); }

// The rows of one op, by the name's address (each record of an instruction
// passes the same literal) and then by its text.
template <class Row, size_t N>
const std::vector<const Row*>& rows_of(const Row (&table)[N], const char* op) {
    thread_local std::unordered_map<const char*, std::vector<const Row*>> cache;
    auto [it, fresh] = cache.try_emplace(op);
    if (fresh)
        for (const Row& r : table)
            if (std::strcmp(r.op, op) == 0) it->second.push_back(&r);
    return it->second;
}

// Row and column reductions are fitted over the tile they reduce (the
// source); everything else over the tile it writes.
bool reduces(std::string_view op) {
    const bool row_or_col = op.rfind("TROW", 0) == 0 || op.rfind("TCOL", 0) == 0;
    return row_or_col && op.find("EXPAND") == std::string_view::npos;
}

// ------------------------------------------------------------ A2A3

bool a2a3(const OpRecord& r, double& cycles, std::string* source, bool* interpolated) {
    const auto& rows = rows_of(kA2A3, r.op);
    if (rows.empty()) return false;
    const OpRecord::Shape& sh = reduces(r.op) ? r.src_shape : r.dst_shape;
    if (sh.valid_rows == 0 || sh.valid_cols == 0) return false;
    // The type the formula was fitted for: the tile's (fp32 or fp16 only).
    const Dt dt = dt_of(reduces(r.op) ? r.src_dtype : r.dtype);
    if (dt != Dt::F32 && dt != Dt::F16) return false;
    const double vr = sh.valid_rows, vc = sh.valid_cols;
    // The classes of this type, ascending by columns (the table lists them so).
    const A2A3Row* below = nullptr;
    const A2A3Row* above = nullptr;
    for (const A2A3Row* x : rows) {
        if (x->dt == Dt::Any) {  // one formula for every column count and type
            cycles = round_cycles(x->slope * vr * vc + x->bias);
            if (source) *source = std::string("a2a3 formula ") + r.op + " any type, any cols";
            if (interpolated) *interpolated = false;
            return true;
        }
        if (x->dt != dt) continue;
        if (x->cols == sh.valid_cols) {
            cycles = round_cycles(x->slope * vr * vc + x->bias);
            if (source) *source = std::string("a2a3 formula ") + r.op + " " + dt_name(dt) + " cols=" + std::to_string(x->cols);
            if (interpolated) *interpolated = false;
            return true;
        }
        if (x->cols < sh.valid_cols && (!below || x->cols > below->cols)) below = x;
        if (x->cols > sh.valid_cols && (!above || x->cols < above->cols)) above = x;
    }
    if (!below && !above) return false;
    // Between two classes: the per-row cycles (slope x cols) and the bias
    // linear in the columns. Narrower than the narrowest class: its per-row
    // cycles (a row takes at least one pass). Wider than the widest: its
    // slope per element and its bias.
    double per_row, bias;
    if (below && above) {
        const double t = (vc - below->cols) / double(above->cols - below->cols);
        per_row = below->slope * below->cols + t * (above->slope * above->cols - below->slope * below->cols);
        bias = below->bias + t * (above->bias - below->bias);
    } else if (above) {
        per_row = above->slope * above->cols;
        bias = above->bias;
    } else {
        per_row = below->slope * vc;
        bias = below->bias;
    }
    cycles = round_cycles(per_row * vr + bias);
    if (source) {
        *source = std::string("a2a3 formula ") + r.op + " " + dt_name(dt) + " cols " +
                  (below ? std::to_string(below->cols) : std::string("<")) + ".." +
                  (above ? std::to_string(above->cols) : std::string(">")) + " (interpolated)";
    }
    if (interpolated) *interpolated = true;
    return true;
}

// ------------------------------------------------------------ A2A3 sort unit

// The sort unit's cycles, from pto-isa's per-intrinsic model of A2A3
// (include/pto/costmodel/a2a3/cce_costmodel/cce_costmodel_vector_compute.hpp
// at bd32f495, fp32 measurements on a 910B3 in its comments):
// vbitsort = 16 per repeat of 32 scores + 21 (the trailing pipe_barrier
// included); vmrgsort4 = 78 per repeat + 20, measured with blockLen 64, a
// repeat merging four lists of 32 structures. pto-isa applies the merge's 78
// per repeat whatever the lists' lengths; ptosim scales it by the structures
// a merge writes (78 per 128), so that a merge of four lists of 128 costs
// four times one of four lists of 32: a merge emits its output one structure
// after another (ptosim's choice, not measured). fp16 scores move in the same
// 8-byte structures and take the same figures (not measured).
constexpr double kBitsortPerRepeat = 16, kBitsortHead = 21;
constexpr double kMergePerRepeat = 78, kMergeHead = 20, kMergeStructuresPerRepeat = 128;

double merge_cycles(uint64_t structures) {
    return kMergeHead + kMergePerRepeat * static_cast<double>(structures) / kMergeStructuresPerRepeat;
}

enum class SortOp : uint8_t { None, Vbitsort, Tsort32, Merge };

bool a2a3_sort(SortOp op, const OpRecord& r, double& cycles, std::string* source) {
    if (op == SortOp::None) return false;
    if (op == SortOp::Vbitsort) {
        // One instruction: its records count 32 structures a repeat.
        cycles = round_cycles(kBitsortHead + kBitsortPerRepeat * static_cast<double>(r.elements / 32));
        if (source) *source = "a2a3 intrinsic vbitsort (16 x repeat + 21)";
        return true;
    }
    if (op == SortOp::Tsort32) {
        // pto-isa's TSORT32 issues one vbitsort a row over the row's blocks of
        // 32 (npu/a2a3/TSort32.hpp), so each row pays the head once.
        const uint64_t rows = std::max<uint32_t>(1, r.dst_shape.valid_rows);
        cycles = round_cycles(kBitsortHead * static_cast<double>(rows) +
                              kBitsortPerRepeat * static_cast<double>(r.elements / 32));
        if (source) *source = "a2a3 intrinsic vbitsort per row (16 x blocks + 21)";
        return true;
    }
    // A merge: the records count the structures it writes (every repeat).
    cycles = round_cycles(merge_cycles(r.elements));
    if (source) *source = "a2a3 intrinsic vmrgsort4 (78 per 128 structures + 20)";
    return true;
}

// ------------------------------------------------------------ A2A3 vector intrinsics

// The A2A3 vector intrinsics pto-isa's per-intrinsic model prices from
// measurements (cce_costmodel_vector_compute.hpp at 3186c381: fp32 on a
// 910B3, "measured = slope x repeat + fixed" in its comments, the fixed part
// split there into a head and a tail): cycles = head + slope x repeat +
// tail, and 16 more for the binary ALU ops in counter mode
// (kCountModeFloorCycles, "count-mask dispatch"). vmin takes vmax's figures,
// as pto-isa's model does ("by symmetry"; TMIN was not measured). The repeat
// is what the instruction runs: its elements over a repeat's 256 bytes of
// the element type. ptosim charges the whole fixed part on every call (no
// head saving when the vector queue is busy) and applies the fp32 figures
// to every element type, as pto-isa's model does.
struct IntrinsicFigure {
    const char* op;
    double head, slope, tail;
    bool count_floor;
};
constexpr IntrinsicFigure kA2A3Intrinsics[] = {
    {"vadd", 10, 2, 14, true},   {"vsub", 10, 2, 14, true},   {"vmul", 10, 2, 15, true},
    {"vdiv", 11, 4, 19, true},   {"vmax", 10, 2, 14, true},   {"vmin", 10, 2, 14, true},
    {"vand", 8, 2, 12, true},    {"vor", 8, 2, 12, true},     {"vmuls", 11, 1, 15, false},
    {"vmaxs", 10, 1, 13, false}, {"vexp", 13, 2, 18, false},  {"vln", 13, 2, 20, false},
    {"vlrelu", 11, 1, 15, false}, {"vrelu", 10, 1, 13, false}, {"vrsqrt", 10, 1, 14, false},
};
constexpr double kCountModeFloor = 16;

// What an A2A3 record's name is to the figures above: a sort-unit
// instruction, a measured intrinsic, or neither (the formulas' ops).
struct A2A3Name {
    SortOp sort = SortOp::None;
    const IntrinsicFigure* figure = nullptr;
};
// Keyed by the name's address, as rows_of: every record of an instruction
// passes the same literal, so the engine's hot path compares no strings.
const A2A3Name& a2a3_name(const char* name) {
    thread_local std::unordered_map<const char*, A2A3Name> cache;
    auto [it, fresh] = cache.try_emplace(name);
    if (fresh) {
        const std::string_view op(name ? name : "");
        it->second.sort = op == "vbitsort"                       ? SortOp::Vbitsort
                          : op == "TSORT32"                      ? SortOp::Tsort32
                          : op == "vmrgsort4" || op == "TMRGSORT" ? SortOp::Merge
                                                                 : SortOp::None;
        for (const IntrinsicFigure& f : kA2A3Intrinsics)
            if (op == f.op) it->second.figure = &f;
    }
    return it->second;
}

bool a2a3_intrinsic(const IntrinsicFigure* f, const OpRecord& r, double& cycles, std::string* source) {
    const double e = dtype_bytes(r.dtype);
    if (e <= 0) return false;
    const uint64_t per_repeat = static_cast<uint64_t>(256 / e);
    const uint64_t repeat = per_repeat ? (r.elements + per_repeat - 1) / per_repeat : 0;
    cycles = round_cycles(f->head + f->slope * static_cast<double>(repeat) + f->tail +
                          (f->count_floor && r.counter ? kCountModeFloor : 0));
    if (source) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "a2a3 intrinsic %s (%g x repeat + %g%s)", f->op, f->slope, f->head + f->tail,
                      f->count_floor && r.counter ? ", counter mode +16" : "");
        *source = buf;
    }
    return true;
}

// ------------------------------------------------------------ A5

// Elements one loop (one vector register of 256 bytes) takes, by the type
// pto-isa's A5 model counts them in (its fp8 and hif8 loops count 32-bit lanes).
uint64_t per_loop(Dt d) {
    switch (d) {
        case Dt::F16:
        case Dt::BF16: return 128;
        case Dt::I8:
        case Dt::E1M2:
        case Dt::E2M1: return 256;
        case Dt::F32:
        case Dt::E4M3:
        case Dt::E5M2:
        case Dt::HiF8: return 64;
        default: return 0;
    }
}

bool scalar_op(std::string_view op) {
    return op == "TADDS" || op == "TSUBS" || op == "TMULS" || op == "TDIVS" || op == "TMINS" || op == "TMAXS" ||
           op == "TNEG";
}

bool a5(const OpRecord& r, double& cycles, std::string* source, bool* interpolated) {
    const auto& rows = rows_of(kA5, r.op);
    if (rows.empty()) return false;
    const OpRecord::Shape& sh = r.dst_shape;
    if (sh.valid_rows == 0 || sh.valid_cols == 0) return false;
    const std::string_view op(r.op);
    const bool cvt = op == "TCVT";
    // TCVT is keyed by both types; the others by the destination's.
    const Dt src = cvt ? dt_of(r.src_dtype) : dt_of(r.dtype);
    const Dt dst = cvt ? dt_of(r.dtype) : Dt::None;
    // One run over the valid region when its rows are whole (or there is one
    // row, for the non-scalar ops); else row by row.
    const bool two_d = scalar_op(op) ? sh.valid_cols != sh.cols : !(sh.rows == 1 || sh.valid_cols == sh.cols);
    uint64_t epl = per_loop(src);
    if (cvt) {
        const bool wide16 = src == Dt::F16 || src == Dt::BF16;
        if (wide16 && dst == Dt::F32) epl = 64;
        else if (two_d && ((src == Dt::F32 && (dst == Dt::F16 || dst == Dt::BF16 || dst == Dt::E4M3 || dst == Dt::E5M2 ||
                                               dst == Dt::HiF8)) ||
                           (wide16 && (dst == Dt::F16 || dst == Dt::E1M2 || dst == Dt::E2M1 || dst == Dt::HiF8))))
            epl = 128;
    }
    if (epl == 0) return false;
    const uint64_t vr = sh.valid_rows, vc = sh.valid_cols;
    uint64_t inner, outer;
    if (!two_d) {
        inner = (vr * vc + epl - 1) / epl;
        outer = 1;
    } else {
        inner = (vc + epl - 1) / epl;
        outer = vr;
    }
    // The variant: TRECIP's default precision; TSEL's by element size (and,
    // for 32-bit elements in one run, by the parity of the loop count); TCVT's
    // only measured rounding (round to nearest, saturating).
    std::string_view variant;
    if (op == "TRECIP") variant = "default";
    else if (op == "TSEL") {
        if (src == Dt::F32) variant = two_d ? "TSel_b32" : inner % 2 == 0 ? "TSel_b32_even" : "TSel_b32_odd";
        else variant = "TSel_b16_8";
    } else if (cvt) variant = "CAST_RINT_SAT_ON_normal";
    for (const A5Row* x : rows) {
        if (x->src != src || x->dst != dst || x->two_d != two_d || variant != x->variant) continue;
        const double v = x->kind == Kind::Linear ? x->p0 * double(inner * outer) + x->p1
                                                 : (x->p0 * double(inner) + x->p1) * double(outer) + x->p2;
        cycles = round_cycles(v);
        if (source) {
            *source = std::string("a5 formula ") + r.op + " " + dt_name(src) + (cvt ? std::string("->") + dt_name(dst) : "") +
                      (two_d ? " 2D" : " 1D") + (variant.empty() ? "" : " " + std::string(variant));
        }
        if (interpolated) *interpolated = false;
        return true;
    }
    return false;
}

bool lookup(Calibration c, const OpRecord& r, double& cycles, std::string* source, bool* interpolated) {
    if (r.pipe != Pipe::V && r.pipe != Pipe::V2) return false;
    switch (c) {
        case Calibration::A2A3: {
            const A2A3Name& n = a2a3_name(r.op);
            if (a2a3_sort(n.sort, r, cycles, source) ||
                (n.figure && a2a3_intrinsic(n.figure, r, cycles, source))) {
                if (interpolated) *interpolated = false;
                return true;
            }
            return a2a3(r, cycles, source, interpolated);
        }
        case Calibration::A5: return a5(r, cycles, source, interpolated);
        case Calibration::None: break;
    }
    return false;
}

}  // namespace

bool calibrated_cost(Calibration c, const OpRecord& r, Calibrated& out) {
    return lookup(c, r, out.cycles, &out.source, &out.interpolated);
}

bool calibrated_cycles(Calibration c, const OpRecord& r, double& cycles) { return lookup(c, r, cycles, nullptr, nullptr); }

}  // namespace ptosim::cost
