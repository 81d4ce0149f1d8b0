#include "code_address.hpp"

#include <process.hpp>
#include <ptosim/core.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

namespace ptosim {

void describe_code_address(const void* pc, char* out, size_t n) {
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname) {
        std::snprintf(out, n, "%p", pc);
        return;
    }
    const uintptr_t a = reinterpret_cast<uintptr_t>(pc);
    if (info.dli_sname && info.dli_saddr)
        std::snprintf(out, n, "%s+0x%" PRIxPTR " (%s)", info.dli_sname, a - reinterpret_cast<uintptr_t>(info.dli_saddr),
                      info.dli_fname);
    else
        std::snprintf(out, n, "%s+0x%" PRIxPTR, info.dli_fname, a - reinterpret_cast<uintptr_t>(info.dli_fbase));
}

namespace {

// The executable or library holding pc and the address addr2line expects:
// relative to the load base for position-independent objects.
bool object_and_address(const void* pc, std::string& object, uintptr_t& address) {
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname || !*info.dli_fname) return false;
    object = info.dli_fname;
    // A kernel image loaded from memory (a mix kernel's second variant,
    // kernel_registry.cpp) is /proc/self/fd/N: addr2line, a child process,
    // reads it through this process's /proc entry instead of its own.
    if (object.rfind("/proc/self/", 0) == 0) object = "/proc/" + std::to_string(getpid()) + object.substr(10);
    if (object.find('/') == std::string::npos) {
        // The main program is named as it was started; /proc knows its path.
        char self[4096];
        const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        if (len <= 0) return false;
        object.assign(self, static_cast<size_t>(len));
    }
    Elf64_Ehdr header{};
    std::ifstream f(object, std::ios::binary);
    if (!f.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
    // A return address is just past the call; the call's line is one byte before.
    address = reinterpret_cast<uintptr_t>(pc) - 1;
    if (header.e_type == ET_DYN) address -= reinterpret_cast<uintptr_t>(info.dli_fbase);
    return true;
}

// "file:line" as addr2line prints it, or "" where it names no line.
std::string file_and_line(std::string line) {
    // "file:line (discriminator 2)" names the line; "??:0" and "file:?" do not.
    if (const size_t space = line.find(' '); space != std::string::npos) line.resize(space);
    const size_t colon = line.rfind(':');
    if (line.rfind("??", 0) == 0 || colon == std::string::npos || colon + 1 == line.size() ||
        line.find_first_not_of("0123456789", colon + 1) != std::string::npos || line.compare(colon + 1, 2, "0") == 0)
        line.clear();
    return line;
}

// addr2line's lines for pc (with -i: innermost inlined frame first).
std::vector<std::string> addr2line(const void* pc, bool inlined) {
    std::string object;
    uintptr_t address = 0;
    if (!object_and_address(pc, object, address)) return {};
    char path[] = "/tmp/ptosim-addr2line-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return {};
    close(fd);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%" PRIxPTR, address);
    ptolab::common::Redirect to_file;
    to_file.stdout_file = path;
    to_file.stderr_file = "/dev/null";
    std::vector<std::string> lines;
    std::vector<std::string> argv{"addr2line", "-e", object, hex};
    if (inlined) argv.insert(argv.begin() + 1, "-i");
    if (ptolab::common::run(argv, to_file) == 0) {
        std::ifstream out(path);
        for (std::string line; std::getline(out, line);) lines.push_back(file_and_line(line));
    }
    unlink(path);
    return lines;
}

// "file:line" of pc by addr2line, or "" when unknown.
std::string source_line(const void* pc) {
    const std::vector<std::string> lines = addr2line(pc, false);
    return lines.empty() ? "" : lines.front();
}

// Where the headers a kernel includes keep their code: pto-isa's tree (the
// translated copy names the original files) and ptolab's CCE layer.
bool in_library_header(const std::string& file_line) {
    for (const char* dir : {"/include/pto/", "/include/cce/", "/include/ptosim/"})
        if (file_line.find(dir) != std::string::npos) return true;
    return false;
}

}  // namespace

SourceLoc caller_loc(const void* caller) {
    // Asked once per executed instruction: a per-thread cache in front of the
    // shared one, which runs addr2line once per call site.
    thread_local std::unordered_map<const void*, SourceLoc> mine;
    if (auto it = mine.find(caller); it != mine.end()) return it->second;
    static std::mutex mu;
    static std::map<const void*, SourceLoc> known;
    static std::set<std::string> files;  // the names SourceLoc points into
    std::lock_guard lk(mu);
    auto it = known.find(caller);
    if (it == known.end()) {
        SourceLoc at;
        const std::string line = source_line(caller);
        if (const size_t colon = line.rfind(':'); colon != std::string::npos) {
            at.file = files.insert(line.substr(0, colon)).first->c_str();
            at.line = std::atoi(line.c_str() + colon + 1);
        }
        it = known.emplace(caller, at).first;
    }
    return mine[caller] = it->second;
}

std::string user_call_line(const void* pc) {
    static std::mutex mu;
    static std::map<const void*, std::string> lines;
    std::lock_guard lk(mu);
    auto it = lines.find(pc);
    if (it == lines.end()) {
        std::string user;
        for (const std::string& l : addr2line(pc, true))
            if (!l.empty() && !in_library_header(l)) {
                user = l;
                break;
            }
        it = lines.emplace(pc, user).first;
    }
    return it->second;
}

std::string describe_call_site(const void* pc) {
    char description[256];
    describe_code_address(pc, description, sizeof description);
    static std::mutex mu;
    static std::map<const void*, std::string> lines;
    std::lock_guard lk(mu);
    auto it = lines.find(pc);
    if (it == lines.end()) it = lines.emplace(pc, source_line(pc)).first;
    return it->second.empty() ? std::string(description) : std::string(description) + " at " + it->second;
}

}  // namespace ptosim
