// The launch rewriter: a C++ lexer just precise enough to tell code from
// comments, string/character literals (raw strings, digit separators and
// line continuations included), and a token-level matcher for launch sites.
// Unrecognised `<<<` sequences are left alone: the host compiler then reports
// them on the user's line, and the driver adds the rewriter's note.
#include "rewrite.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string_view>

namespace ptocc {
namespace {

enum class Kind { Ident, Number, Literal, Punct };

struct Token {
    Kind kind;
    size_t begin, end;  // byte range in the source
    int line, column;
};

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || (static_cast<unsigned char>(c) >= 0x80); }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
public:
    explicit Lexer(const std::string& s) : s_(s) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        while (skip_space_and_comments(), i_ < s_.size()) {
            Token t{Kind::Punct, i_, i_, line_, col()};
            char c = s_[i_];
            if (ident_start(c)) {
                size_t b = i_;
                while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
                std::string id = s_.substr(b, i_ - b);
                if (i_ < s_.size() && s_[i_] == '"' && is_raw_prefix(id)) {
                    raw_string();
                    t.kind = Kind::Literal;
                } else if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') && is_encoding_prefix(id)) {
                    quoted(s_[i_]);
                    t.kind = Kind::Literal;
                } else {
                    t.kind = Kind::Ident;
                }
            } else if (digit(c) || (c == '.' && i_ + 1 < s_.size() && digit(s_[i_ + 1]))) {
                number();
                t.kind = Kind::Number;
            } else if (c == '"' || c == '\'') {
                quoted(c);
                t.kind = Kind::Literal;
            } else if (c == ':' && i_ + 1 < s_.size() && s_[i_ + 1] == ':') {
                i_ += 2;
            } else if (c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '>') {
                i_ += 2;
            } else {
                ++i_;
            }
            t.end = i_;
            out.push_back(t);
        }
        return out;
    }

private:
    const std::string& s_;
    size_t i_ = 0;
    int line_ = 1;
    size_t line_start_ = 0;

    int col() const { return static_cast<int>(i_ - line_start_) + 1; }
    void newline_at(size_t pos) {
        ++line_;
        line_start_ = pos + 1;
    }

    static bool is_encoding_prefix(const std::string& id) { return id == "L" || id == "u" || id == "U" || id == "u8"; }
    static bool is_raw_prefix(const std::string& id) { return id == "R" || id == "LR" || id == "uR" || id == "UR" || id == "u8R"; }

    void skip_space_and_comments() {
        while (i_ < s_.size()) {
            char c = s_[i_];
            if (c == '\n') {
                newline_at(i_);
                ++i_;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++i_;
            } else if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
                ++i_;  // a line continuation; the newline is counted on the next turn
            } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
                // A line comment continues over backslash-newlines, as in translation phase 2.
                while (i_ < s_.size() && s_[i_] != '\n') {
                    if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
                        newline_at(i_ + 1);
                        i_ += 2;
                    } else {
                        ++i_;
                    }
                }
            } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
                i_ += 2;
                while (i_ < s_.size() && !(s_[i_] == '*' && i_ + 1 < s_.size() && s_[i_ + 1] == '/')) {
                    if (s_[i_] == '\n') newline_at(i_);
                    ++i_;
                }
                i_ = i_ < s_.size() ? i_ + 2 : i_;
            } else {
                return;
            }
        }
    }

    // Ends at the closing quote, or at an unescaped newline: an apostrophe in
    // `#error don't` must not swallow the rest of the file.
    void quoted(char q) {
        ++i_;
        while (i_ < s_.size()) {
            char c = s_[i_];
            if (c == '\\' && i_ + 1 < s_.size()) {
                if (s_[i_ + 1] == '\n') newline_at(i_ + 1);
                i_ += 2;
                continue;
            }
            if (c == '\n') return;
            ++i_;
            if (c == q) break;
        }
        while (i_ < s_.size() && ident_char(s_[i_])) ++i_;  // user-defined literal suffix
    }

    void raw_string() {
        size_t open = i_ + 1;
        size_t paren = s_.find('(', open);
        if (paren == std::string::npos || paren - open > 16) {
            quoted('"');
            return;
        }
        std::string close = ")" + s_.substr(open, paren - open) + "\"";
        size_t endpos = s_.find(close, paren + 1);
        size_t stop = endpos == std::string::npos ? s_.size() : endpos + close.size();
        for (size_t k = i_; k < stop; ++k)
            if (s_[k] == '\n') newline_at(k);
        i_ = stop;
        while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    }

    void number() {
        while (i_ < s_.size()) {
            char c = s_[i_];
            if ((c == '+' || c == '-') && i_ > 0) {
                char p = s_[i_ - 1];
                if (p == 'e' || p == 'E' || p == 'p' || p == 'P') {
                    ++i_;
                    continue;
                }
                return;
            }
            if (c == '\'' && i_ + 1 < s_.size() && ident_char(s_[i_ + 1])) {
                i_ += 2;  // digit separator
                continue;
            }
            if (ident_char(c) || c == '.') {
                ++i_;
                continue;
            }
            return;
        }
    }
};

class Rewriter {
public:
    Rewriter(const std::string& s, std::vector<Token> toks, RewriteResult& r, bool device_asm, int first_site)
        : s_(s), t_(std::move(toks)), r_(r), next_site_(first_site) {
        for (size_t k = 0; k + 2 < t_.size(); ++k) {
            if (!is_triple(k, '<')) continue;
            Site site;
            if (match(k, site) && !sites_.count(site.callee_begin)) sites_[site.callee_begin] = site;
        }
        for (size_t k = 0; k < t_.size(); ++k) {
            std::string name;
            size_t close = 0;
            if (ident(k, "__global__") && match_definition(k, name, close)) definitions_[close] = name;
        }
        if (device_asm)
            for (size_t k = 0; k < t_.size(); ++k) {
                AsmSite a;
                if (match_asm(k, a)) {
                    asm_sites_[k] = a;
                    k = a.close;
                }
            }
    }

    size_t size() const { return t_.size(); }
    const Token& token(size_t k) const { return t_[k]; }

    // Emits tokens [a, b) with the gaps between them, rewriting launch sites.
    void emit(size_t a, size_t b, std::string& out) {
        for (size_t k = a; k < b;) {
            if (k > a) gap(k - 1, k, out);
            auto it = sites_.find(k);
            if (it != sites_.end() && it->second.close < b) {
                write_site(it->second, out);
                k = it->second.close + 1;
                continue;
            }
            auto as = asm_sites_.find(k);
            if (as != asm_sites_.end() && as->second.close < b) {
                write_asm(as->second, out);
                k = as->second.close + 1;
                continue;
            }
            copy(t_[k].begin, t_[k].end, out);
            if (auto d = definitions_.find(k); d != definitions_.end()) write_definition(k, d->second, out);
            ++k;
        }
    }

private:
    struct Site {
        size_t callee_begin = 0, open = 0 /* first '<' */, close_cfg = 0 /* first '>' of >>> */, lparen = 0, close = 0;
    };

    // asm [volatile|goto|inline]* ( literals [: outputs [: inputs [: clobbers]]] )
    struct AsmSite {
        size_t kw = 0, lparen = 0, text_end = 0 /* first ':' or ')' */, close = 0;
        std::vector<std::pair<size_t, size_t>> outputs;  // token ranges of the output lvalues
    };

    const std::string& s_;
    std::vector<Token> t_;
    RewriteResult& r_;
    std::map<size_t, Site> sites_;  // by the callee's first token
    std::map<size_t, AsmSite> asm_sites_;  // by the asm keyword
    std::map<size_t, std::string> definitions_;  // kernel definitions: name by the body's closing brace
    int next_site_ = 0;

public:
    std::vector<size_t> origin_;  // source offset of each output byte
private:

    bool punct(size_t k, char c) const {
        return k < t_.size() && t_[k].kind == Kind::Punct && t_[k].end - t_[k].begin == 1 && s_[t_[k].begin] == c;
    }
    bool punct2(size_t k, const char* p) const {
        return k < t_.size() && t_[k].kind == Kind::Punct && t_[k].end - t_[k].begin == 2 && s_.compare(t_[k].begin, 2, p) == 0;
    }
    bool adjacent(size_t k) const { return k + 1 < t_.size() && t_[k].end == t_[k + 1].begin; }
    bool is_triple(size_t k, char c) const {
        return punct(k, c) && punct(k + 1, c) && punct(k + 2, c) && adjacent(k) && adjacent(k + 1);
    }

    void gap(size_t prev, size_t next, std::string& out) { copy(t_[prev].end, t_[next].begin, out); }

public:
    // Every output byte remembers the source byte it came from; generated
    // text takes the offset of the token it stands next to (`anchor`), so a
    // diagnostic inside it maps to that token's column.
    void copy(size_t b, size_t e, std::string& out) {
        out.append(s_, b, e - b);
        for (size_t k = b; k < e; ++k) origin_.push_back(k);
    }
    void gen(const std::string& text, size_t anchor, std::string& out) {
        out += text;
        origin_.insert(origin_.end(), text.size(), anchor);
    }

private:

    void note(size_t k, std::string msg) { r_.errors.push_back({t_[k].line, t_[k].column, std::move(msg)}); }

    // Index of the token closing the bracket opened at k, or npos.
    size_t matching(size_t k) const {
        int depth = 0;
        for (size_t j = k; j < t_.size(); ++j) {
            if (punct(j, '(') || punct(j, '[') || punct(j, '{')) ++depth;
            else if (punct(j, ')') || punct(j, ']') || punct(j, '}')) {
                if (--depth == 0) return j;
                if (depth < 0) return std::string::npos;
            }
        }
        return std::string::npos;
    }

    // Keywords that can precede `::name` in an expression statement.
    bool keyword(size_t k) const {
        static const char* words[] = {"return", "co_return", "co_await", "throw", "else", "do", "case", "new", "delete", "sizeof"};
        for (const char* w : words)
            if (s_.compare(t_[k].begin, t_[k].end - t_[k].begin, w) == 0) return true;
        return false;
    }

    // Walks back from the token before `<<<` over `::ns::name<targs>`.
    bool callee_start(size_t open, size_t& begin) const {
        if (open == 0) return false;
        size_t j = open - 1;
        if (punct(j, '>')) {
            int angle = 0, nest = 0;
            bool found = false;
            for (size_t k = j + 1; k-- > 0;) {
                if (punct(k, ')') || punct(k, ']')) ++nest;
                else if (punct(k, '(') || punct(k, '[')) {
                    if (--nest < 0) return false;
                } else if (nest == 0 && punct(k, '>')) ++angle;
                else if (nest == 0 && punct(k, '<')) {
                    if (--angle == 0) {
                        j = k;
                        found = true;
                        break;
                    }
                } else if (punct(k, ';') || punct(k, '{') || punct(k, '}')) return false;
            }
            if (!found || j == 0) return false;
            --j;
        }
        // A kernel name built by a function-like macro, CONCAT(run, NAME)<...>:
        // the macro expands inside the rewritten call as it would have here.
        if (punct(j, ')')) {
            int depth = 0;
            for (size_t k = j + 1; k-- > 0;) {
                if (punct(k, ')')) ++depth;
                else if (punct(k, '(') && --depth == 0) {
                    if (k == 0 || t_[k - 1].kind != Kind::Ident || keyword(k - 1)) return false;
                    begin = k - 1;
                    return true;
                } else if (punct(k, ';') || punct(k, '{') || punct(k, '}')) return false;
            }
            return false;
        }
        if (t_[j].kind != Kind::Ident) return false;
        // A name pasted in a macro body, run_##NAME<<<...>>>, is one name.
        while (j >= 3 && punct(j - 1, '#') && punct(j - 2, '#') && adjacent(j - 2) && adjacent(j - 1) &&
               t_[j - 3].kind == Kind::Ident)
            j -= 3;
        while (j >= 2 && punct2(j - 1, "::") && t_[j - 2].kind == Kind::Ident && !keyword(j - 2)) j -= 2;
        if (j >= 1 && punct2(j - 1, "::") && (j == 1 || t_[j - 2].kind != Kind::Ident || keyword(j - 2))) --j;
        if (j > 0 && (punct(j - 1, '.') || punct2(j - 1, "->"))) return false;
        begin = j;
        return true;
    }

    bool match(size_t open, Site& site) {
        size_t cb = 0;
        if (!callee_start(open, cb)) {
            note(open, "'<<<' does not follow a kernel name (expected name<<<block_dim, l2ctrl, stream>>>(args)); "
                       "left unchanged");
            return false;
        }
        int depth = 0;
        size_t close_cfg = std::string::npos;
        for (size_t k = open + 3; k < t_.size(); ++k) {
            if (punct(k, '(') || punct(k, '[') || punct(k, '{')) ++depth;
            else if (punct(k, ')') || punct(k, ']') || punct(k, '}')) {
                if (--depth < 0) break;
            } else if (depth == 0 && punct(k, ';')) break;
            else if (depth == 0 && is_triple(k, '>')) {
                close_cfg = k;
                break;
            }
        }
        if (close_cfg == std::string::npos) {
            note(open, "the launch configuration after '<<<' has no closing '>>>' before the end of the statement");
            return false;
        }
        size_t lp = close_cfg + 3;
        if (!punct(lp, '(')) {
            note(close_cfg, "expected '(' with the kernel arguments after '>>>'");
            return false;
        }
        size_t rp = matching(lp);
        if (rp == std::string::npos) {
            note(lp, "the kernel argument list opened here is not closed");
            return false;
        }
        site = {cb, open, close_cfg, lp, rp};
        return true;
    }

    bool ident(size_t k, const char* w) const {
        return k < t_.size() && t_[k].kind == Kind::Ident && s_.compare(t_[k].begin, t_[k].end - t_[k].begin, w) == 0;
    }

    // A GNU asm statement of device code (bisheng's CCE assembly, which the
    // host compiler cannot assemble).
    bool match_asm(size_t k, AsmSite& a) const {
        if (!(ident(k, "asm") || ident(k, "__asm__") || ident(k, "__asm"))) return false;
        size_t j = k + 1;
        while (ident(j, "volatile") || ident(j, "__volatile__") || ident(j, "goto") || ident(j, "inline")) ++j;
        if (!punct(j, '(') || j + 1 >= t_.size() || t_[j + 1].kind != Kind::Literal) return false;
        a.kw = k;
        a.lparen = j;
        a.close = matching(j);
        if (a.close == std::string::npos) return false;
        size_t q = j + 1;
        while (q < a.close && t_[q].kind == Kind::Literal) ++q;
        a.text_end = q;
        if (!punct(q, ':')) return q == a.close;
        // Output operands: [name] "constraint" (lvalue), ... up to the next ':'.
        for (size_t m = q + 1; m < a.close && !punct(m, ':');) {
            if (punct(m, '[')) m = matching(m) + 1;
            if (m >= a.close || t_[m].kind != Kind::Literal || !punct(m + 1, '(')) return false;
            const size_t rp = matching(m + 1);
            if (rp == std::string::npos || rp >= a.close) return false;
            a.outputs.push_back({m + 2, rp});
            m = rp + 1;
            if (punct(m, ',')) ++m;
        }
        return true;
    }

    // `__global__ ... name(params) ... { body }` outside any macro body and
    // not a template: `name` and the index of the body's closing brace. A
    // declaration, a template (instantiated, and so typed, by the translation
    // unit that launches it) or anything else the tokens do not spell so
    // plainly is not a match.
    bool match_definition(size_t g, std::string& name, size_t& close) const {
        size_t j = g + 1, lp = std::string::npos;
        for (; j < t_.size(); ++j) {
            if (punct(j, '(')) {
                if (j > 0 && (ident(j - 1, "__attribute__") || ident(j - 1, "__declspec") || ident(j - 1, "alignas"))) {
                    j = matching(j);
                    if (j == std::string::npos) return false;
                    continue;
                }
                lp = j;
                break;
            }
            if (punct(j, '[')) {
                j = matching(j);
                if (j == std::string::npos) return false;
                continue;
            }
            if (t_[j].kind != Kind::Ident && !punct2(j, "::") && !punct(j, '*') && !punct(j, '&')) return false;
        }
        if (lp == std::string::npos || lp == 0 || t_[lp - 1].kind != Kind::Ident || ident(lp - 1, "operator"))
            return false;
        const size_t rp = matching(lp);
        if (rp == std::string::npos) return false;
        size_t b = rp + 1;
        while (b < t_.size() && t_[b].kind == Kind::Ident) ++b;  // const, noexcept, ...
        if (!punct(b, '{')) return false;
        close = matching(b);
        if (close == std::string::npos) return false;
        // A template: `template` between the previous declaration and `__global__`.
        for (size_t k = g; k-- > 0;) {
            if (punct(k, ';') || punct(k, '{') || punct(k, '}')) break;
            if (ident(k, "template")) return false;
        }
        // Inside a macro body (a backslash-continued line) or a directive.
        size_t from = s_.rfind('\n', t_[g].begin);
        from = from == std::string::npos ? 0 : from + 1;
        size_t to = s_.find('\n', t_[close].end);
        if (to == std::string::npos) to = s_.size();
        for (size_t c = from; c < to; ++c)
            if (s_[c] == '\\' && c + 1 < s_.size() && (s_[c + 1] == '\n' || s_[c + 1] == '\r')) return false;
        for (size_t c = from; c < t_[g].begin && (s_[c] == ' ' || s_[c] == '\t' || s_[c] == '#'); ++c)
            if (s_[c] == '#') return false;
        name = s_.substr(t_[lp - 1].begin, t_[lp - 1].end - t_[lp - 1].begin);
        return true;
    }

    // After a kernel definition's closing brace, on its line: an object whose
    // construction records the kernel's core type for launches from other
    // translation units (include/ptosim/kernel_launch.hpp).
    void write_definition(size_t close, const std::string& name, std::string& out) {
        ++r_.definitions;
        gen(" PTOCC_KERNEL_DEFINITION(ptocc_kernel_definition_" + std::to_string(close) + ", \"" + name + "\")",
            t_[close].begin, out);
    }

    void write_asm(const AsmSite& a, std::string& out) {
        ++r_.device_asm;
        const size_t start = out.size();
        const size_t kw = t_[a.kw].begin;
        gen("::ptosim::cc::device_asm(__FILE__, __LINE__, ", kw, out);
        emit(a.lparen + 1, a.text_end, out);
        for (const auto& [b, e] : a.outputs) {
            gen(", ", t_[b].begin, out);
            emit(b, e, out);
        }
        gen(")", t_[a.close].begin, out);
        // Keep every later token on its line; inside a macro body the lines
        // it spanned were joined by backslashes, and so are the ones added.
        long lines = 0;
        bool continued = false;
        for (size_t c = t_[a.kw].begin; c < t_[a.close].end; ++c)
            if (s_[c] == '\n') {
                ++lines;
                continued = continued || (c > 0 && s_[c - 1] == '\\');
            }
        for (size_t c = start; c < out.size(); ++c) lines -= out[c] == '\n';
        for (long i = 0; i < lines; ++i) gen(continued ? " \\\n" : "\n", t_[a.close].begin, out);
    }

    std::string callee_name(const Site& st) const {
        std::string n;
        for (size_t k = st.callee_begin; k < st.open; ++k) {
            for (size_t c = t_[k].begin; c < t_[k].end; ++c) {
                char ch = s_[c];
                if (ch == '\\' || ch == '"') n += '\\';
                if (ch == '\n' || ch == '\r') {
                    n += ch == '\n' ? "\\n" : "\\r";  // a raw string in a template argument
                    continue;
                }
                n += ch;
            }
            if (k + 1 < st.open && t_[k].end != t_[k + 1].begin) n += ' ';
        }
        return n;
    }

    void write_site(const Site& st, std::string& out) {
        const int idx = next_site_++;
        ++r_.launches;
        const size_t callee = t_[st.callee_begin].begin;
        // The kernel call inside the lambda is where a wrong argument list
        // is reported: anchor it at the kernel name when that is on one line.
        const size_t call = t_[st.callee_begin].line == t_[st.open - 1].line ? callee : t_[st.open - 1].begin;
        gen("::ptosim::cc::launch<PTOCC_TU_ID, " + std::to_string(idx) + "u, __LINE__>(\"" + callee_name(st) +
                "\", __FILE__, [](auto&&... ptocc_a) { ",
            callee, out);
        copy(callee, t_[st.open - 1].end, out);
        gen("(static_cast<decltype(ptocc_a)&&>(ptocc_a)...); }", call, out);
        gap(st.open - 1, st.open, out);
        gen(", ::ptosim::cc::config(", t_[st.open].begin, out);
        if (st.close_cfg > st.open + 3) {
            gap(st.open + 2, st.open + 3, out);
            emit(st.open + 3, st.close_cfg, out);
            gap(st.close_cfg - 1, st.close_cfg, out);
        } else {
            gap(st.open + 2, st.close_cfg, out);
        }
        gen(")", t_[st.close_cfg].begin, out);
        gap(st.close_cfg + 2, st.lparen, out);
        if (st.close > st.lparen + 1) {
            gen(", ", t_[st.lparen].begin, out);
            gap(st.lparen, st.lparen + 1, out);
            emit(st.lparen + 1, st.close, out);
            gap(st.close - 1, st.close, out);
        } else {
            gap(st.lparen, st.close, out);
        }
        gen(")", t_[st.close].begin, out);
    }
};


}  // namespace

std::string line_directive(const std::string& name) {
    std::string q;
    // The name is read as a C string literal: escape what would end or break it.
    for (unsigned char c : name) {
        if (c == '\\' || c == '"') {
            q += '\\';
            q += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            char oct[5];
            std::snprintf(oct, sizeof oct, "\\%03o", c);
            q += oct;
        } else {
            q += static_cast<char>(c);
        }
    }
    return "#line 1 \"" + q + "\"\n";
}

RewriteResult rewrite_launches(const std::string& source, const std::string& display_name, bool device_asm,
                               int first_site) {
    RewriteResult r;
    r.text = "#include <ptosim/kernel_launch.hpp>\n" + line_directive(display_name);
    Rewriter rw(source, Lexer(source).run(), r, device_asm, first_site);
    if (rw.size() == 0) {
        r.text += source;
        return r;
    }
    std::string body;
    body.reserve(source.size() + 256);
    rw.copy(0, rw.token(0).begin, body);
    rw.emit(0, rw.size(), body);
    rw.copy(rw.token(rw.size() - 1).end, source.size(), body);
    r.text += body;

    // Columns of the lines the rewrite changed, as source columns per output byte.
    std::vector<size_t> line_start = {0};
    for (size_t k = 0; k < source.size(); ++k)
        if (source[k] == '\n') line_start.push_back(k + 1);
    const std::vector<size_t>& org = rw.origin_;
    int line = 1;
    for (size_t b = 0; b <= body.size();) {
        size_t e = body.find('\n', b);
        if (e == std::string::npos) e = body.size();
        std::vector<int> cols;
        bool moved = false;
        int last = 1;
        for (size_t k = b; k < e; ++k) {
            const size_t l = std::upper_bound(line_start.begin(), line_start.end(), org[k]) - line_start.begin();
            // A multi-line asm statement is joined onto its first line: a
            // token from a later line takes the column of the last one
            // that stayed, as a column of its own line would point elsewhere.
            if (static_cast<int>(l) == line) last = static_cast<int>(org[k] - line_start[l - 1]) + 1;
            cols.push_back(last);
            moved = moved || cols.back() != static_cast<int>(k - b) + 1;
        }
        if (moved) r.columns[line] = std::move(cols);
        b = e + 1;
        ++line;
    }
    return r;
}

bool has_device_asm(const std::string& source) {
    for (const Token& t : Lexer(source).run()) {
        if (t.kind != Kind::Ident) continue;
        const std::string_view id(source.data() + t.begin, t.end - t.begin);
        if (id == "asm" || id == "__asm__" || id == "__asm") return true;
    }
    return false;
}

bool has_kernel_keyword(const std::string& source) {
    for (const Token& t : Lexer(source).run())
        if (t.kind == Kind::Ident && std::string_view(source.data() + t.begin, t.end - t.begin) == "__global__")
            return true;
    return false;
}

bool has_launch_syntax(const std::string& source) {
    std::vector<Token> toks = Lexer(source).run();
    for (size_t k = 0; k + 2 < toks.size(); ++k) {
        const Token &a = toks[k], &b = toks[k + 1], &c = toks[k + 2];
        if (a.kind == Kind::Punct && b.kind == Kind::Punct && c.kind == Kind::Punct && a.end == b.begin &&
            b.end == c.begin && source[a.begin] == '<' && source[b.begin] == '<' && source[c.begin] == '<' &&
            a.end - a.begin == 1 && b.end - b.begin == 1 && c.end - c.begin == 1)
            return true;
    }
    return false;
}

}  // namespace ptocc
