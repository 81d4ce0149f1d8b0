// ptocc's build caches (docs/ptocc.md, "Caches"): finished compiles keyed by
// everything that decides their object, and precompiled PTO headers per
// target, core kind and flag set.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ptocc {

// 128-bit content hash (two independent 64-bit lanes).
struct Hash128 {
    uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xc2b2ae3d27d4eb4full;
    void add(const void* data, size_t n);
    void add(const std::string& s);  // length-prefixed, so fields never run together
    std::string hex() const;
};

struct CacheSettings {
    bool results = false;  // PTOCC_CACHE unset or not 0
    bool pch = false;      // also PTOCC_PCH unset or not 0
    std::string dir;       // $PTOCC_CACHE_DIR, else $XDG_CACHE_HOME/ptolab, else ~/.cache/ptolab
    // $PTOCC_CACHE_BASEDIR, made absolute: compiles whose paths lie under it
    // are keyed and recorded relative to it, so copies of one tree share
    // entries (docs/ptocc.md, "Copies of one tree").
    std::string base;
};
CacheSettings cache_settings();

// s with every whole occurrence of the directory `base` replaced by a token,
// so that what names paths under one copy of a tree names the same under
// another (unchanged when base is empty).
std::string base_relative(const std::string& s, const std::string& base);

// What identifies the compiler: its resolved path, size and modification time
// (an upgrade replaces the binary), the ptolab version and the environment
// variables GCC and clang read include paths from.
std::string compiler_identity(const std::string& cxx);

// One compile command as the result cache sees it.
struct CachedCompile {
    std::vector<std::string> argv;  // the command to run on a miss (with dependency flags added)
    std::string key;                // empty: not cacheable (preprocess-only, -MMD, no -c ...)
    std::string output;             // the object
    std::string depfile;            // the user's -MF file, if any
    std::string own_depfile;        // ours, when the user asked for none
    std::vector<std::string> pch_deps;  // headers inside the precompiled header it used
    std::string pch_header;             // that header
    std::string base;                   // the tree its paths were keyed relative to, if any
    bool hit = false;
    // Held while this process compiles a missing entry, so other processes
    // (other machines, on a shared cache directory) wait for it instead of
    // compiling too; released when the entry is stored or this is destroyed.
    mutable std::shared_ptr<void> lease;
};

// Works out the key of `cmd` (a host compile ptocc planned); `tmp` is the
// build's temporary directory, replaced by a fixed token wherever it occurs
// so the key does not depend on it; so is `base` (CacheSettings::base) in a
// compile, never in a link (a link's rpath must stay its own).
CachedCompile prepare_cached(const std::vector<std::string>& cmd, const std::string& tmp, const std::string& identity,
                             int index, const std::string& base = {});

// Serves the compile from the cache: writes the object, the dependency file
// and the compiler's messages (to stderr_file). Returns false on a miss; an
// entry that fails its checksum or names a changed header is a miss.
bool restore_cached(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                    std::string& note);

// Records a successful compile that started at `started` (a header
// modified after that may not be what the compiler read: nothing is stored).
void store_cached(const CacheSettings& s, const CachedCompile& c, const std::string& tmp,
                  const std::string& stderr_file, int64_t started);

// Nanoseconds since the epoch, comparable with file modification times.
int64_t now_ns();

// The precompiled-header form of a kernel compile: when everything the
// translation unit has before <pto/pto-inst.hpp> is ptolab's or system
// headers (checked on its preprocessed text), the forced
// -include pto/common/cce_builtins.hpp becomes a header of both that is
// precompiled once per flag set, target and core kind. Checks the
// precompiled header's recorded headers (their content) and rebuilds it when
// one changed. Returns false, leaving c alone, when the compile is not
// eligible or the header cannot be built; c.pch_deps then stays empty.
// `roots` are the include directories one of which supplies pto-inst.hpp:
// ptolab's, or a pto-isa tree and its translated copy.
bool use_pch(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& identity,
             const std::vector<std::string>& roots, const std::string& cxx, int index, std::string& note);

// The translated copy of a user's pto-isa tree (driver.cpp), kept in the
// cache under the hash of its content (`pto-isa/<hash>/`) so that every build
// of the tree names the same files and a precompiled header made from them
// stays valid.
std::string shared_copy_dir(const CacheSettings& s, const std::string& content_hash);
// Makes `dir` hold what `fill` writes into the directory it is given, once
// and whole (staged, then renamed; a concurrent writer's identical copy
// wins); marks its use and keeps the 8 most recently used copies beside it.
bool publish_copy(const std::string& dir, const std::function<bool(const std::string&, std::string&)>& fill,
                  std::string& err);

// Facts ptocc derives from a translation unit by running the preprocessor
// (the kernel type it infers), kept beside the results (`facts/`): keyed by
// what decides them (the compiler's identity, the preprocessing commands,
// the source's text; paths relative to CacheSettings::base) and checked
// against the content of every file the preprocessor read, so a warm build
// runs no preprocessor for them.
struct Fact {
    std::string key;   // empty: not kept (the result cache is off)
    std::string base;  // the tree its paths are relative to, if any
};
Fact fact_of(const CacheSettings& s, const std::string& what, const std::string& identity,
             const std::vector<std::vector<std::string>>& commands, const std::string& source_text,
             const std::string& tmp);
// The value kept for `f`, when every file it was derived from is unchanged.
bool recall_fact(const CacheSettings& s, const Fact& f, std::string& value);
// Keeps `value`, derived from `preprocessed` (the outputs, whose line
// markers name the files read) by work that started at `started`; nothing is
// kept when one of them changed since.
void keep_fact(const CacheSettings& s, const Fact& f, const std::vector<std::string>& preprocessed,
               const std::string& value, int64_t started);

// After a compile that used the precompiled header: the user's dependency
// file names the headers inside it instead of the header itself.
bool fix_pch_depfile(const CachedCompile& c);

}  // namespace ptocc
