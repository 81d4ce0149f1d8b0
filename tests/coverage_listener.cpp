// Records which (instruction, dtype, target) triples a test binary really
// executes, so docs/coverage.md reflects what the tests exercise rather than
// what the sources claim. Inert unless PTOSIM_COVERAGE_OUT names a file.
#include <ptosim/core.hpp>

#include "test_seed.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>

namespace {

struct Coverage {
    std::string out;
    pid_t owner = 0;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
};

// Leaked on purpose: it must outlive every other static destructor that might
// still dispatch ops, and the atexit writer needs it after main returns.
Coverage* g_cov = nullptr;

std::string json_escape(const std::string& s) {
    std::string r;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') r += '\\';
        if (static_cast<unsigned char>(ch) < 0x20) continue;
        r += ch;
    }
    return r;
}

void write_coverage() {
    // Death-test children fork from this process and exit through here too;
    // only the original process may write, or the children clobber the file
    // with partial data.
    if (!g_cov || getpid() != g_cov->owner) return;
    FILE* f = std::fopen(g_cov->out.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "coverage: cannot write %s\n", g_cov->out.c_str());
        return;
    }
    std::fputs("[\n", f);
    bool first = true;
    for (const auto& [op, dtype, target] : g_cov->seen) {
        std::fprintf(f, "%s  {\"op\": \"%s\", \"dtype\": \"%s\", \"target\": \"%s\"}", first ? "" : ",\n",
                     json_escape(op).c_str(), json_escape(dtype).c_str(), json_escape(target).c_str());
        first = false;
    }
    std::fputs("\n]\n", f);
    std::fclose(f);
}

[[maybe_unused]] const bool g_installed = [] {
    const char* out = std::getenv("PTOSIM_COVERAGE_OUT");
    if (!out || !*out) return false;
    g_cov = new Coverage{out, getpid(), {}};
    // dispatch() calls subscribers under its own lock, so the set needs none;
    // a set does not need the records in order (launches keep every thread).
    ptosim::subscribe(
        [](const ptosim::Core& c, const ptosim::OpRecord& r) {
            // A test's announcement of bytes it seeded (testutil::announce_seeded) is no instruction.
            if (testutil::is_seed(r.op)) return;
            g_cov->seen.emplace(r.op ? r.op : "", r.dtype ? r.dtype : "", ptosim::to_string(c.target));
        },
        false);
    std::atexit(write_coverage);
    return true;
}();

}  // namespace
