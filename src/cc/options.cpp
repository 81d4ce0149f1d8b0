// A hand-written argv loop: bisheng mixes GCC-style joined/separate forms
// (-I dir, -Idir), clang's -mllvm pairs and its own --cce-* flags, which a
// generic option parser would force into one shape.
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

const std::vector<IgnoredFlag>& ignored_flags() {
    static const char* kClangWarning =
        "a clang warning option g++ does not have; dropped so the host compiler does not report it";
    static const std::vector<IgnoredFlag> v = {
        {"-mllvm <option>", "-mllvm", true,
         "passes an option to bisheng's LLVM device back end; the simulator has no device code generator"},
        {"--cce-fatobj-link", "--cce-fatobj-link", false,
         "makes bisheng link device fat objects; ptocc objects keep their core variants in ordinary ELF sections, so "
         "a plain host link carries them"},
        {"-fPIC", "-fPIC", false,
         "always on: every simulator build is position-independent so it can be loaded with dlopen"},
        {"-fpic", "-fpic", false,
         "always on (as -fPIC): every simulator build is position-independent so it can be loaded with dlopen"},
        {"-xcce / -x cce", "", false, "selects bisheng's CCE language; ptocc compiles such inputs as C++20 kernel sources"},
        {"-Xhost-start / -Xhost-end", "", false,
         "bracket bisheng's host-only flags; a simulator build is entirely a host build, so the flags in between are "
         "passed to the host compiler unchanged"},
        {"-Xaicore-start ... -Xaicore-end", "", false,
         "bracket flags for bisheng's device compile only; they and the flags in between are dropped, since the "
         "simulator build has no device compile"},
        {"--cce-auto-sync[=...]", "--cce-auto-sync*", false,
         "asks bisheng to insert pipe synchronisation itself; ptosim runs only the kernel's own set_flag/wait_flag, "
         "so a kernel that relies on inserted syncs is reported by the simulator's race and deadlock checks"},
        {"--cce-enable-print", "--cce-enable-print", false,
         "enables device printf in bisheng; in the simulator a kernel's printf is the host's and always works"},
        {"--cce-enable-pto-passes", "--cce-enable-pto-passes", false,
         "enables bisheng's PTO optimisation passes in the device back end, which the simulator does not have"},
        {"--cce-aicore-only", "--cce-aicore-only", false,
         "makes bisheng emit device code only; a simulator build always produces the host object that carries the "
         "kernel"},
        {"--cce-mask-opt", "--cce-mask-opt", false, "a device code generator optimisation; no device code is generated"},
        {"-Wno-macro-redefined", "-Wno-macro-redefined", false, kClangWarning},
        {"-Wno-non-c-typedef-for-linkage", "-Wno-non-c-typedef-for-linkage", false, kClangWarning},
        {"-Wno-braced-scalar-init", "-Wno-braced-scalar-init", false, kClangWarning},
        {"-Wno-unknown-attributes", "-Wno-unknown-attributes", false, kClangWarning},
        {"-Wno-unused-command-line-argument", "-Wno-unused-command-line-argument", false, kClangWarning},
        {"-Wno-unknown-warning-option", "-Wno-unknown-warning-option", false, kClangWarning},
        {"-Wno-c++11-narrowing", "-Wno-c++11-narrowing", false, kClangWarning},
        {"-Wno-gnu-*", "-Wno-gnu-*", false, kClangWarning},
        {"-Wno-deprecated-register", "-Wno-deprecated-register", false, kClangWarning},
        {"-Wno-constant-conversion", "-Wno-constant-conversion", false, kClangWarning},
        {"-Wno-implicit-int-float-conversion", "-Wno-implicit-int-float-conversion", false, kClangWarning},
    };
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

    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        // ptocc's own flags never reach bisheng.
        if (starts(a, "--toolchain=")) {
            std::string v = a.substr(12);
            if (v == "sim") o.toolchain = Toolchain::Sim;
            else if (v == "bisheng") o.toolchain = Toolchain::Bisheng;
            else if (v == "auto") o.toolchain = Toolchain::Auto;
            else diags.push_back({Diag::Error, "--toolchain='" + v + "' is not one of sim, bisheng, auto"});
            continue;
        }
        if (a == "--dry-run") { o.dry_run = true; continue; }
        if (a == "--keep-temps") { o.keep_temps = true; continue; }
        if (a == "--help" || a == "-h") { o.help = true; continue; }
        if (a == "--version") { o.version = true; continue; }

        o.user_args.push_back(a);
        if (in_aicore) {
            if (a == "-Xaicore-end") in_aicore = false;
            o.ignored.push_back(a);
            continue;
        }
        if (a == "-Xaicore-start") { in_aicore = true; o.ignored.push_back(a); continue; }
        if (a == "-Xaicore-end") {
            diags.push_back({Diag::Error, "'-Xaicore-end' without a preceding '-Xaicore-start'"});
            continue;
        }
        if (in_host) {
            if (a == "-Xhost-end") in_host = false;
            else o.host_only.push_back(a);
            continue;
        }
        if (a == "-Xhost-start") { in_host = true; continue; }
        if (a == "-Xhost-end") {
            diags.push_back({Diag::Error, "'-Xhost-end' without a preceding '-Xhost-start'"});
            continue;
        }
        if (a == "-v") { o.verbose = true; continue; }
        if (starts(a, "--cce-aicore-arch=")) { set_once(o.aicore_arch, "--cce-aicore-arch", a.substr(18)); continue; }
        if (starts(a, "--npu-arch=")) { set_once(o.npu_arch, "--npu-arch", a.substr(11)); continue; }
        if (starts(a, "--cce-soc-core-type=")) { set_once(o.core_type, "--cce-soc-core-type", a.substr(20)); continue; }
        if (starts(a, "--cce-soc-version=")) { set_once(o.soc_version, "--cce-soc-version", a.substr(18)); continue; }
        if (const IgnoredFlag* f = find_ignored(a)) {
            if (!f->takes_value) o.ignored.push_back(a);
            else if (auto v = need_value(i, a)) o.ignored.push_back(a + " " + *v);
            continue;
        }
        // Dependency output (CMake's -MD -MT obj -MF obj.d): the driver
        // attaches it to the compile of the user's source, see driver.cpp.
        if (a == "-M" || a == "-MM" || a == "-MD" || a == "-MMD" || a == "-MP") { o.depend.push_back(a); continue; }
        if (a == "-MF" || a == "-MT" || a == "-MQ") {
            auto v = need_value(i, a);
            if (!v) continue;
            if (a == "-MF") o.dep_file = *v;
            else o.dep_target = true;
            o.depend.insert(o.depend.end(), {a, *v});
            continue;
        }
        if ((starts(a, "-MF") || starts(a, "-MT") || starts(a, "-MQ")) && a.size() > 3) {
            if (a[2] == 'F') o.dep_file = a.substr(3);
            else o.dep_target = true;
            o.depend.insert(o.depend.end(), {a.substr(0, 3), a.substr(3)});
            continue;
        }
        if (a == "-shared") { o.shared = true; continue; }
        if (a == "-c") { o.compile_only = true; continue; }
        if (a == "-o") {
            if (auto v = need_value(i, a)) o.output = *v;
            continue;
        }
        if (starts(a, "-o") && a.size() > 2) { o.output = a.substr(2); continue; }
        if (a == "-x") {
            if (auto v = need_value(i, a)) {
                lang = lang_of(*v);
                if (lang == Lang::Auto && *v != "none")
                    diags.push_back({Diag::Error, "-x " + *v + ": unknown language; use cce, c++, c or none"});
            }
            continue;
        }
        if (starts(a, "-x") && a.size() > 2) {
            std::string v = a.substr(2);
            lang = lang_of(v);
            if (lang == Lang::Auto && v != "none")
                diags.push_back({Diag::Error, a + ": unknown language; use -xcce, -xc++, -xc or -xnone"});
            continue;
        }
        if (a == "-I" || (starts(a, "-I") && a.size() > 2) || a == "-isystem" || (starts(a, "-isystem") && a.size() > 8)) {
            CompileFlag f{CompileFlag::Include, {}, {}};
            const size_t n = a[1] == 'I' ? 2 : 8;
            if (a.size() == n) {
                auto v = need_value(i, a);
                if (!v) continue;
                f.argv = {a, *v};
                f.include_dir = *v;
            } else {
                f.argv = {a};
                f.include_dir = a.substr(n);
            }
            o.compile.push_back(f);
            continue;
        }
        if (a == "-iquote" || a == "-idirafter") {
            if (auto v = need_value(i, a)) o.compile.push_back({CompileFlag::Plain, {a, *v}, {}});
            continue;
        }
        if (a == "-D" || a == "-U" || a == "-include") {
            auto v = need_value(i, a);
            if (!v) continue;
            if (a == "-D" && (*v == "MEMORY_BASE" || starts(*v, "MEMORY_BASE="))) o.memory_base = true;
            if (a == "-D" && (*v == "REGISTER_BASE" || starts(*v, "REGISTER_BASE="))) o.register_base = true;
            o.compile.push_back({CompileFlag::Plain, {a, *v}, {}});
            continue;
        }
        if ((starts(a, "-D") || starts(a, "-U")) && a.size() > 2) {
            std::string v = a.substr(2);
            if (a[1] == 'D' && (v == "MEMORY_BASE" || starts(v, "MEMORY_BASE="))) o.memory_base = true;
            if (a[1] == 'D' && (v == "REGISTER_BASE" || starts(v, "REGISTER_BASE="))) o.register_base = true;
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            continue;
        }
        if (starts(a, "-O") || starts(a, "-std=") || a == "-g" || (starts(a, "-g") && a.size() == 3 && a[2] >= '0' && a[2] <= '3')) {
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            continue;
        }
        if (a == "-s" || a == "-rdynamic" || a == "-static-libstdc++" || a == "-static-libgcc") {
            o.link.push_back(a);
            continue;
        }
        if (starts(a, "-f") && a.size() > 2) {
            // Code generation options (-fstack-protector-strong, -fno-rtti,
            // -fvisibility=...): the compile and the link both receive them.
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            o.link.push_back(a);
            continue;
        }
        if (starts(a, "-Wl,") || a == "-l" || a == "-L" || (starts(a, "-l") && a.size() > 2) ||
            (starts(a, "-L") && a.size() > 2)) {
            if (a == "-l" || a == "-L") {
                auto v = need_value(i, a);
                if (!v) continue;
                o.link.push_back(a + *v);
            } else {
                o.link.push_back(a);
            }
            continue;
        }
        if (starts(a, "-W") && a.size() > 2) {
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            continue;
        }
        if (a == "-pthread") {
            o.compile.push_back({CompileFlag::Plain, {a}, {}});
            o.link.push_back(a);
            continue;
        }
        if (!a.empty() && a[0] == '-' && a != "-") {
            o.unknown.push_back(a);
            continue;
        }
        Input in;
        in.path = a;
        in.lang = lang;
        in.link_only = lang == Lang::Auto && is_link_input(a);
        o.inputs.push_back(in);
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

    const bool a5 = o.target == Target::A5;
    if (!a5 && o.register_base)
        error("-DREGISTER_BASE is the A5 memory macro but the target is A2A3; " + std::string(kTable) + ", " + kRowA2A3 +
              ", says A2A3 builds use -DMEMORY_BASE: replace -DREGISTER_BASE with -DMEMORY_BASE");
    if (a5 && o.memory_base)
        error("-DMEMORY_BASE is the A2A3 memory macro but the target is A5; " + std::string(kTable) + ", " + kRowA5 +
              ", says A5 builds use -DREGISTER_BASE: replace -DMEMORY_BASE with -DREGISTER_BASE");
    if (ok && !o.memory_base && !o.register_base)
        diags.push_back({Diag::Warning, std::string("no memory macro: ") + kTable + ", " + (a5 ? kRowA5 : kRowA2A3) +
                                            ", builds " + (a5 ? "A5" : "A2A3") + " kernels with " +
                                            (a5 ? "-DREGISTER_BASE" : "-DMEMORY_BASE") + "; add it"});
    return ok;
}

}  // namespace ptocc
