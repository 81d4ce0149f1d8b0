#include "cache.hpp"
#include "file_write.hpp"
#include "hex.hpp"
#include "process.hpp"

#include <fcntl.h>  // AT_FDCWD, O_EXCL
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <ctime>
#include <string_view>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

namespace ptocc {
namespace fs = std::filesystem;

namespace {

constexpr const char* kTmpToken = "\x01ptocc-tmp\x01";
constexpr const char* kBaseToken = "\x01ptocc-base\x01";
constexpr const char* kMagic = "PTOCC-CACHE-2\n";

uint64_t mix(uint64_t h, uint64_t w, uint64_t mul) {
    h ^= w * 0xff51afd7ed558ccdull;
    h = (h << 29 | h >> 35) * mul;
    return h ^ (h >> 32);
}

bool slurp(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return static_cast<bool>(f) || f.eof();
}

std::string host_name() {
    char h[256] = {};
    if (gethostname(h, sizeof h - 1) != 0 || !*h) return "unknown-host";
    return h;
}

// A cache write that fails costs a rebuild, never the build: the caller
// falls back to compiling.
bool write_atomic(const std::string& path, const std::string& data) {
    try {
        ptolab::common::write_file(path, data);
        return true;
    } catch (const ptolab::common::WriteError&) {
        return false;
    }
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    if (from.empty()) return s;
    std::string out;
    size_t pos = 0;
    for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size())
        out.append(s, pos, hit - pos).append(to);
    out.append(s, pos, std::string::npos);
    return out;
}

// `s` with every path that is `base` or lies under it written relative to
// kBaseToken. A match must end where a path component ends, so /w/tree does
// not claim /w/tree2.

// The prerequisites of the first rule of a Make dependency file.
std::vector<std::string> parse_depfile(const std::string& text) {
    std::vector<std::string> deps;
    std::string cur;
    bool after_colon = false;
    auto flush = [&] {
        if (!cur.empty() && after_colon) deps.push_back(cur);
        cur.clear();
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch == '\\' && i + 1 < text.size()) {
            const char nx = text[i + 1];
            if (nx == '\n') {  // continuation
                flush();
                ++i;
                continue;
            }
            if (nx == ' ' || nx == '#' || nx == '\\') {
                cur += nx;
                ++i;
                continue;
            }
        }
        if (ch == '$' && i + 1 < text.size() && text[i + 1] == '$') {
            cur += '$';
            ++i;
            continue;
        }
        if (!after_colon && ch == ':' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n' ||
                                          text[i + 1] == '\t')) {
            cur.clear();
            after_colon = true;
            continue;
        }
        if (ch == '\n') {
            flush();
            if (after_colon) break;  // end of the first rule
            continue;
        }
        if (ch == ' ' || ch == '\t') {
            flush();
            continue;
        }
        cur += ch;
    }
    flush();
    return deps;
}

std::string hash_of(const std::string& data) {
    Hash128 h;
    h.add(data.data(), data.size());
    return h.hex();
}

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }
void put_str(std::string& out, const std::string& s) {
    put_u64(out, s.size());
    out += s;
}

struct Reader {
    const std::string& d;
    size_t pos = 0;
    bool ok = true;
    uint64_t u64() {
        uint64_t v = 0;
        if (pos + 8 > d.size()) {
            ok = false;
            return 0;
        }
        std::memcpy(&v, d.data() + pos, 8);
        pos += 8;
        return v;
    }
    std::string str() {
        const uint64_t n = u64();
        if (!ok || n > d.size() - pos) {
            ok = false;
            return {};
        }
        std::string s = d.substr(pos, n);
        pos += n;
        return s;
    }
};


int64_t mtime_ns(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return -1;
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool modified_since(const std::string& path, int64_t t) { return mtime_ns(path) >= t; }

}  // namespace

std::string base_relative(const std::string& s, const std::string& base) {
    if (base.empty()) return s;
    std::string out;
    size_t pos = 0;
    for (size_t hit; (hit = s.find(base, pos)) != std::string::npos;) {
        const size_t end = hit + base.size();
        const char next = end < s.size() ? s[end] : '\0';
        const bool whole = !(std::isalnum(static_cast<unsigned char>(next)) || next == '.' || next == '_' || next == '-');
        out.append(s, pos, hit - pos).append(whole ? std::string(kBaseToken) : base);
        pos = end;
    }
    return out.append(s, pos, std::string::npos);
}
int64_t now_ns();
namespace {

// Runs argv, its stdout and stderr to `log` (or discarded); true on exit status 0.
bool run_quiet(const std::vector<std::string>& argv, const std::string& log) {
    return ptolab::common::run(argv, {log.empty() ? "/dev/null" : log, "", true}) == 0;
}

// $PTOCC_CACHE_LOG: one line per cache decision ("hit", "compile", "wait"
// KEY OUTPUT), appended in a single write, so tests and sweeps can count
// how often each entry was compiled.
void log_event(const char* event, const std::string& key, const std::string& what) {
    const char* path = std::getenv("PTOCC_CACHE_LOG");
    if (!path || !*path) return;
    const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const std::string line = std::string(event) + " " + key + " " + what + "\n";
    [[maybe_unused]] const ssize_t n = write(fd, line.data(), line.size());
    close(fd);
}

struct Lease {
    std::string path;
    ~Lease() { unlink(path.c_str()); }
};

double lease_seconds() {
    const char* v = std::getenv("PTOCC_CACHE_LEASE_S");
    const double s = v && *v ? std::atof(v) : 0;
    return s > 0 ? s : 300;
}

// Compile-once without locks held across machines: a process about to
// produce `what` creates `lease` with O_EXCL (host, pid); the others poll
// until ready() or the lease is abandoned (its process is gone, on this
// host, or it is older than PTOCC_CACHE_LEASE_S, default 300 s, elsewhere),
// then take it over. Returns true when another process made it (ready()),
// false when the caller should make it; `held` then owns the lease (null if
// the directory takes no lease file: the caller works without one).
bool wait_turn(const std::string& lease, const std::function<bool()>& ready, std::shared_ptr<void>& held,
               const std::string& key, const std::string& what) {
    const std::string me = host_name();
    bool waited = false;
    for (;;) {
        const int fd = open(lease.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            const std::string owner = me + " " + std::to_string(getpid()) + "\n";
            [[maybe_unused]] const ssize_t n = write(fd, owner.data(), owner.size());
            close(fd);
            auto mine = std::make_shared<Lease>();  // not from a temporary: its destructor would unlink
            mine->path = lease;
            held = std::move(mine);
            if (ready()) {  // finished between our check and the lease
                held.reset();
                return true;
            }
            return false;
        }
        if (errno != EEXIST) return false;
        if (ready()) return true;
        if (!waited) log_event("wait", key, what);
        waited = true;
        std::string owner;
        const int64_t age = now_ns() - mtime_ns(lease);
        bool abandoned = mtime_ns(lease) >= 0 && age > static_cast<int64_t>(lease_seconds() * 1e9);
        if (slurp(lease, owner)) {
            std::istringstream in(owner);
            std::string host;
            long pid = 0;
            if (in >> host >> pid && host == me && pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                abandoned = true;
        }
        // Two waiters may both remove an abandoned lease; the worst case is
        // one extra compile, published by rename like any other.
        if (abandoned) unlink(lease.c_str());
        else std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

std::string entry_path(const CacheSettings& s, const std::string& key) {
    return s.dir + "/results/" + key.substr(0, 2) + "/" + key + ".entry";
}

}  // namespace

void Hash128::add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        a = mix(a, w, 0x9fb21c651e98df25ull);
        b = mix(b, w ^ 0x5851f42d4c957f2dull, 0xc6a4a7935bd1e995ull);
    }
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i);
    w ^= static_cast<uint64_t>(n) << 56;
    a = mix(a, w, 0x9fb21c651e98df25ull);
    b = mix(b, w ^ 0x5851f42d4c957f2dull, 0xc6a4a7935bd1e995ull);
}

void Hash128::add(const std::string& s) {
    const uint64_t n = s.size();
    add(&n, sizeof n);
    add(s.data(), s.size());
}

std::string Hash128::hex() const { return ptolab::common::hex16(a) + ptolab::common::hex16(b); }

CacheSettings cache_settings() {
    CacheSettings s;
    auto off = [](const char* name) {
        const char* v = std::getenv(name);
        return v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0);
    };
    s.results = !off("PTOCC_CACHE");
    s.pch = s.results && !off("PTOCC_PCH");
    if (const char* d = std::getenv("PTOCC_CACHE_DIR"); d && *d) s.dir = d;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) s.dir = std::string(x) + "/ptolab";
    else if (const char* h = std::getenv("HOME"); h && *h) s.dir = std::string(h) + "/.cache/ptolab";
    else s.results = s.pch = false;
    if (const char* b = std::getenv("PTOCC_CACHE_BASEDIR"); b && *b) {
        std::error_code ec;
        const fs::path base = fs::weakly_canonical(fs::absolute(b, ec), ec);
        if (!ec && fs::is_directory(base, ec) && base != base.root_path()) s.base = base.string();
    }
    return s;
}

std::string compiler_identity(const std::string& cxx) {
    std::string path = cxx;
    if (cxx.find('/') == std::string::npos) {
        if (const char* p = std::getenv("PATH")) {
            std::stringstream ss(p);
            for (std::string dir; std::getline(ss, dir, ':');)
                if (!dir.empty() && access((dir + "/" + cxx).c_str(), X_OK) == 0) {
                    path = dir + "/" + cxx;
                    break;
                }
        }
    }
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    const std::string resolved = ec ? path : real.string();
    struct stat st {};
    std::string id = "ptolab " PTOCC_VERSION "\n" + resolved;
    if (stat(resolved.c_str(), &st) == 0)
        id += "\n" + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
              std::to_string(st.st_mtim.tv_nsec);
    for (const char* v : {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
                          "SOURCE_DATE_EPOCH"})
        if (const char* val = std::getenv(v)) id += std::string("\n") + v + "=" + val;
    return id;
}

CachedCompile prepare_cached(const std::vector<std::string>& cmd, const std::string& tmp, const std::string& identity,
                             int index, const std::string& base) {
    CachedCompile c;
    c.argv = cmd;
    std::string source;
    bool md = false;
    for (size_t i = 0; i < cmd.size(); ++i) {
        const std::string& a = cmd[i];
        // Outputs other than an object, or a dependency file that leaves out
        // system headers (which the cache must check): not cached.
        for (const char* f : {"-E", "-S", "-M", "-MM", "-MMD", "-fsyntax-only", "-###", "-"})
            if (a == f) return c;
        if (a.rfind("-save-temps", 0) == 0 || a.rfind("-fprofile", 0) == 0 || a.rfind("-Wp,", 0) == 0 ||
            a.rfind("-fdump", 0) == 0)
            return c;
        if (a == "-MD") md = true;
        if (i + 1 < cmd.size()) {
            if (a == "-c") source = cmd[i + 1];
            if (a == "-o") c.output = cmd[i + 1];
            if (a == "-MF") c.depfile = cmd[i + 1];
        }
    }
    if (c.output.empty() || (md && c.depfile.empty())) return c;
    const bool link = source.empty();
    std::string text;
    if (link) {
        // A link: its inputs named on the command line by content (objects
        // restored from the cache or just compiled), the rest (libraries,
        // start files, scripts) through the linker's dependency file.
        for (const std::string& a : cmd)
            if (a.rfind("-Wl,--dependency-file", 0) == 0 || a == "-v") return c;
        for (size_t i = 1; i < cmd.size(); ++i) {
            if (cmd[i] == "-o") {
                ++i;
                continue;
            }
            struct stat st {};
            if (cmd[i][0] != '-' && stat(cmd[i].c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
                std::string data;
                if (!slurp(cmd[i], data)) return c;
                text += cmd[i] + '\0' + hash_of(data) + '\n';
            }
        }
    } else {
        if (!slurp(source, text)) return c;
        // A source that embeds a file with .incbin (the Vector variant's
        // image in a mix kernel's stub) depends on that file's bytes, which
        // no dependency list names.
        for (size_t at = text.find(".incbin \\\""); at != std::string::npos; at = text.find(".incbin \\\"", at + 1)) {
            const size_t from = at + 10, to = text.find("\\\"", from);
            std::string data;
            if (to == std::string::npos || !slurp(text.substr(from, to - from), data)) return c;
            text += '\0' + hash_of(data);
        }
    }

    if (!link) c.base = base;
    const auto keyed = [&](const std::string& s) { return base_relative(replace_all(s, tmp, kTmpToken), c.base); };
    Hash128 h;
    h.add(std::string("ptocc result v1"));
    h.add(identity);
    std::error_code ec;
    h.add(keyed(fs::current_path(ec).string()));  // relative paths, and the debug info's directory
    for (size_t i = 0; i < cmd.size(); ++i) {
        if (cmd[i] == "-o") {
            ++i;  // where the object goes does not change it
            continue;
        }
        h.add(keyed(cmd[i]));
    }
    h.add(keyed(text));
    c.key = h.hex();
    if (link) {
        c.own_depfile = tmp + "/cache-link-" + std::to_string(index) + "-" + hash_of(c.output).substr(0, 8) + ".d";
        c.argv.push_back("-Wl,--dependency-file=" + c.own_depfile);
    } else if (!md) {
        c.own_depfile = tmp + "/cache-" + std::to_string(index) + "-" + hash_of(c.output).substr(0, 8) + ".d";
        c.argv.insert(c.argv.end(), {"-MD", "-MF", c.own_depfile});
    }
    return c;
}

namespace {
bool restore_entry(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                   std::string& note);
}

bool restore_cached(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                    std::string& note) {
    if (c.key.empty() || !s.results) return false;
    if (restore_entry(s, c, tmp, stderr_file, note)) return true;
    log_event("compile", c.key, c.output);
    return false;
}

namespace {
bool restore_entry(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                   std::string& note) {
    const std::string path = entry_path(s, c.key);
    std::string data;
    if (!slurp(path, data)) {
        std::error_code ec;
        fs::create_directories(fs::path(path).parent_path(), ec);
        const auto present = [&] { return access(path.c_str(), R_OK) == 0; };
        if (!wait_turn(path + ".lease", present, c.lease, c.key, c.output) || !slurp(path, data)) return false;
    }
    const size_t magic = std::strlen(kMagic);
    if (data.size() < magic + 32 || data.compare(0, magic, kMagic) != 0 ||
        hash_of(data.substr(0, data.size() - 32)) != data.substr(data.size() - 32)) {
        note = "cache entry " + path + " is damaged; rebuilding it";
        std::remove(path.c_str());
        return false;
    }
    const std::string body = data.substr(magic, data.size() - 32 - magic);
    Reader r{body};
    const uint64_t ndeps = r.u64();
    for (uint64_t i = 0; r.ok && i < ndeps; ++i) {
        const std::string dep = replace_all(replace_all(r.str(), kBaseToken, c.base), kTmpToken, tmp), want = r.str();
        std::string now;
        if (!r.ok) break;
        if (!slurp(dep, now) || hash_of(now) != want) {
            note = "cache entry for " + c.output + " is stale: " + dep + " changed";
            return false;
        }
    }
    const std::string err = r.str(), dep = r.str(), obj = r.str();
    const uint64_t mode = r.u64();
    if (!r.ok || r.pos != body.size()) {
        note = "cache entry " + path + " is damaged; rebuilding it";
        std::remove(path.c_str());
        return false;
    }
    // An output that already holds these bytes keeps its file and time: a
    // build tool that looks at the output again after the step (ninja's
    // restat) then rebuilds nothing that depends on it.
    std::string current;
    if (!(slurp(c.output, current) && current == obj) && !write_atomic(c.output, obj)) return false;
    chmod(c.output.c_str(), static_cast<mode_t>(mode & 0777));  // an executable stays one
    const auto here = [&](const std::string& s) { return replace_all(replace_all(s, kTmpToken, tmp), kBaseToken, c.base); };
    if (!c.depfile.empty() && !write_atomic(c.depfile, here(dep))) return false;
    if (!stderr_file.empty()) write_atomic(stderr_file, here(err));
    c.hit = true;
    log_event("hit", c.key, c.output);
    return true;
}
}  // namespace

void store_cached(const CacheSettings& s, const CachedCompile& c, const std::string& tmp,
                  const std::string& stderr_file, int64_t started) {
    if (c.key.empty() || !s.results) return;
    std::string dep, obj, err;
    const std::string& depfile = c.own_depfile.empty() ? c.depfile : c.own_depfile;
    if (!slurp(depfile, dep) || !slurp(c.output, obj)) return;
    if (!stderr_file.empty()) slurp(stderr_file, err);
    std::string out = kMagic, deps;
    uint64_t n = 0;
    std::vector<std::string> all = parse_depfile(dep);
    all.insert(all.end(), c.pch_deps.begin(), c.pch_deps.end());
    for (const std::string& d : all) {
        if (d.rfind(tmp + "/", 0) == 0) continue;  // the rewritten source: its text is in the key
        if (d == c.pch_header || d == c.pch_header + ".gch") continue;  // checked through pch_deps
        std::string text;
        if (!slurp(d, text) || modified_since(d, started)) return;  // cannot be checked, or may have changed mid-compile
        put_str(deps, base_relative(d, c.base));
        put_str(deps, hash_of(text));
        ++n;
    }
    put_u64(out, n);
    out += deps;
    const auto portable = [&](const std::string& s) { return base_relative(replace_all(s, tmp, kTmpToken), c.base); };
    put_str(out, portable(err));
    put_str(out, c.own_depfile.empty() ? portable(dep) : std::string());
    put_str(out, obj);
    struct stat st {};
    put_u64(out, stat(c.output.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0644);
    out += hash_of(out);
    const std::string path = entry_path(s, c.key);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    write_atomic(path, out);
    c.lease.reset();  // the waiters find the entry
}


namespace {
constexpr const char* kFactMagic = "PTOCC-FACT-1\n";

// The files named by the line markers (`# 1 "path" ...`) of preprocessed
// text, each once, without GCC's pseudo-files (<built-in>, <command-line>).
void marked_files(const std::string& text, std::vector<std::string>& out) {
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        if (text.compare(at, 2, "# ") == 0 && at + 2 < end && std::isdigit(static_cast<unsigned char>(text[at + 2]))) {
            size_t q = text.find('"', at);
            std::string path;
            for (++q; q < end && text[q] != '"'; ++q) path += text[q] == '\\' && q + 1 < end ? text[++q] : text[q];
            if (!path.empty() && path[0] != '<' && std::find(out.begin(), out.end(), path) == out.end())
                out.push_back(path);
        }
        at = end + 1;
    }
}

std::string fact_path(const CacheSettings& s, const std::string& key) {
    return s.dir + "/facts/" + key.substr(0, 2) + "/" + key + ".fact";
}
}  // namespace

Fact fact_of(const CacheSettings& s, const std::string& what, const std::string& identity,
             const std::vector<std::vector<std::string>>& commands, const std::string& source_text,
             const std::string& tmp) {
    Fact f;
    if (!s.results) return f;
    f.base = s.base;
    const auto keyed = [&](const std::string& x) { return base_relative(replace_all(x, tmp, kTmpToken), f.base); };
    Hash128 h;
    h.add(std::string("ptocc fact v1"));
    h.add(what);
    h.add(identity);
    // The decision is ptocc's own work, not the compiler's: a rebuilt ptocc
    // (same version, new rules) decides afresh.
    struct stat self {};
    if (stat("/proc/self/exe", &self) != 0) return f;
    h.add(std::to_string(self.st_size) + " " + std::to_string(self.st_mtim.tv_sec) + "." +
          std::to_string(self.st_mtim.tv_nsec));
    std::error_code ec;
    h.add(keyed(fs::current_path(ec).string()));  // relative include paths resolve from here
    for (const std::vector<std::string>& cmd : commands) {
        h.add(std::to_string(cmd.size()));
        for (const std::string& a : cmd) h.add(keyed(a));
    }
    h.add(keyed(source_text));
    f.key = h.hex();
    return f;
}

bool recall_fact(const CacheSettings& s, const Fact& f, std::string& value) {
    if (f.key.empty()) return false;
    std::string data;
    const size_t magic = std::strlen(kFactMagic);
    if (!slurp(fact_path(s, f.key), data) || data.size() < magic + 32 || data.compare(0, magic, kFactMagic) != 0 ||
        hash_of(data.substr(0, data.size() - 32)) != data.substr(data.size() - 32))
        return false;
    const std::string body = data.substr(magic, data.size() - 32 - magic);
    Reader r{body};
    const uint64_t n = r.u64();
    for (uint64_t i = 0; r.ok && i < n; ++i) {
        const std::string file = replace_all(r.str(), kBaseToken, f.base), want = r.str();
        std::string now;
        if (r.ok && (!slurp(file, now) || hash_of(now) != want)) return false;
    }
    value = r.str();
    if (!r.ok || r.pos != body.size()) return false;
    log_event("fact-hit", f.key, "");
    return true;
}

void keep_fact(const CacheSettings& s, const Fact& f, const std::vector<std::string>& preprocessed,
               const std::string& value, int64_t started) {
    if (f.key.empty()) return;
    std::vector<std::string> files;
    for (const std::string& text : preprocessed) marked_files(text, files);
    std::string out = kFactMagic;
    put_u64(out, files.size());
    for (const std::string& file : files) {
        std::string text;
        if (!slurp(file, text) || modified_since(file, started)) return;  // cannot be checked, or changed meanwhile
        put_str(out, base_relative(file, f.base));
        put_str(out, hash_of(text));
    }
    put_str(out, value);
    out += hash_of(out);
    const std::string path = fact_path(s, f.key);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    write_atomic(path, out);
    log_event("fact-kept", f.key, "");
}

int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

namespace {

// What a kernel compile force-includes ahead of the PTO headers: ptolab's
// builtins, or the CCE layer a pto-isa tree is compiled over.
constexpr const char* kForcedHeaders[] = {"pto/common/cce_builtins.hpp", "cce/bisheng.hpp"};
bool is_forced_header(const std::string& name) {
    return std::find(std::begin(kForcedHeaders), std::end(kForcedHeaders), name) != std::end(kForcedHeaders);
}
constexpr const char* kPchName = "ptocc_pch.hpp";
constexpr const char* kCopyComplete = ".complete";

// True when the preprocessed unit `pre` (GCC's -E -dD output) reaches
// pto/pto-inst.hpp of one of `roots` with nothing of its own before it: only
// system headers, the roots' headers (ptolab's; a pto-isa tree and its
// translated copy), built-in and command-line definitions.
// Anything else there (a #define, a declaration, a local header) could change
// what pto-inst.hpp means when it is moved to the front.
bool pto_inst_comes_first(const std::string& pre, const std::vector<std::string>& roots) {
    const auto under_root = [&](const std::string& file) {
        for (const std::string& r : roots)
            if (file.rfind(r + "/", 0) == 0) return true;
        return false;
    };
    const auto is_target = [&](const std::string& file) {
        const std::string n = fs::path(file).lexically_normal().string();
        for (const std::string& r : roots)
            if (n == r + "/pto/pto-inst.hpp") return true;
        return false;
    };
    bool allowed = true;
    size_t pos = 0;
    while (pos < pre.size()) {
        size_t end = pre.find('\n', pos);
        if (end == std::string::npos) end = pre.size();
        const std::string_view line(pre.data() + pos, end - pos);
        pos = end + 1;
        if (line.size() > 3 && line[0] == '#' && line[1] == ' ' && std::isdigit(static_cast<unsigned char>(line[2]))) {
            const size_t q1 = line.find('"'), q2 = line.rfind('"');
            if (q1 == std::string_view::npos || q2 <= q1) return false;
            const std::string file(line.substr(q1 + 1, q2 - q1 - 1));
            const std::string_view flags = line.substr(q2 + 1);
            if (is_target(file)) return true;
            // GCC spells it <command-line>, clang (pto-isa builds) <command line>.
            allowed = file == "<built-in>" || file == "<command-line>" || file == "<command line>" || under_root(file) ||
                      flags.find(" 3") != std::string_view::npos;
            continue;
        }
        if (allowed) continue;
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) return false;
    }
    return false;
}

struct PchManifest {
    std::vector<std::pair<std::string, std::string>> deps;  // path, content hash
};

bool read_manifest(const std::string& path, PchManifest& m) {
    std::string data;
    if (!slurp(path, data) || data.size() < 32 || hash_of(data.substr(0, data.size() - 32)) != data.substr(data.size() - 32))
        return false;
    const std::string body = data.substr(0, data.size() - 32);
    Reader r{body};
    const uint64_t n = r.u64();
    for (uint64_t i = 0; r.ok && i < n; ++i) {
        std::string p = r.str(), h = r.str();
        m.deps.emplace_back(std::move(p), std::move(h));
    }
    return r.ok && r.pos == body.size();
}

bool manifest_current(const PchManifest& m) {
    for (const auto& [path, h] : m.deps) {
        std::string text;
        if (!slurp(path, text) || hash_of(text) != h) return false;
    }
    return !m.deps.empty();
}

// Keeps the `keep` most recently used directories under `root` (their
// `marker` file's modification time is their last use), never `current`. A
// directory without its marker may be another build's work in progress: it
// is left ten minutes. A compile that loses its directory to this mid-way
// fails and runs again without it.
void evict_least_recent(const std::string& root, const std::string& current, size_t keep, const char* marker) {
    std::vector<std::pair<int64_t, fs::path>> dirs;
    std::error_code ec;
    const int64_t now = now_ns();
    for (const auto& e : fs::directory_iterator(root, ec)) {
        if (!e.is_directory(ec) || e.path() == fs::path(current)) continue;
        int64_t used = mtime_ns((e.path() / marker).string());
        if (used < 0 && now - mtime_ns(e.path().string()) < 600'000'000'000ll) continue;
        dirs.emplace_back(used, e.path());
    }
    if (dirs.size() + 1 <= keep) return;
    std::sort(dirs.begin(), dirs.end());
    for (size_t i = 0; i + keep < dirs.size() + 1; ++i) fs::remove_all(dirs[i].second, ec);
}

// 16 precompiled headers (about 80 MB each; $PTOCC_PCH_KEEP overrides): one
// project's targets, kernel types and flag sets easily need more than 8
// (docs/ptocc.md, "Caches").
void evict_pch(const std::string& root, const std::string& current) {
    size_t keep = 16;
    if (const char* v = std::getenv("PTOCC_PCH_KEEP"); v && *v) keep = std::max(1, std::atoi(v));
    evict_least_recent(root, current, keep, "manifest");
}

}  // namespace

bool use_pch(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& identity,
             const std::vector<std::string>& roots, const std::string& cxx, int index, std::string& note) {
    if (!s.pch) return false;
    const std::vector<std::string>& cmd = c.argv;
    size_t forced = cmd.size();
    for (size_t i = 0; i + 1 < cmd.size(); ++i)
        if (cmd[i] == "-include" && is_forced_header(cmd[i + 1])) forced = i;
    if (forced == cmd.size()) return false;
    const std::string forced_header = cmd[forced + 1];

    // The unit preprocessed as it is, and the flags the header is built with:
    // the compile's own, less its input, output, dependency and per-unit ones.
    std::vector<std::string> pre = {cmd[0]}, flags;
    std::string source;
    for (size_t i = 1; i < cmd.size(); ++i) {
        const std::string& a = cmd[i];
        const bool pair = i + 1 < cmd.size();
        if (pair && (a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ")) {
            ++i;
            continue;
        }
        if (a == "-MD" || a == "-MP") continue;
        if (pair && a == "-c") {
            source = cmd[++i];
            continue;
        }
        pre.push_back(a);
        if (pair && (a == "-iquote" || a == "-x" || (a == "-include" && is_forced_header(cmd[i + 1])))) {
            pre.push_back(cmd[++i]);
            continue;
        }
        if (a.rfind("-DPTOCC_TU_ID=", 0) == 0 || a.rfind("-fdiagnostics-color", 0) == 0) continue;
        flags.push_back(a);
    }
    const std::string pre_out = tmp + "/pre-" + std::to_string(index) + ".i";
    pre.insert(pre.end(), {"-E", "-dD", source, "-o", pre_out});
    std::string text;
    if (!run_quiet(pre, {}) || !slurp(pre_out, text)) return false;
    std::remove(pre_out.c_str());
    if (!pto_inst_comes_first(text, roots)) {
        note = "no precompiled header for " + source + ": it has code or definitions of its own before <pto/pto-inst.hpp>";
        return false;
    }

    Hash128 h;
    h.add(std::string("ptocc pch v1"));
    h.add(identity);
    h.add(forced_header);
    for (const std::string& f : flags) h.add(f);
    const std::string dir = s.dir + "/pch/" + h.hex();
    const std::string header = dir + "/" + kPchName, gch = header + ".gch", manifest = dir + "/manifest";
    PchManifest m;
    const auto pch_ready = [&] {
        m = PchManifest{};
        return read_manifest(manifest, m) && manifest_current(m) && access(gch.c_str(), R_OK) == 0;
    };
    std::shared_ptr<void> pch_lease;  // one builder per header across processes, as for results
    std::error_code lease_ec;
    fs::create_directories(s.dir + "/pch", lease_ec);
    const bool reuse = pch_ready() || wait_turn(dir + ".lease", pch_ready, pch_lease, h.hex(), gch);
    if (reuse) log_event("hit", h.hex(), gch);
    if (!reuse) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (!write_atomic(header, std::string("// Generated by ptocc: the precompiled PTO headers.\n#include <") + forced_header +
                                      ">\n#include <pto/pto-inst.hpp>\n"))
            return false;
        const std::string suffix = ".tmp." + host_name() + "." + std::to_string(getpid());
        std::vector<std::string> build = {cxx};
        build.insert(build.end(), flags.begin(), flags.end());
        build.insert(build.end(), {"-x", "c++-header", header, "-o", gch + suffix, "-MD", "-MF", dir + "/deps" + suffix});
        const int64_t started = now_ns();
        std::string deps;
        const bool built = run_quiet(build, {}) && slurp(dir + "/deps" + suffix, deps);
        std::remove((dir + "/deps" + suffix).c_str());
        if (!built) {  // the kernel's own compile, with the same headers and flags, will say why
            fs::remove_all(dir, ec);
            return false;
        }
        m.deps.clear();
        std::string out;
        for (const std::string& d : parse_depfile(deps)) {
            std::string t;
            if (d == header) continue;
            if (!slurp(d, t) || modified_since(d, started)) {  // changed while it was being compiled
                std::remove((gch + suffix).c_str());
                return false;
            }
            m.deps.emplace_back(d, hash_of(t));
        }
        put_u64(out, m.deps.size());
        for (const auto& [p, hh] : m.deps) {
            put_str(out, p);
            put_str(out, hh);
        }
        out += hash_of(out);
        // The header first, then the list that vouches for it.
        if (std::rename((gch + suffix).c_str(), gch.c_str()) != 0 || !write_atomic(manifest, out)) return false;
        note = "built the precompiled header " + gch;
        log_event("compile", h.hex(), gch);
    }
    utimensat(AT_FDCWD, manifest.c_str(), nullptr, 0);  // last use, for evict_pch
    evict_pch(s.dir + "/pch", dir);
    c.argv[forced + 1] = header;
    for (const auto& d : m.deps) c.pch_deps.push_back(d.first);
    c.pch_header = header;
    return true;
}

bool fix_pch_depfile(const CachedCompile& c) {
    if (c.pch_header.empty() || c.depfile.empty()) return true;
    std::string text;
    if (!slurp(c.depfile, text)) return false;
    std::string list;
    for (const std::string& d : c.pch_deps) {
        list += " \\\n ";
        for (char ch : d) {
            if (ch == ' ' || ch == '#') list += '\\';
            if (ch == '$') list += '$';
            list += ch;
        }
    }
    // The first rule ends at the first newline not escaped by a backslash.
    size_t end = 0;
    while ((end = text.find('\n', end)) != std::string::npos && end > 0 && text[end - 1] == '\\') ++end;
    if (end == std::string::npos) end = text.size();
    text.insert(end, list);
    return write_atomic(c.depfile, text);
}

std::string shared_copy_dir(const CacheSettings& s, const std::string& content_hash) {
    return s.dir + "/pto-isa/" + content_hash;
}

bool publish_copy(const std::string& dir, const std::function<bool(const std::string&, std::string&)>& fill,
                  std::string& err) {
    const std::string done = dir + "/" + kCopyComplete;
    const auto used = [&] {
        utimensat(AT_FDCWD, done.c_str(), nullptr, 0);  // last use, for the eviction below
        // Eight trees: a user rarely switches between more pto-isa checkouts.
        evict_least_recent(fs::path(dir).parent_path().string(), dir, 8, kCopyComplete);
        return true;
    };
    if (access(done.c_str(), R_OK) == 0) return used();
    std::error_code ec;
    const std::string staging = dir + ".tmp." + host_name() + "." + std::to_string(getpid());
    fs::remove_all(staging, ec);
    if (!fs::create_directories(staging, ec) && ec) {
        err = "cannot create " + staging + ": " + ec.message() + "; set PTOCC_CACHE_DIR to a writable directory";
        return false;
    }
    if (!fill(staging, err) || !write_atomic(staging + "/" + kCopyComplete, "")) {
        if (err.empty()) err = "cannot write " + staging + "/" + kCopyComplete;
        fs::remove_all(staging, ec);
        return false;
    }
    // Whole or not at all: a concurrent build that got there first wins, and
    // its copy has the same content.
    if (std::rename(staging.c_str(), dir.c_str()) != 0) {
        fs::remove_all(staging, ec);
        if (access(done.c_str(), R_OK) != 0) {
            err = "cannot move " + staging + " to " + dir + ": " + std::strerror(errno);
            return false;
        }
    }
    return used();
}

}  // namespace ptocc
