// Launch hooks of the cost model (include/ptosim/cost.hpp, docs/cost-model.md).
// Every hook is a no-op on a launch without timing.
#pragma once
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>
#include <vector>

namespace ptosim {
class Launch;
namespace cost {

// Before a launch runs: gives it a timeline when timing is on.
void begin(Launch& l);
// After it ran: the launch's time, summary, trace and stderr line.
void end(Launch& l, const Status& st);
// A core's block finished: its group's end frees its physical core for the next wave.
void core_done(Launch& l, const Core& c);

// Cross-core edges (the same calls the checkers get, src/sim/check.hpp).
void signal(Launch& l, const Core& from, const Channel& to);
void forward(Launch& l, const std::vector<Channel>& from, const std::vector<Channel>& to);
void acquire(Launch& l, const Core& c, const Channel& ch);
void contribute(Launch& l, const Core& c, const Channel& ch);
void acquire_all(Launch& l, const Core& c, const Channel& ch);

const char* pipe_short_name(Pipe p);

}  // namespace cost
}  // namespace ptosim
