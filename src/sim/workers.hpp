// The host threads that run simulated cores in parallel: a small pool kept
// for the life of the process, so a launch wakes threads instead of
// creating them.
#pragma once
#include <functional>
#include <string>

namespace ptosim {

// Runs work(0) on the calling thread and work(1) .. work(n - 1) on pool
// threads, and returns when all of them returned. n is at least 1.
void run_on_workers(int n, const std::function<void(int)>& work);

// The pool runs one launch at a time: a launch takes it (true) before
// run_on_workers with more than one thread and gives it back after; a
// launch that finds it taken (another launch runs at the same time on other
// cores) runs on its own thread.
bool pool_try_acquire();
void pool_release();

// The number of host threads a launch may use: set_sim_threads, else
// PTO_SIM_THREADS, else the host's cores (the CPUs this process may run on).
// Returns 0 and fills `error` when PTO_SIM_THREADS is not a valid count.
int sim_threads(std::string* error);

}  // namespace ptosim
