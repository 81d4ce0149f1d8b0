// Verification-log entries (seed: Definition Of Done, step 4): the date, the
// host, the exact command, its PASS/FAIL lines and the result JSON, appended
// to a Markdown file so that an interrupted or concurrent write can never
// leave a half-written or interleaved log.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ptolab {

struct LogEntry {
    std::string title;       // defaults to the verdict and command
    std::string host;        // doctor_summary()
    std::string command;     // exactly as run
    std::optional<int> exit_status;
    std::vector<std::string> result_lines;  // lines starting with PASS or FAIL
    std::string result_json;                // validated, pretty-printed; may be empty
    std::string note;
};

// Lines of `output` that start with "PASS" or "FAIL" (after leading spaces).
std::vector<std::string> result_lines(const std::string& output);
// PASS when there is at least one PASS line, no FAIL line, a zero exit status
// (if known) and a JSON result that does not say it failed; FAIL when any of
// those says so; otherwise "NO RESULT".
std::string verdict(const LogEntry& e);
// Throws std::invalid_argument naming the problem when `text` is not JSON.
std::string normalize_json(const std::string& text, const std::string& where);

std::string format_entry(const LogEntry& e, const std::string& date);
// Appends under an exclusive lock, by writing the whole new log to a
// temporary file in the same directory and renaming it over the old one.
// Throws std::runtime_error with the path and errno text on failure.
void append_entry(const std::string& path, const LogEntry& e);

}  // namespace ptolab
