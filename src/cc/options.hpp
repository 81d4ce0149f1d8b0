// bisheng's command line as ptocc understands it (docs/ptocc.md, "Flags").
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ptocc {

enum class Toolchain { Auto, Sim, Bisheng };
// Whose PTO headers a simulator build compiles (docs/ptocc.md, "PTO headers").
enum class PtoHeaders { Auto, PtoIsa, Ptolab };
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
    PtoHeaders pto_headers = PtoHeaders::Auto;  // --pto-headers=, else PTOCC_PTO_HEADERS
    bool dry_run = false;
    bool verbose = false;
    bool keep_temps = false;
    bool help = false, version = false;
    std::string print_flag_table;  // --print-flag-table-markdown=<section>

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
    // No core-type suffix and no --cce-soc-core-type: the kernel's code decides
    // the kind of each kernel source (driver, kind.cpp); `kind` is then Mix.
    bool infer_kind = false;
};

// Parses argv[1..]. Diagnostics about the flags themselves go to `diags`.
Options parse_args(const std::vector<std::string>& args, std::vector<Diag>& diags);

// Derives target and kind from the architecture flags and runs the lints of
// the seed's flag table; returns false when an error was added.
bool resolve(Options& o, std::vector<Diag>& diags);

// How a spelling takes its value.
enum class FlagForm {
    Exact,     // the word is the spelling
    Separate,  // the value is the next word (-o file)
    Joined,    // the value follows in the same word and is not empty (-ofile, -fno-rtti)
    Prefix,    // the word starts with the spelling, nothing more needed (-O, --npu-arch=, --cce-auto-sync)
};

// What a flag does to Options; parse_args has one case per action.
enum class FlagAction {
    Toolchain, PtoHeaders, DryRun, KeepTemps, Help, Version, PrintFlagTable,  // ptocc's own
    AicoreStart, AicoreEnd, HostStart, HostEnd,                  // brackets
    Verbose, AicoreArch, NpuArch, CoreType, SocVersion,
    Ignored,       // accepted, recorded in Options::ignored, no effect
    DepSwitch,     // -M, -MD, ...
    DepValue,      // -MF, -MT, -MQ
    Shared, CompileOnly, Output, Language,
    Include,       // -I, -isystem: placed relative to ptolab's include/
    Compile,       // to the host compile as given
    Define,        // -D, -U (and the memory macro lints)
    Link,          // to the link as given (-l/-L values joined to the flag)
    CompileAndLink,
};

struct FlagSpelling {
    const char* text;
    FlagForm form;
};

// One row of ptocc's model of bisheng's command line. This table drives
// parse_args, --help, and the flag tables of docs/ptocc.md
// (--print-flag-table-markdown; a test keeps the doc in step). The order
// matters: the first row with a matching spelling wins.
struct FlagSpec {
    std::vector<FlagSpelling> spellings;
    FlagAction action;
    bool to_bisheng;             // false: ptocc's own flag, removed from bisheng's command line
    const char* usage;           // plain text, ", "-separated forms: "-I dir, -Idir"
    const char* help;            // one line for --help; nullptr hides the flag
    const char* sim;             // markdown: what a simulator build does with it (for Ignored: why nothing)
    const char* ignored_as = nullptr;  // also listed among the ignored flags under this name, with ignored_why
    const char* ignored_why = nullptr;
};
const std::vector<FlagSpec>& flag_table();

struct FlagMatch {
    const FlagSpec* spec = nullptr;
    const FlagSpelling* spelling = nullptr;
};
// The first row with a spelling that accepts `word` (a Separate spelling
// matches the bare flag; its value is the next word).
FlagMatch match_flag(const std::string& word);

// The sections of --print-flag-table-markdown: "own" (ptocc's flags), "sim"
// (bisheng's flags in a simulator build), "ignored". An unknown name gives "".
std::string flag_table_markdown(const std::string& section);
// ptocc --help.
std::string help_text();

// Flags a simulator build accepts without effect, each with its reason: the
// Ignored rows of flag_table() (match is the spelling, with a trailing '*'
// for a prefix) and the rows with ignored_as, whose match is empty because
// their own rules parse them.
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

// "auto", "pto-isa" or "ptolab"; false for anything else.
bool parse_pto_headers(const std::string& v, PtoHeaders& out);

}  // namespace ptocc
