#include "kind.hpp"

#include <cctype>
#include <cstdlib>
#include <string_view>

namespace ptocc {

namespace {

// PTO instructions that only one core type executes. TLOAD, TSTORE, TMOV,
// TASSIGN and the synchronisation instructions run on both and tell nothing.
const std::set<std::string_view> kCubeOps = {
    "TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TMATMUL_MX", "TGEMV", "TGEMV_ACC", "TGEMV_BIAS", "TGEMV_MX",
    "TEXTRACT", "TEXTRACT_FP", "TIMG2COL", "TSETFMATRIX", "TSET_IMG2COL_RPT", "TSET_IMG2COL_PADDING", "TINSERT_FP",
    "TMOV_FP", "TSTORE_FP", "TGET_SCALE_ADDR",
    // CCE intrinsics of the Cube core.
    "mad", "mad_mx", "mmad", "set_fmatrix", "load_2d", "load_2dv2"};
const std::vector<std::string_view> kCubePrefixes = {"load_cbuf_to_", "load_gm_to_c", "copy_gm_to_cbuf",
                                                     "copy_matrix_cc_to_", "img2col_cbuf", "load_3d",
                                                     "copy_cbuf_to_"};
// Instructions that only exist between a Cube core and its Vector cores: a
// TPipe's TPUSH/TPOP, A5's intra-block flags (mix launches only,
// docs/isa/sync.md) and A5's moves from one core's buffer into the other's
// (L1 <-> UB, L0C -> UB). A kernel calling one has both sides.
const std::set<std::string_view> kCrossCoreOps = {"TPUSH",           "TPOP",           "set_intra_block",
                                                  "wait_intra_block", "copy_cbuf_to_ubuf", "copy_ubuf_to_cbuf",
                                                  "copy_matrix_cc_to_ub"};
const std::set<std::string_view> kVecOps = {
    // elementwise
    "TADD", "TADDS", "TMULS", "TSUB", "TMUL", "TDIV", "TMAX", "TMIN", "TAND", "TOR", "TXOR", "TSHL", "TSHR", "TREM",
    "TFMOD", "TPRELU", "TADDC", "TSUBC", "TSUBS", "TDIVS", "TMAXS", "TMINS", "TANDS", "TORS", "TXORS", "TSHLS",
    "TSHRS", "TREMS", "TFMODS", "TLRELU", "TADDSC", "TSUBSC", "TEXPANDS", "TAXPY", "TABS", "TNEG", "TNOT", "TRELU",
    "TEXP", "TLOG", "TSQRT", "TRSQRT", "TRECIP", "TCVT", "TPACK", "TPOW", "TPOWS", "TMULADDDST", "TFUSEDMULADD",
    "TFUSEDMULADDRELU", "TSUBRELU", "TPAIRREDUCESUM", "TRANDOM",
    // gather, scatter, layout
    "TGATHERB", "TSCATTER", "MGATHER", "MSCATTER", "TCONCAT", "TINTERLEAVE", "TDEINTERLEAVE", "TCMP", "TCMPS", "TSEL",
    "TSELS", "TFILLPAD", "TFILLPAD_INPLACE", "TFILLPAD_EXPAND", "TTRANS", "TGATHER", "TCI", "TTRI", "TDEQUANT",
    "TQUANT",
    // reductions and expansions
    "TROWSUM", "TROWMAX", "TROWMIN", "TROWPROD", "TROWARGMAX", "TROWARGMIN", "TCOLARGMAX", "TCOLARGMIN", "TCOLSUM",
    "TCOLMAX", "TCOLMIN", "TCOLPROD", "TROWEXPAND", "TCOLEXPAND", "TROWEXPANDADD", "TROWEXPANDSUB", "TROWEXPANDMUL",
    "TROWEXPANDDIV", "TROWEXPANDMAX", "TROWEXPANDMIN", "TROWEXPANDEXPDIF", "TCOLEXPANDADD", "TCOLEXPANDSUB",
    "TCOLEXPANDMUL", "TCOLEXPANDDIV", "TCOLEXPANDMAX", "TCOLEXPANDMIN", "TCOLEXPANDEXPDIF", "TPARTADD", "TPARTMUL",
    "TPARTMAX", "TPARTMIN", "TPARTARGMAX", "TPARTARGMIN", "TSORT32", "TMRGSORT",
    // CCE intrinsics of the Vector core.
    "vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor", "vnot", "vabs", "vexp", "vln", "vrelu", "vsqrt",
    "vrsqrt", "vrec", "vadds", "vmuls", "vmaxs", "vmins", "vaxpy", "vmla", "vmadd", "vmaddrelu", "vlrelu", "vaddrelu",
    "vsubrelu", "vsel", "vector_dup", "vcadd", "vcmax", "vcmin", "vcgadd", "vcgmax", "vcgmin", "vbrcb", "vtranspose",
    "vgather", "vscatter", "vshl", "vshr", "vreduce", "vreducev2", "vcpadd", "set_vector_mask", "set_mask_norm",
    "set_mask_count"};
const std::vector<std::string_view> kVecPrefixes = {"vconv_", "vcmp_", "vcmpv_", "copy_gm_to_ubuf", "copy_ubuf_to_"};
// Buffers of one core type: tile types (the last two components of a
// qualified name) and CCE address spaces.
const std::set<std::string_view> kCubeTiles = {"TileType::Mat",  "TileType::Left", "TileType::Right",
                                               "TileType::Acc",  "TileType::Bias", "TileType::Scaling",
                                               "TileLeft",       "TileRight",      "TileAcc",
                                               "TileMat",        "__cbuf__",       "__ca__",
                                               "__cb__",         "__cc__",         "__fbuf__"};
const std::set<std::string_view> kVecTiles = {"TileType::Vec", "__ubuf__"};

bool has_prefix(std::string_view s, const std::vector<std::string_view>& prefixes) {
    for (std::string_view p : prefixes)
        if (s.size() > p.size() - 1 && s.substr(0, p.size()) == p) return true;
    return false;
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The user's code lines of a preprocessed text, comments and literals blanked.
std::string user_code(const std::string& text, const std::function<bool(const std::string&, bool)>& is_user) {
    std::string out;
    bool user = true;
    size_t pos = 0;
    bool in_block_comment = false;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        std::string_view line(text.data() + pos, eol - pos);
        pos = eol + 1;
        size_t i = 0;
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (!in_block_comment && i < line.size() && line[i] == '#') {
            // A line marker: # <line> "<file>" flags... (other directives: #pragma, kept out)
            size_t q = line.find('"');
            size_t d = i + 1;
            while (d < line.size() && line[d] == ' ') ++d;
            if (q != std::string_view::npos && d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) {
                size_t q2 = line.find('"', q + 1);
                while (q2 != std::string_view::npos && line[q2 - 1] == '\\') q2 = line.find('"', q2 + 1);
                if (q2 != std::string_view::npos) {
                    std::string file(line.substr(q + 1, q2 - q - 1));
                    bool system = false;
                    std::string_view flags = line.substr(q2 + 1);
                    for (size_t k = 0; k < flags.size(); ++k)
                        if (flags[k] == '3' && (k == 0 || flags[k - 1] == ' ')) system = true;
                    user = !file.empty() && file[0] != '<' && is_user(file, system);
                }
            }
            continue;
        }
        if (!user) continue;
        // Blank comments and literals, keeping tokens apart.
        std::string l;
        for (size_t k = 0; k < line.size(); ++k) {
            char c = line[k];
            if (in_block_comment) {
                if (c == '*' && k + 1 < line.size() && line[k + 1] == '/') in_block_comment = false, ++k;
                continue;
            }
            if (c == '/' && k + 1 < line.size() && line[k + 1] == '/') break;
            if (c == '/' && k + 1 < line.size() && line[k + 1] == '*') {
                in_block_comment = true;
                ++k;
                l += ' ';
                continue;
            }
            if (c == '"' || c == '\'') {
                const char quote = c;
                for (++k; k < line.size() && line[k] != quote; ++k)
                    if (line[k] == '\\') ++k;
                l += ' ';
                continue;
            }
            l += c;
        }
        out += l;
        out += '\n';
    }
    return out;
}

std::optional<Kind> kernel_type_kind(std::string_view t, bool& unsupported) {
    unsupported = false;
    if (t == "KERNEL_TYPE_AIV_ONLY" || t == "KERNEL_TYPE_MIX_AIV_1_0") return Kind::Vec;
    if (t == "KERNEL_TYPE_AIC_ONLY" || t == "KERNEL_TYPE_MIX_AIC_1_0") return Kind::Cube;
    if (t == "KERNEL_TYPE_MIX_AIC_1_2") return Kind::Mix;
    if (t == "KERNEL_TYPE_MIX_AIC_1_1" || t == "KERNEL_TYPE_AICORE" || t == "KERNEL_TYPE_VECTORCORE" ||
        t == "KERNEL_TYPE_MIX_AICORE" || t == "KERNEL_TYPE_MIX_VECTOR_CORE")
        unsupported = true;
    return std::nullopt;
}

const char* kind_name(Kind k) { return k == Kind::Vec ? "Vector-only" : k == Kind::Cube ? "Cube-only" : "mix"; }

std::string first(const std::set<std::string>& s) { return s.empty() ? "" : *s.begin(); }

}  // namespace

KindScan scan_kind(const std::string& preprocessed, const std::function<bool(const std::string&, bool)>& is_user) {
    KindScan scan;
    const std::string code = user_code(preprocessed, is_user);
    size_t i = 0;
    while (i < code.size()) {
        if (!ident_start(code[i])) {
            ++i;
            continue;
        }
        // A (possibly qualified) name: a::b::c.
        std::vector<std::string_view> parts;
        for (;;) {
            size_t s = i;
            while (i < code.size() && ident_char(code[i])) ++i;
            parts.emplace_back(code.data() + s, i - s);
            size_t j = i;
            while (j < code.size() && (code[j] == ' ' || code[j] == '\t')) ++j;
            if (j + 2 < code.size() && code[j] == ':' && code[j + 1] == ':') {
                size_t k = j + 2;
                while (k < code.size() && (code[k] == ' ' || code[k] == '\t')) ++k;
                if (k < code.size() && ident_start(code[k])) {
                    i = k;
                    continue;
                }
            }
            break;
        }
        const std::string last(parts.back());
        const std::string last2 = parts.size() >= 2 ? std::string(parts[parts.size() - 2]) + "::" + last : last;
        // What follows the name: a call's '(' makes it an instruction use.
        size_t j = i;
        while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
        const bool call = j < code.size() && (code[j] == '(' || code[j] == '<');
        if (call && (kCubeOps.count(last) || has_prefix(last, kCubePrefixes))) scan.cube_ops.insert(last);
        if (call && (kVecOps.count(last) || has_prefix(last, kVecPrefixes))) scan.vec_ops.insert(last);
        if (call && kCrossCoreOps.count(last)) scan.pipe_ops.insert(last);
        if (kCubeTiles.count(last2) || kCubeTiles.count(last)) scan.cube_tiles.insert(kCubeTiles.count(last2) ? last2 : last);
        if (kVecTiles.count(last2) || kVecTiles.count(last)) scan.vec_tiles.insert(kVecTiles.count(last2) ? last2 : last);
        if (last == "__global__") ++scan.kernels;
        if (last == "__vector__" || last == "__aiv__") scan.marks.push_back({Kind::Vec, last});
        if (last == "__cube__" || last == "__aic__") scan.marks.push_back({Kind::Cube, last});
        if (last == "__mix__" && j < code.size() && code[j] == '(') {
            size_t close = code.find(')', j);
            std::string args = code.substr(j + 1, close == std::string::npos ? 0 : close - j - 1);
            std::string a, b;
            size_t comma = args.find(',');
            auto trim = [](std::string s) {
                size_t x = s.find_first_not_of(" \t\n"), y = s.find_last_not_of(" \t\n");
                return x == std::string::npos ? std::string() : s.substr(x, y - x + 1);
            };
            if (comma != std::string::npos) a = trim(args.substr(0, comma)), b = trim(args.substr(comma + 1));
            const std::string text = "__mix__(" + a + ", " + b + ")";
            if (a == "1" && b == "0") scan.marks.push_back({Kind::Cube, text});
            else if (a == "0" && b == "1") scan.marks.push_back({Kind::Vec, text});
            else if (a == "1" && b == "2") scan.marks.push_back({Kind::Mix, text});
            else scan.bad_marks.push_back(text);
        }
        if (last.rfind("KERNEL_TYPE_", 0) == 0) {
            bool unsupported = false;
            if (auto k = kernel_type_kind(last, unsupported)) scan.marks.push_back({*k, last});
            else if (unsupported) scan.bad_marks.push_back(last);
        }
    }
    return scan;
}

KindDecision decide_kind(const KindScan& cube, const KindScan& vec) {
    KindDecision d;
    if (!cube.bad_marks.empty()) {
        d.error = "the kernel is marked " + cube.bad_marks.front() +
                  ", a kernel type ptosim does not run (it runs Vector-only, Cube-only and mix 1:2 kernels); use "
                  "KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY or KERNEL_TYPE_MIX_AIC_1_2 (__vector__, __cube__, "
                  "__mix__(1, 2))";
        return d;
    }
    // An explicit kernel type wins (CANN: KERNEL_TASK_TYPE_DEFAULT, __vector__, __cube__, __mix__).
    if (!cube.marks.empty()) {
        for (const auto& m : cube.marks)
            if (m.first != cube.marks.front().first) {
                d.error = "the translation unit marks kernels both " + cube.marks.front().second + " and " + m.second +
                          "; ptocc builds one kernel type per translation unit: put them in separate sources or "
                          "build each with --cce-aicore-arch=<arch>-vec or -cube";
                return d;
            }
        d.kind = cube.marks.front().first;
        d.why = std::string("marked ") + cube.marks.front().second;
        return d;
    }
    // TPUSH and TPOP move tiles through a TPipe, whose every direction
    // (and so do the other cross-core instructions of kCrossCoreOps)
    // (pto-isa's Direction: DIR_C2V, DIR_V2C, DIR_BOTH) runs between the
    // Cube and the Vector core: the kernel has both sides, whichever
    // instructions its `if constexpr` branches hide from a directives-only
    // scan (pto-isa's tpushpop_mixed_tile_size selects its sides with
    // `if constexpr (DAV_VEC)`, and its Vector side has no Vector-only
    // instruction).
    for (const KindScan* s : {&cube, &vec})
        if (!s->pipe_ops.empty()) {
            d.kind = Kind::Mix;
            d.why = "Cube-Vector instruction " + first(s->pipe_ops) + " in the " +
                    (s == &cube ? "Cube" : "Vector") + " variant";
            return d;
        }
    bool c = !cube.cube_ops.empty(), v = !vec.vec_ops.empty();
    std::string evidence;
    if (c || v) {
        if (c) evidence = "Cube instruction " + first(cube.cube_ops) + " in the Cube variant";
        if (v) evidence += std::string(c ? ", " : "") + "Vector instruction " + first(vec.vec_ops) + " in the Vector variant";
    } else {
        // Only data movement: the buffers it uses tell the core (UB: Vector; L1, L0: Cube).
        c = !cube.cube_tiles.empty();
        v = !vec.vec_tiles.empty();
        if (c) evidence = "Cube buffer " + first(cube.cube_tiles) + " in the Cube variant";
        if (v) evidence += std::string(c ? ", " : "") + "Vector buffer " + first(vec.vec_tiles) + " in the Vector variant";
    }
    if (c || v) {
        d.kind = c && v ? Kind::Mix : c ? Kind::Cube : Kind::Vec;
        d.why = evidence;
        return d;
    }
    if (cube.kernels == 0 && vec.kernels == 0) {
        d.no_kernel = true;
        d.kind = Kind::Mix;
        d.why = "no kernel (__global__) in the translation unit";
        return d;
    }
    d.error = "cannot tell the kernel type: the kernel uses no Cube or Vector instruction or buffer (a scalar-only "
              "kernel, which bisheng does not infer either); mark it __vector__ (or __cube__, __mix__(1, 2)), call "
              "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY), or build with --cce-aicore-arch=<arch>-vec or -cube";
    return d;
}

const char* kind_description(Kind k) { return kind_name(k); }

}  // namespace ptocc
