// ptocc's build caches (docs/ptocc.md, "Caches"): finished compiles keyed by
// everything that decides their object, and precompiled PTO headers per
// target, core kind and flag set.
#pragma once
#include <cstdint>
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
};
CacheSettings cache_settings();

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
    bool hit = false;
};

// Works out the key of `cmd` (a host compile ptocc planned); `tmp` is the
// build's temporary directory, replaced by a fixed token wherever it occurs
// so the key does not depend on it.
CachedCompile prepare_cached(const std::vector<std::string>& cmd, const std::string& tmp, const std::string& identity,
                             int index);

// Serves the compile from the cache: writes the object, the dependency file
// and the compiler's messages (to stderr_file). Returns false on a miss; an
// entry that fails its checksum or names a changed header is a miss.
bool restore_cached(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                    std::string& note);

// Records a successful compile.
void store_cached(const CacheSettings& s, const CachedCompile& c, const std::string& tmp,
                  const std::string& stderr_file);

}  // namespace ptocc
