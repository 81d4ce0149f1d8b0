#include "bisheng_dialect.hpp"

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

}  // namespace

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
        if (ext != ".hpp" && ext != ".h") continue;
        std::string text = read_text(it->path());
        bool changed = replace_all(text, "[aicore]", "");
        changed |= replace_all(text, "__gm__ char", "char");
        if (!changed) continue;
        std::string line_path = fs::absolute(it->path(), ec).string();
        std::string quoted;
        for (char c : line_path) {
            if (c == '\\' || c == '"') quoted += '\\';
            quoted += c;
        }
        out.push_back({fs::relative(it->path(), include_dir, ec).string(), "#line 1 \"" + quoted + "\"\n" + text});
    }
    return out;
}

}  // namespace ptocc
