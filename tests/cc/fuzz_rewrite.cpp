// Fuzz target for the launch rewriter. Invariants checked on every input:
// the rewrite never moves a line (same newline count after the two header
// lines), input without launch syntax or `__global__` comes back unchanged, and every
// diagnostic points inside the input.
#include "rewrite.hpp"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string src(reinterpret_cast<const char*>(data), size);
    const ptocc::RewriteResult r = ptocc::rewrite_launches(src, "fuzz.cpp");
    const std::string head = "#include <ptosim/kernel_launch.hpp>\n#line 1 \"fuzz.cpp\"\n";
    if (r.text.compare(0, head.size(), head) != 0) std::abort();
    const std::string out = r.text.substr(head.size());
    if (std::count(out.begin(), out.end(), '\n') != std::count(src.begin(), src.end(), '\n')) std::abort();
    if (!ptocc::has_launch_syntax(src) && !ptocc::has_kernel_keyword(src) && (out != src || r.launches != 0))
        std::abort();
    const long lines = std::count(src.begin(), src.end(), '\n') + 1;
    for (const auto& d : r.errors)
        if (d.line < 1 || d.line > lines || d.column < 1) std::abort();
    return 0;
}

#ifdef PTOCC_FUZZ_STANDALONE
// Without libFuzzer: seeds first, then random token soup for a bounded time.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
    std::vector<std::string> seeds;
    if (argc > 2)
        for (const auto& e : std::filesystem::directory_iterator(argv[2])) {
            std::ifstream f(e.path(), std::ios::binary);
            std::stringstream ss;
            ss << f.rdbuf();
            seeds.push_back(ss.str());
        }
    static const char* pieces[] = {"k", "<<<", ">>>", "<", ">", "(", ")", "[", "]", "{", "}", ",", ";", "::", "\"",
                                   "'", "//", "/*", "*/", "\\\n", "\n", " ", "R\"x(", ")x\"", "#define ", "1'0",
                                   "nullptr", "s", "->", ".", "0x1p+3", "u8\"", "\\"};
    std::mt19937_64 rng(12345);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long runs = 0;
    for (const std::string& s : seeds) LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    while (std::chrono::steady_clock::now() < end) {
        std::string s = seeds.empty() || rng() % 2 ? std::string() : seeds[rng() % seeds.size()];
        const int n = static_cast<int>(rng() % 64);
        for (int i = 0; i < n; ++i) {
            std::string p = pieces[rng() % (sizeof pieces / sizeof *pieces)];
            size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
            s.insert(at, p);
        }
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
        ++runs;
    }
    std::printf("fuzz_rewrite: %ld random inputs, no invariant broken\n", runs);
    return 0;
}
#endif
