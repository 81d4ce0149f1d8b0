#include "driver.hpp"
#include "bisheng_dialect.hpp"
#include "cache.hpp"
#include "cce_direct.hpp"
#include "file_write.hpp"
#include "hex.hpp"
#include "kind.hpp"
#include "process.hpp"
#include "rewrite.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ptocc {
namespace fs = std::filesystem;

namespace {

bool ends(const std::string& s, const char* suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

uint64_t fnv1a(const std::string& s, uint64_t h = 0xcbf29ce484222325ull) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

bool write_file(const std::string& path, const std::string& text, std::string& error) {
    try {
        ptolab::common::write_file(path, text);
        return true;
    } catch (const ptolab::common::WriteError& e) {
        error = e.what();
        return false;
    }
}

// Copies `from` beside `to` with its permission bits and renames it over
// `to`, so that `to` is the old file or the new one, never a part. A
// destination that is not a regular file (/dev/null) is written in place.
bool publish_file(const std::string& from, const std::string& to, std::string& error) {
    std::error_code ec;
    const fs::file_status dest = fs::status(to, ec);
    if (fs::exists(dest) && !fs::is_regular_file(dest)) {
        fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
        if (ec) error = "cannot write " + to + ": " + ec.message();
        return !ec;
    }
    // The same bytes already there keep their time, so make does not relink
    // what depends on them (docs/ptocc.md, "Caches").
    if (fs::is_regular_file(dest) && fs::file_size(from, ec) == fs::file_size(to, ec) && !ec) {
        std::ifstream a(from, std::ios::binary), b(to, std::ios::binary);
        if (a && b && std::equal(std::istreambuf_iterator<char>(a), {}, std::istreambuf_iterator<char>(b), {}))
            return true;
    }
    const fs::path target = fs::path(to);
    const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".ptocc-" + std::to_string(getpid()));
    fs::copy_file(from, temp, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(temp, target, ec);
    if (ec) {
        error = "cannot write " + to + ": " + ec.message();
        std::error_code ignored;
        fs::remove(temp, ignored);
        return false;
    }
    return true;
}

// -std=c++NN / gnu++NN below 20 is raised: ptolab's headers need C++20.
bool std_at_least_20(const std::string& flag) {
    std::string v = flag.substr(5);  // after "-std="
    size_t p = v.find("++");
    if (p == std::string::npos) return false;
    std::string ver = v.substr(p + 2);
    static const char* old[] = {"98", "03", "0x", "11", "1y", "14", "1z", "17"};
    for (const char* o : old)
        if (ver == o) return false;
    return true;
}

bool holds_pto_headers(const std::string& dir) {
    std::error_code ec;
    return fs::exists(fs::path(dir) / "pto" / "pto-inst.hpp", ec);
}

// The tree holds pto-isa's implementation for the build's target
// (pto/npu/a2a3 or pto/npu/a5).
bool holds_pto_isa_impl(const std::string& dir, Target t) {
    std::error_code ec;
    return fs::is_directory(fs::path(dir) / "pto" / "npu" / (t == Target::A5 ? "a5" : "a2a3"), ec);
}

// A temporary file's name part from an input's stem: only portable file-name
// characters, so compiler messages naming the temporary stay on one line.
std::string temp_stem(const std::string& path) {
    std::string s = fs::path(path).stem().string();
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
    return s;
}

bool write_in_new_dir(const std::string& path, const std::string& text, std::string& error) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) {
        error = "cannot create " + fs::path(path).parent_path().string() + ": " + ec.message();
        return false;
    }
    return write_file(path, text, error);
}

// A kernel's own header compiled from a copy: rewritten when it holds launch
// syntax or device asm, else the same text under a #line naming it.
struct HeaderCopy {
    std::string from;  // the user's header
    std::string to;    // its copy
    std::string text;
    bool rewrite = false;
};
struct HeaderCopies {
    bool needed = false;    // some header holds launch syntax or device asm
    bool launches = false;  // some header holds launch syntax
    std::string source_dir;  // the source's copy goes here: the mirror of its own directory
    std::vector<std::pair<std::string, std::string>> dirs;  // each copy directory and the directory it mirrors
    std::vector<HeaderCopy> files;
};

// bisheng compiles launches and device asm wherever they are; ptocc rewrites
// them, so a source whose user headers hold some compiles from copies: every
// user header it includes goes under a directory mirroring the one it lies in
// (the source's own, or the deepest -I directory holding the directory its
// #include was resolved in), and the source's copy in the mirror of its own
// directory reads them wherever it would read the originals. A header
// outside all of those stays itself (docs/ptocc.md, "Launch syntax").
HeaderCopies copies_of_headers(const std::string& abs_src, const std::string& text,
                               const std::vector<std::string>& user_dirs, const std::string& base) {
    HeaderCopies hc;
    const std::vector<UserHeader> headers = user_headers(abs_src, text, user_dirs);
    for (const UserHeader& h : headers) {
        const bool l = has_launch_syntax(h.text);
        hc.launches = hc.launches || l;
        hc.needed = hc.needed || l || has_device_asm(h.text);
    }
    if (!hc.needed) return hc;
    std::error_code ec;
    std::vector<fs::path> roots = {fs::weakly_canonical(fs::path(abs_src).parent_path(), ec)};
    for (const std::string& d : user_dirs) roots.push_back(fs::weakly_canonical(d, ec));
    const auto inside = [](const fs::path& p, const fs::path& root) {
        const fs::path rel = p.lexically_relative(root);
        return !rel.empty() && *rel.begin() != "..";
    };
    hc.source_dir = base + ".src";
    std::vector<bool> used(roots.size(), false);
    used[0] = true;
    for (const UserHeader& h : headers) {
        const fs::path found = fs::weakly_canonical(h.found_in, ec);
        int k = -1;
        for (size_t i = 0; i < roots.size(); ++i)
            if ((found == roots[i] || inside(found, roots[i])) && inside(h.path, roots[i]) &&
                (k < 0 || inside(roots[i], roots[k])))
                k = static_cast<int>(i);
        if (k < 0) continue;
        used[k] = true;
        const std::string dir = k == 0 ? hc.source_dir : base + ".inc" + std::to_string(k);
        const bool rewrite = has_launch_syntax(h.text) || has_device_asm(h.text);
        hc.files.push_back({h.path, dir + "/" + fs::path(h.path).lexically_relative(roots[k]).string(),
                            rewrite ? h.text : line_directive(h.path) + h.text, rewrite});
    }
    for (size_t i = 0; i < roots.size(); ++i)
        if (used[i]) hc.dirs.push_back({i == 0 ? hc.source_dir : base + ".inc" + std::to_string(i), roots[i].string()});
    return hc;
}

struct Compile {
    std::vector<std::string> flags;     // everything between the compiler and "-c"
    std::vector<std::string> demoted;   // user -I dirs holding pto/pto-inst.hpp
    std::optional<PtoIsaTree> pto_isa;  // the user's tree, compiled over the CCE layer
    bool over_cce = false;              // kernels compile over the CCE layer with clang
    PtoHeaders choice = PtoHeaders::Auto;  // --pto-headers, else PTOCC_PTO_HEADERS
    std::string std_flag = "-std=c++20";
};

bool same_dir(const std::string& a, const std::string& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec);
}

// The user's compile flags arranged around ptolab's include directory.
// Whose PTO headers a build compiles: the flag, else PTOCC_PTO_HEADERS; auto
// takes a pto-isa tree on -I that holds the target's implementation, else ptolab's own.
PtoHeaders header_choice(const Options& o, std::vector<Diag>& diags) {
    PtoHeaders h = o.pto_headers;
    if (h == PtoHeaders::Auto)
        if (const char* v = std::getenv("PTOCC_PTO_HEADERS"); v && *v && !parse_pto_headers(v, h))
            diags.push_back({Diag::Error, std::string("PTOCC_PTO_HEADERS='") + v +
                                              "' is not one of auto, pto-isa, ptolab"});
    return h;
}

Compile host_flags(const Options& o, const Paths& paths, std::vector<Diag>& diags) {
    Compile c;
    c.choice = header_choice(o, diags);
    const bool want_pto_isa = c.choice == PtoHeaders::PtoIsa;
    // With no choice made, a build takes a pto-isa tree on its include path
    // that holds pto-isa's implementation for its target (pto/npu/a2a3 or
    // pto/npu/a5): ptosim's CCE layer runs it (docs/conformance-run.md:
    // A2A3 135/137 and 96/98, A5 152/160 and 113/116 of the two pto-isa
    // snapshots' testcases).
    const bool auto_pto_isa = c.choice == PtoHeaders::Auto && !paths.clang.empty();
    for (const CompileFlag& f : o.compile) {
        if (f.type == CompileFlag::Include) {
            // ptolab's own include/ (e.g. $ASCEND_HOME_PATH/include of the
            // CANN-shaped root) is already first.
            if (same_dir(f.include_dir, paths.include_dir)) continue;
            const bool take = want_pto_isa || (auto_pto_isa && holds_pto_isa_impl(f.include_dir, o.target));
            if (take && !c.pto_isa && holds_pto_headers(f.include_dir)) {
                c.pto_isa = pto_isa_tree(f.include_dir);
                c.flags.insert(c.flags.end(), f.argv.begin(), f.argv.end());
                continue;
            }
            if (holds_pto_headers(f.include_dir)) {
                c.demoted.push_back(f.include_dir);
                continue;
            }
            c.flags.insert(c.flags.end(), f.argv.begin(), f.argv.end());
        } else if (f.argv.back() == "-D_GLIBCXX_USE_CXX11_ABI=0" ||
                   (f.argv.size() == 2 && f.argv[0] == "-D" && f.argv[1] == "_GLIBCXX_USE_CXX11_ABI=0")) {
            // CANN builds host code so. The launch code ptocc writes into a
            // kernel library fills in ptosim's LaunchSpec (std::string and
            // std::function members), and ptosim, like every C++ library
            // ptolab links, is built with the C++11 library ABI: with the old
            // one the library's first launch crashes inside ptosim. Code
            // built elsewhere with the old ABI that passes a std::string to
            // a function of this file fails to link instead (the ABI is in
            // the function's name).
            diags.push_back({Diag::Note, "-D_GLIBCXX_USE_CXX11_ABI=0 dropped: ptosim's launch interface and the "
                                         "C++ libraries ptolab links use the C++11 library ABI; a kernel library "
                                         "built with the old one would crash at its first launch"});
        } else if (f.argv[0].rfind("-std=", 0) == 0) {
            if (std_at_least_20(f.argv[0])) {
                c.std_flag = f.argv[0];
            } else {
                c.std_flag = f.argv[0].find("gnu++") != std::string::npos ? "-std=gnu++20" : "-std=c++20";
                diags.push_back({Diag::Note, f.argv[0] + " raised to " + c.std_flag +
                                                 ": the simulator's pto/ headers need C++20"});
            }
        } else {
            c.flags.insert(c.flags.end(), f.argv.begin(), f.argv.end());
        }
    }
    c.flags.insert(c.flags.end(), o.host_only.begin(), o.host_only.end());
    // Line tables name the calls the call-site macros cannot see
    // (TLOAD<...>(...)): their return address is all the runtime gets, and
    // a call in tail position compiled as a jump would return past the kernel.
    const auto debug = [](const std::string& f) { return f.rfind("-g", 0) == 0; };
    if (std::none_of(c.flags.begin(), c.flags.end(), debug)) c.flags.insert(c.flags.begin(), "-g1");
    c.flags.push_back("-fno-optimize-sibling-calls");
    // Explicitly asked for without a tree: a kernel written on the CCE
    // intrinsics alone, compiled over the same layer.
    c.over_cce = c.pto_isa.has_value() || want_pto_isa;
    if (c.over_cce && !c.pto_isa)
        diags.push_back({Diag::Note, "PTO headers: none on the include path; the kernel is compiled over ptosim's "
                                     "CCE intrinsics alone with " + paths.clang});
    if (c.over_cce && paths.clang.empty())
        diags.push_back({Diag::Error, "--pto-headers=pto-isa compiles with clang, and none was found: install "
                                      "Debian's clang package or set PTOCC_CLANG"});
    if (c.pto_isa)
        diags.push_back({Diag::Note, "PTO headers: pto-isa at " + c.pto_isa->describe() +
                                     ", compiled over ptosim's CCE intrinsics with " + paths.clang +
                                     (want_pto_isa ? "" : " (the tree on the include path; --pto-headers=ptolab "
                                                          "compiles ptolab's own headers instead)")});
    for (const std::string& d : c.demoted)
        diags.push_back({Diag::Note, "-I" + d + " holds another pto/pto-inst.hpp; it is searched after ptolab's headers "
                                     "and the system headers (-idirafter), so the simulator's pto/ headers are used "
                                     "(--pto-headers=pto-isa compiles it instead)"});
    return c;
}

std::vector<std::string> device_macros(const Options& o, bool cube, int variant, bool pto_isa) {
    const bool a5 = o.target == Target::A5;
    std::vector<std::string> m = {a5 ? "-D__CCE_AICORE__=310" : "-D__CCE_AICORE__=220",
                                  a5 ? "-D__NPU_ARCH__=3510" : "-D__NPU_ARCH__=2201"};
    m.push_back(cube ? "-D__DAV_CUBE__" : "-D__DAV_VEC__");
    if (!a5) m.push_back(cube ? "-D__DAV_C220_CUBE__" : "-D__DAV_C220_VEC__");
    int kind = o.kind == Kind::Vec ? 0 : o.kind == Kind::Cube ? 1 : 2;
    m.push_back("-D__PTOCC_KIND__=" + std::to_string(kind));
    m.push_back(std::string("-D__PTOCC_TARGET__=") + (a5 ? "1" : "0"));
    m.push_back("-D__PTOCC_VARIANT__=" + std::to_string(variant));
    // bisheng's device pass declares the CCE builtins (set_flag, get_sys_cnt,
    // min, __in__, ...) in every kernel translation unit without an include.
    m.insert(m.end(), {"-include", pto_isa ? "cce/bisheng.hpp" : "pto/common/cce_builtins.hpp"});
    // The executed build's half is clang's __fp16 (ptosim/float16.hpp): pto-isa
    // passes and returns it by value, which clang allows on x86 only with this.
    if (pto_isa) m.insert(m.end(), {"-Xclang", "-fnative-half-arguments-and-returns"});
    // Local-memory pointers are x86 address space 256, for which LLVM 14's
    // x86 backend cannot lower memset/memcpy/memmove: without these, a loop
    // that zeroes or copies UB elements one by one (pto-isa's MGATHER fills
    // a row with zeros) becomes such a call and clang stops with "cannot
    // lower memory intrinsic in address space 256". The loops stay loops.
    if (pto_isa) m.insert(m.end(), {"-fno-builtin-memset", "-fno-builtin-memcpy", "-fno-builtin-memmove"});
    return m;
}

std::string stub_source(uint64_t tu, const std::string& image, const std::string& origin) {
    const std::string h = ptolab::common::hex16(tu);
    std::string esc_origin;
    for (char c : origin) {
        if (c == '\\' || c == '"') esc_origin += '\\';
        esc_origin += c;
    }
    std::string s;
    s += "// Generated by ptocc: the Vector variant image of " + origin + " and its registration.\n";
    s += "#include <cstddef>\n#include <cstdint>\n";
    s += "extern \"C\" void ptocc_register_image(uint64_t, int, const unsigned char*, size_t, const char*);\n";
    s += "extern \"C\" void ptocc_unregister_image(uint64_t, int, const unsigned char*);\n";
    s += "__asm__(\".section .rodata.ptocc,\\\"a\\\",@progbits\\n.balign 64\\n"
         ".globl ptocc_image_" + h + "\\n.hidden ptocc_image_" + h + "\\nptocc_image_" + h + ":\\n"
         ".incbin \\\"" + image + "\\\"\\n"
         ".globl ptocc_image_end_" + h + "\\n.hidden ptocc_image_end_" + h + "\\nptocc_image_end_" + h + ":\\n"
         ".previous\\n\");\n";
    s += "extern \"C\" const unsigned char ptocc_image_" + h + "[], ptocc_image_end_" + h + "[];\n";
    s += "namespace {\nstruct Entry {\n";
    s += "    Entry() { ptocc_register_image(0x" + h + "ull, 1, ptocc_image_" + h + ", static_cast<size_t>(ptocc_image_end_" +
         h + " - ptocc_image_" + h + "), \"" + esc_origin + "\"); }\n";
    s += "    ~Entry() { ptocc_unregister_image(0x" + h + "ull, 1, ptocc_image_" + h + "); }\n";
    s += "} entry;\n}  // namespace\n";
    return s;
}

std::string depfile_escape(const std::string& path) {
    std::string r;
    for (char c : path) {
        if (c == ' ' || c == '#') r += '\\';
        if (c == '$') r += '$';
        r += c;
    }
    return r;
}

bool replace_in_file(const std::string& path, const std::string& from, const std::string& to, std::string& error) {
    std::string text;
    if (!read_file(path, text)) {
        error = "cannot read the dependency file " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string out;
    size_t pos = 0;
    for (size_t hit; (hit = text.find(from, pos)) != std::string::npos; pos = hit + from.size())
        out += text.substr(pos, hit - pos) + to;
    out += text.substr(pos);
    return write_file(path, out, error);
}

// The user's link flags with CANN library names resolved: libptosim is every
// one of them and is already linked, so -l<name> is dropped, except
// -lruntime_camodel when a -L directory has it (the per-SoC library of the
// CANN-shaped root, docs/drop-in.md), which is kept even if unreferenced.
std::vector<std::string> cann_link_flags(const std::vector<std::string>& link) {
    std::vector<std::string> dirs, out;
    for (const std::string& f : link)
        if (f.rfind("-L", 0) == 0) dirs.push_back(f.substr(2));
    for (const std::string& f : link) {
        if (f.rfind("-l", 0) != 0 || !is_cann_library(f.substr(2))) {
            out.push_back(f);
            continue;
        }
        if (f != "-lruntime_camodel") continue;
        std::error_code ec;
        for (const std::string& d : dirs) {
            if (fs::exists(fs::path(d) / "libruntime_camodel.so", ec)) {
                out.insert(out.end(), {"-Wl,--push-state,--no-as-needed", f, "-Wl,--pop-state"});
                break;
            }
        }
    }
    return out;
}

// With `stderr_file`, the command's stderr goes to that file.
int run_command(const std::vector<std::string>& argv, pid_t* pid_out, const std::string& stderr_file = {}) {
    return ptolab::common::spawn(argv, {"", stderr_file, false}, *pid_out);
}

}  // namespace

std::string shell_quote(const std::string& s) { return ptolab::common::shell_quote(s); }

Paths default_paths() {
    Paths p;
    p.include_dir = PTOCC_INCLUDE_DIR;
    p.lib_dir = PTOCC_LIB_DIR;
    p.cxx = PTOCC_CXX;
    if (const char* v = std::getenv("PTOCC_CXX"); v && *v) p.cxx = v;
    p.clang = PTOCC_CLANG;
    if (const char* v = std::getenv("PTOCC_CLANG"); v && *v) p.clang = v;
    return p;
}

bool delegated() {
    const char* v = std::getenv(kDelegatedEnv);
    return v && *v && std::strcmp(v, "0") != 0;
}

bool classify_inputs(const Options& o, std::vector<ClassifiedInput>& out, std::vector<Diag>& diags) {
    if (o.inputs.empty()) {
        diags.push_back({Diag::Error, "no input files; usage: ptocc [bisheng flags] kernel.cpp -o libkernel.so"});
        return false;
    }
    size_t sources = 0;
    for (const Input& in : o.inputs) sources += !in.link_only;
    if (o.compile_only && sources > 1 && !o.output.empty()) {
        diags.push_back({Diag::Error, "-c with -o takes one source file, but " + std::to_string(sources) +
                                          " were given; drop -o or compile them one at a time"});
        return false;
    }
    if (o.compile_only && sources == 0) {
        diags.push_back({Diag::Error, "-c needs a source file to compile; object files are linked with -shared"});
        return false;
    }
    out.clear();
    for (const Input& in : o.inputs) {
        Lang lang = in.lang;
        if (!in.link_only && lang == Lang::Auto)
            lang = ends(in.path, ".c") ? Lang::C : ends(in.path, ".cce") || o.device ? Lang::Cce : Lang::Cxx;
        if (!in.link_only && lang == Lang::Cce && !o.device) {
            diags.push_back({Diag::Error, in.path + " is a kernel source (-xcce or .cce) but no device architecture was "
                                                    "given; add --cce-aicore-arch=dav-c220-vec|dav-c220-cube|dav-c220|"
                                                    "dav-c310-vec|dav-c310-cube|dav-c310"});
            return false;
        }
        out.push_back({in.path, lang, in.link_only});
    }
    return true;
}

// The kernel type of one kernel source built without a core-type suffix:
// its user code preprocessed (directives only, so instruction names stay as
// written) once as the Cube variant and once as the Vector variant, and
// scanned for what each uses (kind.cpp). `note` says what decided it.
Kind infer_input_kind(const Options& o, const Paths& paths, const Compile& cf, const std::vector<std::string>& quote,
                      const std::string& src, const std::string& base, const Plan& plan, std::string& note,
                      std::string& error) {
    std::vector<std::string> foreign = {paths.include_dir};
    foreign.insert(foreign.end(), cf.demoted.begin(), cf.demoted.end());
    for (size_t i = 0; i < cf.flags.size(); ++i) {
        std::string d;
        const std::string& f = cf.flags[i];
        if ((f == "-I" || f == "-isystem") && i + 1 < cf.flags.size()) d = cf.flags[i + 1];
        else if (f.rfind("-I", 0) == 0 && f.size() > 2) d = f.substr(2);
        else if (f.rfind("-isystem", 0) == 0 && f.size() > 8) d = f.substr(8);
        if (!d.empty() && holds_pto_headers(d)) foreign.push_back(d);
    }
    for (std::string& d : foreign) {
        std::error_code ec;
        fs::path c = fs::weakly_canonical(d, ec);
        if (!ec) d = c.string();
    }
    auto is_user = [&foreign](const std::string& file, bool system) {
        if (system) return false;
        std::error_code ec;
        fs::path c = fs::weakly_canonical(file, ec);
        const std::string p = ec ? file : c.string();
        for (const std::string& d : foreign)
            if (p.size() > d.size() && p.compare(0, d.size(), d) == 0 && p[d.size()] == '/') return false;
        return true;
    };
    Options mix = o;
    mix.kind = Kind::Mix;
    std::vector<std::vector<std::string>> commands;
    for (int variant = 0; variant < 2; ++variant) {
        std::vector<std::string>& c = commands.emplace_back();
        c = {paths.cxx, cf.std_flag, "-I" + paths.include_dir};
        c.insert(c.end(), quote.begin(), quote.end());
        const std::vector<std::string> macros = device_macros(mix, variant == 0, variant, false);
        c.insert(c.end(), macros.begin(), macros.end());
        c.insert(c.end(), cf.flags.begin(), cf.flags.end());
        for (const std::string& d : cf.demoted) c.insert(c.end(), {"-idirafter", d});
        c.insert(c.end(), {"-E", "-fdirectives-only", "-x", "c++", src});
    }
    // A warm build of an unchanged kernel skips both preprocessor runs.
    std::string source_text, kept;
    const Fact fact = read_file(src, source_text)
                          ? fact_of(plan.cache, "kernel type", plan.compiler_id, commands, source_text, plan.temp_dir)
                          : Fact{};
    if (recall_fact(plan.cache, fact, kept)) {
        const size_t nl = kept.find('\0'), nl2 = kept.find('\0', nl + 1);
        if (nl == 1 && nl2 != std::string::npos && kept[0] >= '0' && kept[0] <= '2') {
            note = kept.substr(nl + 1, nl2 - nl - 1);
            error = kept.substr(nl2 + 1);
            return static_cast<Kind>(kept[0] - '0');
        }
    }
    const int64_t started = now_ns();
    KindScan scans[2];
    std::vector<std::string> texts(2);
    for (int variant = 0; variant < 2; ++variant) {
        const std::string out = base + (variant == 0 ? ".kind-aic.i" : ".kind-aiv.i");
        std::vector<std::string> c = commands[variant];
        c.insert(c.end(), {"-o", out});
        const std::string err_file = out + ".err";
        const int rc = ptolab::common::run(c, {"", err_file, false});
        std::string& text = texts[variant];
        if (rc != 0 || !read_file(out, text)) {
            std::string why;
            read_file(err_file, why);
            if (why.size() > 600) why = why.substr(0, 600) + "...";
            note = "warning: the kernel type could not be inferred (preprocessing for it failed: " + why +
                   "); built as a mix kernel, as without inference";
            return Kind::Mix;
        }
        scans[variant] = scan_kind(text, is_user);
    }
    KindDecision d = decide_kind(scans[0], scans[1]);
    const Kind kind = d.kind ? *d.kind : Kind::Mix;
    if (!d.kind) error = d.error;
    else if (!d.no_kernel)
        note = std::string("kernel type inferred: ") + kind_description(*d.kind) + " (" + d.why + ")";
    // Kept as "<kind digit>\0<note>\0<error>", read back above.
    const std::string kept_as =
        std::string(1, static_cast<char>('0' + static_cast<int>(kind))) + '\0' + note + '\0' + error;
    keep_fact(plan.cache, fact, texts, kept_as, started);
    return kind;
}

// With no header choice made, a kernel that includes no PTO header and calls
// CCE intrinsics is compiled over ptosim's CCE layer, as bisheng would give it
// those intrinsics (docs/ptocc.md, "Headers").
void route_cce_direct(const Options& o, const Paths& paths, const std::vector<ClassifiedInput>& inputs,
                      const JobContext& ctx, Compile& cf, std::vector<Diag>& diags) {
    if (cf.over_cce || cf.choice != PtoHeaders::Auto || paths.clang.empty()) return;
    std::vector<std::string> dirs;
    for (const CompileFlag& f : o.compile)
        if (f.type == CompileFlag::Include && !same_dir(f.include_dir, paths.include_dir)) dirs.push_back(f.include_dir);
    std::string first, where;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].link_only || inputs[i].lang != Lang::Cce) continue;
        const CceDirectScan scan = scan_cce_direct(inputs[i].path, ctx.texts.at(i), dirs);
        if (scan.includes_pto || scan.intrinsic.empty()) return;
        if (first.empty()) first = scan.intrinsic, where = scan.where;
    }
    if (first.empty()) return;
    cf.over_cce = true;
    diags.push_back({Diag::Note, "PTO headers: none included, and " + where + " calls the CCE intrinsic " + first +
                                     ": compiled over ptosim's CCE intrinsics with " + paths.clang +
                                     " (--pto-headers=ptolab keeps ptolab's headers)"});
}

bool plan_build(const Options& o, const Paths& paths, bool dry_run, Plan& plan, std::vector<Diag>& diags) {
    std::vector<ClassifiedInput> inputs;
    if (!classify_inputs(o, inputs, diags)) return false;
    JobContext ctx;
    if (dry_run) {
        ctx.temp_dir = (fs::temp_directory_path() / "ptocc-XXXXXX").string();
    } else {
        std::string tmpl = (fs::temp_directory_path() / "ptocc-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            diags.push_back({Diag::Error, std::string("cannot create a temporary directory: ") + std::strerror(errno) +
                                              "; set TMPDIR to a writable directory"});
            return false;
        }
        ctx.temp_dir = tmpl;
    }
    plan.temp_dir = ctx.temp_dir;
    for (const ClassifiedInput& in : inputs) {
        std::string& text = ctx.texts.emplace_back();
        if (!in.link_only && !read_file(in.path, text)) {
            diags.push_back({Diag::Error, "cannot read " + in.path + ": " + std::strerror(errno)});
            return false;
        }
    }
    ctx.stderr_is_terminal = !dry_run && isatty(STDERR_FILENO);
    ctx.infer_kinds = !dry_run;
    return plan_jobs(o, paths, inputs, ctx, plan, diags);
}

bool plan_jobs(const Options& o, const Paths& paths, const std::vector<ClassifiedInput>& inputs, const JobContext& ctx,
               Plan& plan, std::vector<Diag>& diags) {
    plan.temp_dir = ctx.temp_dir;
    const std::string& tmp = plan.temp_dir;
    Compile cf = host_flags(o, paths, diags);
    route_cce_direct(o, paths, inputs, ctx, cf, diags);
    plan.compiler = paths.cxx;
    plan.diagnostics.foreign_dirs = {paths.include_dir};
    plan.diagnostics.foreign_dirs.insert(plan.diagnostics.foreign_dirs.end(), cf.demoted.begin(), cf.demoted.end());
    // The compiler's stderr is read through a file, which turns its automatic
    // colours off; a terminal keeps them unless the user chose.
    bool colour = ctx.stderr_is_terminal;
    for (const std::string& f : cf.flags)
        if (f.rfind("-fdiagnostics-color", 0) == 0 || f.rfind("-fno-diagnostics-color", 0) == 0 ||
            f.rfind("-fcolor-diagnostics", 0) == 0 || f.rfind("-fno-color-diagnostics", 0) == 0)
            colour = false;
    std::vector<std::string> lib_flags = {"-L" + paths.lib_dir, "-Wl,-rpath," + paths.lib_dir, "-lptosim"};
    std::vector<std::string> user_link = cann_link_flags(o.link);
    for (const char* strip : {"-s", "-Wl,-s", "-Wl,--strip-all", "-Wl,-S", "-Wl,--strip-debug"})
        if (std::erase(user_link, std::string(strip)) > 0)
            diags.push_back({Diag::Note, std::string(strip) +
                                             " not passed to the link: ptosim names the user's call of a PTO "
                                             "instruction in faults and checker reports from the library's line "
                                             "tables, which it strips"});
    lib_flags.insert(lib_flags.end(), user_link.begin(), user_link.end());
    lib_flags.push_back("-pthread");

    std::string all_args;
    for (const std::string& a : o.user_args) all_args += a + '\x1f';

    Step compiles;  // every variant of every source, concurrently
    Step variant_links, stub_compiles, merges;
    std::vector<Step> dep_fixes;
    std::vector<Step> writes;
    // The user's pto-isa headers that spell bisheng's dialect, translated for
    // clang, searched ahead of the tree itself (bisheng_dialect.hpp). With
    // the cache on, the copy is kept there under its content's hash, so
    // builds of one tree share it and the precompiled header made from it.
    std::string dialect_dir = tmp + "/pto-isa-dialect";
    plan.pch_roots = {paths.include_dir};
    if (cf.pto_isa) {
        std::vector<TranslatedHeader> headers = translate_dialect(cf.pto_isa->include_dir);
        std::string names;
        size_t copied = 0;
        Hash128 content;
        content.add(std::string("ptocc pto-isa copy v1"));
        for (const TranslatedHeader& h : headers) {
            if (h.translated) names += " " + h.relative;
            else ++copied;
            content.add(h.relative);
            content.add(h.text);
        }
        names += "; " + std::to_string(copied) + " more copied unchanged";
        const bool shared = plan.cache.results;
        if (shared) dialect_dir = shared_copy_dir(plan.cache, content.hex());
        plan.pch_roots = {dialect_dir, cf.pto_isa->include_dir, paths.include_dir};
        const auto fill = [headers](const std::string& into, std::string& err) {
            std::error_code ec;
            for (const TranslatedHeader& h : headers) {
                const fs::path to = fs::path(into) / h.relative;
                fs::create_directories(to.parent_path(), ec);
                if (ec) {
                    err = "cannot create " + to.parent_path().string() + ": " + ec.message();
                    return false;
                }
                if (!write_file(to.string(), h.text, err)) return false;
            }
            return true;
        };
        writes.push_back({"write " + dialect_dir + ": pto-isa's headers in bisheng's dialect, for clang:" + names,
                          {},
                          [dialect_dir, fill, shared](std::string& err) {
                              return shared ? publish_copy(dialect_dir, fill, err) : fill(dialect_dir, err);
                          }});
    }
    // The user's own include directories: where a kernel's headers with
    // launches or device asm are looked for (not ptolab's include/, not a
    // pto-isa tree, which has its own copy above).
    std::vector<std::string> user_dirs;
    for (const CompileFlag& f : o.compile) {
        if (f.type != CompileFlag::Include || same_dir(f.include_dir, paths.include_dir)) continue;
        if (cf.pto_isa && same_dir(f.include_dir, cf.pto_isa->include_dir)) continue;
        if (std::find(cf.demoted.begin(), cf.demoted.end(), f.include_dir) != cf.demoted.end()) continue;
        user_dirs.push_back(f.include_dir);
    }
    std::vector<std::string> link_inputs;
    int serial = 0;
    bool need_version_script = false;

    for (size_t index = 0; index < inputs.size(); ++index) {
        const ClassifiedInput& in = inputs[index];
        if (in.link_only) {
            link_inputs.push_back(in.path);
            continue;
        }
        const Lang lang = in.lang;
        const std::string& text = ctx.texts.at(index);
        const std::string base = tmp + "/" + std::to_string(serial++) + "-" + temp_stem(in.path);
        std::string obj_out = o.compile_only ? (o.output.empty() ? fs::path(in.path).stem().string() + ".o" : o.output) : base + ".o";
        std::error_code ec;
        const std::string abs_src = fs::absolute(in.path, ec).string();
        // The id must not depend on the temporary directory, or no two builds
        // of one kernel would compile the same source (and none would be cached).
        const std::string tu_out = o.compile_only ? obj_out
                                                  : fs::absolute(o.output.empty() ? "a.out" : o.output, ec).string() +
                                                        '#' + std::to_string(serial - 1);
        // Nor on where a copy of the tree lies, when the cache is told its
        // root: copies would otherwise compile again what the first copy did.
        const uint64_t tu = fnv1a(base_relative(abs_src + '\0' + tu_out + '\0' + all_args, plan.cache.base) +
                                  (o.device ? "device" : "host"));

        std::string src = in.path;
        std::vector<std::string> quote;
        bool launches = lang != Lang::C && has_launch_syntax(text);
        if (launches && lang != Lang::Cce) {
            diags.push_back({Diag::Error, in.path + ": has kernel<<<...>>> launch syntax but is compiled as host code (" +
                                              (o.device ? "-xc++" : "no --cce-aicore-arch") +
                                              "); build it with --cce-aicore-arch=<arch> (and -xcce)"});
            return false;
        }
        const bool device_asm = lang == Lang::Cce && has_device_asm(text);
        // Launches and device asm in the kernel's own headers (a template
        // kernel launched from a header, a SYS_CNT read in a benchmark
        // header): the source and those headers compile from copies.
        const HeaderCopies header_copies =
            lang == Lang::Cce ? copies_of_headers(abs_src, text, user_dirs, base) : HeaderCopies{};
        // A rewritten source's kernel definitions also record their core
        // type (docs/ptocc.md, "A kernel launched from another translation
        // unit"). A source without launches is not rewritten for them: its
        // object would then name a temporary file, and no two builds (nor a
        // cached object and a fresh one) would give the same bytes.
        const bool rewritten = launches || device_asm || header_copies.needed;
        launches = launches || header_copies.launches;
        if (rewritten) {
            RewriteResult r = rewrite_launches(text, in.path, device_asm);
            if (r.device_asm > 0)
                plan.rewrite_notes.push_back(in.path + ": " + std::to_string(r.device_asm) +
                                             " device asm statement(s) run as ptosim::cc::device_asm: 'nop' does "
                                             "nothing, 'MOV %0, SYS_CNT' reads get_sys_cnt(), 'MOV %0, PC' reads 0; "
                                             "any other assembly stops the kernel when reached (docs/ptocc.md)");
            for (const RewriteDiag& d : r.errors)
                plan.rewrite_notes.push_back(in.path + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
                                             ": " + d.message);
            src = header_copies.needed ? header_copies.source_dir + "/" + temp_stem(in.path) + ".ptocc.cpp"
                                       : base + ".ptocc.cpp";
            if (!r.columns.empty())
                plan.diagnostics.rewritten[in.path] = moved_columns(text, r.text, r.columns);
            const std::string out_text = std::move(r.text);
            writes.push_back({"rewrite " + std::to_string(r.launches) + " launch site(s) of " + in.path + " into " + src,
                              {},
                              [src, out_text](std::string& err) { return write_in_new_dir(src, out_text, err); }});
            std::string dir = fs::path(abs_src).parent_path().string();
            quote = {"-iquote", dir.empty() ? "." : dir};
            int site = r.launches;
            for (const HeaderCopy& h : header_copies.files) {
                std::string out = h.text;
                if (h.rewrite) {
                    RewriteResult hr = rewrite_launches(h.text, h.from, has_device_asm(h.text), site);
                    site += hr.launches;
                    if (hr.device_asm > 0)
                        plan.rewrite_notes.push_back(h.from + ": " + std::to_string(hr.device_asm) +
                                                     " device asm statement(s) run as ptosim::cc::device_asm");
                    for (const RewriteDiag& d : hr.errors)
                        plan.rewrite_notes.push_back(h.from + ":" + std::to_string(d.line) + ":" +
                                                     std::to_string(d.column) + ": " + d.message);
                    if (!hr.columns.empty())
                        plan.diagnostics.rewritten[h.from] = moved_columns(h.text, hr.text, hr.columns);
                    out = std::move(hr.text);
                }
                const std::string to = h.to;
                writes.push_back({(h.rewrite ? "rewrite the launches and device asm of " : "copy ") + h.from +
                                      " into " + to + " (a header of " + in.path + ")",
                                  {},
                                  [to, out](std::string& err) { return write_in_new_dir(to, out, err); }});
            }
            for (const auto& [copy_dir, dir_of] : header_copies.dirs)
                if (copy_dir != header_copies.source_dir) quote.insert(quote.end(), {"-I", copy_dir});
        }

        // Dependency output goes with the compile of the user's source (the
        // primary variant); the target is the user's object, never a temp file.
        std::vector<std::string> dep = o.depend;
        std::string dep_file = o.dep_file;
        if (!dep.empty()) {
            bool md = false;
            for (const std::string& d : dep) md |= d == "-MD" || d == "-MMD";
            if (md && dep_file.empty()) {
                dep_file = (fs::path(obj_out).parent_path() / fs::path(obj_out).stem()).string() + ".d";
                dep.insert(dep.end(), {"-MF", dep_file});
            }
            if (!o.dep_target) dep.insert(dep.end(), {"-MT", obj_out});
            if (rewritten && !dep_file.empty()) {
                std::string from = src, to = abs_src;
                dep_fixes.push_back({"name " + in.path + " instead of " + src + " in " + dep_file,
                                     {},
                                     [dep_file, from, to](std::string& err) {
                                         return replace_in_file(dep_file, from, depfile_escape(to), err);
                                     }});
                for (const auto& [copy_dir, dir_of] : header_copies.dirs) {
                    std::string from_dir = copy_dir + "/", to_dir = dir_of + "/";
                    dep_fixes.push_back({"name " + to_dir + " instead of " + from_dir + " in " + dep_file,
                                         {},
                                         [dep_file, from_dir, to_dir](std::string& err) {
                                             return replace_in_file(dep_file, from_dir, depfile_escape(to_dir), err);
                                         }});
                }
            }
            if (cf.pto_isa && lang == Lang::Cce && !dep_file.empty()) {
                // The copy of the pto-isa headers is temporary: the
                // dependency file names the user's headers it was made from.
                std::string from = dialect_dir + "/", to = cf.pto_isa->include_dir + "/";
                dep_fixes.push_back({"name " + to + " instead of " + from + " in " + dep_file,
                                     {},
                                     [dep_file, from, to](std::string& err) {
                                         return replace_in_file(dep_file, from, depfile_escape(to), err);
                                     }});
            }
        }

        auto compile_cmd = [&](const std::vector<std::string>& macros, bool hidden, const std::string& out,
                               bool with_deps = true) {
            // A pto-isa build searches the user's tree (its translated
            // headers first) ahead of ptolab's include/, which then only
            // supplies what pto-isa does not ship (acl/, the CCE layer).
            // Its host translation units too: a host main.cpp that includes
            // pto/common/type.hpp (pto-isa's tquant, tcmp) sees the tree the
            // kernels are compiled from, not ptolab's own pto/.
            const bool over_cce = cf.over_cce && lang == Lang::Cce;
            const bool user_first = over_cce || (cf.pto_isa.has_value() && lang != Lang::Cce);
            std::vector<std::string> c = {over_cce ? paths.clang : paths.cxx, cf.std_flag, "-fPIC"};
            if (over_cce) c.push_back("-I" + dialect_dir);
            else if (!user_first) c.push_back("-I" + paths.include_dir);
            c.insert(c.end(), quote.begin(), quote.end());
            c.insert(c.end(), macros.begin(), macros.end());
            if (launches) c.push_back("-DPTOCC_TU_ID=0x" + ptolab::common::hex16(tu) + "ull");
            c.insert(c.end(), cf.flags.begin(), cf.flags.end());
            for (const std::string& d : cf.demoted) {
                c.push_back("-idirafter");
                c.push_back(d);
            }
            if (user_first) c.push_back("-I" + paths.include_dir);
            // bisheng compiles host code with clang, which has __fp16 built
            // in (pto-isa's trowprod instantiates its host test with it);
            // ptolab's pto/common/type.hpp gave a GCC host TU ptolab's
            // binary16 as __fp16, which pto-isa's type.hpp does not.
            if (user_first && !over_cce && lang == Lang::Cxx) c.insert(c.end(), {"-include", "cce/types.hpp"});
            if (hidden) c.push_back("-fvisibility=hidden");
            if (colour) c.push_back("-fdiagnostics-color=always");
            if (with_deps) c.insert(c.end(), dep.begin(), dep.end());
            c.insert(c.end(), {"-x", lang == Lang::C ? "c" : "c++", "-c", src, "-o", out});
            if (lang == Lang::C) {
                // A C input keeps its own language standard.
                c[1] = "-std=gnu17";
            }
            return c;
        };

        if (lang != Lang::Cce) {
            compiles.run.push_back(compile_cmd({}, false, obj_out));
            link_inputs.push_back(obj_out);
            continue;
        }
        // Without a core-type suffix the kernel's own code decides (docs/ptocc.md, "Kernel type").
        Options ok = o;
        if (o.infer_kind && ctx.infer_kinds) {
            std::string note, error;
            ok.kind = infer_input_kind(o, paths, cf, quote, abs_src, base, plan, note, error);
            if (!error.empty()) {
                diags.push_back({Diag::Error, in.path + ": " + error});
                return false;
            }
            if (note.rfind("warning: ", 0) == 0)
                diags.push_back({Diag::Warning, in.path + ": " + note.substr(9)});
            else if (!note.empty() && o.verbose)
                diags.push_back({Diag::Note, in.path + ": " + note});
            else if (!note.empty())
                plan.rewrite_notes.push_back(in.path + ": " + note);
        }
        const bool mix = ok.kind == Kind::Mix;
        const bool primary_cube = ok.kind != Kind::Vec;
        // Without a launch site nothing would ever call the second variant.
        const bool with_secondary = mix && launches;
        const std::string primary_obj = with_secondary ? base + (primary_cube ? ".aic.o" : ".aiv.o") : obj_out;
        compiles.run.push_back(compile_cmd(device_macros(ok, primary_cube, 0, cf.over_cce), false, primary_obj));
        if (!with_secondary) {
            link_inputs.push_back(obj_out);
            continue;
        }
        const std::string sec_obj = base + ".aiv.o", sec_so = base + ".aiv.so";
        compiles.run.push_back(compile_cmd(device_macros(ok, false, 1, cf.over_cce), true, sec_obj, false));
        need_version_script = true;
        std::vector<std::string> l = {paths.cxx, "-shared", "-fPIC", "-o", sec_so, sec_obj,
                                      "-Wl,--version-script=" + tmp + "/variant.map"};
        l.insert(l.end(), lib_flags.begin(), lib_flags.end());
        variant_links.run.push_back(l);
        const std::string stub = base + ".stub.cpp", stub_obj = base + ".stub.o";
        const std::string stub_text = stub_source(tu, fs::absolute(sec_so, ec).string(), in.path);
        writes.push_back({"write " + stub + ": embeds " + sec_so + " (the Vector variant) and registers it at load",
                          {},
                          [stub, stub_text](std::string& err) { return write_file(stub, stub_text, err); }});
        stub_compiles.run.push_back({paths.cxx, "-std=c++20", "-fPIC", "-x", "c++", "-c", stub, "-o", stub_obj});
        if (o.compile_only) {
            merges.run.push_back({paths.cxx, "-r", "-nostdlib", "-o", obj_out, primary_obj, stub_obj});
        } else {
            link_inputs.push_back(primary_obj);
            link_inputs.push_back(stub_obj);
        }
    }
    if (need_version_script) {
        std::string path = tmp + "/variant.map";
        writes.push_back({"write " + path + ": the variant object exports nothing, its constructors register it",
                          {},
                          [path](std::string& err) { return write_file(path, "{ local: *; };\n", err); }});
    }
    for (Step& w : writes) plan.steps.push_back(std::move(w));
    compiles.compiles = compiles.cached = true;
    if (!compiles.run.empty()) plan.steps.push_back(std::move(compiles));
    for (Step& f : dep_fixes) plan.steps.push_back(std::move(f));
    for (Step* s : {&variant_links, &stub_compiles, &merges}) {
        s->cached = true;
        if (!s->run.empty()) plan.steps.push_back(std::move(*s));
    }
    if (!o.compile_only) {
        // Linked in the temporary directory and published whole: a failed or
        // killed link never leaves half a library where a program loads it.
        const std::string output = o.output.empty() ? "a.out" : o.output;
        const std::string linked = tmp + "/linked-" + fs::path(output).filename().string();
        std::vector<std::string> l = {paths.cxx};
        if (o.shared) l.insert(l.end(), {"-shared", "-fPIC"});
        l.insert(l.end(), {"-o", linked});
        l.insert(l.end(), link_inputs.begin(), link_inputs.end());
        l.insert(l.end(), lib_flags.begin(), lib_flags.end());
        Step link{"", {l}, nullptr};
        link.cached = true;
        plan.steps.push_back(std::move(link));
        plan.steps.push_back({"publish " + linked + " as -o " + output + " (a temporary file beside it, renamed over it)",
                              {},
                              [linked, output](std::string& err) { return publish_file(linked, output, err); }});
    }
    return true;
}

namespace {

void print_diags(const std::vector<Diag>& diags) {
    for (const Diag& d : diags) {
        const char* lvl = d.level == Diag::Error ? "error" : d.level == Diag::Warning ? "warning" : "note";
        std::fprintf(stderr, "ptocc: %s: %s\n", lvl, d.text.c_str());
    }
}

bool has_error(const std::vector<Diag>& diags) {
    for (const Diag& d : diags)
        if (d.level == Diag::Error) return true;
    return false;
}

void print_command(const std::vector<std::string>& c, FILE* f) {
    std::string line;
    for (const std::string& a : c) line += (line.empty() ? "" : " ") + shell_quote(a);
    std::fprintf(f, "%s\n", line.c_str());
}

// GCC reports display columns, clang bytes; they differ on lines with tabs.
bool compiler_is_clang(const std::string& cxx) {
    FILE* p = popen((shell_quote(cxx) + " --version 2>/dev/null").c_str(), "r");
    if (!p) return false;
    std::string v;
    char buf[512];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) v.append(buf, n);
    pclose(p);
    return v.find("clang") != std::string::npos;
}

// The Cube and Vector variants of a mix kernel usually fail with the same
// messages: an output identical to one already printed is not repeated.
void print_compiler_output(const Plan& plan, const std::vector<std::string>& files) {
    std::vector<std::string> shown;
    for (const std::string& f : files) {
        std::string text;
        if (!read_file(f, text) || text.empty()) continue;
        if (std::find(shown.begin(), shown.end(), text) != shown.end()) continue;
        shown.push_back(text);
        DiagnosticContext ctx = plan.diagnostics;
        if (!ctx.rewritten.empty()) ctx.display_columns = !compiler_is_clang(plan.compiler);
        const std::string out = tidy_diagnostics(text, ctx);
        std::fwrite(out.data(), 1, out.size(), stderr);
    }
    std::fflush(stderr);
}

int execute(const Plan& plan, bool dry_run, bool verbose) {
    for (const Step& s : plan.steps) {
        if (dry_run) {
            if (!s.note.empty()) std::printf("# %s\n", s.note.c_str());
            for (const auto& c : s.run) print_command(c, stdout);
            continue;
        }
        if (s.act) {
            std::string err;
            if (!s.act(err)) {
                std::fprintf(stderr, "ptocc: error: %s\n", err.c_str());
                return 1;
            }
        }
        std::vector<std::pair<pid_t, size_t>> pids;  // and the index of its command
        std::vector<std::string> captured;
        std::vector<CachedCompile> cached(s.run.size());
        std::vector<std::string> err_of(s.run.size());
        const int64_t started = now_ns();
        int status = 0;
        for (size_t i = 0; i < s.run.size(); ++i) {
            const auto& c = s.run[i];
            if (verbose) print_command(c, stderr);
            pid_t pid = 0;
            std::string err_file;
            if (s.compiles && !plan.temp_dir.empty())
                err_file = plan.temp_dir + "/stderr-" + std::to_string(captured.size()) + ".txt";
            err_of[i] = err_file;
            const std::vector<std::string>* argv = &c;
            if (s.cached && plan.cache.results) {
                cached[i] = prepare_cached(c, plan.temp_dir, plan.compiler_id, static_cast<int>(i), plan.cache.base);
                std::string note;
                if (restore_cached(plan.cache, cached[i], plan.temp_dir, err_file, note)) {
                    if (verbose) std::fprintf(stderr, "ptocc: %s from the cache\n", cached[i].output.c_str());
                    if (!err_file.empty()) captured.push_back(err_file);
                    continue;
                }
                if (verbose && !note.empty()) std::fprintf(stderr, "ptocc: %s\n", note.c_str());
                note.clear();
                if (use_pch(plan.cache, cached[i], plan.temp_dir, plan.compiler_id, plan.pch_roots, c[0],
                            static_cast<int>(i), note) &&
                    verbose)
                    print_command(cached[i].argv, stderr);
                if (verbose && !note.empty()) std::fprintf(stderr, "ptocc: %s\n", note.c_str());
                argv = &cached[i].argv;
            }
            if (int rc = run_command(*argv, &pid, err_file); rc != 0) {
                std::fprintf(stderr, "ptocc: error: cannot run %s: %s; check that it is installed and on PATH\n",
                             c[0].c_str(), std::strerror(rc));
                status = 127;
                continue;
            }
            pids.push_back({pid, i});
            if (!err_file.empty()) captured.push_back(err_file);
        }
        for (auto [p, i] : pids) {
            int code = ptolab::common::wait_exit(p);
            if (code != 0 && !cached[i].pch_header.empty()) {
                // The messages of a failed compile are those of the plain
                // one: include chains never name the precompiled header.
                pid_t again = 0;
                if (run_command(s.run[i], &again, err_of[i]) == 0) code = ptolab::common::wait_exit(again);
                cached[i].key.clear();  // the run without our dependency flags leaves nothing to record
                cached[i].pch_header.clear();
                cached[i].pch_deps.clear();
            }
            if (code != 0 && status == 0) status = code;
            if (code == 0 && !fix_pch_depfile(cached[i]) && status == 0) {
                std::fprintf(stderr, "ptocc: error: cannot update the dependency file %s\n", cached[i].depfile.c_str());
                status = 1;
            }
            if (code == 0 && !cached[i].key.empty())
                store_cached(plan.cache, cached[i], plan.temp_dir, err_of[i], started);
        }
        print_compiler_output(plan, captured);
        if (status != 0) {
            for (const std::string& n : plan.rewrite_notes)
                std::fprintf(stderr, "ptocc: note: %s\n", n.c_str());
            return status;
        }
    }
    return 0;
}

// The files the build writes: -o, else what the compiler would name them.
std::vector<std::string> output_paths(const Options& o) {
    if (!o.output.empty()) return {o.output};
    if (!o.compile_only) return {"a.out"};
    std::vector<std::string> out;
    for (const Input& in : o.inputs)
        if (!in.link_only) out.push_back(fs::path(in.path).stem().string() + ".o");
    return out;
}

bool has_source_extension(const std::string& path) {
    static const char* kSource[] = {".c",  ".C",   ".cc",  ".cp",  ".cpp", ".cxx", ".c++", ".cce",
                                    ".h",  ".H",   ".hh",  ".hpp", ".hxx", ".h++", ".inc", ".inl"};
    const std::string ext = fs::path(path).extension().string();
    for (const char* e : kSource)
        if (ext == e) return true;
    return false;
}

// A swapped `kernel.cpp -o kernel.cpp` would replace the kernel source with a
// shared object, and the compiler would not object: refused for every
// toolchain, before anything runs.
void refuse_overwriting_sources(const Options& o, std::vector<Diag>& diags) {
    for (const std::string& out : output_paths(o)) {
        const std::string stem = fs::path(out).stem().string();
        const std::string suggestion = o.compile_only ? stem + ".o" : "lib" + stem + ".so";
        bool is_input = false;
        for (const Input& in : o.inputs) {
            if (!ptolab::common::same_file(in.path, out)) continue;
            diags.push_back({Diag::Error, "output " + out + " is the input " + in.path +
                                              ": the build would overwrite it; name the output something else, e.g. "
                                              "-o " + suggestion});
            is_input = true;
            break;
        }
        if (!is_input && has_source_extension(out))
            diags.push_back({Diag::Error, "output " + out + " would overwrite a source file (" +
                                              fs::path(out).extension().string() +
                                              " is a source or header extension); name the output e.g. -o " +
                                              suggestion});
    }
}

// What the host compiler would only report after other steps ran (or, for
// a directory, report as a missing file).
void check_simulator_paths(const Options& o, std::vector<Diag>& diags) {
    for (const Input& in : o.inputs) {
        struct stat st {};
        if (stat(in.path.c_str(), &st) != 0)
            diags.push_back({Diag::Error, in.path + ": " + std::strerror(errno) + "; check the path"});
        else if (S_ISDIR(st.st_mode))
            diags.push_back({Diag::Error, in.path + ": is a directory; name the source or object file in it"});
    }
    for (const std::string& out : output_paths(o)) {
        std::error_code ec;
        if (fs::is_directory(out, ec)) {
            diags.push_back({Diag::Error, "output " + out + ": is a directory; name a file in it, e.g. -o " +
                                              (fs::path(out) / "libkernel.so").string()});
            continue;
        }
        const fs::path dir = fs::path(out).parent_path();
        if (dir.empty()) continue;
        struct stat st {};
        if (stat(dir.c_str(), &st) != 0)
            diags.push_back({Diag::Error, "output " + out + ": directory " + dir.string() + ": " +
                                              std::strerror(errno) + "; create it first (mkdir -p " +
                                              shell_quote(dir.string()) + ")"});
        else if (!S_ISDIR(st.st_mode))
            diags.push_back({Diag::Error, "output " + out + ": " + dir.string() + " is not a directory; fix the path"});
    }
}

}  // namespace

int run_ptocc(const std::vector<std::string>& args) {
    std::vector<Diag> diags;
    Options o = parse_args(args, diags);
    if (o.help) {
        std::printf("%s", help_text().c_str());
        return 0;
    }
    if (!o.print_flag_table.empty()) {
        const std::string md = flag_table_markdown(o.print_flag_table);
        if (md.empty()) {
            std::fprintf(stderr, "ptocc: error: --print-flag-table-markdown=%s: use own, sim or ignored\n",
                         o.print_flag_table.c_str());
            return 2;
        }
        std::printf("%s", md.c_str());
        return 0;
    }
    if (o.version) {
        std::printf("ptocc (ptolab) 0.1.0: bisheng command line for the ptosim simulator\n");
        return 0;
    }
    bool resolved = !has_error(diags) && resolve(o, diags);
    refuse_overwriting_sources(o, diags);

    Toolchain tc = o.toolchain;
    std::string bisheng;
    if (tc != Toolchain::Sim) {
        if (delegated()) {
            if (tc == Toolchain::Bisheng) {
                diags.push_back({Diag::Error, std::string("--toolchain=bisheng in a process started by ptocc (") +
                                                  kDelegatedEnv + " is set): the bisheng ptocc ran is ptocc again; "
                                                  "point PATH or ASCEND_HOME_PATH at CANN's bisheng"});
                print_diags(diags);
                return 1;
            }
        } else {
            bisheng = ptolab::common::find_bisheng();
        }
        if (tc == Toolchain::Bisheng && bisheng.empty()) {
            diags.push_back({Diag::Error, "--toolchain=bisheng but bisheng was not found in "
                                          "$ASCEND_HOME_PATH/compiler/ccec_compiler/bin or on PATH; source CANN's "
                                          "setenv.bash, or use --toolchain=sim"});
            print_diags(diags);
            return 1;
        }
        tc = bisheng.empty() ? Toolchain::Sim : Toolchain::Bisheng;
    }

    if (tc == Toolchain::Bisheng) {
        // bisheng knows flags ptocc does not: pass them on, but say so.
        for (const std::string& u : o.unknown)
            diags.push_back({Diag::Warning, "flag '" + u + "' is not in ptocc's bisheng model; passed to bisheng unchanged"});
        print_diags(diags);
        if (has_error(diags) || !resolved) return 1;
        std::vector<std::string> cmd = {bisheng};
        cmd.insert(cmd.end(), o.user_args.begin(), o.user_args.end());
        // If that bisheng is another ptocc (a copy, a wrapper script), it builds
        // for the simulator instead of looking for bisheng again.
        setenv(kDelegatedEnv, "1", 1);
        Plan p;
        p.steps.push_back({"", {cmd}, nullptr});
        return execute(p, o.dry_run, o.verbose);
    }

    for (const std::string& u : o.unknown)
        diags.push_back({Diag::Error, "unknown flag '" + u +
                                          "': ptocc accepts bisheng's flags listed in docs/ptocc.md; pass other host "
                                          "compiler flags between -Xhost-start and -Xhost-end"});
    check_simulator_paths(o, diags);
    if (has_error(diags) || !resolved) {
        print_diags(diags);
        return 1;
    }
    Paths paths = default_paths();
    Plan plan;
    if (!o.dry_run) {  // planning already uses the cache: kernel types it inferred before
        plan.cache = cache_settings();
        if (plan.cache.results) plan.compiler_id = compiler_identity(paths.cxx);
    }
    bool ok = plan_build(o, paths, o.dry_run, plan, diags);
    print_diags(diags);
    if (!ok) {
        if (!o.dry_run && !plan.temp_dir.empty()) {
            std::error_code ec;
            fs::remove_all(plan.temp_dir, ec);
        }
        return 1;
    }
    if (!o.dry_run) {
        if (const char* b = std::getenv("PTOCC_CACHE_BASEDIR"); b && *b && plan.cache.base.empty())
            std::fprintf(stderr, "ptocc: warning: PTOCC_CACHE_BASEDIR=%s is not a directory (or is /); ignored: "
                                 "set it to the root of the tree being built\n", b);
    }
    int rc = execute(plan, o.dry_run, o.verbose);
    if (!o.dry_run) {
        if (o.keep_temps) {
            std::fprintf(stderr, "ptocc: kept temporary files in %s\n", plan.temp_dir.c_str());
        } else {
            std::error_code ec;
            fs::remove_all(plan.temp_dir, ec);
        }
    }
    return rc;
}

}  // namespace ptocc
