// Deterministic fuzzing without libFuzzer: every seed of a target's corpus,
// then mutations of the seeds (bit flips, byte changes, truncations,
// insertions of bytes and of the target's tokens, chunk copies, splices)
// drawn from a fixed seed, each run in-process under a time bound. A crash,
// a sanitizer report (the runner is built with ASan and UBSan when the
// compiler has them), a broken invariant or a hang fails the run and prints
// the command that replays the one input.
//
//   corpus_runner <target> <corpus dir> [--mutations N] [--seed S] [--timeout SEC] [--only NAME [--dump FILE]]
//
// --dump writes the --only input to FILE before running it.
#include "targets.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

using Target = void (*)(const uint8_t*, size_t);

struct TargetInfo {
    Target run;
    std::vector<std::string> tokens;  // spliced in by the insertion mutation
};

const std::map<std::string, TargetInfo>& targets() {
    static const std::map<std::string, TargetInfo> t = {
        {"golden",
         {ptolab_fuzz::golden,
          {"\x93NUMPY", "{'descr': '", "<f4", "<f2", "|b1", ">i8", "<u2", "|V2", "'fortran_order': False",
           "'fortran_order': True", "'shape': (", "), }", ",", "(", ")", "-1", "0", "99999999999999999999",
           "4294967296", " ", "\n", "\x01\x00", "\x02\x00", "\x03\x00", "\xff\xff\xff\xff"}}},
        {"options",
         {ptolab_fuzz::options,
          {"\n", "-xcce\n", "--cce-aicore-arch=dav-c220-vec\n", "--cce-aicore-arch=dav-c310\n", "-o\n", "-c\n",
           "-shared\n", "-I\n", "-MF\n", "-MT\n", "-MD\n", "-Xhost-start\n", "-Xhost-end\n", "-mllvm\n",
           "--npu-arch=dav-2201\n", "--cce-soc-version=Ascend910B1\n", "--cce-soc-core-type=Mix\n",
           "-DMEMORY_BASE\n", "-DREGISTER_BASE\n", "-std=c++17\n", "-x\n", "cce\n", "k.cpp\n", "lib.so\n", "=",
           "-l\n", "-lruntime_camodel\n", "-L\n", "--toolchain=\n", "-Wl,\n", "--dry-run\n"}}},
        {"rewrite",
         {ptolab_fuzz::rewrite,
          {"<<<", ">>>", "<", ">", "(", ")", "[", "]", "{", "}", ",", ";", "::", "\"", "'", "//", "/*", "*/",
           "\\\n", "\n", "\t", " ", "R\"x(", ")x\"", "#define ", "1'0", "nullptr", "->", ".", "0x1p+3", "u8\"",
           "\\", "asm volatile(\"nop\" : \"=l\"(x));", "__asm__(", ":", "k"}}},
        {"diagnostics",
         {ptolab_fuzz::diagnostics,
          {"In file included from ", "                 from ", "k.cpp:", "/opt/ptolab/include/pto/x.hpp:",
           "/usr/include/c++/12/tuple:", "2:", "1:", "99999999999:", "0:", ": error: ", ": warning: ",
           ": note: ", ":   required from here", " in expansion of macro 'M'", ": In function 'f':",
           "\n", "    2 | ", "      |     ^", "\x1b[01m\x1b[K", "\x1b[m\x1b[K", ":", "|", ","}}},
    };
    return t;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// One mutation step; several are stacked per input.
void mutate(std::string& s, std::mt19937_64& rng, const std::vector<std::string>& seeds,
            const std::vector<std::string>& tokens) {
    auto pick = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
    switch (rng() % 8) {
        case 0:  // bit flip
            if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8));
            break;
        case 1: {  // an interesting byte
            static const unsigned char v[] = {0, 1, 0x7f, 0x80, 0xff, '\n', '\'', '"', '(', ')', ',', '\\'};
            if (!s.empty()) s[pick(s.size())] = static_cast<char>(v[pick(sizeof v)]);
            break;
        }
        case 2:  // truncation
            s.resize(pick(s.size() + 1));
            break;
        case 3: {  // random bytes inserted
            std::string b(1 + pick(8), '\0');
            for (char& c : b) c = static_cast<char>(rng());
            s.insert(pick(s.size() + 1), b);
            break;
        }
        case 4:
        case 5:  // a token of the target's language
            s.insert(pick(s.size() + 1), tokens[pick(tokens.size())]);
            break;
        case 6:  // a chunk copied elsewhere
            if (!s.empty()) {
                const size_t a = pick(s.size()), n = 1 + pick(std::min<size_t>(s.size() - a, 64));
                const std::string chunk = s.substr(a, n);
                s.insert(pick(s.size() + 1), chunk);
            }
            break;
        default:  // spliced with another seed
            if (!seeds.empty()) {
                const std::string& o = seeds[pick(seeds.size())];
                s = s.substr(0, pick(s.size() + 1)) + o.substr(pick(o.size() + 1));
            }
            break;
    }
    if (s.size() > (1u << 16)) s.resize(1u << 16);
}

std::atomic<int64_t> g_started{0};  // steady-clock ns when the current input began, 0 when idle
std::string g_current;               // the replay arguments of the current input
std::string g_argv0, g_target, g_corpus;

void on_fatal(int sig) {
    const std::string msg = "corpus_runner: " + std::string(strsignal(sig)) + " on input " + g_current +
                            "; replay: " + g_argv0 + " " + g_target + " " + g_corpus + " " + g_current + "\n";
    (void)!write(2, msg.data(), msg.size());
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || !targets().count(argv[1])) {
        std::fprintf(stderr, "usage: %s golden|options|rewrite|diagnostics <corpus dir> [--mutations N] [--seed S] "
                             "[--timeout SEC] [--only seed:NAME|mutation:K]\n", argv[0]);
        return 2;
    }
    g_argv0 = argv[0];
    g_target = argv[1];
    g_corpus = argv[2];
    long mutations = 2000;
    uint64_t seed = 20261203;
    double timeout = 5.0;
    std::string only, dump;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--mutations") mutations = std::atol(argv[i + 1]);
        else if (k == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if (k == "--timeout") timeout = std::atof(argv[i + 1]);
        else if (k == "--only") only = argv[i + 1];
        else if (k == "--dump") dump = argv[i + 1];
    }
    const TargetInfo& t = targets().at(g_target);

    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(g_corpus))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());  // directory order is not deterministic
    if (files.empty()) {
        std::fprintf(stderr, "corpus_runner: no seeds in %s\n", g_corpus.c_str());
        return 2;
    }
    std::vector<std::string> seeds;
    for (const fs::path& f : files) seeds.push_back(slurp(f));

    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(sig, on_fatal);
    // The watchdog: an input that runs longer than the bound is a hang.
    std::thread([timeout] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            const int64_t s = g_started.load();
            if (s && now_ns() - s > static_cast<int64_t>(timeout * 1e9)) {
                const std::string msg = "corpus_runner: input " + g_current + " still running after " +
                                        std::to_string(timeout) + " s (a hang); replay: " + g_argv0 + " " + g_target +
                                        " " + g_corpus + " " + g_current + "\n";
                (void)!write(2, msg.data(), msg.size());
                _exit(3);
            }
        }
    }).detach();

    auto run = [&](const std::string& input, const std::string& name) {
        if (!dump.empty()) std::ofstream(dump, std::ios::binary) << input;
        g_current = name;
        g_started.store(now_ns());
        t.run(reinterpret_cast<const uint8_t*>(input.data()), input.size());
        g_started.store(0);
    };
    // Input k: 1-4 stacked mutations of one seed, all from a generator seeded
    // by (seed, k), so any single input is replayed without the others.
    auto mutant = [&](long k) {
        std::seed_seq ss{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(k)};
        std::mt19937_64 rng(ss);
        std::string s = seeds[static_cast<size_t>(rng() % seeds.size())];
        for (int n = 1 + static_cast<int>(rng() % 4); n > 0; --n) mutate(s, rng, seeds, t.tokens);
        return s;
    };

    if (!only.empty()) {
        if (only.rfind("seed:", 0) == 0) {
            for (size_t i = 0; i < files.size(); ++i)
                if (files[i].filename() == only.substr(5)) run(seeds[i], "--only " + only);
        } else if (only.rfind("mutation:", 0) == 0) {
            run(mutant(std::atol(only.c_str() + 9)), "--only " + only);
        }
        std::printf("corpus_runner %s: %s passed\n", g_target.c_str(), only.c_str());
        return 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < files.size(); ++i) run(seeds[i], "--only seed:" + files[i].filename().string());
    const std::string seed_arg = seed == 20261203 ? "" : " --seed " + std::to_string(seed);
    for (long k = 0; k < mutations; ++k) run(mutant(k), "--only mutation:" + std::to_string(k) + seed_arg);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("corpus_runner %s: %zu seeds and %ld mutations passed in %.1f s\n", g_target.c_str(), files.size(),
                mutations, secs);
    return 0;
}
