// Turns parsed options into the commands of a simulator or bisheng build and
// runs them (docs/ptocc.md, "What a build runs").
#pragma once
#include "cache.hpp"
#include "diagnostics.hpp"
#include "options.hpp"
#include <functional>
#include <string>
#include <vector>

namespace ptocc {

struct Paths {
    std::string include_dir;  // ptolab's include/, placed first
    std::string lib_dir;      // directory of libptosim.so, also the rpath
    std::string cxx;          // host C++ compiler
    std::string clang;        // clang++ for builds of a user's pto-isa tree ("" when none was found)
};
Paths default_paths();

struct Step {
    std::string note;                             // printed as a "# ..." line by --dry-run
    std::vector<std::vector<std::string>> run;    // commands, run concurrently
    std::function<bool(std::string& error)> act;  // in-process work (writing a file), skipped by --dry-run
    bool compiles = false;  // the compiler's stderr goes through tidy_diagnostics
    bool cached = false;    // its commands go through the result cache (docs/ptocc.md, "Caches")
};

struct Plan {
    std::vector<Step> steps;
    std::string temp_dir;
    std::vector<std::string> rewrite_notes;  // shown when a compile fails
    DiagnosticContext diagnostics;
    std::string compiler;  // asked for its --version when columns need mapping
    CacheSettings cache;   // off unless run_ptocc turns it on
    std::string compiler_id;
    // Where the precompiled header's pto-inst.hpp may come from: ptolab's
    // include/, or a pto-isa tree and its translated copy (cache.hpp, use_pch).
    std::vector<std::string> pch_roots;
};

// Set in the environment of a bisheng ptocc delegates to; a ptocc that sees it
// never delegates again (so a chain of ptocc copies named bisheng terminates).
inline constexpr const char* kDelegatedEnv = "PTOCC_DELEGATED";
bool delegated();

// Planning is two stages that touch no files they are not given, then the
// glue that feeds them: classify_inputs decides what each input is,
// plan_jobs turns the classified inputs and their text into steps, and
// plan_build makes the temporary directory, reads the sources and runs both.

struct ClassifiedInput {
    std::string path;
    Lang lang = Lang::Auto;  // resolved for sources (-x, extension, arch flag); Auto for link-only inputs
    bool link_only = false;
};
// Returns false (with diags) on a usage error: no inputs, -c without a source
// or with -o and several, a kernel source without an architecture.
bool classify_inputs(const Options& o, std::vector<ClassifiedInput>& out, std::vector<Diag>& diags);

struct JobContext {
    std::string temp_dir;            // where intermediate files go; named in the commands
    std::vector<std::string> texts;  // each input's source text, by index; empty for link-only inputs
    bool stderr_is_terminal = false; // then compiles get -fdiagnostics-color=always unless the user chose
    bool infer_kinds = false;        // run the preprocessor to infer kernel types (Options::infer_kind); not in --dry-run
};
// Only -I directories (whether they hold pto/pto-inst.hpp), -L directories
// (libruntime_camodel.so) and the working directory (absolute paths) are
// looked at; nothing is written.
bool plan_jobs(const Options& o, const Paths& paths, const std::vector<ClassifiedInput>& inputs, const JobContext& ctx,
               Plan& plan, std::vector<Diag>& diags);

// Both stages with a real temporary directory (a placeholder name for a dry
// run) and the sources read from disk; returns false (with diags) on an error.
bool plan_build(const Options& o, const Paths& paths, bool dry_run, Plan& plan, std::vector<Diag>& diags);

std::string shell_quote(const std::string& s);

// The whole command: parse, lint, plan, run. Returns the process exit status.
int run_ptocc(const std::vector<std::string>& args);

}  // namespace ptocc
