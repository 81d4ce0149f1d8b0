// A table-driven argv loop: bisheng mixes GCC-style joined/separate forms
// (-I dir, -Idir), clang's -mllvm pairs and its own --cce-* flags, which a
// generic option parser would force into one shape; FlagForm names the shapes.
#include "options.hpp"

#include <cstring>

namespace ptocc {
namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

bool ends(const std::string& s, const char* suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

Lang lang_of(const std::string& v) {
    if (v == "cce") return Lang::Cce;
    if (v == "c++") return Lang::Cxx;
    if (v == "c") return Lang::C;
    return Lang::Auto;
}

bool is_link_input(const std::string& p) {
    return ends(p, ".o") || ends(p, ".a") || ends(p, ".so") || p.find(".so.") != std::string::npos;
}

const char* kRowA2A3 = "row 'A2A3 / DAV_2201' (dav-c220-vec, dav-c220-cube, dav-c220; memory macro -DMEMORY_BASE)";
const char* kRowA5 = "row 'A5 / DAV_3510' (dav-c310-vec, dav-c310-cube, dav-c310; memory macro -DREGISTER_BASE)";
const char* kTable = "the flag table of testing-pto-kernels.md";

}  // namespace

namespace {

using F = FlagForm;
using A = FlagAction;

const char* kClangWarning = "a clang warning option g++ does not have; dropped so the host compiler does not report it";

FlagSpec ignored(const char* spelling, F form, const char* usage, const char* why) {
    return {{{spelling, form}}, A::Ignored, true, usage, why, why};
}

}  // namespace

bool parse_pto_headers(const std::string& v, PtoHeaders& out) {
    if (v == "auto") out = PtoHeaders::Auto;
    else if (v == "pto-isa") out = PtoHeaders::PtoIsa;
    else if (v == "ptolab") out = PtoHeaders::Ptolab;
    else return false;
    return true;
}

const std::vector<FlagSpec>& flag_table() {
    static const std::vector<FlagSpec> v = [] {
        std::vector<FlagSpec> t = {
            // ptocc's own flags come first: they are taken out even inside -X...-start/-end brackets.
            {{{"--toolchain=", F::Prefix}}, A::Toolchain, false, "--toolchain=auto|sim|bisheng",
             "auto (default): bisheng if found ($ASCEND_HOME_PATH/compiler/ccec_compiler/bin or PATH), else sim; "
             "bisheng: an error if it is not found",
             "`auto` (default): bisheng if found, else the simulator; `sim`: always the simulator build; `bisheng`: "
             "bisheng, an error if it is not found"},
            {{{"--pto-headers=", F::Prefix}}, A::PtoHeaders, false, "--pto-headers=auto|pto-isa|ptolab",
             "pto-isa: compile the pto-isa tree on the -I path over ptosim's CCE intrinsics; ptolab: ptolab's own "
             "headers; auto (default, or PTOCC_PTO_HEADERS): the tree if it holds the target's pto/npu/<a2a3|a5>, "
             "else ptolab's",
             "`pto-isa`: compile the pto-isa tree named by `-I` (a checkout or CANN's include/) over "
             "ptosim's CCE intrinsic layer, with clang (a copy of its headers, kept in the cache, translates "
             "bisheng's dialect and wraps element stores, docs/intrinsics/README.md); host translation units of "
             "such a build search the user's `-I` ahead of ptolab's `include/` too, and force-include "
             "`cce/types.hpp` (`__fp16` for GCC); `ptolab`: ptolab's own tile-level headers; `auto` (default; "
             "`PTOCC_PTO_HEADERS` sets it too): a build whose `-I` names a tree holding pto-isa's implementation "
             "for its target (`pto/npu/a2a3` for A2A3, `pto/npu/a5` for A5) compiles that tree as `pto-isa` does, "
             "every other build ptolab's headers ([Headers](#headers))"},
            {{{"--dry-run", F::Exact}}, A::DryRun, false, "--dry-run", "print the commands without running them",
             "print the exact commands (and, as `# ...` lines, the files ptocc would write) without running anything"},
            {{{"--keep-temps", F::Exact}}, A::KeepTemps, false, "--keep-temps",
             "keep the temporary directory (rewritten sources, variant objects)",
             "keep the temporary directory (rewritten source, variant objects) and print its path"},
            {{{"--help", F::Exact}, {"-h", F::Exact}}, A::Help, false, "--help, -h", "print this help",
             "print the flags and exit"},
            {{{"--version", F::Exact}}, A::Version, false, "--version", "print ptocc's version", "print ptocc's version"},
            {{{"--print-flag-table-markdown=", F::Prefix}}, A::PrintFlagTable, false,
             "--print-flag-table-markdown=own|sim|ignored", nullptr,
             "print one of these tables as docs/ptocc.md has it"},

            {{{"-Xaicore-start", F::Exact}}, A::AicoreStart, true, "-Xaicore-start ... -Xaicore-end",
             "flags for bisheng's device compile only: dropped",
             "the flags in between are dropped: they are for bisheng's device compile, which a simulator build does "
             "not have",
             "-Xaicore-start ... -Xaicore-end",
             "bracket flags for bisheng's device compile only; they and the flags in between are dropped, since the "
             "simulator build has no device compile"},
            {{{"-Xaicore-end", F::Exact}}, A::AicoreEnd, true, "-Xaicore-end", nullptr,
             "closes `-Xaicore-start`; alone it is an error"},
            {{{"-Xhost-start", F::Exact}}, A::HostStart, true, "-Xhost-start ... -Xhost-end",
             "flags for the host compile: passed to the host compiler unparsed",
             "the flags in between go to the host compiler unparsed",
             "-Xhost-start / -Xhost-end",
             "bracket bisheng's host-only flags; a simulator build is entirely a host build, so the flags in between are "
             "passed to the host compiler unchanged"},
            {{{"-Xhost-end", F::Exact}}, A::HostEnd, true, "-Xhost-end", nullptr,
             "closes `-Xhost-start`; alone it is an error"},

            {{{"-v", F::Exact}}, A::Verbose, true, "-v", "print each command before running it",
             "print each command before running it (bisheng receives `-v` unchanged)"},
            {{{"--cce-aicore-arch=", F::Prefix}}, A::AicoreArch, true,
             "--cce-aicore-arch=dav-c220-vec|dav-c220-cube|dav-c220|dav-c310-vec|dav-c310-cube|dav-c310",
             "target (A2A3 = c220, A5 = c310) and kind (-vec Vector, -cube Cube; none: inferred from the kernel)",
             "target (A2A3 = c220, A5 = c310) and kind: `-vec` Vector-only, `-cube` Cube-only; without a suffix the "
             "kernel's code decides (Vector-only, Cube-only or mix, see \"Kernel type\"); sets the macros below"},
            {{{"--npu-arch=", F::Prefix}}, A::NpuArch, true, "--npu-arch=dav-2201|dav-3510",
             "target; alone, the kernel's code decides its kind",
             "target; must agree with `--cce-aicore-arch`. Alone, the kernel's code decides its kind (Vector-only, "
             "Cube-only or mix, see \"Kernel type\")"},
            {{{"--cce-soc-core-type=", F::Prefix}}, A::CoreType, true, "--cce-soc-core-type=VecCore|CubeCore|Mix",
             "kind; must agree with --cce-aicore-arch",
             "kind; must agree with `--cce-aicore-arch`; `VecCore`/`CubeCore` are an error with a mix arch (use the "
             "`-vec`/`-cube` arch), `Mix` with a `-vec`/`-cube` arch; `Mix` forces a mix build (no inference)"},
            {{{"--cce-soc-version=", F::Prefix}}, A::SocVersion, true, "--cce-soc-version=<SoC>",
             "target from CANN's SoC name (Ascend910B*, Ascend910_93*: A2A3; Ascend950*, Ascend910_95*: A5)",
             "target from CANN's SoC name: `Ascend910B*`, `Ascend910_93*` are A2A3; `Ascend950*`, `Ascend910_95*` (e.g. "
             "`Ascend910_9599`) are A5; must agree with the arch flags. Alone, the kernel's code decides its kind"},

            ignored("-mllvm", F::Separate, "-mllvm <option>",
                    "passes an option to bisheng's LLVM device back end; the simulator has no device code generator"),
            ignored("--cce-fatobj-link", F::Exact, "--cce-fatobj-link",
                    "makes bisheng link device fat objects; ptocc objects keep their core variants in ordinary ELF "
                    "sections, so a plain host link carries them"),
            ignored("-fPIC", F::Exact, "-fPIC",
                    "always on: every simulator build is position-independent so it can be loaded with dlopen"),
            ignored("-fpic", F::Exact, "-fpic",
                    "always on (as -fPIC): every simulator build is position-independent so it can be loaded with dlopen"),
            ignored("--cce-auto-sync", F::Prefix, "--cce-auto-sync[=...]",
                    "asks bisheng to insert pipe synchronisation itself; ptosim runs only the kernel's own "
                    "set_flag/wait_flag, so a kernel that relies on inserted syncs is reported by the simulator's race "
                    "and deadlock checks"),
            ignored("--cce-enable-print", F::Exact, "--cce-enable-print",
                    "enables device printf in bisheng; in the simulator a kernel's printf is the host's and always works"),
            ignored("--cce-enable-pto-passes", F::Exact, "--cce-enable-pto-passes",
                    "enables bisheng's PTO optimisation passes in the device back end, which the simulator does not have"),
            ignored("--cce-pto-enable", F::Exact, "--cce-pto-enable",
                    "enables bisheng's PTO support in the device compile (pto-isa's comm system tests pass it); the "
                    "simulator compiles PTO code without it"),
            ignored("--cce-aicore-only", F::Exact, "--cce-aicore-only",
                    "makes bisheng emit device code only; a simulator build always produces the host object that "
                    "carries the kernel"),
            ignored("--cce-mask-opt", F::Exact, "--cce-mask-opt",
                    "a device code generator optimisation; no device code is generated"),
        };
        for (const char* w : {"-Wno-macro-redefined", "-Wno-non-c-typedef-for-linkage", "-Wno-braced-scalar-init",
                              "-Wno-unknown-attributes", "-Wno-unused-command-line-argument",
                              "-Wno-unknown-warning-option", "-Wno-c++11-narrowing"})
            t.push_back(ignored(w, F::Exact, w, kClangWarning));
        t.push_back(ignored("-Wno-gnu-", F::Prefix, "-Wno-gnu-*", kClangWarning));
        for (const char* w : {"-Wno-deprecated-register", "-Wno-constant-conversion", "-Wno-implicit-int-float-conversion"})
            t.push_back(ignored(w, F::Exact, w, kClangWarning));

        std::vector<FlagSpec> rest = {
            // CMake's -MD -MT obj -MF obj.d: the driver attaches these to the
            // compile of the user's source, see driver.cpp.
            {{{"-M", F::Exact}, {"-MM", F::Exact}, {"-MD", F::Exact}, {"-MMD", F::Exact}, {"-MP", F::Exact}},
             A::DepSwitch, true, "-MD, -MMD, -MP, -M, -MM", "dependency output, for the compile of the user's source",
             "dependency output, given to the compile of the user's source only (the first core variant); ptocc adds "
             "`-MT <the -o object>` when no target is given and `-MF <object>.d` for `-MD`/`-MMD` without `-MF`, and "
             "rewrites the depfile so it names the user's source instead of ptocc's rewritten temporary copy. "
             "`-M`/`-MM` (to stdout) are passed as they are"},
            {{{"-MF", F::Separate}, {"-MT", F::Separate}, {"-MQ", F::Separate}, {"-MF", F::Joined}, {"-MT", F::Joined},
              {"-MQ", F::Joined}},
             A::DepValue, true, "-MF file, -MT target, -MQ target, -MFfile, -MTtarget, -MQtarget",
             "the dependency file and its target", "the dependency file and its target, as above"},
            {{{"-shared", F::Exact}}, A::Shared, true, "-shared", "link a shared library",
             "link a shared library (default output `a.out`, as bisheng)"},
            {{{"-c", F::Exact}}, A::CompileOnly, true, "-c", "compile only: one object per source, all variants in it",
             "one object per source carrying all variants (`-o` allowed with one source)"},
            {{{"-o", F::Separate}, {"-o", F::Joined}}, A::Output, true, "-o file, -ofile", "output", "output"},
            {{{"-x", F::Separate}, {"-x", F::Joined}}, A::Language, true, "-x cce, -xcce, -x c++, -xc++, -x c, -xc, -x none",
             "the language of the inputs that follow",
             "the language of the inputs that follow: `cce` a kernel source (rewritten, compiled per core variant), "
             "`c++` host C++, `c` C, `none` by extension",
             "-xcce / -x cce", "selects bisheng's CCE language; ptocc compiles such inputs as C++20 kernel sources"},
            {{{"-I", F::Separate}, {"-I", F::Joined}, {"-isystem", F::Separate}, {"-isystem", F::Joined}}, A::Include,
             true, "-I dir, -Idir, -isystem dir, -isystemdir", "include directory, after ptolab's include/",
             "after ptolab's `include/`; see \"Headers\""},
            {{{"-iquote", F::Separate}, {"-idirafter", F::Separate}}, A::Compile, true, "-iquote dir, -idirafter dir",
             "passed to the host compiler", "passed to the host compiler"},
            {{{"-D", F::Separate}, {"-U", F::Separate}, {"-include", F::Separate}, {"-D", F::Joined}, {"-U", F::Joined}},
             A::Define, true, "-D macro, -Dmacro, -U macro, -Umacro, -include file",
             "passed to the host compiler in order",
             "passed to the host compiler in order; `-DMEMORY_BASE`/`-DREGISTER_BASE` are checked by the lints; "
             "`-D_GLIBCXX_USE_CXX11_ABI=0` (as CANN's examples build, pto-isa's gemm_ar among them) is dropped "
             "with a note: ptosim's launch interface (`LaunchSpec`, with `std::string` members) and every C++ "
             "library ptolab links use the C++11 library ABI, and a kernel library built with the old one "
             "crashed at its first launch; code built elsewhere with the old ABI that passes a `std::string` to "
             "a function ptocc compiled fails to link instead"},
            {{{"-O", F::Prefix}, {"-g", F::Exact}, {"-g0", F::Exact}, {"-g1", F::Exact}, {"-g2", F::Exact},
              {"-g3", F::Exact}},
             A::Compile, true, "-O*, -g, -g0, -g1, -g2, -g3",
             "passed to the host compiler; without a -g, -g1 is added",
             "passed to the host compiler; without any `-g` option ptocc adds `-g1` (line tables only), so that "
             "reports name the line of an instruction called with template arguments (`docs/api.md`); "
             "`-fno-optimize-sibling-calls` is always added, so that such a call in tail position returns to its line"},
            {{{"-std=", F::Prefix}}, A::Compile, true, "-std=*", "kept if C++20 or newer, else raised to C++20",
             "kept if C++20 or newer, else raised to `-std=c++20` (`gnu++NN` to `-std=gnu++20`) with a note: ptolab's "
             "headers need C++20, so `-std=c++17` lines still build"},
            {{{"-s", F::Exact}},
             A::Link, true, "-s", "not passed to the link, with a note: the library keeps its line tables",
             "not passed to the link, with a note: ptosim names the user's call of a PTO instruction (a fault's or a "
             "checker report's `kernel.cpp:31 (via <pto-isa>/.../TAdd.hpp:45)`) from the kernel library's line "
             "tables (`-g1`, which ptocc adds), and `-s` would strip them; pto-isa's test CMake links with `-s`. "
             "`-Wl,-s`, `-Wl,--strip-all`, `-Wl,-S` and `-Wl,--strip-debug` are not passed on either"},
            {{{"-rdynamic", F::Exact}, {"-static-libstdc++", F::Exact}, {"-static-libgcc", F::Exact}},
             A::Link, true, "-rdynamic, -static-libstdc++, -static-libgcc", "passed to the link",
             "passed to the link"},
            // Code generation options (-fstack-protector-strong, -fno-rtti,
            // -fvisibility=...): the compile and the link both receive them.
            {{{"-f", F::Joined}}, A::CompileAndLink, true, "-f*", "passed to the compile and the link",
             "passed to the compile and the link (`-fPIC` and `-fpic` are always on, see below)"},
            {{{"-Wl,", F::Prefix}, {"-l", F::Separate}, {"-l", F::Joined}, {"-L", F::Separate}, {"-L", F::Joined}},
             A::Link, true, "-Wl,..., -l lib, -llib, -L dir, -Ldir", "passed to the link, CANN library names dropped",
             "passed to the link, except `-l<CANN library>` (`ascendcl`, `runtime`, `c_sec`, `tiling_api`, `platform`, "
             "`nnopbase`, ... `cann_library_names()` in `src/cc/options.cpp`), dropped because every one of them is "
             "libptosim, which ptocc always links; `-lruntime_camodel` is kept, wrapped in "
             "`-Wl,--push-state,--no-as-needed ... -Wl,--pop-state`, when a `-L` directory has "
             "`libruntime_camodel.so` (the SoC-selecting library of the CANN-shaped root, [drop-in.md](drop-in.md)), "
             "and dropped otherwise"},
            {{{"-W", F::Joined}}, A::Compile, true, "-W*", "passed to the host compiler",
             "passed to the host compiler (`-Wl,` goes to the link)"},
            {{{"-pthread", F::Exact}}, A::CompileAndLink, true, "-pthread", "passed to the compile and the link",
             "passed to the compile and the link"},
        };
        for (FlagSpec& f : rest) t.push_back(std::move(f));
        return t;
    }();
    return v;
}

FlagMatch match_flag(const std::string& w) {
    for (const FlagSpec& f : flag_table())
        for (const FlagSpelling& s : f.spellings) {
            const size_t n = std::strlen(s.text);
            const bool hit = s.form == F::Exact || s.form == F::Separate ? w == s.text
                             : s.form == F::Joined                        ? w.size() > n && starts(w, s.text)
                                                                          : starts(w, s.text);
            if (hit) return {&f, &s};
        }
    return {};
}

const std::vector<IgnoredFlag>& ignored_flags() {
    static const std::vector<IgnoredFlag> v = [] {
        static std::vector<std::string> prefixes;  // the matches ending in '*'; stable once built
        prefixes.reserve(flag_table().size());
        std::vector<IgnoredFlag> r;
        for (const FlagSpec& f : flag_table()) {
            if (f.ignored_as) r.push_back({f.ignored_as, "", false, f.ignored_why});
            if (f.action != A::Ignored) continue;
            const FlagSpelling& s = f.spellings.front();
            const char* match = s.text;
            if (s.form == F::Prefix) match = prefixes.emplace_back(std::string(s.text) + "*").c_str();
            r.push_back({f.usage, match, s.form == F::Separate, f.sim});
        }
        return r;
    }();
    return v;
}

const IgnoredFlag* find_ignored(const std::string& a) {
    for (const IgnoredFlag& f : ignored_flags()) {
        std::string m = f.match;
        if (m.empty()) continue;  // parsed by its own rule (-x, -X...-start/-end)
        if (m.back() == '*' ? starts(a, m.substr(0, m.size() - 1).c_str()) : a == m) return &f;
    }
    return nullptr;
}

namespace {

std::vector<std::string> split_usage(const std::string& usage) {
    std::vector<std::string> parts;
    for (size_t pos = 0;;) {
        size_t comma = usage.find(", ", pos);
        parts.push_back(usage.substr(pos, comma - pos));
        if (comma == std::string::npos) return parts;
        pos = comma + 2;
    }
}

// `a`, `b`: each form in code, '|' escaped for the table.
std::string md_flag(const char* usage) {
    std::string out;
    for (const std::string& p : split_usage(usage)) {
        std::string e;
        for (char c : p) e += c == '|' ? std::string("\\|") : std::string(1, c);
        out += (out.empty() ? "`" : ", `") + e + "`";
    }
    return out;
}

}  // namespace

std::string flag_table_markdown(const std::string& section) {
    std::string s;
    if (section == "own" || section == "sim") {
        const bool own = section == "own";
        s = own ? "| Flag | Effect |\n|------|--------|\n" : "| Flag | Simulator build |\n|------|-----------------|\n";
        for (const FlagSpec& f : flag_table()) {
            if (f.to_bisheng == own || f.action == A::Ignored) continue;
            s += "| " + md_flag(f.usage) + " | " + f.sim + " |\n";
        }
        if (!own)
            s += "| `.o`, `.a`, `.so` inputs | go to the link |\n"
                 "| anything else starting with `-` | error: `unknown flag '<flag>'` |\n";
    } else if (section == "ignored") {
        s = "| Flag | Why it has no effect in a simulator build |\n"
            "|------|-------------------------------------------|\n";
        for (const IgnoredFlag& f : ignored_flags()) s += std::string("| `") + f.flag + "` | " + f.reason + " |\n";
    }
    return s;
}

std::string help_text() {
    std::string s =
        "usage: ptocc [--toolchain=sim|bisheng|auto] [--dry-run] [--keep-temps] [bisheng flags] inputs...\n"
        "  Builds PTO kernels from bisheng's command line: for the ptosim simulator with the host C++\n"
        "  compiler, or with real bisheng when it is installed. Full reference: docs/ptocc.md.\n";
    // A flag wider than its column puts its text on the next line, aligned.
    auto row = [&s](const std::string& flag, const char* text) {
        constexpr size_t kColumn = 26;
        s += "  " + flag;
        s += flag.size() <= kColumn ? std::string(kColumn - flag.size() + 1, ' ') : "\n" + std::string(kColumn + 3, ' ');
        s += text;
        s += '\n';
    };
    for (int part = 0; part < 3; ++part) {
        s += part == 0   ? "ptocc's own flags (never passed to bisheng):\n"
             : part == 1 ? "bisheng flags in a simulator build (bisheng receives them unchanged):\n"
                         : "Device-only flags accepted and ignored in simulator builds:\n";
        if (part == 2) {
            for (const IgnoredFlag& f : ignored_flags()) row(f.flag, f.reason);
            continue;
        }
        for (const FlagSpec& f : flag_table())
            if (f.help && f.to_bisheng == (part == 1) && f.action != A::Ignored) row(f.usage, f.help);
    }
    return s;
}

std::optional<Target> soc_version_target(const std::string& soc) {
    // A5 first: Ascend910_95xx is an A5 part despite its 910 prefix.
    if (starts(soc, "Ascend950") || starts(soc, "Ascend910_95")) return Target::A5;
    if (starts(soc, "Ascend910B") || starts(soc, "Ascend910_93")) return Target::A2A3;
    return std::nullopt;
}

const std::vector<const char*>& cann_library_names() {
    static const std::vector<const char*> v = {
        "ascendcl", "runtime", "runtime_camodel", "c_sec", "tiling_api", "platform", "nnopbase", "profapi",
        "register", "ascend_hal", "graph", "ge_runner", "opapi", "error_manager", "acl_op_compiler", "ascendalog",
        "mmpa", "acl_cblas", "acl_dvpp", "ascend_protobuf", "exe_graph", "graph_base", "hccl", "ge_common",
        "ascendcl_impl", "msprofiler", "aicpu_kernels", "cust_opapi",
    };
    return v;
}

bool is_cann_library(const std::string& name) {
    for (const char* n : cann_library_names())
        if (name == n) return true;
    return false;
}

Options parse_args(const std::vector<std::string>& args, std::vector<Diag>& diags) {
    Options o;
    Lang lang = Lang::Auto;
    bool in_host = false, in_aicore = false;
    auto need_value = [&](size_t& i, const std::string& flag) -> std::optional<std::string> {
        if (i + 1 >= args.size()) {
            diags.push_back({Diag::Error, "flag '" + flag + "' needs a value after it (e.g. " + flag + " <value>)"});
            return std::nullopt;
        }
        o.user_args.push_back(args[i + 1]);
        return args[++i];
    };
    auto set_once = [&](std::optional<std::string>& slot, const std::string& flag, const std::string& v) {
        if (slot && *slot != v)
            diags.push_back({Diag::Error, "conflicting " + flag + " values '" + *slot + "' and '" + v +
                                              "'; pass one (" + kTable + ")"});
        slot = v;
    };
    auto memory_macro = [&](const std::string& v) {
        if (v == "MEMORY_BASE" || starts(v, "MEMORY_BASE=")) o.memory_base = true;
        if (v == "REGISTER_BASE" || starts(v, "REGISTER_BASE=")) o.register_base = true;
    };

    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const FlagMatch m = match_flag(a);
        if (m.spec && !m.spec->to_bisheng) {
            switch (m.spec->action) {
            case A::Toolchain: {
                std::string v = a.substr(12);
                if (v == "sim") o.toolchain = Toolchain::Sim;
                else if (v == "bisheng") o.toolchain = Toolchain::Bisheng;
                else if (v == "auto") o.toolchain = Toolchain::Auto;
                else diags.push_back({Diag::Error, "--toolchain='" + v + "' is not one of sim, bisheng, auto"});
                break;
            }
            case A::PtoHeaders: {
                std::string v = a.substr(std::strlen("--pto-headers="));
                if (!parse_pto_headers(v, o.pto_headers))
                    diags.push_back({Diag::Error, "--pto-headers='" + v + "' is not one of auto, pto-isa, ptolab"});
                break;
            }
            case A::DryRun: o.dry_run = true; break;
            case A::KeepTemps: o.keep_temps = true; break;
            case A::Help: o.help = true; break;
            case A::Version: o.version = true; break;
            case A::PrintFlagTable: o.print_flag_table = a.substr(std::strlen(m.spelling->text)); break;
            default: break;
            }
            continue;
        }

        o.user_args.push_back(a);
        const FlagAction act = m.spec ? m.spec->action : A::Ignored;
        if (in_aicore) {
            if (m.spec && act == A::AicoreEnd) in_aicore = false;
            o.ignored.push_back(a);
            continue;
        }
        if (m.spec && act == A::AicoreStart) { in_aicore = true; o.ignored.push_back(a); continue; }
        if (m.spec && act == A::AicoreEnd) {
            diags.push_back({Diag::Error, "'-Xaicore-end' without a preceding '-Xaicore-start'"});
            continue;
        }
        if (in_host) {
            if (m.spec && act == A::HostEnd) in_host = false;
            else o.host_only.push_back(a);
            continue;
        }
        if (!m.spec) {
            if (!a.empty() && a[0] == '-' && a != "-") {
                o.unknown.push_back(a);
                continue;
            }
            Input in;
            in.path = a;
            in.lang = lang;
            in.link_only = lang == Lang::Auto && is_link_input(a);
            o.inputs.push_back(in);
            continue;
        }

        // The flag as given and its value: the next word for a Separate
        // spelling, else the rest of the word.
        const std::string flag = m.spelling->text;
        const bool separate = m.spelling->form == F::Separate;
        std::string v;
        if (separate) {
            auto nv = need_value(i, a);
            if (!nv) continue;
            v = *nv;
        } else {
            v = a.substr(flag.size());
        }
        switch (act) {
        case A::HostStart: in_host = true; break;
        case A::HostEnd: diags.push_back({Diag::Error, "'-Xhost-end' without a preceding '-Xhost-start'"}); break;
        case A::Verbose: o.verbose = true; break;
        case A::AicoreArch: set_once(o.aicore_arch, "--cce-aicore-arch", v); break;
        case A::NpuArch: set_once(o.npu_arch, "--npu-arch", v); break;
        case A::CoreType: set_once(o.core_type, "--cce-soc-core-type", v); break;
        case A::SocVersion: set_once(o.soc_version, "--cce-soc-version", v); break;
        case A::Ignored: o.ignored.push_back(separate ? a + " " + v : a); break;
        case A::DepSwitch: o.depend.push_back(a); break;
        case A::DepValue:
            if (flag == "-MF") o.dep_file = v;
            else o.dep_target = true;
            o.depend.insert(o.depend.end(), {flag, v});
            break;
        case A::Shared: o.shared = true; break;
        case A::CompileOnly: o.compile_only = true; break;
        case A::Output: o.output = v; break;
        case A::Language:
            lang = lang_of(v);
            if (lang == Lang::Auto && v != "none")
                diags.push_back({Diag::Error, separate ? "-x " + v + ": unknown language; use cce, c++, c or none"
                                                       : a + ": unknown language; use -xcce, -xc++, -xc or -xnone"});
            break;
        case A::Include:
            o.compile.push_back({CompileFlag::Include, separate ? std::vector<std::string>{a, v} : std::vector{a}, v});
            break;
        case A::Define:
            if (flag == "-D") memory_macro(v);
            [[fallthrough]];
        case A::Compile:
            o.compile.push_back({CompileFlag::Plain, separate ? std::vector<std::string>{a, v} : std::vector{a}, {}});
            break;
        case A::Link: o.link.push_back(separate ? a + v : a); break;
        case A::CompileAndLink:
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            o.link.push_back(a);
            break;
        default: break;
        }
    }
    if (in_host) diags.push_back({Diag::Error, "'-Xhost-start' is not closed by '-Xhost-end'"});
    if (in_aicore) diags.push_back({Diag::Error, "'-Xaicore-start' is not closed by '-Xaicore-end'"});
    return o;
}

bool resolve(Options& o, std::vector<Diag>& diags) {
    bool ok = true;
    auto error = [&](std::string s) {
        diags.push_back({Diag::Error, std::move(s)});
        ok = false;
    };
    std::optional<Target> arch_target, npu_target;
    std::optional<Kind> arch_kind, type_kind;
    if (o.aicore_arch) {
        const std::string& v = *o.aicore_arch;
        if (v == "dav-c220-vec") arch_target = Target::A2A3, arch_kind = Kind::Vec;
        else if (v == "dav-c220-cube") arch_target = Target::A2A3, arch_kind = Kind::Cube;
        else if (v == "dav-c220") arch_target = Target::A2A3, arch_kind = Kind::Mix;
        else if (v == "dav-c310-vec") arch_target = Target::A5, arch_kind = Kind::Vec;
        else if (v == "dav-c310-cube") arch_target = Target::A5, arch_kind = Kind::Cube;
        else if (v == "dav-c310") arch_target = Target::A5, arch_kind = Kind::Mix;
        else
            error("--cce-aicore-arch=" + v +
                  " is not a PTO target; use dav-c220-vec, dav-c220-cube or dav-c220 (A2A3) or dav-c310-vec, "
                  "dav-c310-cube or dav-c310 (A5), per " + kTable);
    }
    if (o.npu_arch) {
        const std::string& v = *o.npu_arch;
        if (v == "dav-2201" || v == "2201") npu_target = Target::A2A3;
        else if (v == "dav-3510" || v == "3510") npu_target = Target::A5;
        else error("--npu-arch=" + v + " is not a PTO target; use dav-2201 (A2A3) or dav-3510 (A5), per " + kTable);
    }
    if (o.core_type) {
        const std::string& v = *o.core_type;
        if (v == "VecCore") type_kind = Kind::Vec;
        else if (v == "CubeCore") type_kind = Kind::Cube;
        else if (v == "Mix" || v == "MixCore" || v == "AiCore") type_kind = Kind::Mix;
        else error("--cce-soc-core-type=" + v + " is not a core type; use VecCore, CubeCore or Mix");
    }
    std::optional<Target> soc_target;
    if (o.soc_version) {
        soc_target = soc_version_target(*o.soc_version);
        if (!soc_target)
            error("--cce-soc-version=" + *o.soc_version +
                  " is not a PTO SoC; use an A2A3 name (Ascend910B1..Ascend910B4, Ascend910_93xx) or an A5 name "
                  "(Ascend950PR_xxxx, Ascend950DT_xxxx, Ascend910_95xx)");
    }
    if (soc_target && (arch_target || npu_target) && *soc_target != (arch_target ? *arch_target : *npu_target)) {
        const bool a5 = *soc_target == Target::A5;
        error("--cce-soc-version=" + *o.soc_version + " is " + (a5 ? "A5" : "A2A3") + " but " +
              (arch_target ? "--cce-aicore-arch=" + *o.aicore_arch : "--npu-arch=" + *o.npu_arch) + " is " +
              (a5 ? "A2A3" : "A5") + "; " + kTable + ", " + (a5 ? kRowA5 : kRowA2A3));
    }
    if (!arch_target && !npu_target && soc_target) npu_target = soc_target;
    if (arch_target && npu_target && *arch_target != *npu_target) {
        bool a5 = *arch_target == Target::A5;
        error("--cce-aicore-arch=" + *o.aicore_arch + " is " + (a5 ? "A5" : "A2A3") + " but --npu-arch=" + *o.npu_arch +
              " is " + (a5 ? "A2A3" : "A5") + "; " + kTable + ", " + (a5 ? kRowA5 : kRowA2A3) +
              ", pairs dav-c" + (a5 ? "310* with dav-3510" : "220* with dav-2201"));
    }
    if (arch_kind && type_kind && *type_kind == Kind::Mix && *arch_kind != Kind::Mix) {
        error("--cce-soc-core-type=" + *o.core_type + " asks for a mix build but --cce-aicore-arch=" + *o.aicore_arch +
              " builds one core type; drop the -vec/-cube suffix (" + kTable + ")");
    } else if (arch_kind && type_kind && *arch_kind == *type_kind) {
    } else if (arch_kind && type_kind) {
        if (*arch_kind == Kind::Mix)
            error("--cce-soc-core-type=" + *o.core_type + " conflicts with the mix architecture --cce-aicore-arch=" +
                  *o.aicore_arch + ", which builds both core types; use --cce-aicore-arch=" + *o.aicore_arch +
                  (*type_kind == Kind::Vec ? "-vec" : "-cube") + " for one core type (" + kTable + ", " +
                  (*arch_target == Target::A5 ? kRowA5 : kRowA2A3) + ")");
        else if (*arch_kind != *type_kind)
            error("--cce-soc-core-type=" + *o.core_type + " conflicts with --cce-aicore-arch=" + *o.aicore_arch +
                  " (a " + (*arch_kind == Kind::Vec ? "Vector" : "Cube") + " architecture); " + kTable + ", " +
                  (*arch_target == Target::A5 ? kRowA5 : kRowA2A3) + ", lists the " +
                  (*type_kind == Kind::Vec ? "Vector flag as -vec" : "Cube flag as -cube"));
    }
    if (!arch_target && !npu_target && type_kind)
        error("--cce-soc-core-type=" + *o.core_type +
              " needs a target: add --cce-aicore-arch, --npu-arch or --cce-soc-version");
    if (!ok) return false;

    o.device = arch_target || npu_target;
    if (!o.device) return true;
    o.target = arch_target ? *arch_target : *npu_target;
    o.kind = arch_kind ? *arch_kind : type_kind ? *type_kind : Kind::Mix;
    o.infer_kind = !type_kind && (!arch_kind || *arch_kind == Kind::Mix);

    const bool a5 = o.target == Target::A5;
    // The other target's macro is a warning: bisheng builds the kernel
    // whatever it defines, and neither pto-isa's headers nor ptolab's read
    // it (pto-isa's A5 moe_combine builds with -DMEMORY_BASE).
    const char* kMacroIsInert = " (the kernel builds as it would with bisheng: no PTO header reads the macro)";
    if (!a5 && o.register_base)
        diags.push_back({Diag::Warning, "-DREGISTER_BASE is the A5 memory macro but the target is A2A3; " +
                                            std::string(kTable) + ", " + kRowA2A3 +
                                            ", says A2A3 builds use -DMEMORY_BASE: replace -DREGISTER_BASE with "
                                            "-DMEMORY_BASE" + kMacroIsInert});
    if (a5 && o.memory_base)
        diags.push_back({Diag::Warning, "-DMEMORY_BASE is the A2A3 memory macro but the target is A5; " +
                                            std::string(kTable) + ", " + kRowA5 +
                                            ", says A5 builds use -DREGISTER_BASE: replace -DMEMORY_BASE with "
                                            "-DREGISTER_BASE" + kMacroIsInert});
    if (ok && !o.memory_base && !o.register_base)
        diags.push_back({Diag::Warning, std::string("no memory macro: ") + kTable + ", " + (a5 ? kRowA5 : kRowA2A3) +
                                            ", builds " + (a5 ? "A5" : "A2A3") + " kernels with " +
                                            (a5 ? "-DREGISTER_BASE" : "-DMEMORY_BASE") + "; add it"});
    return ok;
}

}  // namespace ptocc
