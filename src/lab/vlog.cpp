#include <ptolab/vlog.hpp>

#include "file_write.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ptolab {

namespace {

[[noreturn]] void sys_fail(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// Markdown fences must be longer than any backtick run in what they enclose.
std::string fence_for(const std::string& body) {
    size_t longest = 0, run = 0;
    for (char c : body) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string read_fd(int fd, const std::string& path) {
    std::string s;
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            sys_fail("cannot read", path);
        }
        if (n == 0) break;
        s.append(buf, static_cast<size_t>(n));
    }
    return s;
}

}  // namespace

std::vector<std::string> result_lines(const std::string& output) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < output.size()) {
        size_t end = output.find('\n', start);
        if (end == std::string::npos) end = output.size();
        std::string line = output.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t p = line.find_first_not_of(" \t");
        if (p != std::string::npos && (line.compare(p, 4, "PASS") == 0 || line.compare(p, 4, "FAIL") == 0))
            out.push_back(line.substr(p));
        start = end + 1;
    }
    return out;
}

std::string normalize_json(const std::string& text, const std::string& where) {
    try {
        return nlohmann::json::parse(text).dump(2);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(where + " is not valid JSON (" + e.what() +
                                    "); pass the file the runner wrote with its JSON result");
    }
}

std::string verdict(const LogEntry& e) {
    bool any_pass = false, any_fail = false;
    for (const auto& l : e.result_lines) (l.rfind("PASS", 0) == 0 ? any_pass : any_fail) = true;
    if (e.exit_status && *e.exit_status != 0) any_fail = true;
    if (!e.result_json.empty()) {
        auto j = nlohmann::json::parse(e.result_json);
        if (j.is_object()) {
            if (j.contains("passed") && j["passed"].is_boolean()) (j["passed"].get<bool>() ? any_pass : any_fail) = true;
            if (j.contains("status") && j["status"].is_string()) {
                const std::string s = j["status"];
                if (s == "PASS") any_pass = true;
                if (s == "FAIL") any_fail = true;
            }
        }
    }
    if (any_fail) return "FAIL";
    return any_pass ? "PASS" : "NO RESULT";
}

std::string format_entry(const LogEntry& e, const std::string& date) {
    const std::string v = verdict(e);
    std::string s = fmt::format("\n## {} — {}\n\n", date, e.title.empty() ? v : e.title + " — " + v);
    s += "- Host: " + e.host + "\n";
    const std::string cf = fence_for(e.command);
    s += "- Command:\n\n  " + cf + "sh\n  " + e.command + "\n  " + cf + "\n";
    if (e.exit_status) s += fmt::format("- Exit status: {}\n", *e.exit_status);
    if (!e.note.empty()) s += "- Note: " + e.note + "\n";
    std::string lines;
    for (const auto& l : e.result_lines) lines += l + "\n";
    if (lines.empty()) lines = "(no PASS/FAIL lines)\n";
    const std::string lf = fence_for(lines);
    s += "\nResult lines:\n\n" + lf + "text\n" + lines + lf + "\n";
    if (!e.result_json.empty()) {
        const std::string jf = fence_for(e.result_json);
        s += "\nResult JSON:\n\n" + jf + "json\n" + e.result_json + "\n" + jf + "\n";
    }
    return s;
}

void append_entry(const std::string& path, const LogEntry& e) {
    fs::path p = fs::absolute(path);
    fs::path dir = p.parent_path();
    // Lock the directory, not the log: the log's inode changes with every rename.
    int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) sys_fail("cannot open the log's directory", dir.string());
    while (flock(dfd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(dfd);
            sys_fail("cannot lock", dir.string());
        }
    std::string old;
    int fd = open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        // The entry is added by rewriting the whole log: a device or FIFO
        // would be read forever (/dev/full) or emptied.
        struct stat st{};
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            close(dfd);
            throw std::invalid_argument("--log " + p.string() + " is not a regular file; ptolab log reads the log "
                                        "back to append an entry: name a file");
        }
        old = read_fd(fd, p.string());
        close(fd);
    } else if (errno != ENOENT) {
        close(dfd);
        sys_fail("cannot read", p.string());
    }
    if (old.empty()) old = "# Verification log\n\nEntries appended by `ptolab log`: date, host, exact command, result.\n";
    else if (old.back() != '\n') old += '\n';
    char date[64];
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    const std::string content = old + format_entry(e, date);

    try {
        common::write_file(p.string(), content, {.durable = true});
    } catch (...) {
        close(dfd);
        throw;
    }
    close(dfd);  // releases the lock
}

}  // namespace ptolab
