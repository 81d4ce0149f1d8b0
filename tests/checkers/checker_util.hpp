// What the checkers' mutation suites share: finding a kernel line by its
// `// <marker>` comment, and a report reduced to "tool kind buffer line...".
#pragma once
#include <ptosim/check.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace checker_test {

// The line of `file` (the test's __FILE__) that ends with "// <marker>".
inline int marker_line(const char* file, const std::string& marker) {
    std::ifstream f(file);
#ifdef PTOLAB_CHECKERS_SOURCE_DIR
    // __FILE__ is relative to the build directory (Ninja), but ctest runs each
    // discovered test in the binary's own directory.
    if (!f) {
        const std::string name(file);
        f.open(std::string(PTOLAB_CHECKERS_SOURCE_DIR) + "/" + name.substr(name.find_last_of('/') + 1));
    }
#endif
    std::string s;
    const std::string tail = "// " + marker;
    for (int n = 1; std::getline(f, s); ++n)
        if (s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0) return n;
    ADD_FAILURE() << "no line of " << file << " ends with " << tail;
    return -1;
}

// "tool kind buffer line..." of a report.
inline std::string summary(const ptosim::check::Report& r) {
    std::string s = r.tool + " " + r.kind;
    if (!r.buffer.empty()) s += " " + r.buffer;
    for (const auto& site : r.sites) s += " " + std::to_string(site.loc.line);
    return s;
}

}  // namespace checker_test
