// Diagnostics post-processing. The compiler's output is read as GCC and clang
// print it: groups made of an optional include chain ("In file included
// from"), context lines ("f.cpp: In function 'g':"), instantiation frames
// ("f.cpp:3:5:   required from here"), one error or warning line, then its
// source snippet and notes. Only located lines are changed; anything else
// (snippets, JSON output, a linker's messages) passes through.
#include "diagnostics.hpp"

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace ptocc {
namespace {

namespace fs = std::filesystem;

// SGR colour sequences (-fdiagnostics-color) removed, for classifying only.
std::string plain(const std::string& s) {
    std::string r;
    r.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
            size_t j = i + 2;
            while (j < s.size() && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';')) ++j;
            if (j < s.size() && (s[j] == 'm' || s[j] == 'K')) {
                i = j;
                continue;
            }
        }
        r += s[i];
    }
    return r;
}

bool digits(std::string_view s, size_t b, size_t e) {
    if (b >= e) return false;
    for (size_t k = b; k < e; ++k)
        if (s[k] < '0' || s[k] > '9') return false;
    return true;
}

// "file:line:col: rest" or "file:line: rest".
struct Loc {
    std::string file;
    long line = 0, col = 0;  // col 0: none printed
    size_t rest = 0;          // offset of what follows "...: "
    size_t text_len = 0;      // length of "file:line:col"
};

bool parse_loc(const std::string& s, Loc& loc) {
    if (s.empty() || s[0] == ' ' || s[0] == '\t') return false;
    for (size_t i = s.find(':'); i != std::string::npos && i > 0; i = s.find(':', i + 1)) {
        size_t a = i + 1, b = a;
        while (b < s.size() && s[b] >= '0' && s[b] <= '9') ++b;
        if (!digits(s, a, b) || b - a > 9 || b >= s.size() || s[b] != ':') continue;
        size_t c = b + 1, d = c;
        while (d < s.size() && s[d] >= '0' && s[d] <= '9') ++d;
        loc.file = s.substr(0, i);
        loc.line = std::stol(s.substr(a, b - a));
        if (digits(s, c, d) && d - c <= 9 && d < s.size() && s[d] == ':') {
            loc.col = std::stol(s.substr(c, d - c));
            loc.text_len = d;
        } else {
            loc.col = 0;
            loc.text_len = b;
        }
        size_t r = loc.text_len + 1;
        if (r < s.size() && s[r] != ' ') continue;  // "a:1:b" inside a message, not a location
        loc.rest = r < s.size() ? r + 1 : s.size();
        return true;
    }
    return false;
}

enum class Kind { Other, Include, Context, Frame, Primary, Note };

struct Line {
    std::string raw, text;  // as printed, and without colours
    Kind kind = Kind::Other;
    Loc loc;
    std::string severity;  // "error", "fatal error", "warning" for Primary
};

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

Line classify(const std::string& raw) {
    Line l;
    l.raw = raw;
    l.text = plain(raw);
    const std::string& t = l.text;
    if (starts(t, "In file included from ")) {
        l.kind = Kind::Include;
        return l;
    }
    size_t ns = t.find_first_not_of(' ');
    if (ns != std::string::npos && ns > 0 && starts(std::string_view(t).substr(ns), "from ") &&
        (t.back() == ',' || t.back() == ':')) {
        l.kind = Kind::Include;
        return l;
    }
    if (parse_loc(t, l.loc)) {
        std::string_view rest = std::string_view(t).substr(l.loc.rest);
        for (const char* sev : {"fatal error", "error", "warning"})
            if (starts(rest, std::string(sev) + ": ")) {
                l.kind = Kind::Primary;
                l.severity = sev;
                return l;
            }
        l.kind = starts(rest, "note: ") ? Kind::Note : Kind::Frame;
        return l;
    }
    // "f.cpp: In function 'g':", "f.cpp: At global scope:"
    size_t c = t.find(": In ");
    if (c == std::string::npos) c = t.find(": At ");
    if (c != std::string::npos && c > 0 && !t.empty() && t.back() == ':' && t[0] != ' ') l.kind = Kind::Context;
    return l;
}

// The file named by the last line of an include chain ("from f.cpp:1:").
std::string chain_bottom(const Line& l) {
    std::string t = l.text;
    size_t f = t.find("from ");
    if (f == std::string::npos) return {};
    t = t.substr(f + 5);
    if (!t.empty()) t.pop_back();  // ':' or ','
    size_t c = t.rfind(':');
    return c == std::string::npos ? t : t.substr(0, c);
}

bool under(const std::string& file, const std::string& dir) {
    if (dir.empty()) return false;
    std::string d = fs::path(dir).lexically_normal().string();
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    const std::string f = fs::path(file).lexically_normal().string();
    return f.size() > d.size() && f.compare(0, d.size(), d) == 0 && f[d.size()] == '/';
}

bool foreign(const std::string& file, const DiagnosticContext& ctx) {
    if (file.empty() || file[0] == '<' || starts(file, "/usr/")) return true;
    for (const std::string& d : ctx.foreign_dirs) {
        if (under(file, d)) return true;
        std::error_code ec;
        const fs::path canon = fs::weakly_canonical(d, ec);
        if (!ec && under(file, canon.string())) return true;
    }
    return false;
}

// Display column (1-based) of byte `b` (0-based) of `line`, and back.
long display_of(const std::string& line, size_t b, bool display) {
    if (!display) return static_cast<long>(b) + 1;
    long col = 1;
    for (size_t k = 0; k < b && k < line.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(line[k]);
        if (c == '\t') col = ((col - 1) / 8 + 1) * 8 + 1;
        else if ((c & 0xc0) != 0x80) ++col;
    }
    if (b > line.size()) col += static_cast<long>(b - line.size());
    return col;
}

size_t byte_of(const std::string& line, long col, bool display) {
    if (!display) return col > 0 ? static_cast<size_t>(col - 1) : 0;
    for (size_t k = 0; k <= line.size(); ++k)
        if (display_of(line, k, true) >= col) return k;
    return line.size() + static_cast<size_t>(col - display_of(line, line.size(), true));
}

long map_column(const MovedColumns& m, long line, long col, bool display) {
    auto it = m.columns.find(static_cast<int>(line));
    if (it == m.columns.end() || col <= 0 || it->second.empty()) return col;
    const std::string& out = m.out_lines.at(static_cast<int>(line));
    const std::string& src = m.src_lines.at(static_cast<int>(line));
    size_t b = byte_of(out, col, display);
    const std::vector<int>& cols = it->second;
    size_t src_byte = b < cols.size() ? static_cast<size_t>(cols[b] - 1) : static_cast<size_t>(cols.back());
    return display_of(src, src_byte, display);
}

std::string located(const Loc& loc) {
    std::string s = loc.file + ":" + std::to_string(loc.line);
    if (loc.col > 0) s += ":" + std::to_string(loc.col);
    return s;
}

bool is_snippet(const std::string& t) {
    size_t bar = t.find(" | ");
    if (bar == std::string::npos) bar = t.find(" |");
    if (bar == std::string::npos) return false;
    for (size_t k = 0; k < bar; ++k)
        if (t[k] != ' ' && (t[k] < '0' || t[k] > '9')) return false;
    return true;
}

// Maps the column of a located line on a rewritten launch line, and puts the
// caret under the mapped column in the snippet that follows.
void remap(std::vector<Line>& lines, size_t i, const DiagnosticContext& ctx) {
    Line& l = lines[i];
    auto it = ctx.rewritten.find(l.loc.file);
    if (it == ctx.rewritten.end() || l.loc.col <= 0) return;
    const long col = map_column(it->second, l.loc.line, l.loc.col, ctx.display_columns);
    if (col == l.loc.col) return;
    const std::string before = located(l.loc) + ":";
    Loc nl = l.loc;
    nl.col = col;
    const std::string after = located(nl) + ":";
    size_t at = l.raw.find(before);
    if (at != std::string::npos) l.raw.replace(at, before.size(), after);
    l.text.replace(0, before.size(), after);
    l.loc.col = col;
    l.loc.rest = l.loc.rest + after.size() - before.size();
    l.loc.text_len = l.loc.text_len + after.size() - before.size();
    // Source line, caret line, then label or fix-it lines of the old column.
    if (i + 2 < lines.size() && is_snippet(lines[i + 1].text) && lines[i + 1].text.find_first_not_of(' ') < lines[i + 1].text.find('|') &&
        is_snippet(lines[i + 2].text)) {
        const std::string& caret = lines[i + 2].text;
        const size_t bar = caret.find('|');
        lines[i + 2].raw = caret.substr(0, bar + 1) + " " + std::string(static_cast<size_t>(col - 1), ' ') + "^";
        lines[i + 2].text = lines[i + 2].raw;
        size_t k = i + 3;
        while (k < lines.size() && is_snippet(lines[k].text) &&
               lines[k].text.find_first_not_of(' ') == lines[k].text.find('|'))
            lines.erase(lines.begin() + static_cast<long>(k));
    }
}

bool context_note(const std::string& rest) {
    for (const char* p : {"in expansion of macro", "in definition of macro", "required from", "required by",
                          "in instantiation of", "requested here"})
        if (rest.find(p) != std::string::npos) return true;
    return false;
}

void tidy_group(std::vector<Line>& g, const DiagnosticContext& ctx, std::vector<Line>& out) {
    size_t p = g.size();
    for (size_t i = 0; i < g.size(); ++i)
        if (g[i].kind == Kind::Primary) {
            p = i;
            break;
        }
    if (p < g.size()) {
        const Line& prim = g[p];
        bool foreign_first = foreign(prim.loc.file, ctx);
        for (size_t i = 0; i < p && !foreign_first; ++i)
            foreign_first = g[i].kind == Kind::Frame && foreign(g[i].loc.file, ctx);
        const Loc* user = nullptr;
        if (foreign_first) {
            if (!foreign(prim.loc.file, ctx)) user = &prim.loc;
            for (size_t i = 0; i < p && !user; ++i)
                if (g[i].kind == Kind::Frame && !foreign(g[i].loc.file, ctx)) user = &g[i].loc;
            for (size_t i = p + 1; i < g.size() && !user; ++i)
                if (g[i].kind == Kind::Note && !foreign(g[i].loc.file, ctx) &&
                    context_note(g[i].text.substr(g[i].loc.rest)))
                    user = &g[i].loc;
        }
        if (user) {
            Line lead;
            lead.raw = located(*user) + ": " + prim.text.substr(prim.loc.rest);
            lead.text = lead.raw;
            lead.kind = Kind::Primary;
            out.push_back(lead);
            Line& orig = g[p];
            const size_t at = orig.raw.find(orig.severity + ":", orig.raw.find(located(orig.loc)));
            if (at != std::string::npos) orig.raw.replace(at, orig.severity.size(), "note");
        }
    }
    for (size_t i = 0; i < g.size(); ++i) {
        if (g[i].kind == Kind::Include) {
            size_t e = i;
            while (e < g.size() && g[e].kind == Kind::Include) ++e;
            const std::string bottom = chain_bottom(g[e - 1]);
            size_t n = e;
            while (n < g.size() && (g[n].kind == Kind::Context || g[n].kind == Kind::Other)) ++n;
            if (n < g.size() && g[n].kind != Kind::Include && g[n].loc.file == bottom && !bottom.empty()) {
                i = e - 1;
                continue;
            }
            for (; i < e; ++i) out.push_back(g[i]);
            --i;
            continue;
        }
        out.push_back(g[i]);
    }
}

}  // namespace

MovedColumns moved_columns(const std::string& source, const std::string& rewritten,
                           const std::map<int, std::vector<int>>& columns) {
    MovedColumns m;
    m.columns = columns;
    auto line_of = [](const std::string& s, size_t skip, int want) -> std::string {
        size_t b = 0;
        for (size_t k = 0; k < skip; ++k) b = s.find('\n', b) + 1;
        for (int l = 1; l < want; ++l) {
            b = s.find('\n', b);
            if (b == std::string::npos) return {};
            ++b;
        }
        size_t e = s.find('\n', b);
        return s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    };
    for (const auto& [line, cols] : columns) {
        m.out_lines[line] = line_of(rewritten, 2, line);
        m.src_lines[line] = line_of(source, 0, line);
    }
    return m;
}

std::string tidy_diagnostics(const std::string& text, const DiagnosticContext& ctx) {
    std::vector<Line> lines;
    for (size_t b = 0; b < text.size();) {
        size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        lines.push_back(classify(text.substr(b, e - b)));
        b = e + 1;
    }
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].kind == Kind::Primary || lines[i].kind == Kind::Note || lines[i].kind == Kind::Frame)
            remap(lines, i, ctx);

    // A diagnostic ends at its last note: the next chain, context line,
    // frame or error starts another (an error or frame directly after
    // context lines and frames belongs to them).
    std::vector<std::vector<Line>> groups(1);
    bool has_primary = false, has_note = false, has_located = false;
    for (Line& l : lines) {
        const bool context = l.kind == Kind::Include || l.kind == Kind::Context;
        const bool located = l.kind == Kind::Frame || l.kind == Kind::Primary;
        if ((context && has_located) || (located && (has_primary || has_note))) {
            groups.emplace_back();
            has_primary = has_note = has_located = false;
        }
        has_primary = has_primary || l.kind == Kind::Primary;
        has_note = has_note || l.kind == Kind::Note;
        has_located = has_located || located || l.kind == Kind::Note;
        groups.back().push_back(std::move(l));
    }
    std::vector<Line> out;
    for (std::vector<Line>& g : groups) tidy_group(g, ctx, out);
    std::string r;
    for (size_t i = 0; i < out.size(); ++i) {
        r += out[i].raw;
        if (i + 1 < out.size() || (!text.empty() && text.back() == '\n')) r += '\n';
    }
    return r;
}

}  // namespace ptocc
