// Streams are asynchronous like a device queue: launches run in order on a
// worker thread; synchronize() waits with a timeout.
#include "device_impl.hpp"
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace ptosim {

struct Stream::Impl {
    Device& dev;
    std::mutex mu;
    std::condition_variable cv_work, cv_idle;
    std::deque<LaunchSpec> queue;
    bool running = false;  // a launch is executing
    bool stop = false;
    Status first_error;
    std::thread worker;

    explicit Impl(Device& d) : dev(d) {
        worker = std::thread([this] { loop(); });
    }

    void loop() {
        std::unique_lock lk(mu);
        for (;;) {
            cv_work.wait(lk, [&] { return stop || !queue.empty(); });
            if (queue.empty()) return;
            LaunchSpec spec = std::move(queue.front());
            queue.pop_front();
            running = true;
            lk.unlock();
            Status st = run_launch(dev, spec);
            lk.lock();
            running = false;
            if (!st.ok() && first_error.ok()) first_error = st;
            if (queue.empty()) cv_idle.notify_all();
        }
    }
};

Stream::Stream(Device& d) : impl_(std::make_unique<Impl>(d)) {}

Stream::~Stream() {
    {
        std::lock_guard lk(impl_->mu);
        impl_->stop = true;
    }
    impl_->cv_work.notify_all();
    if (impl_->worker.joinable()) impl_->worker.join();
}

void Stream::enqueue_launch(LaunchSpec spec) {
    {
        std::lock_guard lk(impl_->mu);
        impl_->queue.push_back(std::move(spec));
    }
    impl_->cv_work.notify_one();
}

Status Stream::synchronize(double timeout_s) {
    std::unique_lock lk(impl_->mu);
    auto idle = [&] { return impl_->queue.empty() && !impl_->running; };
    if (!impl_->cv_idle.wait_for(lk, std::chrono::duration<double>(timeout_s), idle)) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "stream synchronisation timed out after %.3g s: a kernel is still running (possible sync deadlock "
                      "or an endless scalar loop); raise PTO_SYNC_TIMEOUT_S if the kernel is just slow",
                      timeout_s);
        return {err::kStreamSyncTimeout, buf};
    }
    Status st = impl_->first_error;
    impl_->first_error = {};
    return st;
}

}  // namespace ptosim
