// ACL graphs: events, asynchronous copies, and capturing a stream's work into
// a model runtime instance (aclmdlRI) that replays it with one call.
//
// A capture diverts the stream's work (Stream::divert): launches, copies,
// memsets and event records issued to it become tasks of the model instead
// of running. A replay queues the tasks again, in the order they were
// captured, on the stream it is given. Streams that joined the capture
// through an event contribute their tasks in that same order of issue, which
// respects every event dependency of the capture, so a replay runs them one
// after another on the replay's stream (docs/acl.md, "ACL graphs").
#include "acl_internal.hpp"
#include "device_impl.hpp"
#include "hex.hpp"
#include "timing.hpp"

#include <ptosim/check.hpp>
#include <ptosim/cost.hpp>
#include <ptosim/peers.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace ptosim::acl_impl {
namespace {

using ptolab::common::hex;

constexpr aclError kTaskTypeNotSupport = 507009;  // ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT

enum class Kind { Kernel, Memcpy, Memset, Cmo, Record, Wait };

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::Kernel: return "kernel launch";
    case Kind::Memcpy: return "aclrtMemcpyAsync";
    case Kind::Memset: return "aclrtMemsetAsync";
    case Kind::Cmo: return "aclrtCmoAsync";
    case Kind::Record: return "aclrtRecordEvent";
    case Kind::Wait: return "aclrtStreamWaitEvent";
    }
    return "?";
}

struct Event;
struct Model;

struct Task {
    Kind kind = Kind::Kernel;
    LaunchSpec spec;                // Kernel
    std::function<Status()> host;   // Memcpy, Memset
    std::string what;               // Memcpy, Memset: the call, for DebugPrint
    std::vector<std::pair<const void*, uint64_t>> ranges;  // memory a copy or memset touches
    Stream* stream = nullptr;       // where it was issued during the capture
    Event* event = nullptr;         // Record, Wait
    int group = 0;                  // 1-based task group, 0 for none

    std::string describe() const {
        if (kind == Kind::Kernel)
            return "kernel '" + spec.kernel + "' (launched at " + spec.site.str() + ", block_dim " +
                   std::to_string(spec.block_dim) + ")";
        if (kind == Kind::Record || kind == Kind::Wait) return std::string(kind_name(kind)) + " " + hex(event);
        return what;
    }
};

struct Group {
    Model* model = nullptr;
    int id = 0;
    std::vector<size_t> tasks;  // indices into the model's tasks
    bool open = true;           // between TaskGrpBegin and TaskGrpEnd
    Stream* updater = nullptr;  // the stream between TaskUpdateBegin and End
};

struct Model {
    // Frozen at aclmdlRICaptureEnd; a task update swaps in a new vector, so a
    // replay already queued keeps the arguments it was issued with.
    std::shared_ptr<const std::vector<Task>> tasks;
    std::vector<Task> building;  // while capturing
    bool capturing = true;
    bool invalid = false;
    std::string invalid_why;
    Stream* origin = nullptr;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    std::thread::id thread;
    std::vector<Stream*> streams;  // origin first, then joined streams in joining order
    std::map<Stream*, Group*> open_group;
    std::vector<std::unique_ptr<Group>> groups;
    std::shared_ptr<std::atomic<int>> running = std::make_shared<std::atomic<int>>(0);
    uint64_t replays = 0;
};

struct Event {
    std::mutex mu;
    std::condition_variable cv;
    uint64_t issued = 0;  // records queued
    uint64_t done = 0;    // records that ran
    // The simulated time at which the record `stamp_gen` ran on its stream
    // (the stream's clock there, docs/semantics.md "Simulated time of
    // streams"), and whether the cost model was on then: what
    // aclrtEventElapsedTime subtracts (docs/acl.md).
    uint64_t stamp_gen = 0;
    double stamp_us = 0;
    bool stamp_timed = false;
    // The simulated time of each recent record by its number: a stream
    // waiting for record n (aclrtStreamWaitEvent) goes on from its time,
    // whatever later records ran meanwhile. The oldest are dropped beyond
    // kStamps; a wait for one of those takes the next record's time.
    static constexpr size_t kStamps = 4096;
    std::map<uint64_t, double> stamps;
    double stamp_of(uint64_t gen) const {
        auto it = stamps.lower_bound(gen);
        return it != stamps.end() ? it->second : stamp_us;
    }
    Model* captured = nullptr;  // its latest record is a task of this capture
    Stream* captured_on = nullptr;
};

// A task update in progress on a stream (aclmdlRICaptureTaskUpdateBegin).
struct Update {
    Group* group = nullptr;
    std::vector<Task> tasks;
    std::string refused;  // why a launch in it was refused
};

struct Graphs {
    std::mutex mu;
    std::set<Model*> models;                  // live handles, capturing or not
    std::map<Stream*, Model*> capturing;      // origin and joined streams
    std::map<Stream*, Update> updating;
    std::map<Event*, std::shared_ptr<Event>> events;
    std::set<Group*> groups;
    int global_captures = 0;                  // active captures in GLOBAL mode
    std::map<std::thread::id, int> strict_captures;  // per thread: its own non-RELAXED captures
    uint64_t replays = 0;                     // process-wide, numbers the replays on the timeline
};

Graphs& G() {
    static auto* g = new Graphs();  // used by stream workers during static destruction: never destroyed
    return *g;
}

thread_local aclmdlRICaptureMode t_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

std::string model_name(const Model* m) { return "aclmdlRI " + hex(m); }

// Whether the calling thread may call an unsafe function now, by the rules
// of aclmdlRICaptureThreadExchangeMode. With G().mu held.
std::string unsafe_refusal_locked(const char* fn) {
    Graphs& g = G();
    if (t_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return "";
    auto own = g.strict_captures.find(std::this_thread::get_id());
    if (own != g.strict_captures.end() && own->second > 0)
        return std::string(fn) +
               ": this thread is capturing a stream (aclmdlRICaptureBegin in mode GLOBAL or THREAD_LOCAL), and "
               "the mode forbids it unsafe calls (aclrtMemcpy, aclrtMemset, aclrtMemcpyAsync of pageable host "
               "memory): they would run now, not at the replay. Use the Async form on the capturing stream, make "
               "the call before aclmdlRICaptureBegin, or switch this thread to ACL_MODEL_RI_CAPTURE_MODE_RELAXED "
               "with aclmdlRICaptureThreadExchangeMode";
    if (t_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && g.global_captures > 0)
        return std::string(fn) + ": " + std::to_string(g.global_captures) +
               " capture(s) in ACL_MODEL_RI_CAPTURE_MODE_GLOBAL are active, which forbids unsafe calls "
               "(aclrtMemcpy, aclrtMemset, aclrtMemcpyAsync of pageable host memory) to every thread in mode "
               "GLOBAL; end the capture first, or switch this thread to ACL_MODEL_RI_CAPTURE_MODE_RELAXED or "
               "THREAD_LOCAL with aclmdlRICaptureThreadExchangeMode";
    return "";
}

void divert_to_capture(Stream* s);

// Adds a task to the capture `m` from stream `s`. With G().mu held.
void add_task_locked(Model* m, Stream* s, Task t) {
    t.stream = s;
    auto og = m->open_group.find(s);
    if (og != m->open_group.end()) {
        t.group = og->second->id;
        og->second->tasks.push_back(m->building.size());
    }
    m->building.push_back(std::move(t));
}

void invalidate_locked(Model* m, std::string why) {
    if (m->invalid) return;
    m->invalid = true;
    m->invalid_why = std::move(why);
}

// A launch (or a launch refused at its call) issued to a capturing or
// updating stream: Stream::divert's sink.
void diverted_work(Stream* s, Stream::Work w) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    if (auto u = g.updating.find(s); u != g.updating.end()) {
        if (!w.refused.ok()) {
            if (u->second.refused.empty()) u->second.refused = w.refused.message;
            return;
        }
        Task t;
        t.kind = Kind::Kernel;
        t.spec = std::move(w.spec);
        t.stream = s;
        u->second.tasks.push_back(std::move(t));
        return;
    }
    auto c = g.capturing.find(s);
    if (c == g.capturing.end()) return;  // unreachable: the sink is removed with the capture
    Model* m = c->second;
    if (!w.refused.ok()) {
        invalidate_locked(m, "a launch on stream " + hex(s) + " was refused during the capture: " + w.refused.message);
        return;
    }
    if (!w.host) {
        Task t;
        t.kind = Kind::Kernel;
        t.spec = std::move(w.spec);
        add_task_locked(m, s, std::move(t));
    }
}

void divert_to_capture(Stream* s) {
    s->divert([s](Stream::Work w) { diverted_work(s, std::move(w)); }, "capturing (aclmdlRICaptureBegin)");
}

// Ends the capture of `m`: its streams run their work again and its events
// leave the capture. With G().mu held.
void stop_capture_locked(Model* m) {
    Graphs& g = G();
    for (Stream* s : m->streams) {
        g.capturing.erase(s);
        s->divert({}, "");
    }
    for (auto& [p, e] : g.events) {
        std::lock_guard el(e->mu);
        if (e->captured == m) e->captured = nullptr, e->captured_on = nullptr;
    }
    if (m->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) --g.global_captures;
    if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        auto it = g.strict_captures.find(m->thread);
        if (it != g.strict_captures.end() && --it->second <= 0) g.strict_captures.erase(it);
    }
    m->capturing = false;
}

void destroy_model_locked(Model* m) {
    Graphs& g = G();
    for (auto& gr : m->groups) g.groups.erase(gr.get());
    g.models.erase(m);
    delete m;
}

// The first joined stream that never came back to the origin stream, or
// null: a joined stream is back when its last task records an event that
// the origin, or a stream that is itself back, waited for afterwards.
Stream* unjoined_stream(const Model* m) {
    std::set<Stream*> back{m->origin};
    const std::vector<Task>& ts = m->building;
    bool grew = true;
    while (grew) {
        grew = false;
        for (Stream* s : m->streams) {
            if (back.count(s)) continue;
            size_t last = ts.size();
            for (size_t i = 0; i < ts.size(); ++i)
                if (ts[i].stream == s) last = i;
            if (last == ts.size() || ts[last].kind != Kind::Record) continue;
            for (size_t j = last + 1; j < ts.size(); ++j)
                if (ts[j].kind == Kind::Wait && ts[j].event == ts[last].event && back.count(ts[j].stream)) {
                    back.insert(s);
                    grew = true;
                    break;
                }
        }
    }
    for (Stream* s : m->streams)
        if (!back.count(s)) return s;
    return nullptr;
}

Model* live_model(aclmdlRI h) {
    auto* m = static_cast<Model*>(h);
    return G().models.count(m) ? m : nullptr;
}

aclError not_a_model(const char* fn, aclmdlRI h) {
    return fail(ACL_ERROR_RT_PARAM_INVALID,
                std::string(fn) + ": modelRI " + hex(h) +
                    " is not a live model runtime instance (destroyed with aclmdlRIDestroy, discarded by a failed "
                    "aclmdlRICaptureEnd, or never returned by aclmdlRICaptureEnd)");
}

// Holds a model's in-flight count while any task of one replay is queued or
// running: aclmdlRIDestroy refuses until it is zero.
struct ReplayToken {
    std::shared_ptr<std::atomic<int>> running;
    explicit ReplayToken(std::shared_ptr<std::atomic<int>> r) : running(std::move(r)) { ++*running; }
    ~ReplayToken() { --*running; }
};

aclError enqueue_result(const char* fn, const Status& st) {
    if (st.ok()) return ACL_SUCCESS;
    return fail(st.code, std::string(fn) + ": " + st.message);
}

// An event record or wait issued while capturing: a task of the capture.
// Returns -1 when the stream and event are not part of a capture.
aclError captured_event_call(const char* fn, Stream* s, const std::shared_ptr<Event>& e, Kind kind) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto c = g.capturing.find(s);
    Model* sm = c == g.capturing.end() ? nullptr : c->second;
    if (g.updating.count(s))
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(s) +
                        " is updating a task group (aclmdlRICaptureTaskUpdateBegin); only kernel launches can "
                        "replace a group's tasks");
    std::lock_guard el(e->mu);
    if (kind == Kind::Record) {
        if (!sm) {
            e->captured = nullptr;
            e->captured_on = nullptr;
            return -1;
        }
        if (sm->open_group.count(s))
            return fail(kTaskTypeNotSupport, std::string(fn) + ": stream " + hex(s) +
                                                  " has a task group open (aclmdlRICaptureTaskGrpBegin); a task "
                                                  "group holds kernel launches only");
        Task t;
        t.kind = Kind::Record;
        t.event = e.get();
        add_task_locked(sm, s, std::move(t));
        e->captured = sm;
        e->captured_on = s;
        return ACL_SUCCESS;
    }
    Model* em = e->captured;
    if (!sm && !em) return -1;
    if (sm && !em)
        return fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                    std::string(fn) + ": stream " + hex(s) + " is capturing, but event " + hex(e.get()) +
                        (e->issued ? " was last recorded outside the capture" : " was never recorded") +
                        "; a captured wait needs its aclrtRecordEvent captured in the same model, so record the "
                        "event on a stream of this capture first");
    if (sm && em != sm)
        return fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT,
                    std::string(fn) + ": stream " + hex(s) + " is capturing " + model_name(sm) + ", but event " +
                        hex(e.get()) + " was recorded in another capture (" + model_name(em) +
                        "); one capture cannot wait for another's work");
    if (sm && sm->open_group.count(s))
        return fail(kTaskTypeNotSupport, std::string(fn) + ": stream " + hex(s) +
                                              " has a task group open (aclmdlRICaptureTaskGrpBegin); a task group "
                                              "holds kernel launches only");
    if (!sm) {
        // The waiting stream joins the capture (CANN: cross-stream capture).
        if (s->diverted())
            return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                        std::string(fn) + ": stream " + hex(s) + " is updating a task group; it cannot join a capture");
        if (s == Device::get().default_stream())
            return fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                        std::string(fn) + ": the default stream cannot join the capture of " + model_name(em) +
                            "; wait for the event on a stream from aclrtCreateStream");
        sm = em;
        g.capturing[s] = sm;
        sm->streams.push_back(s);
        divert_to_capture(s);
    }
    Task t;
    t.kind = Kind::Wait;
    t.event = e.get();
    add_task_locked(sm, s, std::move(t));
    return ACL_SUCCESS;
}

// A copy or memset issued to a capturing stream becomes a task; -1 when the
// stream is not capturing.
aclError captured_host_call(const char* fn, Stream* s, Task t, bool pageable) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    if (g.updating.count(s))
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(s) +
                        " is updating a task group (aclmdlRICaptureTaskUpdateBegin); only kernel launches can "
                        "replace a group's tasks");
    auto c = g.capturing.find(s);
    if (c == g.capturing.end()) {
        if (pageable)
            if (std::string why = unsafe_refusal_locked(fn); !why.empty())
                return fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, why);
        return -1;
    }
    if (pageable)
        if (std::string why = unsafe_refusal_locked(fn); !why.empty())
            return fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, why);
    if (c->second->open_group.count(s))
        return fail(kTaskTypeNotSupport, std::string(fn) + ": stream " + hex(s) +
                                              " has a task group open (aclmdlRICaptureTaskGrpBegin); a task group "
                                              "holds kernel launches only");
    add_task_locked(c->second, s, std::move(t));
    return ACL_SUCCESS;
}

aclError require_stream(const char* fn, aclrtStream stream, Stream** out) {
    if (aclError e = require_device(fn)) return e;
    return resolve_stream(fn, stream, out);
}

std::shared_ptr<Event> find_event(aclrtEvent ev) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto it = g.events.find(static_cast<Event*>(ev));
    return it == g.events.end() ? nullptr : it->second;
}

aclError not_an_event(const char* fn, aclrtEvent ev) {
    return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": event " + hex(ev) +
                                             " is not a live event (destroyed, or never created); pass an event "
                                             "from aclrtCreateEvent");
}

}  // namespace

aclError graph_unsafe_call(const char* fn) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    if (std::string why = unsafe_refusal_locked(fn); !why.empty()) return fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, why);
    return ACL_SUCCESS;
}

std::string graph_block_user(const void* p, uint64_t size) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    const auto lo = reinterpret_cast<uintptr_t>(p), hi = lo + size;
    auto uses = [&](const Task& t) {
        for (const void* a : t.spec.gm_args)
            if (a && reinterpret_cast<uintptr_t>(a) >= lo && reinterpret_cast<uintptr_t>(a) <= hi) return true;
        for (auto [q, n] : t.ranges)
            if (reinterpret_cast<uintptr_t>(q) < hi && reinterpret_cast<uintptr_t>(q) + n > lo) return true;
        return false;
    };
    for (Model* m : g.models) {
        const std::vector<Task>& ts = m->capturing ? m->building : *m->tasks;
        for (size_t i = 0; i < ts.size(); ++i)
            if (uses(ts[i]))
                return "task " + std::to_string(i) + " (" + ts[i].describe() + ") of " + model_name(m) +
                       (m->capturing ? " (still capturing)" : "");
    }
    for (auto& [s, u] : g.updating)
        for (const Task& t : u.tasks)
            if (uses(t)) return t.describe() + ", issued to update a task group of " + model_name(u.group->model);
    return "";
}

void graph_stream_released(Stream* s) {
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    if (auto u = g.updating.find(s); u != g.updating.end()) {
        u->second.group->updater = nullptr;
        g.updating.erase(u);
        s->divert({}, "");
    }
    auto c = g.capturing.find(s);
    if (c == g.capturing.end()) return;
    Model* m = c->second;
    // The capture loses a stream it records: it can never end well.
    if (s == m->origin) {
        stop_capture_locked(m);
        destroy_model_locked(m);
    } else {
        invalidate_locked(m, "stream " + hex(s) + ", joined to the capture, was released by aclrtResetDevice/aclFinalize");
        g.capturing.erase(s);
        m->streams.erase(std::remove(m->streams.begin(), m->streams.end(), s), m->streams.end());
        s->divert({}, "");
    }
}

}  // namespace ptosim::acl_impl

using namespace ptosim::acl_impl;
using ptosim::Device;
using ptosim::Status;
using ptosim::Stream;
using ptolab::common::hex;

extern "C" {

// ------------------------------------------------------------------ events

aclError aclrtCreateEvent(aclrtEvent* event) {
    if (!event)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is null; pass the address of an aclrtEvent");
    *event = nullptr;
    if (aclError e = require_device("aclrtCreateEvent")) return e;
    auto ev = std::make_shared<Event>();
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    g.events[ev.get()] = ev;
    *event = ev.get();
    return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    if (aclError e = require_device("aclrtDestroyEvent")) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto it = g.events.find(static_cast<Event*>(event));
    if (it == g.events.end()) return not_an_event("aclrtDestroyEvent", event);
    {
        std::lock_guard el(it->second->mu);
        if (it->second->captured)
            return fail(ACL_ERROR_RT_EVENT_CAPTURED, "aclrtDestroyEvent: event " + hex(event) +
                                                         " is recorded in the capture of " +
                                                         model_name(it->second->captured) +
                                                         "; end the capture (aclmdlRICaptureEnd) first");
    }
    // Queued records and waits hold the event; they still run.
    g.events.erase(it);
    return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    const char* fn = "aclrtRecordEvent";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    std::shared_ptr<Event> ev = find_event(event);
    if (!ev) return not_an_event(fn, event);
    if (aclError e = captured_event_call(fn, s, ev, Kind::Record); e != -1) return e;
    uint64_t gen;
    {
        std::lock_guard el(ev->mu);
        gen = ++ev->issued;
    }
    return enqueue_result(fn, s->enqueue_host(
                                  fn,
                                  [ev, gen]() -> Status {
                                      const bool timed = ptosim::cost::enabled();
                                      // The recording stream's clock at this point of its work.
                                      ptosim::cost::TaskClock* task = ptosim::cost::current_task();
                                      const double now = task ? task->end_us : ptosim::cost::host_clock_us();
                                      std::lock_guard el(ev->mu);
                                      ev->stamps[gen] = now;
                                      if (ev->stamps.size() > Event::kStamps) ev->stamps.erase(ev->stamps.begin());
                                      if (gen > ev->stamp_gen) {
                                          ev->stamp_gen = gen;
                                          ev->stamp_us = now;
                                          ev->stamp_timed = timed;
                                      }
                                      ev->done = std::max(ev->done, gen);
                                      ev->cv.notify_all();
                                      return {};
                                  },
                                  ev));
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    const char* fn = "aclrtStreamWaitEvent";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    std::shared_ptr<Event> ev = find_event(event);
    if (!ev) return not_an_event(fn, event);
    if (aclError e = captured_event_call(fn, s, ev, Kind::Wait); e != -1) return e;
    uint64_t target;
    {
        std::lock_guard el(ev->mu);
        target = ev->issued;
    }
    if (target == 0) return ACL_SUCCESS;  // never recorded: nothing to wait for
    const std::string ev_name = hex(event);
    return enqueue_result(
        fn, s->enqueue_host(
                fn,
                [ev, target, ev_name]() -> Status {
                    std::unique_lock el(ev->mu);
                    const double t = ptosim::default_sync_timeout_s();
                    if (!ev->cv.wait_for(el, std::chrono::duration<double>(t), [&] { return ev->done >= target; }))
                        return {ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                                "aclrtStreamWaitEvent: event " + ev_name + " was not reached within " +
                                    std::to_string(t) + " s (PTO_SYNC_TIMEOUT_S); the stream that records it is "
                                    "stuck or failed"};
                    // The waiting stream goes on from the record's time.
                    if (ptosim::cost::TaskClock* task = ptosim::cost::current_task())
                        task->end_us = std::max(task->end_us, ev->stamp_of(target));
                    return {};
                },
                ev));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    const char* fn = "aclrtSynchronizeEvent";
    if (aclError e = require_device(fn)) return e;
    std::shared_ptr<Event> ev = find_event(event);
    if (!ev) return not_an_event(fn, event);
    std::unique_lock el(ev->mu);
    if (ev->captured)
        return fail(ACL_ERROR_RT_EVENT_CAPTURED, std::string(fn) + ": event " + hex(event) +
                                                     " is recorded in the capture of " + model_name(ev->captured) +
                                                     ": the record runs at a replay, not now; end the capture first");
    const uint64_t target = ev->issued;
    const double t = ptosim::default_sync_timeout_s();
    if (!ev->cv.wait_for(el, std::chrono::duration<double>(t), [&] { return ev->done >= target; }))
        return fail(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, std::string(fn) + ": event " + hex(event) +
                                                         " was not reached within " + std::to_string(t) +
                                                         " s (PTO_SYNC_TIMEOUT_S)");
    // The host learns that the record ran: its clock joins the record's time.
    if (target) ptosim::cost::join_host_clock(ev->stamp_of(target));
    return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    const char* fn = "aclrtEventElapsedTime";
    if (!ms) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": ms is null; pass the address of a float");
    if (aclError e = require_device(fn)) return e;
    struct Stamp {
        double us;
    };
    // CANN's runtime (Event::ElapsedTime): an event never recorded is
    // "event recorder null", ACL_ERROR_RT_INTERNAL_ERROR; a record that has
    // not run has no timestamp yet, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID.
    auto stamp = [&](const char* which, aclrtEvent h, Stamp& out) -> aclError {
        std::shared_ptr<Event> ev = find_event(h);
        if (!ev) return not_an_event(fn, h);
        std::lock_guard el(ev->mu);
        const std::string name = std::string(which) + " " + hex(h);
        if (ev->captured)
            return fail(ACL_ERROR_RT_EVENT_CAPTURED, std::string(fn) + ": " + name + " is recorded in the capture of " +
                                                         model_name(ev->captured) +
                                                         ": the record runs at a replay, not now; end the capture first");
        if (ev->issued == 0)
            return fail(ACL_ERROR_RT_INTERNAL_ERROR,
                        std::string(fn) + ": " + name +
                            " was never recorded; record both events with aclrtRecordEvent and synchronize the "
                            "stream before asking for the time between them");
        if (ev->stamp_gen < ev->issued)
            return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        std::string(fn) + ": the latest record of " + name +
                            " has not run yet (its stream has work before it); call aclrtSynchronizeStream or "
                            "aclrtSynchronizeEvent first");
        if (!ev->stamp_timed)
            return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        std::string(fn) + ": " + name +
                            " was recorded while the simulated clock was off; the time between events is simulated "
                            "device time, so set PTO_SIM_TIME=1 (or PTO_SIM_PROFILE, PTO_SIM_TRACE) before the "
                            "records (docs/cost-model.md)");
        out.us = ev->stamp_us;
        return ACL_SUCCESS;
    };
    Stamp a{}, b{};
    if (aclError e = stamp("startEvent", startEvent, a)) return e;
    if (aclError e = stamp("endEvent", endEvent, b)) return e;
    // Records on different streams may run in either order: the difference
    // may be negative, as CANN's runtime computes it.
    *ms = static_cast<float>((b.us - a.us) / 1000.0);
    return ACL_SUCCESS;
}

// ------------------------------------------------------- asynchronous copies

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    const char* fn = "aclrtMemcpyAsync";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    bool dst_dev = false;
    if (aclError e = check_copy(fn, dst, destMax, src, count, kind, &dst_dev)) return e;
    // Host memory that is not an aclrtMallocHost block is pageable: CANN counts
    // such an asynchronous copy among the unsafe calls a capture mode restricts.
    auto pageable = [](const void* p) { return !Device::get().find(p, 1).has_value(); };
    const bool unsafe = pageable(dst) || pageable(src);
    std::function<Status()> run = [dst, src, count, dst_dev]() -> Status {
        std::memmove(dst, src, count);
        if (dst_dev) ptosim::check::gm_host_write(dst, count);
        return {};
    };
    Task t;
    t.kind = Kind::Memcpy;
    t.host = run;
    t.what = std::string(fn) + "(" + hex(dst) + ", " + hex(src) + ", " + std::to_string(count) + " bytes)";
    t.ranges = {{dst, count}, {src, count}};
    std::string what = t.what;
    if (aclError e = captured_host_call(fn, s, std::move(t), unsafe); e != -1) return e;
    return enqueue_result(fn, s->enqueue_host(std::move(what), std::move(run), {}, {dst, src}));
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    const char* fn = "aclrtMemsetAsync";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    bool is_dev = false;
    if (aclError e = check_fill(fn, devPtr, maxCount, count, &is_dev)) return e;
    std::function<Status()> run = [devPtr, value, count, is_dev]() -> Status {
        std::memset(devPtr, static_cast<unsigned char>(value), count);
        if (is_dev) ptosim::check::gm_host_write(devPtr, count);
        return {};
    };
    Task t;
    t.kind = Kind::Memset;
    t.host = run;
    t.what = std::string(fn) + "(" + hex(devPtr) + ", value " + std::to_string(value) + ", " +
             std::to_string(count) + " bytes)";
    t.ranges = {{devPtr, count}};
    std::string what = t.what;
    if (aclError e = captured_host_call(fn, s, std::move(t), false); e != -1) return e;
    return enqueue_result(fn, s->enqueue_host(std::move(what), std::move(run), {}, {devPtr}));
}

// A cache maintenance operation on device memory (docs/acl.md). CANN's
// reference says only ACL_RT_CMO_TYPE_PREFETCH is supported, yet pto-isa's
// own device test (tprefetch_async) invalidates with it too: every type of
// aclrtCmoType is accepted, a value outside it is refused. The range must
// lie in one device allocation. With timing on, the operation is a task of
// the stream that puts the range's lines in the simulated L2 (prefetch) or
// takes them out (invalidate, flush) and takes the transfer's time
// (docs/cost-model.md, "Prefetch into L2"); it changes no byte.
aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
    const char* fn = "aclrtCmoAsync";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    // CANN's order: the pointer and the size (ACL's checks), then the type (the runtime's).
    if (!src) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": src is null; pass device memory from aclrtMalloc");
    if (size == 0)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": size is 0; pass the number of bytes to operate on");
    static const char* const kNames[] = {"ACL_RT_CMO_TYPE_PREFETCH", "ACL_RT_CMO_TYPE_WRITEBACK",
                                         "ACL_RT_CMO_TYPE_INVALID", "ACL_RT_CMO_TYPE_FLUSH"};
    const int type = static_cast<int>(cmoType);
    if (type < 0 || type > 3)
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": cmoType " + std::to_string(type) +
                        " is not an aclrtCmoType; pass ACL_RT_CMO_TYPE_PREFETCH (0), _WRITEBACK (1), _INVALID (2) "
                        "or _FLUSH (3)");
    // Device memory of this device (CANN: "only this device's cache"), the
    // whole range inside its aclrtMalloc block.
    const std::optional<ptosim::Allocation> blk = Device::get().find(src, 1);
    if (!blk || !blk->device)
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": src " + hex(src) + " is not device memory" +
                        (blk ? " (it lies in the aclrtMallocHost block at " + hex(reinterpret_cast<void*>(blk->base)) + ")"
                             : "") +
                        "; prefetch memory from aclrtMalloc of this device");
    if (blk->window_rank >= 0 && blk->window_rank != ptosim::process_rank())
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": src " + hex(src) + " lies in rank " + std::to_string(blk->window_rank) +
                        "'s communicator window, another device's memory; CANN's prefetch works on this device's "
                        "memory only: prefetch on that rank");
    const uint64_t offset = reinterpret_cast<uintptr_t>(src) - blk->base;
    if (size > blk->size - offset)
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": src range " + hex(src) + " + " + std::to_string(size) +
                        " bytes runs past the end of its aclrtMalloc block (base " +
                        hex(reinterpret_cast<void*>(blk->base)) + ", " + std::to_string(blk->size) +
                        " bytes, range starts at offset " + std::to_string(offset) + "); pass a size of at most " +
                        std::to_string(blk->size - offset));
    const auto at = reinterpret_cast<uintptr_t>(src);
    const auto op = static_cast<ptosim::cost::CacheOp>(type);  // CacheOp lists aclrtCmoType's values in order
    std::function<Status()> run = [at, size, op]() -> Status {
        ptosim::cost::cache_operation(at, size, op);
        return {};
    };
    Task t;
    t.kind = Kind::Cmo;
    t.host = run;
    t.what = std::string(fn) + "(" + hex(src) + ", " + std::to_string(size) + " bytes, " + kNames[type] + ")";
    t.ranges = {{src, size}};
    std::string what = t.what;
    if (aclError e = captured_host_call(fn, s, std::move(t), false); e != -1) return e;
    return enqueue_result(fn, s->enqueue_host(std::move(what), std::move(run), {}, {src}));
}

// ------------------------------------------------------------------ capture

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    const char* fn = "aclmdlRICaptureBegin";
    if (aclError e = require_device(fn)) return e;
    if (!stream)
        return fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                    std::string(fn) + ": the default stream (nullptr) cannot be captured; capture a stream from "
                                      "aclrtCreateStream");
    Stream* s = nullptr;
    if (aclError e = resolve_stream(fn, stream, &s)) return e;
    if (mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
        mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": mode " + std::to_string(static_cast<int>(mode)) +
                                                 " is not an aclmdlRICaptureMode; use ACL_MODEL_RI_CAPTURE_MODE_GLOBAL "
                                                 "(0), THREAD_LOCAL (1) or RELAXED (2)");
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    if (auto c = g.capturing.find(s); c != g.capturing.end())
        return fail(ACL_ERROR_RT_STREAM_CAPTURED, std::string(fn) + ": stream " + hex(stream) +
                                                      " is already capturing (" + model_name(c->second) +
                                                      "); end that capture with aclmdlRICaptureEnd first");
    if (g.updating.count(s))
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(stream) +
                        " is updating a task group; end the update (aclmdlRICaptureTaskUpdateEnd) first");
    auto* m = new Model();
    m->origin = s;
    m->mode = mode;
    m->thread = std::this_thread::get_id();
    m->streams.push_back(s);
    g.models.insert(m);
    g.capturing[s] = m;
    if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) ++g.global_captures;
    if (mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) ++g.strict_captures[m->thread];
    divert_to_capture(s);
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
    const char* fn = "aclmdlRICaptureGetInfo";
    if (!status)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": status is null; pass the address of an aclmdlRICaptureStatus");
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto c = g.capturing.find(s);
    if (c == g.capturing.end()) {
        *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
        if (modelRI) *modelRI = nullptr;
    } else {
        *status = c->second->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
        if (modelRI) *modelRI = c->second;
    }
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    const char* fn = "aclmdlRICaptureEnd";
    if (!modelRI)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": modelRI is null; pass the address of an aclmdlRI");
    *modelRI = nullptr;
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto c = g.capturing.find(s);
    if (c == g.capturing.end())
        return fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                    std::string(fn) + ": stream " + hex(stream) +
                        " is not capturing; call aclmdlRICaptureBegin on it first (and end a capture on the stream "
                        "it began on)");
    Model* m = c->second;
    if (s != m->origin)
        return fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                    std::string(fn) + ": stream " + hex(stream) + " joined the capture of " + model_name(m) +
                        " through an event; end the capture on the stream it began on, " + hex(m->origin));
    if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && std::this_thread::get_id() != m->thread)
        return fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                    std::string(fn) + ": the capture began on another thread in a mode other than "
                                      "ACL_MODEL_RI_CAPTURE_MODE_RELAXED; end it on the thread that began it");
    if (!m->open_group.empty())
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(m->open_group.begin()->first) +
                        " has a task group open; close it with aclmdlRICaptureTaskGrpEnd before ending the capture "
                        "(the capture goes on)");
    if (m->invalid) {
        const std::string why = m->invalid_why;
        stop_capture_locked(m);
        destroy_model_locked(m);
        return fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                    std::string(fn) + ": the capture was invalidated and is discarded: " + why);
    }
    if (Stream* lost = unjoined_stream(m)) {
        stop_capture_locked(m);
        destroy_model_locked(m);
        return fail(ACL_ERROR_RT_STREAM_UNJOINED,
                    std::string(fn) + ": stream " + hex(lost) +
                        " joined the capture through an event but never rejoined the origin stream: its last task "
                        "must be an aclrtRecordEvent that the origin stream (or a stream that rejoined) waits for "
                        "with aclrtStreamWaitEvent before aclmdlRICaptureEnd. The capture is discarded");
    }
    stop_capture_locked(m);
    m->tasks = std::make_shared<const std::vector<Task>>(std::move(m->building));
    m->building.clear();
    *modelRI = m;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    const char* fn = "aclmdlRICaptureThreadExchangeMode";
    if (!mode) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": mode is null; pass the address of an aclmdlRICaptureMode");
    if (*mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && *mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
        *mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": *mode " + std::to_string(static_cast<int>(*mode)) +
                                                 " is not an aclmdlRICaptureMode; use GLOBAL (0), THREAD_LOCAL (1) or "
                                                 "RELAXED (2)");
    std::swap(*mode, t_mode);
    return ACL_SUCCESS;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
    const char* fn = "aclmdlRIDebugPrint";
    if (aclError e = require_device(fn)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    Model* m = live_model(modelRI);
    if (!m) return not_a_model(fn, modelRI);
    if (m->capturing)
        return fail(ACL_ERROR_RT_MODEL_CAPTURED, std::string(fn) + ": " + model_name(m) +
                                                     " is still capturing; call aclmdlRICaptureEnd first");
    const std::vector<Task>& ts = *m->tasks;
    std::string o = model_name(m) + ": " + std::to_string(ts.size()) + " task(s) captured on " +
                    std::to_string(m->streams.size()) + " stream(s), " + std::to_string(m->groups.size()) +
                    " task group(s), replayed " + std::to_string(m->replays) + " time(s)\n";
    for (size_t i = 0; i < ts.size(); ++i) {
        o += "  task " + std::to_string(i) + ": " + ts[i].describe() + " on stream " + hex(ts[i].stream);
        if (ts[i].group) o += ", task group " + std::to_string(ts[i].group);
        o += "\n";
    }
    std::fputs(o.c_str(), stdout);
    std::fflush(stdout);
    return ACL_SUCCESS;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    const char* fn = "aclmdlRIExecuteAsync";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    std::shared_ptr<const std::vector<Task>> tasks;
    std::shared_ptr<ReplayToken> token;
    uint64_t replay = 0;
    std::string name;
    {
        Graphs& g = G();
        std::lock_guard lk(g.mu);
        Model* m = live_model(modelRI);
        if (!m) return not_a_model(fn, modelRI);
        if (m->capturing)
            return fail(ACL_ERROR_RT_MODEL_CAPTURED, std::string(fn) + ": " + model_name(m) +
                                                         " is still capturing; call aclmdlRICaptureEnd first");
        if (g.capturing.count(s) || g.updating.count(s))
            return fail(ACL_ERROR_RT_STREAM_CAPTURED,
                        std::string(fn) + ": stream " + hex(stream) +
                            " is capturing or updating a task group; replay the model on another stream");
        tasks = m->tasks;
        token = std::make_shared<ReplayToken>(m->running);
        replay = ++g.replays;
        ++m->replays;
        name = model_name(m);
    }
    size_t kernels = 0;
    for (const Task& t : *tasks) kernels += t.kind == Kind::Kernel;
    size_t k = 0;
    for (size_t i = 0; i < tasks->size(); ++i) {
        const Task& t = (*tasks)[i];
        Status st;
        if (t.kind == Kind::Kernel) {
            ptosim::LaunchSpec spec = t.spec;
            spec.replay = replay;
            spec.replay_tail = k > 0;
            spec.replay_note = "replay " + std::to_string(replay) + " of " + name + ", kernel " +
                               std::to_string(k + 1) + " of " + std::to_string(kernels);
            ++k;
            st = s->enqueue_launch(std::move(spec), token);
        } else if (t.kind == Kind::Memcpy || t.kind == Kind::Memset || t.kind == Kind::Cmo) {
            std::vector<const void*> uses;
            for (auto [p, n] : t.ranges) uses.push_back(p);
            st = s->enqueue_host(t.what, t.host, token, std::move(uses));
        }
        // Event records and waits order the capture's streams; the replay runs
        // the tasks in that order already.
        if (!st.ok())
            return fail(st.code, std::string(fn) + ": task " + std::to_string(i) + " (" + t.describe() +
                                     ") of " + name + " could not be queued: " + st.message);
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    const char* fn = "aclmdlRIExecute";
    if (aclError e = require_device(fn)) return e;
    if (timeout == 0 || timeout < -1)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": timeout " + std::to_string(timeout) +
                                                 " ms is invalid; pass a positive number of milliseconds, or -1 to "
                                                 "wait without limit");
    if (aclError e = aclmdlRIExecuteAsync(modelRI, nullptr)) return e;
    return aclrtSynchronizeStreamWithTimeout(nullptr, timeout);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    const char* fn = "aclmdlRIDestroy";
    if (aclError e = require_device(fn)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    Model* m = live_model(modelRI);
    if (!m) return not_a_model(fn, modelRI);
    if (m->capturing)
        return fail(ACL_ERROR_RT_MODEL_CAPTURED, std::string(fn) + ": " + model_name(m) +
                                                     " is still capturing; call aclmdlRICaptureEnd first");
    if (*m->running > 0)
        return fail(ACL_ERROR_RT_MODEL_RUNNING, std::string(fn) + ": " + model_name(m) + " has " +
                                                    std::to_string(m->running->load()) +
                                                    " replay(s) queued or running; synchronize the stream first");
    for (auto& gr : m->groups)
        if (gr->updater)
            return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                        std::string(fn) + ": task group " + std::to_string(gr->id) + " of " + model_name(m) +
                            " is being updated on stream " + hex(gr->updater) + "; end the update first");
    destroy_model_locked(m);
    return ACL_SUCCESS;
}

// -------------------------------------------------------------- task groups

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    const char* fn = "aclmdlRICaptureTaskGrpBegin";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto c = g.capturing.find(s);
    if (c == g.capturing.end())
        return fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, std::string(fn) + ": stream " + hex(stream) +
                                                          " is not capturing; a task group is marked inside "
                                                          "aclmdlRICaptureBegin/aclmdlRICaptureEnd");
    Model* m = c->second;
    if (m->open_group.count(s))
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(stream) +
                        " already has a task group open; close it with aclmdlRICaptureTaskGrpEnd first");
    auto gr = std::make_unique<Group>();
    gr->model = m;
    gr->id = static_cast<int>(m->groups.size()) + 1;
    m->open_group[s] = gr.get();
    g.groups.insert(gr.get());
    m->groups.push_back(std::move(gr));
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
    const char* fn = "aclmdlRICaptureTaskGrpEnd";
    if (!handle) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": handle is null; pass the address of an aclrtTaskGrp");
    *handle = nullptr;
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto c = g.capturing.find(s);
    if (c == g.capturing.end())
        return fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, std::string(fn) + ": stream " + hex(stream) + " is not capturing");
    Model* m = c->second;
    auto og = m->open_group.find(s);
    if (og == m->open_group.end())
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": stream " + hex(stream) +
                        " has no task group open; call aclmdlRICaptureTaskGrpBegin first");
    og->second->open = false;
    *handle = og->second;
    m->open_group.erase(og);
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    const char* fn = "aclmdlRICaptureTaskUpdateBegin";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto* gr = static_cast<Group*>(handle);
    if (!g.groups.count(gr))
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    std::string(fn) + ": handle " + hex(handle) +
                        " is not a task group of a live model (from aclmdlRICaptureTaskGrpEnd, before "
                        "aclmdlRIDestroy)");
    if (gr->model->capturing)
        return fail(ACL_ERROR_RT_MODEL_CAPTURED, std::string(fn) + ": the task group's " + model_name(gr->model) +
                                                     " is still capturing; update it after aclmdlRICaptureEnd");
    if (g.capturing.count(s))
        return fail(ACL_ERROR_RT_STREAM_CAPTURED, std::string(fn) + ": stream " + hex(stream) +
                                                      " is capturing; updates are issued on a stream that is not");
    if (g.updating.count(s))
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, std::string(fn) + ": stream " + hex(stream) +
                                                            " is already updating a task group; call "
                                                            "aclmdlRICaptureTaskUpdateEnd first");
    if (gr->updater)
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                    std::string(fn) + ": task group " + std::to_string(gr->id) + " is already being updated on stream " +
                        hex(gr->updater) + "; one update of a group at a time");
    gr->updater = s;
    g.updating[s].group = gr;
    s->divert([s](Stream::Work w) { diverted_work(s, std::move(w)); }, "updating a task group (aclmdlRICaptureTaskUpdateBegin)");
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    const char* fn = "aclmdlRICaptureTaskUpdateEnd";
    Stream* s = nullptr;
    if (aclError e = require_stream(fn, stream, &s)) return e;
    Graphs& g = G();
    std::lock_guard lk(g.mu);
    auto u = g.updating.find(s);
    if (u == g.updating.end())
        return fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, std::string(fn) + ": stream " + hex(stream) +
                                                            " is not updating a task group; call "
                                                            "aclmdlRICaptureTaskUpdateBegin first");
    Update up = std::move(u->second);
    g.updating.erase(u);
    s->divert({}, "");
    Group* gr = up.group;
    gr->updater = nullptr;
    Model* m = gr->model;
    const std::string where = "task group " + std::to_string(gr->id) + " of " + model_name(m);
    if (!up.refused.empty())
        return fail(ACL_ERROR_RT_PARAM_INVALID, std::string(fn) + ": a launch of the update was refused, so " + where +
                                                    " keeps its tasks: " + up.refused);
    if (up.tasks.size() != gr->tasks.size())
        return fail(ACL_ERROR_RT_PARAM_INVALID,
                    std::string(fn) + ": " + std::to_string(up.tasks.size()) + " task(s) were issued between "
                        "aclmdlRICaptureTaskUpdateBegin and End, but " + where + " has " +
                        std::to_string(gr->tasks.size()) + "; an update must issue as many tasks of the same types. "
                        "The group keeps its tasks");
    auto next = std::make_shared<std::vector<Task>>(*m->tasks);
    for (size_t i = 0; i < gr->tasks.size(); ++i) {
        Task& old = (*next)[gr->tasks[i]];
        Task& nu = up.tasks[i];
        if (old.kind != Kind::Kernel || nu.kind != Kind::Kernel || old.spec.kind != nu.spec.kind)
            return fail(ACL_ERROR_RT_PARAM_INVALID,
                        std::string(fn) + ": task " + std::to_string(i) + " of the update (" + nu.describe() +
                            ") is not of the type of the group's task " + std::to_string(i) + " (" + old.describe() +
                            "); the group keeps its tasks");
        nu.stream = old.stream;
        nu.group = old.group;
        old = std::move(nu);
    }
    m->tasks = std::move(next);
    return ACL_SUCCESS;
}

}  // extern "C"
