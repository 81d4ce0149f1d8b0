#include "targets.hpp"

#include "diagnostics.hpp"
#include "options.hpp"
#include "rewrite.hpp"
#include <ptolab/golden.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace ptolab_fuzz {
namespace {

[[noreturn]] void broken(const char* target, const std::string& what) {
    std::fprintf(stderr, "fuzz target %s: invariant broken: %s\n", target, what.c_str());
    std::fflush(stderr);
    std::abort();
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!f) broken("golden", "cannot write " + path);
}

// An array a reader returned is whole: its bytes are exactly its elements.
void check_array(const ptolab::Array& a, const char* reader) {
    size_t n = 1;
    for (int64_t d : a.shape) {
        if (d < 0) broken("golden", std::string(reader) + " returned a negative dimension");
        n *= static_cast<size_t>(d);
    }
    if (a.bytes.size() != n * ptolab::dtype_size(a.dtype))
        broken("golden", std::string(reader) + " returned " + std::to_string(a.bytes.size()) + " bytes for " +
                             std::to_string(n) + " elements of " + ptolab::dtype_name(a.dtype));
}

template <typename F>
void expect_golden_error(F&& f, const char* reader) {
    try {
        f();
    } catch (const ptolab::GoldenError&) {
        // Rejected with a message: the documented outcome for bad input.
    } catch (const std::exception& e) {
        broken("golden", std::string(reader) + " threw a non-GoldenError exception: " + e.what());
    }
}

constexpr ptolab::DType kTypes[] = {ptolab::DType::Float16, ptolab::DType::BFloat16, ptolab::DType::Float32,
                                    ptolab::DType::Float64, ptolab::DType::Int8,     ptolab::DType::Int16,
                                    ptolab::DType::Int32,   ptolab::DType::Int64,    ptolab::DType::UInt8,
                                    ptolab::DType::UInt16,  ptolab::DType::UInt32,   ptolab::DType::UInt64,
                                    ptolab::DType::Bool};

long count_lines(const std::string& s) { return static_cast<long>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

const std::string& scratch_dir() {
    // Never destroyed: the exit handler that removes the directory reads it.
    static const std::string* dir = [] {
        const char* t = std::getenv("TMPDIR");
        std::string tmpl = std::string(t && *t ? t : "/tmp") + "/ptolab-fuzz-XXXXXX";
        if (!mkdtemp(tmpl.data())) broken("golden", "cannot create a scratch directory under $TMPDIR");
        std::atexit([] {
            for (const char* f : {"/in.npy", "/in.bin"}) unlink((*dir + f).c_str());
            rmdir(dir->c_str());
        });
        return new std::string(tmpl);
    }();
    return *dir;
}

void golden(const uint8_t* data, size_t size) {
    const std::string npy = scratch_dir() + "/in.npy", bin = scratch_dir() + "/in.bin";
    write_file(npy, data, size);
    write_file(bin, data, size);
    expect_golden_error([&] { check_array(ptolab::read_npy(npy), "read_npy"); }, "read_npy");
    const ptolab::DType want = kTypes[size ? data[0] % std::size(kTypes) : 0];
    expect_golden_error([&] { check_array(ptolab::read_npy(npy, want), "read_npy(dtype)"); }, "read_npy(dtype)");
    expect_golden_error([&] { check_array(ptolab::read_golden(bin, want, std::nullopt), "read_golden"); },
                        "read_golden");
    // The first line as a shape, for parse_shape and for a shaped raw read.
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string first = text.substr(0, std::min(text.find('\n'), size_t{256}));
    expect_golden_error(
        [&] {
            const std::vector<int64_t> shape = ptolab::parse_shape(first);
            check_array(ptolab::read_bin(bin, want, shape), "read_bin");
        },
        "parse_shape/read_bin");
}

void options(const uint8_t* data, size_t size) {
    std::vector<std::string> args;
    std::string cur;
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur += static_cast<char>(data[i]);
        }
    }
    if (!cur.empty()) args.push_back(cur);
    std::vector<ptocc::Diag> diags;
    ptocc::Options o = ptocc::parse_args(args, diags);
    ptocc::resolve(o, diags);
    for (const ptocc::Diag& d : diags)
        if (d.text.empty()) broken("options", "an empty diagnostic");
    size_t own = 0;  // ptocc's own flags are the only arguments not passed on to bisheng
    for (const std::string& a : args)
        own += a == "--dry-run" || a == "--keep-temps" || a == "--help" || a == "-h" || a == "--version" ||
               a.rfind("--toolchain=", 0) == 0;
    if (o.user_args.size() + own < args.size()) broken("options", "an argument vanished from the bisheng command");
}

void rewrite(const uint8_t* data, size_t size) {
    const std::string src(reinterpret_cast<const char*>(data), size);
    const std::string head = "#include <ptosim/kernel_launch.hpp>\n#line 1 \"fuzz.cpp\"\n";
    for (bool device_asm : {false, true}) {
        const ptocc::RewriteResult r = ptocc::rewrite_launches(src, "fuzz.cpp", device_asm);
        if (r.text.compare(0, head.size(), head) != 0) broken("rewrite", "the output does not start with the directives");
        const std::string out = r.text.substr(head.size());
        if (count_lines(out) != count_lines(src)) broken("rewrite", "a line moved");
        if (!device_asm && !ptocc::has_launch_syntax(src) && !ptocc::has_kernel_keyword(src) &&
            (out != src || r.launches != 0))
            broken("rewrite", "input without launch syntax or kernel definitions changed");
        const long lines = count_lines(src) + 1;
        for (const ptocc::RewriteDiag& d : r.errors)
            if (d.line < 1 || d.line > lines || d.column < 1) broken("rewrite", "a note points outside the input");
        // Every column of a moved line maps inside the user's line.
        const ptocc::MovedColumns m = ptocc::moved_columns(src, r.text, r.columns);
        for (const auto& [line, cols] : r.columns) {
            if (line < 1 || line > lines) broken("rewrite", "a column map for a line that does not exist");
            if (cols.size() != m.out_lines.at(line).size()) broken("rewrite", "a column map of the wrong length");
            const long src_len = static_cast<long>(m.src_lines.at(line).size());
            for (int c : cols)
                if (c < 1 || c > src_len + 1) broken("rewrite", "a column outside the user's line");
        }
        // Diagnostics on those lines map back inside them.
        ptocc::DiagnosticContext ctx;
        ctx.rewritten["fuzz.cpp"] = m;
        for (const auto& [line, cols] : r.columns) {
            const size_t n = cols.size();
            for (size_t col : {size_t{1}, n / 2 + 1, n, n + 1}) {
                const std::string diag = "fuzz.cpp:" + std::to_string(line) + ":" + std::to_string(col) + ": error: x\n";
                const std::string t = ptocc::tidy_diagnostics(diag, ctx);
                const std::string want = "fuzz.cpp:" + std::to_string(line) + ":";
                if (t.compare(0, want.size(), want) != 0) broken("rewrite", "a mapped diagnostic lost its line: " + t);
            }
        }
        (void)ptocc::has_device_asm(src);
    }
}

void diagnostics(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ptocc::DiagnosticContext ctx;
    ctx.foreign_dirs = {"/opt/ptolab/include"};
    for (bool display : {true, false}) {
        ctx.display_columns = display;
        (void)ptocc::tidy_diagnostics(text, ctx);
    }
    static const std::string launch = "void f() {\n\tk<<<n, nullptr, s>>>(p, q);\n}\n";
    static const ptocc::RewriteResult r = ptocc::rewrite_launches(launch, "k.cpp");
    ctx.rewritten["k.cpp"] = ptocc::moved_columns(launch, r.text, r.columns);
    (void)ptocc::tidy_diagnostics(text, ctx);

    // Without column maps, tidying only adds leading lines (at most one per
    // error or warning), relabels an error as a note, and drops include
    // chains: every other input line is in the output, in order.
    ctx.rewritten.clear();
    const std::string out = ptocc::tidy_diagnostics(text, ctx);
    auto split = [](const std::string& s) {
        std::vector<std::string> v;
        for (size_t b = 0; b < s.size();) {
            size_t e = s.find('\n', b);
            if (e == std::string::npos) e = s.size();
            v.push_back(s.substr(b, e - b));
            b = e + 1;
        }
        return v;
    };
    const std::vector<std::string> in_lines = split(text), out_lines = split(out);
    // Colours removed, as the classifier sees a line.
    auto bare = [](const std::string& l) {
        std::string b;
        for (size_t i = 0; i < l.size(); ++i) {
            if (l[i] == '\x1b' && i + 1 < l.size() && l[i + 1] == '[') {
                size_t j = i + 2;
                while (j < l.size() && ((l[j] >= '0' && l[j] <= '9') || l[j] == ';')) ++j;
                if (j < l.size() && (l[j] == 'm' || l[j] == 'K')) {
                    i = j;
                    continue;
                }
            }
            b += l[i];
        }
        return b;
    };
    size_t primaries = 0;
    for (const std::string& l : in_lines) {
        const std::string b = bare(l);
        primaries += b.find("error: ") != std::string::npos || b.find("warning: ") != std::string::npos;
    }
    if (out_lines.size() > in_lines.size() + primaries) broken("diagnostics", "more lines added than errors");
    size_t o = 0;
    for (const std::string& l : in_lines) {
        const std::string b = bare(l);
        if (b.rfind("In file included from ", 0) == 0 || b.find(" from ") != std::string::npos) continue;
        std::vector<std::string> forms = {l};
        for (const char* sev : {"fatal error:", "error:", "warning:"})
            if (size_t at = l.find(sev); at != std::string::npos)
                forms.push_back(l.substr(0, at) + "note:" + l.substr(at + std::string(sev).size()));
        while (o < out_lines.size() && std::find(forms.begin(), forms.end(), out_lines[o]) == forms.end()) ++o;
        if (o == out_lines.size()) broken("diagnostics", "an input line is missing from the output: " + l);
        ++o;
    }
}

}  // namespace ptolab_fuzz
