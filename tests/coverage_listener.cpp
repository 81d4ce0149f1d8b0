// Records which (instruction, dtype, target) triples a test binary really
// executes, so docs/coverage.md reflects what the tests exercise rather than
// what the sources claim. Inert unless PTOSIM_COVERAGE_OUT names a file
// (one whole run of the binary: scripts/gen_coverage.py) or
// PTOSIM_COVERAGE_DIR a directory, where each process leaves a record of the
// tests it ran and what they dispatched (ctest's one process per test case),
// so that gen_coverage.py --records need not run the binaries again.
#include <gtest/gtest.h>
#include <ptosim/core.hpp>

#include "test_seed.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>

namespace {

struct Coverage {
    std::string out;
    bool per_process = false;  // out is a directory: name a file of this process's own in it
    pid_t owner = 0;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    std::set<std::string> tests;  // full names of the tests this process ran to their end
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

void put_records(FILE* f) {
    std::fputs("[\n", f);
    bool first = true;
    for (const auto& [op, dtype, target] : g_cov->seen) {
        std::fprintf(f, "%s  {\"op\": \"%s\", \"dtype\": \"%s\", \"target\": \"%s\"}", first ? "" : ",\n",
                     json_escape(op).c_str(), json_escape(dtype).c_str(), json_escape(target).c_str());
        first = false;
    }
    std::fputs("\n]", f);
}

void write_coverage() {
    // Death-test children fork from this process and exit through here too;
    // only the original process may write, or the children clobber the file
    // with partial data. A death test re-run in a process of its own is no
    // run of the binary's tests either.
    if (!g_cov || getpid() != g_cov->owner || !GTEST_FLAG_GET(internal_run_death_test).empty()) return;
    if (g_cov->per_process && g_cov->tests.empty()) return;  // ran no test: nothing to tell
    std::string path = g_cov->out, final_path = path, exe = "test";
    if (g_cov->per_process) {
        char buf[4096];
        if (const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf); n > 0) {
            exe.assign(buf, static_cast<size_t>(n));
            exe = exe.substr(exe.rfind('/') + 1);
        }
        // ctest runs one case per process: one file per case, which the
        // case's next run replaces, so the directory does not grow run after run.
        std::string which = "pid" + std::to_string(getpid());
        if (g_cov->tests.size() == 1) {
            which = *g_cov->tests.begin();
            for (char& ch : which)
                if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') ch = '_';
        }
        final_path = g_cov->out + "/" + exe + "." + which + ".json";
        path = final_path + ".part";  // renamed when whole: a reader never sees half a record
    }
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "coverage: cannot write %s\n", path.c_str());
        return;
    }
    if (g_cov->per_process) {
        std::fprintf(f, "{\"binary\": \"%s\", \"tests\": [", json_escape(exe).c_str());
        bool first = true;
        for (const std::string& t : g_cov->tests) {
            std::fprintf(f, "%s\"%s\"", first ? "" : ", ", json_escape(t).c_str());
            first = false;
        }
        std::fputs("],\n\"records\": ", f);
        put_records(f);
        std::fputs("}\n", f);
    } else {
        put_records(f);
        std::fputs("\n", f);
    }
    const bool ok = std::fclose(f) == 0;
    if (g_cov->per_process && (!ok || std::rename(path.c_str(), final_path.c_str()) != 0)) std::remove(path.c_str());
}

// Notes each test that reaches its end in this process.
class TestNames : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& info) override {
        g_cov->tests.insert(std::string(info.test_suite_name()) + "." + info.name());
    }
};

[[maybe_unused]] const bool g_installed = [] {
    const char* out = std::getenv("PTOSIM_COVERAGE_OUT");
    const char* dir = std::getenv("PTOSIM_COVERAGE_DIR");
    const bool per_process = (!out || !*out) && dir && *dir;
    if (!per_process && (!out || !*out)) return false;
    g_cov = new Coverage{per_process ? dir : out, per_process, getpid(), {}, {}};
    // dispatch() calls subscribers under its own lock, so the set needs none;
    // a set does not need the records in order (launches keep every thread).
    ptosim::subscribe(
        [](const ptosim::Core& c, const ptosim::OpRecord& r) {
            // A test's announcement of bytes it seeded (testutil::announce_seeded) is no instruction.
            if (testutil::is_seed(r.op)) return;
            g_cov->seen.emplace(r.op ? r.op : "", r.dtype ? r.dtype : "", ptosim::to_string(c.target));
        },
        false);
    // gtest_main's InitGoogleTest leaves the listeners in place.
    ::testing::UnitTest::GetInstance()->listeners().Append(new TestNames);
    std::atexit(write_coverage);
    return true;
}();

}  // namespace
