// Launch hooks of the cost model (include/ptosim/cost.hpp, docs/cost-model.md).
// Every hook is a no-op on a launch without timing.
#pragma once
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>
#include <cstdint>
#include <vector>

namespace ptosim {
class Launch;
namespace cost {

// Simulated time of streams (docs/semantics.md, "Simulated time of
// streams"). A stream's worker runs each task with a TaskClock: the task
// starts at start_us (the stream's clock, not before the host issued it);
// a launch in it starts at end_us and moves end_us to its end, an event
// wait moves it to the record's time; the stream's clock becomes end_us.
struct TaskClock {
    double start_us = 0;
    double end_us = 0;
    uint64_t ticket = 0;  // the launch's issue ticket (issue_ticket), 0 for other work
};
// The task the calling stream worker runs; null on other threads.
TaskClock*& current_task();
// The calling host thread's clock moves to `us` if it is behind
// (synchronisations: the host learns that the work ended by then).
void join_host_clock(double us);
// The process's clock moves to `us` if it is behind.
void note_clock(double us);
// Launches are numbered, and their profile rows and trace events written,
// in the order of these tickets (the order the host issued them), each once
// every earlier ticket was retired: a stream takes one when a launch is
// queued and retires it when the launch ended or was dropped.
uint64_t issue_ticket();
void retire_ticket(uint64_t ticket);

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

// aclrtCmoAsync run as a task of a stream (docs/cost-model.md, "Prefetch
// into L2"). With timing on, the task takes simulated time on its stream
// (lat_prefetch, plus the bytes at the HBM bandwidth unless it only
// invalidates). From the task's end the GM lines of [addr, addr + bytes)
// are in L2 for the launches that start then or later (Prefetch), stay as
// they were (Writeback: the copy is kept), or are no longer there
// (Invalidate, Flush). With timing off it does nothing.
enum class CacheOp { Prefetch, Writeback, Invalidate, Flush };
void cache_operation(uintptr_t addr, uint64_t bytes, CacheOp op);
// The lines of a freed block leave the simulated L2 (aclrtFree); every line
// leaves it at aclFinalize and aclrtResetDevice.
void drop_from_l2(uintptr_t addr, uint64_t bytes);
void drop_all_from_l2();

}  // namespace cost
}  // namespace ptosim
