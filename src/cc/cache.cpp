#include "cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptocc {
namespace fs = std::filesystem;

namespace {

constexpr const char* kTmpToken = "\x01ptocc-tmp\x01";
constexpr const char* kMagic = "PTOCC-CACHE-1\n";

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

// Writes through a temporary name and renames, so a reader never sees half a file.
bool write_atomic(const std::string& path, const std::string& data) {
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(data.data(), static_cast<std::streamsize>(data.size()));
        f.close();
        if (!f) {
            std::remove(tmp.c_str());
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        return false;
    }
    return true;
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

std::string Hash128::hex() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016" PRIx64 "%016" PRIx64, a, b);
    return buf;
}

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
                             int index) {
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
    if (source.empty() || c.output.empty() || (md && c.depfile.empty())) return c;
    std::string text;
    if (!slurp(source, text)) return c;

    Hash128 h;
    h.add(std::string("ptocc result v1"));
    h.add(identity);
    std::error_code ec;
    h.add(fs::current_path(ec).string());  // relative paths, and the debug info's directory
    for (size_t i = 0; i < cmd.size(); ++i) {
        if (cmd[i] == "-o") {
            ++i;  // where the object goes does not change it
            continue;
        }
        h.add(replace_all(cmd[i], tmp, kTmpToken));
    }
    h.add(text);
    c.key = h.hex();
    if (!md) {
        c.own_depfile = tmp + "/cache-" + std::to_string(index) + ".d";
        c.argv.insert(c.argv.end(), {"-MD", "-MF", c.own_depfile});
    }
    return c;
}

bool restore_cached(const CacheSettings& s, CachedCompile& c, const std::string& tmp, const std::string& stderr_file,
                    std::string& note) {
    if (c.key.empty() || !s.results) return false;
    const std::string path = entry_path(s, c.key);
    std::string data;
    if (!slurp(path, data)) return false;
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
        const std::string dep = r.str(), want = r.str();
        std::string now;
        if (!r.ok) break;
        if (!slurp(dep, now) || hash_of(now) != want) {
            note = "cache entry for " + c.output + " is stale: " + dep + " changed";
            return false;
        }
    }
    const std::string err = r.str(), dep = r.str(), obj = r.str();
    if (!r.ok || r.pos != body.size()) {
        note = "cache entry " + path + " is damaged; rebuilding it";
        std::remove(path.c_str());
        return false;
    }
    if (!write_atomic(c.output, obj)) return false;
    if (!c.depfile.empty() && !write_atomic(c.depfile, replace_all(dep, kTmpToken, tmp))) return false;
    if (!stderr_file.empty()) write_atomic(stderr_file, replace_all(err, kTmpToken, tmp));
    c.hit = true;
    return true;
}

void store_cached(const CacheSettings& s, const CachedCompile& c, const std::string& tmp,
                  const std::string& stderr_file) {
    if (c.key.empty() || !s.results) return;
    std::string dep, obj, err;
    const std::string& depfile = c.own_depfile.empty() ? c.depfile : c.own_depfile;
    if (!slurp(depfile, dep) || !slurp(c.output, obj)) return;
    if (!stderr_file.empty()) slurp(stderr_file, err);
    std::string out = kMagic, deps;
    uint64_t n = 0;
    for (const std::string& d : parse_depfile(dep)) {
        if (d.rfind(tmp + "/", 0) == 0) continue;  // the rewritten source: its text is in the key
        std::string text;
        if (!slurp(d, text)) return;  // a prerequisite that cannot be read cannot be checked
        put_str(deps, d);
        put_str(deps, hash_of(text));
        ++n;
    }
    put_u64(out, n);
    out += deps;
    put_str(out, replace_all(err, tmp, kTmpToken));
    put_str(out, c.own_depfile.empty() ? replace_all(dep, tmp, kTmpToken) : std::string());
    put_str(out, obj);
    out += hash_of(out);
    const std::string path = entry_path(s, c.key);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    write_atomic(path, out);
}

}  // namespace ptocc
