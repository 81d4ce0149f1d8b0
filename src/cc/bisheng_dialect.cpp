#include "bisheng_dialect.hpp"
#include "rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace ptocc {
namespace {

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

// HEAD's commit from the .git directory (or the gitdir file of a worktree),
// read directly so that no git need be installed.
std::string head_commit(fs::path root) {
    std::error_code ec;
    for (int up = 0; up < 3 && !root.empty(); ++up, root = root.parent_path()) {
        fs::path git = root / ".git";
        if (fs::is_regular_file(git, ec)) {
            const std::string t = trim(read_text(git));
            if (t.rfind("gitdir: ", 0) != 0) return "";
            git = fs::path(t.substr(8));
            if (git.is_relative()) git = root / git;
        }
        if (!fs::is_directory(git, ec)) continue;
        std::string head = trim(read_text(git / "HEAD"));
        if (head.rfind("ref: ", 0) != 0) return head;
        const std::string ref = head.substr(5);
        fs::path common = git;
        if (fs::exists(git / "commondir", ec)) common = git / trim(read_text(git / "commondir"));
        for (const fs::path& d : {git, common})
            if (fs::exists(d / ref, ec)) return trim(read_text(d / ref));
        std::istringstream packed(read_text(common / "packed-refs"));
        for (std::string line; std::getline(packed, line);)
            if (line.size() > 41 && line.compare(41, std::string::npos, ref) == 0) return line.substr(0, 40);
        return "";
    }
    return "";
}

bool replace_all(std::string& s, const std::string& from, const std::string& to) {
    bool any = false;
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
        s.replace(p, from.size(), to);
        any = true;
    }
    return any;
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The operand of a comparison with nullptr that ends just before `end`: a
// postfix chain of names, `.`, `->`, `::`, and balanced (...) or [...]
// groups after a name (`tmpBuf.addr`, `src.data()`, `ctx->buf[i]`). Returns
// its start, or npos when the text before `end` is not such a chain or the
// chain is not a whole operand of `==` (something that binds tighter than
// `==` precedes it, e.g. `a + b == nullptr` or `*p == nullptr`).
size_t null_operand_start(const std::string& line, size_t end) {
    size_t i = end;
    while (i > 0 && line[i - 1] == ' ') --i;
    for (;;) {
        while (i > 0 && (line[i - 1] == ')' || line[i - 1] == ']')) {
            const char close = line[i - 1], open = close == ')' ? '(' : '[';
            int depth = 0;
            size_t j = i;
            for (; j > 0; --j) {
                if (line[j - 1] == close) ++depth;
                if (line[j - 1] == open && --depth == 0) break;
            }
            if (j == 0) return std::string::npos;
            i = j - 1;
        }
        const size_t name_end = i;
        while (i > 0 && is_ident(line[i - 1])) --i;
        if (i == name_end || !is_ident_start(line[i])) return std::string::npos;
        if (i >= 1 && line[i - 1] == '.') { --i; continue; }
        if (i >= 2 && line.compare(i - 2, 2, "->") == 0) { i -= 2; continue; }
        if (i >= 2 && line.compare(i - 2, 2, "::") == 0) {
            i -= 2;
            if (i == 0 || !is_ident(line[i - 1])) break;  // ::name, from the global namespace
            continue;
        }
        break;
    }
    const size_t start = i;
    while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t')) --i;
    if (i == 0) return start;
    const char c = line[i - 1];
    if (c == '(' || c == ',' || c == '?' || c == ';' || c == '{') return start;
    if (c == '&' && i >= 2 && line[i - 2] == '&') return start;
    if (c == '|' && i >= 2 && line[i - 2] == '|') return start;
    if (c == ':' && !(i >= 2 && line[i - 2] == ':')) return start;
    if (c == '=' && !(i >= 2 && std::string("=!<>+-*/%&|^").find(line[i - 2]) != std::string::npos)) return start;
    if (i >= 6 && line.compare(i - 6, 6, "return") == 0 && (i == 6 || !is_ident(line[i - 7]))) return start;
    return std::string::npos;
}

// Where a line's code ends: at a `//` comment outside string and character
// literals, else the line's end. `in_literal` tells whether a position before
// it lies inside such a literal.
size_t code_end(const std::string& line, std::vector<bool>& in_literal) {
    in_literal.assign(line.size(), false);
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        if (quote) {
            in_literal[i] = true;
            if (line[i] == '\\') {
                if (i + 1 < line.size()) in_literal[++i] = true;
            } else if (line[i] == quote) {
                quote = 0;
            }
        } else if (line[i] == '"' || line[i] == '\'') {
            quote = line[i];
            in_literal[i] = true;
        } else if (line.compare(i, 2, "//") == 0) {
            return i;
        }
    }
    return line.size();
}

}  // namespace

// One line with each `X == nullptr` / `X != nullptr` whose left operand X is
// a postfix chain written as ::ptosim_cce::is_null(X) / !::ptosim_cce::is_null(X)
// (cce/null_check.hpp); comparisons it cannot delimit, and text in comments
// and literals, are kept.
std::string rewrite_null_comparisons(const std::string& line) {
    if (line.find("nullptr") == std::string::npos) return line;
    std::string out = line;
    size_t from = 0;
    for (;;) {
        const size_t lit = out.find("nullptr", from);
        if (lit == std::string::npos) return out;
        from = lit + 7;
        std::vector<bool> in_literal;
        if (lit >= code_end(out, in_literal) || in_literal[lit]) continue;
        if ((lit > 0 && is_ident(out[lit - 1])) || (from < out.size() && is_ident(out[from]))) continue;
        size_t op = lit;
        while (op > 0 && out[op - 1] == ' ') --op;
        if (op < 2 || out[op - 1] != '=' || (out[op - 2] != '=' && out[op - 2] != '!')) continue;
        const bool equal = out[op - 2] == '=';
        op -= 2;
        if (op > 0 && std::string("=!<>").find(out[op - 1]) != std::string::npos) continue;  // `<==`...
        const size_t start = null_operand_start(out, op);
        if (start == std::string::npos) continue;
        size_t operand_end = op;
        while (operand_end > start && out[operand_end - 1] == ' ') --operand_end;
        const std::string call = std::string(equal ? "" : "!") + "::ptosim_cce::is_null(" +
                                 out.substr(start, operand_end - start) + ")";
        out = out.substr(0, start) + call + out.substr(from);
        from = start + call.size();
    }
}

// One line: where its statement starts with an element assignment, the
// element wrapped in ::ptosim_cce::store_to. The element is `*name` or
// `name[...]` (one or more balanced subscripts) right after the indentation,
// followed by `=` and not `==`.
std::string wrap_element_store(const std::string& line) {
    size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    const bool deref = i < line.size() && line[i] == '*';
    if (deref) ++i;
    if (i >= line.size() || !is_ident_start(line[i])) return line;
    while (i < line.size() && is_ident(line[i])) ++i;
    static const char* const keywords[] = {"return", "case", "else", "do", "co_return", "co_yield", "throw",
                                           "delete", "new", "goto", "sizeof", "alignof", "decltype", "typename"};
    const std::string name = line.substr(start + (deref ? 1 : 0), i - start - (deref ? 1 : 0));
    for (const char* k : keywords)
        if (name == k) return line;
    if (!deref) {
        if (i >= line.size() || line[i] != '[') return line;
        while (i < line.size() && line[i] == '[') {
            if (i + 1 < line.size() && line[i + 1] == '[') return line;  // an attribute, [[...]]
            int depth = 0;
            for (; i < line.size(); ++i) {
                if (line[i] == '[') ++depth;
                if (line[i] == ']' && --depth == 0) break;
            }
            if (i >= line.size()) return line;
            ++i;
        }
    }
    const size_t end = i;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size() || line[i] != '=' || (i + 1 < line.size() && line[i + 1] == '=')) return line;
    return line.substr(0, start) + "::ptosim_cce::store_to(" + line.substr(start, end - start) + ")" + line.substr(end);
}

std::string wrap_element_stores(const std::string& text, bool& changed) {
    std::string out;
    out.reserve(text.size());
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        const size_t len = (nl == std::string::npos ? text.size() : nl) - pos;
        const std::string line = text.substr(pos, len);
        const std::string wrapped = rewrite_null_comparisons(wrap_element_store(line));
        changed |= wrapped != line;
        out += wrapped;
        if (nl == std::string::npos) break;
        out += '\n';
        pos = nl + 1;
    }
    return out;
}

std::string PtoIsaTree::describe() const {
    return include_dir + (commit.empty() ? " (not a git checkout)" : " (commit " + commit + ")");
}

std::optional<PtoIsaTree> pto_isa_tree(const std::string& include_dir) {
    std::error_code ec;
    if (!fs::exists(fs::path(include_dir) / "pto" / "pto-inst.hpp", ec)) return std::nullopt;
    PtoIsaTree t;
    t.include_dir = fs::absolute(include_dir, ec).lexically_normal().string();
    if (!t.include_dir.empty() && t.include_dir.back() == '/') t.include_dir.pop_back();
    t.commit = head_commit(fs::path(t.include_dir));
    return t;
}

namespace {
constexpr int kTreeSiteBase = 1 << 24;
constexpr int kTreeSitesEach = 1 << 12;
}  // namespace

std::vector<TranslatedHeader> translate_dialect(const std::string& include_dir) {
    std::vector<TranslatedHeader> out;
    std::error_code ec;
    const fs::path root = fs::path(include_dir) / "pto";
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = it->path().extension().string();
        if (ext != ".hpp" && ext != ".h" && ext != ".inl") continue;
        std::string text = read_text(it->path());
        bool changed = replace_all(text, "[aicore]", "");
        changed |= replace_all(text, "__gm__ char", "char");
        text = wrap_element_stores(text, changed);
        std::string line_path = fs::absolute(it->path(), ec).string();
        std::string quoted;
        for (char c : line_path) {
            if (c == '\\' || c == '"') quoted += '\\';
            quoted += c;
        }
        out.push_back({fs::relative(it->path(), include_dir, ec).string(), "#line 1 \"" + quoted + "\"\n" + text,
                       changed});
    }
    std::sort(out.begin(), out.end(),
              [](const TranslatedHeader& a, const TranslatedHeader& b) { return a.relative < b.relative; });
    // Launches in the tree's headers (pto/npu/kernels/Pto_prefetch.hpp's
    // PTO_PREFETCH_AIV<<<...>>>): bisheng compiles them wherever they are,
    // so the copy holds them rewritten as a user's own are. Each header's
    // sites are numbered in a range of its own, far above any unit's own
    // sites, and a unit without launches of its own gets a unit id here.
    int rewritten = 0;
    for (TranslatedHeader& h : out) {
        if (!has_launch_syntax(h.text)) continue;
        const size_t body = h.text.find('\n') + 1;  // past translate's own #line
        const std::string original = (fs::path(include_dir) / h.relative).string();
        RewriteResult r = rewrite_launches(h.text.substr(body), original, false, kTreeSiteBase + kTreeSitesEach * rewritten);
        if (!r.errors.empty() || r.launches == 0) continue;  // a launch in a macro: clang reports it where used
        ++rewritten;
        h.text = "#ifndef PTOCC_TU_ID\n#define PTOCC_TU_ID 0ull\n#endif\n" + r.text;
        h.translated = true;
    }
    return out;
}

}  // namespace ptocc
