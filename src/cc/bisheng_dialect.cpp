#include "bisheng_dialect.hpp"

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

}  // namespace

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
        const std::string wrapped = wrap_element_store(line);
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
    return out;
}

}  // namespace ptocc
