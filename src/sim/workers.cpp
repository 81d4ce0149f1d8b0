#include "workers.hpp"
#include <sched.h>
#include <atomic>
#include <condition_variable>
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace ptosim {

namespace {

// One job at a time (a launch holds its device's execution lock). Between
// launches a thread spins for a short while before it sleeps: a program that
// launches, synchronises and launches again (a benchmark loop, a model's
// layers) finds its threads awake instead of paying a futex wake-up and a
// context switch per launch, which cost more than a small launch itself.
// Never destroyed: threads parked on the pool's condition variable must not
// outlive it at process exit.
class Pool {
public:
    void run(int n, const std::function<void(int)>& work) {
        {
            std::lock_guard lk(mu_);
            while (static_cast<int>(threads_.size()) < n - 1) {
                const int id = static_cast<int>(threads_.size()) + 1;
                threads_.emplace_back([this, id] { loop(id); }).detach();
            }
        }
        work_ = &work;
        wanted_.store(n, std::memory_order_relaxed);
        pending_.store(n - 1, std::memory_order_relaxed);
        generation_.fetch_add(1);  // seq_cst: paired with the sleepers_ count below
        if (sleepers_.load() > 0) {
            // Taking the lock orders this against a thread between its last
            // look at generation_ and its sleep.
            { std::lock_guard lk(mu_); }
            wake_.notify_all();
        }
        work(0);
        if (!spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock lk(mu_);
            done_.wait(lk, [&] { return pending_.load(std::memory_order_acquire) == 0; });
        }
        work_ = nullptr;
    }

private:
    // Polls ready() for about 50 microseconds; true once it held.
    template <class F>
    static bool spin_until(F ready) {
        for (int i = 0; i < 2000; ++i) {
            if (ready()) return true;
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        }
        return ready();
    }

    void loop(int id) {
        uint64_t seen = 0;
        for (;;) {
            auto fresh = [&] { return generation_.load() != seen; };
            if (!spin_until(fresh)) {
                std::unique_lock lk(mu_);
                sleepers_.fetch_add(1);
                wake_.wait(lk, fresh);
                sleepers_.fetch_sub(1, std::memory_order_relaxed);
            }
            seen = generation_.load(std::memory_order_acquire);
            if (id >= wanted_.load(std::memory_order_relaxed)) continue;
            (*work_)(id);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                { std::lock_guard lk(mu_); }
                done_.notify_one();
            }
        }
    }

    std::mutex mu_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> threads_;
    const std::function<void(int)>* work_ = nullptr;
    std::atomic<int> wanted_{0}, pending_{0}, sleepers_{0};
    std::atomic<uint64_t> generation_{0};
};

std::mutex g_run_mu;  // launches on different devices share the pool, one at a time

}  // namespace

namespace {
std::atomic<bool> g_pool_taken{false};
}  // namespace

bool pool_try_acquire() { return !g_pool_taken.exchange(true, std::memory_order_acq_rel); }
void pool_release() { g_pool_taken.store(false, std::memory_order_release); }

void run_on_workers(int n, const std::function<void(int)>& work) {
    if (n <= 1) {
        work(0);
        return;
    }
    static Pool* pool = new Pool;
    std::lock_guard lk(g_run_mu);
    pool->run(n, work);
}

namespace {
std::atomic<int> g_threads_override{0};
}

void set_sim_threads(int n) { g_threads_override = n > 0 ? n : 0; }

int sim_threads(std::string* error) {
    if (const int n = g_threads_override.load()) return n;
    static const int from_env = [] {
        const char* v = std::getenv("PTO_SIM_THREADS");
        if (!v || !*v) {
            cpu_set_t set;
            if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
            return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        }
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        return *end == 0 && n >= 1 && n <= 1024 ? static_cast<int>(n) : -1;
    }();
    if (from_env < 0) {
        if (error)
            *error = std::string("PTO_SIM_THREADS='") + std::getenv("PTO_SIM_THREADS") +
                     "' is not a thread count; set 1 (the serial schedule) .. 1024, or unset it to use every host core";
        return 0;
    }
    return from_env;
}

}  // namespace ptosim
