// The simulator's checkers (docs/checkers.md): synccheck, racecheck,
// memcheck and initcheck run as dispatch subscribers while a launch executes
// and report at its end. Selected with PTO_SIM_CHECK=sync,race,mem,init (or
// all), reports also written as JSON lines to PTO_SIM_CHECK_LOG; a launch
// with an error report fails.
#pragma once
#include <ptosim/core.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptosim::check {

enum Tool : unsigned {
    kSync = 1u << 0,
    kRace = 1u << 1,
    kMem = 1u << 2,
    kInit = 1u << 3,
    kAllTools = kSync | kRace | kMem | kInit
};

// One side of a report: the instruction, its pipe and what it did.
struct Site {
    SourceLoc loc;
    std::string op;      // "TLOAD", "set_flag", ...
    Pipe pipe = Pipe::S;
    std::string access;  // "read", "write", or "" for synchronisation
    std::string core;    // the core that did it, e.g. "AIC block 0"
};

struct Report {
    std::string tool;      // "synccheck", "racecheck", "memcheck", "initcheck"
    std::string kind;      // e.g. "read-after-write", "flag-never-waited"
    std::string severity;  // "error" or "warning"
    std::string kernel;
    std::string core;      // e.g. "AIV block 0 sub 1"
    CoreType core_type = CoreType::AIV;
    int64_t block = 0;
    int64_t subblock = 0;
    std::string buffer;    // "UB", "L1", "GM", ... or "" when no memory is involved
    uint64_t lo = 0, hi = 0;  // byte range (buffer offset or GM address)
    std::vector<Site> sites;  // one or two, earlier first
    std::string message;
    std::string fix;
    uint64_t count = 1;    // occurrences folded into this report
};

// Selects tools with PTO_SIM_CHECK's syntax: a comma list of sync, race, mem,
// init, or all; "" turns every tool off. Returns "" or the error naming the bad word.
std::string configure(std::string_view tools);
unsigned tools();
bool enabled(Tool t);
// Appends each report as a JSON line to path ("" stops logging); a path
// ending in .sarif gets a SARIF 2.1.0 log of all reports instead.
void set_log(std::string path);
// PTO_SIM_STRICT's setting for the rest of the process: true turns every
// tolerated finding (ptosim::tolerate) into a launch fault again.
void set_strict(bool on);

// Reports of launches finished since the previous call.
std::vector<Report> take_reports();
std::string format_text(const Report& r);
std::string format_json(const Report& r);

// initcheck's and memcheck's view of device memory (docs/checkers.md): the ACL
// runtime tells it about each aclrtMalloc block (`requested` bytes asked for;
// `caller` the code address that asked), every host write into one
// (aclrtMemcpy, aclrtMemset) and each aclrtFree. No-ops unless initcheck or
// memcheck is on.
void gm_allocated(const void* p, uint64_t requested, const void* caller);
void gm_host_write(const void* p, uint64_t bytes);
void gm_freed(const void* p);
// memcheck's leak report at aclFinalize: every block allocated while memcheck
// was on and never freed, one report per allocating code address. No-op
// unless memcheck is on.
void gm_finalize();

}  // namespace ptosim::check
