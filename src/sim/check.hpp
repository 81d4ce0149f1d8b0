// Launch hooks of the checkers (include/ptosim/check.hpp).
#pragma once
#include <ptosim/check.hpp>
#include <ptosim/runtime.hpp>
#include <array>
#include <functional>
#include <string>
#include <vector>

namespace ptosim {
class Launch;
namespace check {

// Before a launch runs: reads PTO_SIM_CHECK on first use and, when a tool is
// on, gives the launch its checker state. An invalid PTO_SIM_CHECK fails.
Status begin(Launch& l);
// After it ran: the end-of-kernel checks, the reports (stderr, log), and
// the launch's status, an error when a report is one and the run succeeded.
Status end(Launch& l, Status run);
// A core's block finished (its state is about to go): its end-of-kernel checks.
void core_done(Launch& l, const Core& c);

// Cross-core edges for racecheck, called by the signalling intrinsics; no-ops
// unless racecheck runs. A channel names one queue of signals: the receiving
// counter of a flag, or a barrier member's pending signals.
using Channel = std::array<int64_t, 4>;
// A signal from `from` on `pipe`: what that pipe is ordered after goes into `to`.
void signal(Launch& l, const Core& from, Pipe pipe, const Channel& to);
// A barrier released: one signal from each of `from`, merged, into each of `to`.
void forward(Launch& l, const std::vector<Channel>& from, const std::vector<Channel>& to);
// A satisfied wait takes the oldest signal of `ch`: what the core issues next is ordered after it.
void acquire(Launch& l, const Core& c, const Channel& ch);
// SYNCALL: every participant adds itself to `ch`; once all did, each acquires the whole.
void contribute(Launch& l, const Core& c, const Channel& ch);
void acquire_all(Launch& l, const Core& c, const Channel& ch);

// initcheck: an instruction of `c` read a vector register (operand `operand`
// of `op`) that nothing wrote since it was declared. A report under
// initcheck, else one note on stderr per site in the process.
void unwritten_register(Launch& l, const Core& c, const SourceLoc& loc, const char* op, int operand);

// memcheck and initcheck of one launch (check_mem.cpp).
class MemInit;
struct ReportSink {
    // Counts one more occurrence of a report already made; false when there is none.
    std::function<bool(const std::string& tool, const std::string& kind, const SourceLoc& first,
                       const SourceLoc& second)>
        repeat;
    // Adds a report made on core `core` (deduplicated as every report).
    std::function<void(int core, Report)> add;
};
// Reports made outside a launch (memcheck's leaks at aclFinalize): printed,
// logged and kept for take_reports like a launch's.
void emit(std::vector<Report> reports);
MemInit* mem_init_new(Launch& l, unsigned tools, ReportSink sink);
void mem_init_delete(MemInit* m);
void mem_record(MemInit& m, const Core& c, const OpRecord& r);
void init_record(MemInit& m, const Core& c, const OpRecord& r);

// The cores whose buffer `space` an access of core c reaches: c itself, or
// for a buffer c has none of, its mix group's Cube core or the Vector
// sub-blocks the record names (OpRecord::peer_subblocks). Returns how many
// it wrote to `out`; none for GM or an unreachable buffer.
int access_cores(Launch& l, const Core& c, const OpRecord& r, Space space, int out[2]);

}  // namespace check
}  // namespace ptosim
