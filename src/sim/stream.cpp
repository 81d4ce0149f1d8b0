// Streams are asynchronous like a device queue: launches run in order on a
// worker thread; synchronize() waits with a timeout. A timeout abandons the
// running kernel and fails the stream, so that teardown never waits for a
// kernel that may never finish (docs/acl.md, aclrtSynchronizeStream).
#include "device_impl.hpp"
#include "timing.hpp"
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <string_view>
#include <tuple>
#include <vector>

namespace ptosim {

struct Stream::Impl {
    Device& dev;
    std::mutex mu;
    std::condition_variable cv_work, cv_idle;
    struct Item {
        LaunchSpec spec;
        uint64_t tracked;  // Device::Impl::inflight id; 0 for a refused launch and untracked host work
        Status refused;    // not ok: the launch never runs and fails with this
        std::function<Status()> host;  // host work instead of a launch
        std::shared_ptr<void> keep;
        double not_before = 0;  // the issuing host thread's clock when it was queued
        uint64_t ticket = 0;    // a launch's issue ticket (cost::issue_ticket)
    };
    std::deque<Item> queue;
    bool running = false;  // a launch is executing
    // The stream's simulated clock: where its last task ended
    // (docs/semantics.md, "Simulated time of streams").
    double clock_us = 0;
    uint64_t running_id = 0;
    bool stop = false;
    bool orphaned = false;  // the Stream is gone; the worker frees this on exit
    Status first_error;
    Status failure;  // set once a synchronisation timed out
    LaunchControl ctl;
    std::function<void(Work)> sink;  // an ACL capture or task update takes the work
    std::string sink_why;
    std::thread worker;

    // A new stream's clock starts at its creating host thread's clock.
    explicit Impl(Device& d) : dev(d), clock_us(cost::host_clock_us()) {
        worker = std::thread([this] { loop(); });
    }

    void loop() {
        Device::Impl::on_stream_worker() = true;
        std::unique_lock lk(mu);
        for (;;) {
            cv_work.wait(lk, [&] { return stop || !queue.empty(); });
            if (queue.empty()) break;
            Item item = std::move(queue.front());
            queue.pop_front();
            running = true;
            running_id = item.tracked;
            // The task starts where the stream's clock stands, and not
            // before the host issued it; never at the host's own time.
            const double start = std::max(clock_us, item.not_before);
            lk.unlock();
            cost::TaskClock task{start, start, item.ticket};
            cost::current_task() = &task;
            Status st = !item.refused.ok() ? item.refused : item.host ? item.host() : run_launch(dev, item.spec, &ctl);
            cost::current_task() = nullptr;
            cost::note_clock(task.end_us);
            cost::retire_ticket(item.ticket);
            if (item.tracked) dev.impl().untrack(item.tracked);
            item = Item{};  // releases `keep` before the stream reports idle
            lk.lock();
            clock_us = std::max(clock_us, task.end_us);
            running = false;
            if (!st.ok() && first_error.ok() && failure.ok()) first_error = st;
            if (queue.empty()) cv_idle.notify_all();
        }
        if (orphaned) {
            lk.unlock();
            delete this;
        }
    }

    // Drops the queued launches and stops the running one at its next PTO
    // call or scheduling point. With mu held.
    void abandon_locked(const std::string& why) {
        failure = {err::kStreamSyncTimeout, why};
        for (Item& i : queue) {
            if (i.tracked) dev.impl().untrack(i.tracked);
            cost::retire_ticket(i.ticket);
        }
        queue.clear();
        if (running) dev.impl().mark_abandoned(running_id);
        ctl.abandon = true;
        cv_idle.notify_all();
    }

    // What the stream is doing, for a timeout report. With mu held.
    std::string report_locked() {
        if (!running) return "the stream is idle";
        std::string r = launch_progress(ctl);
        if (!r.empty()) return r;
        std::lock_guard lk(dev.impl().mu);
        const LaunchSpec* busy = dev.impl().busy;
        if (busy)
            return "its next kernel has not started: it waits for the device's cores, which kernel '" + busy->kernel +
                   "' (launched at " + busy->site.str() + ") from another stream holds";
        std::string w = "its next kernel has not started: it waits for the device's cores";
        // By name and site: which one moved to the background first is the host threads' timing.
        std::vector<const LaunchSpec*> bg = dev.impl().background;
        std::sort(bg.begin(), bg.end(), [](const LaunchSpec* a, const LaunchSpec* b) {
            auto key = [](const LaunchSpec* l) {
                return std::make_tuple(std::string_view(l->kernel), std::string_view(l->site.file ? l->site.file : ""),
                                       l->site.line);
            };
            return key(a) < key(b);
        });
        if (bg.empty()) return w + ", which another launch holds";
        w += "; kernel";
        for (size_t i = 0; i < bg.size(); ++i)
            w += std::string(i ? ", " : " ") + "'" + bg[i]->kernel + "' (launched at " + bg[i]->site.str() + ")";
        return w + (bg.size() > 1 ? " from other streams poll" : " from another stream polls") +
               " GM in the background, holding the core types they run on";
    }
};

Stream::Stream(Device& d) : impl_(std::make_unique<Impl>(d)) {}

Stream::~Stream() {
    Impl* im = impl_.get();
    std::unique_lock lk(im->mu);
    auto idle = [&] { return im->queue.empty() && !im->running; };
    if (im->failure.ok() && !idle()) {
        // Queued launches run to completion first, within the sync timeout.
        const double t = default_sync_timeout_s();
        if (!im->cv_idle.wait_for(lk, std::chrono::duration<double>(t), idle)) {
            char head[160];
            std::snprintf(head, sizeof head, "destroying a stream: its work did not finish within %.3g s: ", t);
            const std::string msg = head + im->report_locked() +
                                    "\n  the kernel was abandoned (raise PTO_SYNC_TIMEOUT_S if it is just slow)";
            std::fprintf(stderr, "ptosim: error %d: %s\n", err::kStreamSyncTimeout, msg.c_str());
            im->abandon_locked(msg);
        }
    }
    im->stop = true;
    im->cv_work.notify_all();
    if (im->running) {
        // The abandoned kernel may spin without ever reaching a PTO call: let
        // its worker finish on its own and free the stream's state then.
        im->orphaned = true;
        im->worker.detach();
        (void)impl_.release();
        return;
    }
    lk.unlock();
    if (im->worker.joinable()) im->worker.join();
}

Status Stream::enqueue_launch(LaunchSpec spec) { return enqueue_launch(std::move(spec), {}); }

Status Stream::enqueue_launch(LaunchSpec spec, std::shared_ptr<void> keep) {
    if (Status st = soc_env_status(); !st.ok()) return st;
    std::function<void(Work)> sink;
    {
        std::lock_guard lk(impl_->mu);
        if (!impl_->failure.ok())
            return {impl_->failure.code, "the stream failed and accepts no more work: " + impl_->failure.message};
        if (impl_->sink) {
            sink = impl_->sink;
        } else {
            const uint64_t id = impl_->dev.impl().track(spec);
            impl_->queue.push_back(
                {std::move(spec), id, {}, {}, std::move(keep), cost::host_clock_us(), cost::issue_ticket()});
        }
    }
    // The sink runs unlocked: it may look at other streams (cross-stream capture).
    if (sink) sink(Work{std::move(spec), {}, {}, {}});
    else impl_->cv_work.notify_one();
    return {};
}

Status Stream::enqueue_error(Status error) {
    std::function<void(Work)> sink;
    {
        std::lock_guard lk(impl_->mu);
        if (!impl_->failure.ok())
            return {impl_->failure.code, "the stream failed and accepts no more work: " + impl_->failure.message};
        if (impl_->sink) sink = impl_->sink;
        else impl_->queue.push_back({LaunchSpec{}, 0, std::move(error), {}, {}, cost::host_clock_us(), 0});
    }
    if (sink) sink(Work{LaunchSpec{}, std::move(error), {}, {}});
    else impl_->cv_work.notify_one();
    return {};
}

Status Stream::enqueue_host(std::string what, std::function<Status()> fn, std::shared_ptr<void> keep,
                            std::vector<const void*> uses) {
    std::function<void(Work)> sink;
    {
        std::lock_guard lk(impl_->mu);
        if (!impl_->failure.ok())
            return {impl_->failure.code, "the stream failed and accepts no more work: " + impl_->failure.message};
        if (impl_->sink) {
            sink = impl_->sink;
        } else {
            const uint64_t id = uses.empty() ? 0 : impl_->dev.impl().track_host(what, std::move(uses));
            impl_->queue.push_back({LaunchSpec{}, id, {}, std::move(fn), std::move(keep), cost::host_clock_us(), 0});
        }
    }
    if (sink) sink(Work{LaunchSpec{}, {}, std::move(what), std::move(fn)});
    else impl_->cv_work.notify_one();
    return {};
}

void Stream::divert(std::function<void(Work)> sink, std::string why) {
    std::lock_guard lk(impl_->mu);
    const bool on = static_cast<bool>(sink);
    impl_->sink = std::move(sink);
    impl_->sink_why = std::move(why);
    Device::Impl& dev = impl_->dev.impl();
    std::lock_guard dl(dev.mu);
    if (on) dev.diverted.insert(this);
    else dev.diverted.erase(this);
}

bool Stream::diverted() const {
    std::lock_guard lk(impl_->mu);
    return static_cast<bool>(impl_->sink);
}

bool Stream::failed() const {
    std::lock_guard lk(impl_->mu);
    return !impl_->failure.ok();
}

Status Stream::synchronize(double timeout_s, OnTimeout on_timeout) {
    std::unique_lock lk(impl_->mu);
    if (!impl_->failure.ok())
        return {impl_->failure.code, "the stream failed earlier and accepts no more work; destroy it and create "
                                     "another. It failed because " + impl_->failure.message};
    if (impl_->sink)
        return {107027, "the stream is " + impl_->sink_why +
                            ": its work is recorded, not run, so there is nothing to wait for; end the capture "
                            "(aclmdlRICaptureEnd) or task update (aclmdlRICaptureTaskUpdateEnd) first"};
    auto idle = [&] { return impl_->queue.empty() && !impl_->running; };
    if (!impl_->cv_idle.wait_for(lk, std::chrono::duration<double>(timeout_s), idle)) {
        char head[160];
        std::snprintf(head, sizeof head, "stream synchronisation timed out after %.3g s: ", timeout_s);
        std::string msg = head + impl_->report_locked();
        if (on_timeout != OnTimeout::Abandon) {
            msg += "\n  the kernel keeps running; possible sync deadlock or an endless scalar loop; raise "
                   "PTO_SYNC_TIMEOUT_S if the kernel is just slow";
            if (on_timeout == OnTimeout::Keep)
                std::fprintf(stderr, "ptosim: error %d: %s\n", err::kStreamSyncTimeout, msg.c_str());
            return {err::kStreamSyncTimeout, msg};
        }
        const size_t dropped = impl_->queue.size();
        msg += "\n  the kernel was abandoned (it stops at its next PTO call)";
        if (dropped) msg += ", " + std::to_string(dropped) + " queued launch(es) dropped";
        msg += ", and the stream accepts no more work; possible sync deadlock or an endless scalar loop; raise "
               "PTO_SYNC_TIMEOUT_S if the kernel is just slow";
        std::fprintf(stderr, "ptosim: error %d: %s\n", err::kStreamSyncTimeout, msg.c_str());
        impl_->abandon_locked(msg);
        return {err::kStreamSyncTimeout, msg};
    }
    // The host learns that the stream's work ended: its clock joins the stream's.
    cost::join_host_clock(impl_->clock_us);
    Status st = impl_->first_error;
    impl_->first_error = {};
    return st;
}

}  // namespace ptosim
