#include "cce_direct.hpp"

#include <array>
#include <functional>
#include <tuple>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace ptocc {
namespace fs = std::filesystem;

namespace {

// Intrinsics bisheng declares for A2A3 kernels (CANN's CCE intrinsic
// reference; ptosim's layer: include/cce/a2a3) that only a kernel written on
// them calls: the DMA, the vector unit's instructions and registers, the
// cube's loads, mad and the fixpipe, atomics. A kernel calling none of them
// is left to ptolab's headers as before.
// Every intrinsic ptosim's layer declares by name (generated from its headers)
// and those it declares through macros of other shapes.
constexpr std::array kExact = {
#include "cce_intrinsic_names.inc"
    "copy_gm_to_ubuf", "copy_ubuf_to_gm", "copy_ubuf_to_ubuf", "copy_gm_to_cbuf", "copy_cbuf_to_ubuf",
    "set_vector_mask", "set_mask_norm", "set_mask_count", "vector_dup", "set_ctrl", "get_ctrl",
    "set_cmpmask", "set_deqscale", "set_va_reg_sb", "mad", "load_gm_to_cbuf", "load_cbuf_to_ca",
    "load_cbuf_to_cb", "copy_matrix_cc_to_gm", "copy_matrix_cc_to_cbuf", "set_fmatrix", "set_nd_para",
    "set_fpc", "set_quant_pre", "vbitsort", "vmrgsort4", "vbrcb", "vadd", "vsub", "vmul", "vdiv",
    "vmax", "vmin", "vadds", "vmuls", "vmaxs", "vmins", "vand", "vor", "vnot", "vexp", "vln", "vabs",
    "vrelu", "vlrelu", "vsqrt", "vrsqrt", "vrec", "vsel", "vcadd", "vcmax", "vcmin", "vcgadd", "vcgmax",
    "vcgmin", "vcopy", "vgather", "vgatherb", "vreducev2", "vaxpy", "vmla", "vshl", "vshr", "vtranspose",
};
constexpr std::array kPrefixes = {"copy_gm_to_ubuf_", "copy_ubuf_to_gm_", "vconv_", "vcmp_", "vcmpv_"};

// Comments, string and character literals blanked, so that neither a
// commented-out call nor a message counts; line structure kept.
std::string code_only(const std::string& t) {
    std::string out = t;
    for (size_t i = 0; i < t.size(); ++i) {
        if (t.compare(i, 2, "//") == 0) {
            for (; i < t.size() && t[i] != '\n'; ++i) out[i] = ' ';
        } else if (t.compare(i, 2, "/*") == 0) {
            const size_t end = t.find("*/", i + 2);
            const size_t stop = end == std::string::npos ? t.size() : end + 2;
            for (; i < stop; ++i)
                if (t[i] != '\n') out[i] = ' ';
            --i;
        } else if (t[i] == '"' || t[i] == '\'') {
            const char q = t[i];
            for (++i; i < t.size() && t[i] != q && t[i] != '\n'; ++i) {
                if (t[i] == '\\') out[i++] = ' ';
                if (i < t.size()) out[i] = ' ';
            }
        }
    }
    return out;
}

bool is_intrinsic(std::string_view id) {
    for (const char* e : kExact)
        if (id == e) return true;
    for (const char* p : kPrefixes)
        if (id.substr(0, std::string_view(p).size()) == p) return true;
    return false;
}

// The first identifier of `code` that is an intrinsic followed by '(' (or by
// template arguments), "" if none.
std::string first_intrinsic_call(const std::string& code) {
    const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < code.size();) {
        if (!ident(code[i]) || std::isdigit(static_cast<unsigned char>(code[i]))) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < code.size() && ident(code[j])) ++j;
        const bool member = i > 0 && (code[i - 1] == '.' || (code[i - 1] == '>' && i > 1 && code[i - 2] == '-'));
        size_t k = j;
        while (k < code.size() && (code[k] == ' ' || code[k] == '\t')) ++k;
        if (!member && k < code.size() && (code[k] == '(' || code[k] == '<') &&
            is_intrinsic(std::string_view(code).substr(i, j - i)))
            return code.substr(i, j - i);
        i = j;
    }
    return "";
}

struct Include {
    std::string name;
    bool quoted;
};

std::vector<Include> includes_of(const std::string& code, const std::string& text) {
    std::vector<Include> out;
    std::istringstream lines(code), raw(text);
    for (std::string line, rawline; std::getline(lines, line) && std::getline(raw, rawline);) {
        size_t p = line.find_first_not_of(" \t");
        if (p == std::string::npos || line[p] != '#') continue;
        p = line.find_first_not_of(" \t", p + 1);
        if (p == std::string::npos || line.compare(p, 7, "include") != 0) continue;
        // The name itself was blanked with the strings: read it from the text.
        const size_t open = rawline.find_first_of("<\"", p + 7);
        if (open == std::string::npos) continue;
        const size_t close = rawline.find(rawline[open] == '<' ? '>' : '"', open + 1);
        if (close == std::string::npos) continue;
        out.push_back({rawline.substr(open + 1, close - open - 1), rawline[open] == '"'});
    }
    return out;
}

// PTO's own API used without an #include of it (ptolab's builds put its
// headers in front of every kernel): such code is no kernel on the
// intrinsics alone.
bool uses_pto_api(const std::string& code) {
    for (const char* word : {"TASSIGN", "TLOAD", "TSTORE", "GlobalTensor", "TileType", "pto::"})
        if (code.find(word) != std::string::npos) return true;
    return false;
}

bool names_pto(const std::string& header) {
    return header.rfind("pto/", 0) == 0 || header == "kernel_operator.h" || header == "pto-inst.hpp";
}

}  // namespace

namespace {

// Visits `source` and each user header it includes once (found beside the
// including file or in `user_dirs`, in that order; `found_in` is the
// directory it was found in, "" for the source): `visit` returns false to
// stop. A PTO header's name calls `on_pto` instead (false stops).
void walk_user_includes(const std::string& source, const std::string& text, const std::vector<std::string>& user_dirs,
                        const std::function<bool(const std::string&, const std::string&, const std::string&,
                                                 const std::string&)>& visit,
                        const std::function<bool()>& on_pto) {
    std::set<std::string> seen;
    // Depth first, in include order: the order the compiler reads them.
    std::vector<std::tuple<std::string, std::string, std::string>> todo = {{source, text, ""}};
    while (!todo.empty()) {
        auto [path, body, found_in] = std::move(todo.back());
        todo.pop_back();
        const std::string code = code_only(body);
        if (!visit(path, body, code, found_in)) return;
        std::vector<std::tuple<std::string, std::string, std::string>> next;
        for (const Include& inc : includes_of(code, body)) {
            if (names_pto(inc.name)) {
                if (!on_pto()) return;
                continue;
            }
            std::vector<std::string> dirs;
            if (inc.quoted) dirs.push_back(fs::path(path).parent_path().string());
            dirs.insert(dirs.end(), user_dirs.begin(), user_dirs.end());
            for (const std::string& d : dirs) {
                std::error_code ec;
                const fs::path candidate = fs::weakly_canonical(fs::path(d) / inc.name, ec);
                if (ec || !fs::is_regular_file(candidate, ec)) continue;
                if (seen.insert(candidate.string()).second) {
                    std::ifstream f(candidate, std::ios::binary);
                    std::ostringstream ss;
                    ss << f.rdbuf();
                    next.emplace_back(candidate.string(), ss.str(), d);
                }
                break;
            }
        }
        todo.insert(todo.end(), std::make_move_iterator(next.rbegin()), std::make_move_iterator(next.rend()));
    }
}

}  // namespace

CceDirectScan scan_cce_direct(const std::string& source, const std::string& text,
                              const std::vector<std::string>& user_dirs) {
    CceDirectScan scan;
    walk_user_includes(
        source, text, user_dirs,
        [&](const std::string& path, const std::string&, const std::string& code, const std::string&) {
            if (uses_pto_api(code)) {
                scan.includes_pto = true;
                return false;
            }
            if (scan.intrinsic.empty()) {
                scan.intrinsic = first_intrinsic_call(code);
                if (!scan.intrinsic.empty()) scan.where = path;
            }
            return true;
        },
        [&] {
            scan.includes_pto = true;
            return false;
        });
    return scan;
}

std::vector<UserHeader> user_headers(const std::string& source, const std::string& text,
                                     const std::vector<std::string>& user_dirs) {
    std::vector<UserHeader> out;
    walk_user_includes(
        source, text, user_dirs,
        [&](const std::string& path, const std::string& body, const std::string&, const std::string& found_in) {
            if (!found_in.empty()) out.push_back({path, body, found_in});
            return true;
        },
        [] { return true; });
    return out;
}

}  // namespace ptocc
