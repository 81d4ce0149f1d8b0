// bisheng's command line as ptocc understands it (docs/ptocc.md, "Flags").
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ptocc {

enum class Toolchain { Auto, Sim, Bisheng };
enum class Lang { Auto, Cce, Cxx, C };
enum class Target { A2A3, A5 };
enum class Kind { Vec, Cube, Mix };

struct Input {
    std::string path;
    Lang lang = Lang::Auto;  // from the -x in force, else from the extension
    bool link_only = false;  // .o/.a/.so: goes straight to the link
};

// A flag the host compile receives, in command-line order (-I is kept apart
// because its position relative to ptolab's include directory matters).
struct CompileFlag {
    enum Type { Plain, Include } type = Plain;
    std::vector<std::string> argv;  // one or two words as given
    std::string include_dir;        // for Include
};

struct Diag {
    enum Level { Note, Warning, Error } level;
    std::string text;
};

struct Options {
    std::vector<std::string> user_args;  // the arguments minus ptocc's own, for bisheng
    Toolchain toolchain = Toolchain::Auto;
    bool dry_run = false;
    bool verbose = false;
    bool keep_temps = false;
    bool help = false, version = false;

    std::optional<std::string> aicore_arch, npu_arch, core_type, soc_version;
    bool shared = false, compile_only = false;
    std::string output;
    std::vector<CompileFlag> compile;
    std::vector<std::string> link;       // -L, -l, -Wl, -s, -f*, in order
    std::vector<std::string> depend;     // -M, -MM, -MD, -MMD, -MP, -MF f, -MT t, -MQ t (as given, values joined)
    std::string dep_file;                // the -MF value, if any
    bool dep_target = false;             // -MT or -MQ given
    std::vector<std::string> host_only;  // between -Xhost-start and -Xhost-end
    std::vector<std::string> ignored;    // device-only flags that were accepted and dropped
    std::vector<std::string> unknown;    // flags ptocc does not know (errors in simulator builds)
    std::vector<Input> inputs;
    bool memory_base = false, register_base = false;

    // Derived by resolve(): set when a device architecture was requested.
    bool device = false;
    Target target = Target::A2A3;
    Kind kind = Kind::Mix;
};

// Parses argv[1..]. Diagnostics about the flags themselves go to `diags`.
Options parse_args(const std::vector<std::string>& args, std::vector<Diag>& diags);

// Derives target and kind from the architecture flags and runs the lints of
// the seed's flag table; returns false when an error was added.
bool resolve(Options& o, std::vector<Diag>& diags);

// Flags a simulator build accepts without effect, each with its reason. This
// one table drives the parser (match/takes_value), --help, the table in
// docs/ptocc.md and the tests.
struct IgnoredFlag {
    const char* flag;    // as documented, e.g. "-mllvm <option>"
    const char* match;   // the word the parser matches; a trailing '*' makes it a prefix
    bool takes_value;    // consumes the next word
    const char* reason;
};
const std::vector<IgnoredFlag>& ignored_flags();
// The table row matching `arg`, or nullptr.
const IgnoredFlag* find_ignored(const std::string& arg);

// --cce-soc-version=<SoC>: the target of a CANN SoC name (Ascend910B1..4 and
// Ascend910B, Ascend910_93xx -> A2A3; Ascend950*, Ascend910_95xx -> A5).
std::optional<Target> soc_version_target(const std::string& soc);

// CANN library names (-l<name>) that resolve to libptosim in a simulator
// build; ptocc links libptosim itself, so it drops these from the link,
// except runtime_camodel (docs/drop-in.md).
const std::vector<const char*>& cann_library_names();
bool is_cann_library(const std::string& name);

}  // namespace ptocc
