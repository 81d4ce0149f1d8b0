// The cost model on launches: one dispatch subscriber feeding each timed
// launch's Engine, the figures of each SoC profile, and what a launch leaves
// behind (PTO_SIM_TRACE, PTO_SIM_PROFILE, PTO_SIM_TIME; docs/cost-model.md).
#include "timing.hpp"
#include "launch.hpp"
#include "json_text.hpp"
#include "file_write.hpp"
#include <ptosim/c_api.h>
#include <ptosim/peers.hpp>

#include <sys/stat.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>

namespace ptosim::cost {

// ------------------------------------------------------------ figures

Params params_for(const SocProfile& soc) {
    // Sources and reasoning for each figure: docs/soc-profiles.md, "Timing".
    Params p;
    p.clock_ghz = soc.clock_ghz;
    p.gm_gbps = soc.gm_gbps;
    p.mte2 = 128;
    p.calibration = soc.target == Target::A5 ? Calibration::A5 : Calibration::A2A3;
    // Fixed costs (docs/soc-profiles.md, "Timing", notes 8 and 9): the block
    // start-up; no separate HBM latency (lat_mte2 already stands for a DMA from HBM).
    p.block_start = 2000;
    p.lat_hbm = 0;
    // The write-back L2's capacity (docs/soc-profiles.md, "Timing", note 18):
    // the platform ini's l2_size where it is known (192 MiB on the 910B1-B3,
    // 96 MiB on the 910B4); the 910B's 192 MiB as an estimate elsewhere.
    p.l2_bytes = std::string_view(soc.name) == "Ascend910B4" ? 96.0 * 1024 * 1024 : 192.0 * 1024 * 1024;
    // The link between ranks (docs/soc-profiles.md, "Timing", notes 10 to
    // 14): HCCS within a node, fitted to pto-isa's tget_bandwidth
    // measurements; the links' total and RoCE between nodes, estimates.
    p.link_gbps = 20.9;
    p.lat_link = 0.238 * soc.clock_ghz * 1000;
    p.sdma_gbps = 20.9;
    p.lat_sdma = 1.78 * soc.clock_ghz * 1000;
    p.link_peak_gbps = 56;
    // A prefetch into L2 (aclrtCmoAsync): the SDMA entry's start-up, its
    // bytes at the HBM bandwidth (note 16, an estimate).
    p.lat_prefetch = p.lat_sdma;
    p.roce_gbps = 25;
    p.lat_roce = 5.0 * soc.clock_ghz * 1000;
    p.ranks_per_node = std::string_view(soc.name) == "Ascend910_93" ? 16 : 8;
    if (const char* v = std::getenv("PTO_SIM_RANKS_PER_NODE"); v && std::atoi(v) > 0) p.ranks_per_node = std::atoi(v);
    p.sys_cnt_mhz = 50;
    if (soc.target == Target::A5) {
        p.sys_cnt_mhz = 1000;
        p.cube_fp16 = 4096;
        p.cube_fp32 = 1024;
        p.cube_int8 = 8192;
        p.cube_fp8 = 8192;
        p.cube_fp4 = 8192;
        p.mte2 = 128;
        p.mte3 = 128;
        p.mte1 = 256;
        p.fix = 128;
    }
    return p;
}

// ------------------------------------------------------------ process state

namespace {

struct TraceFile {
    std::string path;
    const char* source;  // the variable that names it, for messages
    long tail = -1;      // -1 until this process wrote the file; then where a JSON document's closing brackets start
    bool failed = false;  // reported once: every later launch would fail the same way
};

struct LaunchInfo {
    LaunchSpec spec_;  // without its bodies
    SocProfile soc_;
    const LaunchSpec& spec() const { return spec_; }
    const SocProfile& soc() const { return soc_; }
};

}  // namespace

struct LaunchTiming;

namespace {

// A launch's outputs, held until every launch issued before it has ended.
struct Pending {
    bool retired = false;  // nothing more comes for this ticket
    std::vector<std::shared_ptr<LaunchInfo>> infos;
    std::vector<std::shared_ptr<LaunchTiming>> timings;
};

struct Global {
    std::mutex mu;
    bool env_read = false;
    bool forced = false;  // enable(true)
    bool print = false;
    std::string trace_path, profile_dir;
    std::optional<Params> override_p;
    int subscriber = 0;
    int launches = 0;
    // The process's clock: the latest simulated time any stream, launch or
    // host thread reached (docs/semantics.md, "Simulated time of streams").
    double offset_us = 0;
    double last_us = -1;
    // Launches in the order the host issued them: a launch's outputs wait
    // here until every launch issued before it has ended, so that numbers,
    // rows and trace events do not depend on which stream the host ran first.
    uint64_t next_ticket = 1;
    std::map<uint64_t, Pending> pending;
    uint64_t next_flow = 1;
    int rank = -1;     // the launcher's rank of a multi-rank run, else -1
    int pid_base = 0;  // added to the trace's process ids
    TraceFile trace{"", "PTO_SIM_TRACE"}, profile_trace{"", "PTO_SIM_PROFILE"}, profile_summary{"", "PTO_SIM_PROFILE"},
        profile_text{"", "PTO_SIM_PROFILE"};
    // GM lines a prefetch (aclrtCmoAsync) made present in L2, by the address
    // of the line's first byte, with the simulated times (us) between which
    // they are: a launch that starts in [from, until) finds them there
    // (docs/cost-model.md, "Prefetch into L2"); an invalidation or a flush
    // sets `until`. Lines of `l2_line` bytes.
    struct InL2 {
        double from, until;
    };
    std::map<uint64_t, InL2> l2_prefetched;
    uint64_t l2_line = 512;
};

Global& g() {
    static auto* s = new Global();  // used from atexit-free paths only; never destroyed
    return *s;
}

bool on_locked(Global& s) { return s.forced || !s.trace_path.empty() || !s.profile_dir.empty() || s.print; }

void read_env_locked(Global& s) {
    if (s.env_read) return;
    s.env_read = true;
    if (const char* t = std::getenv("PTO_SIM_TRACE"); t && *t) s.trace_path = t;
    if (const char* p = std::getenv("PTO_SIM_PROFILE"); p && *p) s.profile_dir = p;
    // A rank of a multi-rank run (docs/many-devices.md) writes its profile
    // into <dir>/rank<r>/, its trace processes numbered from (r + 1) x
    // 100000, so that the ranks' traces merge into one (ptolab profile).
    const char* rank = std::getenv("PMI_RANK");
    const char* size = std::getenv("PMI_SIZE");
    if (!rank || !size) {
        rank = std::getenv("OMPI_COMM_WORLD_RANK");
        size = std::getenv("OMPI_COMM_WORLD_SIZE");
    }
    if (rank && size && std::atoi(size) > 1 && std::atoi(rank) >= 0) {
        s.rank = std::atoi(rank);
        s.pid_base = (s.rank + 1) * 100000;
        if (!s.profile_dir.empty()) s.profile_dir += "/rank" + std::to_string(s.rank);
        s.next_flow = static_cast<uint64_t>(s.pid_base) * 100000 + 1;  // flow ids apart too
    }
    const char* tm = std::getenv("PTO_SIM_TIME");
    s.print = !s.profile_dir.empty() || (tm && *tm && std::strcmp(tm, "0") != 0);
}

void on_record(const Core& c, const OpRecord& r);

void ensure_subscribed_locked(Global& s) {
    if (on_locked(s) && !s.subscriber) s.subscriber = subscribe(on_record);
    else if (!on_locked(s) && s.subscriber) {
        unsubscribe(s.subscriber);
        s.subscriber = 0;
    }
}

std::string json_str(const std::string& v) { return json_quote(v); }

std::string num(double v, int decimals = 4) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

bool make_dir(const std::string& d) {
    std::string cur;
    for (size_t i = 0; i <= d.size(); ++i) {
        if (i == d.size() || d[i] == '/') {
            if (!cur.empty() && mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) return false;
        }
        if (i < d.size()) cur += d[i];
    }
    return true;
}

// The launches go on and keep their status: a trace or profile is a record
// of the run, not part of its result.
void report_write_error(TraceFile& f, const ptolab::common::WriteError& e) {
    f.failed = true;
    std::fprintf(stderr, "ptosim: error: %s: %s; the run goes on but %s is incomplete: free space or set %s to a "
                 "writable path\n", f.source, e.what(), f.path.c_str(), f.source);
}

// Appends items to a JSON array document (a trace's traceEvents, the summary
// array), which is whole after each call: the first call of the process
// writes the file, later ones overwrite its closing brackets. Rewriting the
// whole document at every launch would cost time quadratic in the launches.
void append_doc(TraceFile& f, const char* head, const std::string& items, const char* foot) {
    if (f.failed) return;
    try {
        if (f.tail < 0) {
            const std::string doc = head + items;
            ptolab::common::write_file(f.path, doc + foot);
            f.tail = static_cast<long>(doc.size());
        } else {
            const std::string more = ",\n" + items;
            ptolab::common::overwrite_tail(f.path, f.tail, more + foot);
            f.tail += static_cast<long>(more.size());
        }
    } catch (const ptolab::common::WriteError& e) {
        report_write_error(f, e);
    }
}

constexpr const char* kTraceHead =
    "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ptosim cost model (docs/cost-model.md)\"},"
    "\"traceEvents\":[\n";

void append_text(TraceFile& f, const std::string& text) {
    if (f.failed) return;
    try {
        if (f.tail < 0) ptolab::common::write_file(f.path, text);
        else ptolab::common::append_file(f.path, text);
        f.tail = 0;
    } catch (const ptolab::common::WriteError& e) {
        report_write_error(f, e);
    }
}

}  // namespace

void enable(bool on) {
    Global& s = g();
    std::lock_guard lk(s.mu);
    read_env_locked(s);
    s.forced = on;
    ensure_subscribed_locked(s);
}

bool enabled() {
    Global& s = g();
    std::lock_guard lk(s.mu);
    read_env_locked(s);
    return on_locked(s);
}

void override_params(const Params* p) {
    Global& s = g();
    std::lock_guard lk(s.mu);
    if (p) s.override_p = *p;
    else s.override_p.reset();
}

double last_launch_us() {
    Global& s = g();
    std::lock_guard lk(s.mu);
    return s.last_us;
}

double simulated_clock_us() {
    Global& s = g();
    std::lock_guard lk(s.mu);
    return s.offset_us;
}

namespace {
thread_local double t_host_us = 0;  // this host thread's clock
thread_local TaskClock* t_task = nullptr;
}  // namespace

TaskClock*& current_task() { return t_task; }

double host_clock_us() { return t_host_us; }

void join_host_clock(double us) {
    if (us <= t_host_us) return;
    t_host_us = us;
    Global& s = g();
    std::lock_guard lk(s.mu);
    s.offset_us = std::max(s.offset_us, us);
}

void note_clock(double us) {
    Global& s = g();
    std::lock_guard lk(s.mu);
    s.offset_us = std::max(s.offset_us, us);
}

uint64_t issue_ticket() {
    Global& s = g();
    std::lock_guard lk(s.mu);
    const uint64_t t = s.next_ticket++;
    s.pending.emplace(t, Pending{});
    return t;
}

// ------------------------------------------------------------ launch state

struct LaunchTiming {
    LaunchTiming(const Params& p, int active, bool keep, int capacity, int per_group)
        : eng(p, active, keep), per_group(per_group) {
        for (int i = 0; i < capacity; ++i) free_at.insert(0.0);
    }
    Engine eng;
    int per_group;
    // When each physical core of the launch is free, as a multiset: the next
    // block starts on the one free earliest.
    std::multiset<double> free_at;
    std::map<int64_t, double> group_start, group_end;
    std::map<int64_t, int> group_members_done;
    std::vector<char> started;
    // Where the launch starts on the process's clock (us), and per core the
    // window word a spin of it polls (0: none), for the time across ranks.
    double offset_us = 0;
    std::vector<uintptr_t> spin;
    std::vector<double> spin_stamp;  // the polled word's stamp when the spin began
    // The issue ticket whose outputs this launch gives, whether the launch
    // took it itself (not run by a stream), and the stream task it runs in.
    uint64_t ticket = 0;
    bool own_ticket = false;
    TaskClock* task = nullptr;

    void start(const Core& c) {
        if (started[c.index]) return;
        started[c.index] = 1;
        auto [it, fresh] = group_start.try_emplace(c.block_idx, 0.0);
        if (fresh && !free_at.empty()) {
            it->second = *free_at.begin();
            free_at.erase(free_at.begin());
        }
        eng.start_core(c.index, it->second, c.name());
    }
};

namespace {

double cycles_per_us(const Engine& e) { return e.params().clock_ghz * 1000; }

// The link's start-up (cycles) from this rank to the window holding a, 0
// when a is this rank's own memory.
double link_latency_to(const Params& p, uintptr_t a) {
    const int peer = remote_peer(a);
    double lat = 0, rate = 0;
    if (peer >= 0 && link_between(p, process_rank(), peer, lat, rate)) return lat;
    return 0;
}

// A core observed the word(s) at [a, a + bytes): it does not go on before
// the time the last write of them reached the window's memory, plus the
// link's start-up when the window is a peer's.
void observe(LaunchTiming& t, int core, uintptr_t a, uint64_t bytes, const char* op, const SourceLoc& loc) {
    const double us = read_stamp(a, bytes);
    if (us < 0) return;
    const double at = (us - t.offset_us) * cycles_per_us(t.eng) + link_latency_to(t.eng.params(), a);
    const int peer = window_rank(a);
    t.eng.hold_until(core, at, peer >= 0 ? "a write into rank " + std::to_string(peer) + "'s window" : "a write",
                     op, loc);
}

// A spin ended on a word whose stamp is still the one it had when the spin
// began: the value came before its time. A plain store is seen by the
// other ranks as it happens, but its writer posts the store's time only at
// the dsb after it (timing_publish), so a spin that polls fast can end in
// between. The stamp is waited for a little (wall time); a value no one
// stamps (the host's, a transfer over 64 bytes) costs that wait once.
void await_stamp(uintptr_t a, double before) {
    if (read_stamp(a, 4) != before) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
    while (read_stamp(a, 4) == before && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::microseconds(20));
}

// A record of a spin's loop (between two polls): a signal read, ld_dev, a
// barrier. Its count depends on the host's timing, so it takes no time.
bool poll_record(const OpRecord& r) {
    if (r.sync == SyncOp::PipeBarrier) return true;
    if (r.sync != SyncOp::None || r.n_writes) return false;
    return classify(r) == OpClass::Scalar && (r.atomic || std::strcmp(r.op, "ld_dev") == 0);
}

bool writes_word(const OpRecord& r, uintptr_t a) {
    for (uint8_t i = 0; i < r.n_writes; ++i)
        if (r.writes[i].space == Space::GM && a >= r.writes[i].offset && a < r.writes[i].offset + r.writes[i].bytes)
            return true;
    return false;
}

void on_record(const Core& c, const OpRecord& r) {
    if (!c.launch || !c.launch->timing()) return;
    LaunchTiming& t = *c.launch->timing();
    if (!t.started[c.index]) t.start(c);
    if (uintptr_t& spin = t.spin[c.index]) {
        if (poll_record(r)) {
            t.eng.record_untimed(c.index);
            return;
        }
        // The spin ended: the core read what it waited for, unless this is
        // the core's own update of the word (TNOTIFY's dcci, st_atomic).
        const uintptr_t a = spin;
        spin = 0;
        if (!writes_word(r, a)) {
            await_stamp(a, t.spin_stamp[c.index]);
            observe(t, c.index, a, 4, "spin on GM (ended)", r.loc);
        }
    }
    t.eng.record(c.index, r);
    if (!time_stamps() || !r.n_writes) return;
    // Small writes into a window leave their time for the ranks that read them.
    for (uint8_t i = 0; i < r.n_writes; ++i) {
        const Access& w = r.writes[i];
        if (w.space != Space::GM || w.bytes > 64 || !in_window_span(static_cast<uintptr_t>(w.offset))) continue;
        const bool scalar = classify(r) == OpClass::Scalar || r.sync != SyncOp::None;
        // A pipe's transfer to a peer already paid the link in its cost; a
        // scalar store or atomic reaches the peer a link's start-up later.
        const double end = scalar ? t.eng.issue_time(c.index) + link_latency_to(t.eng.params(), w.offset)
                                  : t.eng.pipe_free(c.index, r.pipe);
        post_stamp(static_cast<uintptr_t>(w.offset), w.bytes, t.offset_us + end / cycles_per_us(t.eng));
    }
}

}  // namespace

void begin(Launch& l) {
    Global& s = g();
    std::lock_guard lk(s.mu);
    read_env_locked(s);
    ensure_subscribed_locked(s);
    if (!on_locked(s)) return;
    const SocProfile& soc = l.soc();
    const LaunchSpec& spec = l.spec();
    const int per_group = spec.kind == KernelKind::Mix ? 3 : 1;
    const int capacity = spec.kind == KernelKind::Vec    ? soc.aiv
                         : spec.kind == KernelKind::Cube ? soc.aic
                                                         : std::min(soc.aic, soc.aiv / 2);
    const int groups = static_cast<int>(std::min<uint64_t>(spec.block_dim, static_cast<uint64_t>(capacity)));
    const Params p = s.override_p ? *s.override_p : params_for(soc);
    const bool keep = !s.trace_path.empty() || !s.profile_dir.empty();
    auto* t = new LaunchTiming(p, groups * per_group, keep, capacity, per_group);
    t->started.assign(static_cast<size_t>(spec.block_dim) * per_group, 0);
    t->spin.assign(static_cast<size_t>(spec.block_dim) * per_group, 0);
    t->spin_stamp.assign(static_cast<size_t>(spec.block_dim) * per_group, -1);
    // Where it starts: on a stream, where the stream's task stands (its
    // clock, the events it waited for, the host's issue); run by a host
    // thread itself, at that thread's clock. Never the host's own timing.
    TaskClock* task = t_task;
    t->task = task;
    t->offset_us = task ? task->end_us : t_host_us;
    // What a prefetch left in L2 before the launch starts.
    for (const auto& [lo, in] : s.l2_prefetched)
        if (in.from <= t->offset_us && t->offset_us < in.until) t->eng.present_in_l2(lo, lo + s.l2_line);
    if (task && task->ticket) {
        t->ticket = task->ticket;
        task->ticket = 0;  // a second launch in the same task takes its own
    } else {
        t->ticket = s.next_ticket++;
        t->own_ticket = true;
        s.pending.emplace(t->ticket, Pending{});
    }
    l.set_timing(t);
}

void core_done(Launch& l, const Core& c) {
    LaunchTiming* t = l.timing();
    if (!t) return;
    t->start(c);
    if (uintptr_t& spin = t->spin[c.index]) {
        const uintptr_t a = spin;
        spin = 0;
        observe(*t, c.index, a, 4, "spin on GM (ended)", SourceLoc{});
    }
    double& e = t->group_end[c.block_idx];
    e = std::max(e, t->eng.core_end(c.index));
    if (++t->group_members_done[c.block_idx] == t->per_group) {
        t->free_at.insert(e);
        t->group_members_done.erase(c.block_idx);
        t->group_end.erase(c.block_idx);
    }
}

void signal(Launch& l, const Core& from, const Channel& to) {
    if (LaunchTiming* t = l.timing()) t->eng.signal(from.index, to);
}
void forward(Launch& l, const std::vector<Channel>& from, const std::vector<Channel>& to) {
    if (LaunchTiming* t = l.timing()) t->eng.forward(from, to);
}
void acquire(Launch& l, const Core& c, const Channel& ch) {
    if (LaunchTiming* t = l.timing()) t->eng.acquire(c.index, ch);
}
void contribute(Launch& l, const Core& c, const Channel& ch) {
    if (LaunchTiming* t = l.timing()) t->eng.contribute(c.index, ch);
}
void acquire_all(Launch& l, const Core& c, const Channel& ch) {
    if (LaunchTiming* t = l.timing()) t->eng.acquire_all(c.index, ch);
}

void cache_operation(uintptr_t addr, uint64_t bytes, CacheOp op) {
    if (!enabled() || bytes == 0) return;
    const SocProfile& soc = Device::get().soc();
    Global& s = g();
    std::lock_guard lk(s.mu);
    const Params p = s.override_p ? *s.override_p : params_for(soc);
    // The task starts where its stream stands and moves the stream's clock
    // by its start-up and, except an invalidation, which moves no data, its
    // bytes at the HBM bandwidth (from HBM, or back to it).
    TaskClock* task = t_task;
    const double start = task ? task->end_us : t_host_us;
    const double moved = op == CacheOp::Invalidate ? 0.0 : static_cast<double>(bytes) / (p.gm_gbps / p.clock_ghz);
    const double end = start + (p.lat_prefetch + moved) / (p.clock_ghz * 1000);
    if (task) task->end_us = end;
    else t_host_us = end;
    s.offset_us = std::max(s.offset_us, end);
    const uint64_t line = std::max<uint64_t>(1, static_cast<uint64_t>(p.l2_line));
    if (line != s.l2_line) {
        s.l2_prefetched.clear();  // a profile with another line size: what earlier prefetches left does not map
        s.l2_line = line;
    }
    constexpr double kForever = std::numeric_limits<double>::infinity();
    for (uint64_t l = addr / line; l * line < addr + bytes; ++l) {
        if (op == CacheOp::Prefetch) {
            auto [it, fresh] = s.l2_prefetched.try_emplace(l * line, Global::InL2{end, kForever});
            // Present already at `end`: it stays from its earlier time; else
            // (never, or dropped by then) from the prefetch's end on.
            if (!fresh && !(it->second.from <= end && end < it->second.until)) it->second = {end, kForever};
            continue;
        }
        if (op == CacheOp::Writeback) continue;  // the copy stays in L2
        const auto it = s.l2_prefetched.find(l * line);
        if (it == s.l2_prefetched.end()) continue;
        it->second.until = std::min(it->second.until, end);
        if (it->second.until <= it->second.from) s.l2_prefetched.erase(it);
    }
}

void drop_from_l2(uintptr_t addr, uint64_t bytes) {
    Global& s = g();
    std::lock_guard lk(s.mu);
    if (s.l2_prefetched.empty()) return;
    const uint64_t from = addr / s.l2_line * s.l2_line;
    s.l2_prefetched.erase(s.l2_prefetched.lower_bound(from), s.l2_prefetched.lower_bound(addr + bytes));
}

void drop_all_from_l2() {
    Global& s = g();
    std::lock_guard lk(s.mu);
    s.l2_prefetched.clear();
}

void advance_clock_to(double us) {
    join_host_clock(us);
    note_clock(us);
}

double collective_us(uint64_t bytes) {
    if (!enabled()) return 0;
    const SocProfile& soc = Device::get().soc();
    Global& s = g();
    Params p;
    {
        std::lock_guard lk(s.mu);
        p = s.override_p ? *s.override_p : params_for(soc);
    }
    const int ranks = process_ranks();
    double lat = 0, rate = 0, worst_lat = 0, worst_rate = 0;
    for (int r = 0; r < ranks; ++r) {
        if (r == process_rank() || !link_between(p, process_rank(), r, lat, rate)) continue;
        if (worst_rate == 0 || lat > worst_lat) worst_lat = lat;
        if (worst_rate == 0 || rate < worst_rate) worst_rate = rate;
    }
    if (worst_rate == 0) return 0;
    return (worst_lat + static_cast<double>(bytes) / worst_rate) / (p.clock_ghz * 1000);
}

double ccu_transfer_us(int peer, uint64_t bytes) {
    if (!enabled()) return 0;
    const SocProfile& soc = Device::get().soc();
    Global& s = g();
    Params p;
    {
        std::lock_guard lk(s.mu);
        p = s.override_p ? *s.override_p : params_for(soc);
    }
    double lat = 0, rate = 0;
    if (peer < 0 || peer == process_rank()) {
        // On the device: HBM read and write of the bytes at the GM rate.
        if (p.gm_gbps <= 0) return 0;
        return 2.0 * static_cast<double>(bytes) / (p.gm_gbps / p.clock_ghz) / (p.clock_ghz * 1000);
    }
    if (!link_between(p, process_rank(), peer, lat, rate)) return 0;
    return (lat + static_cast<double>(bytes) / rate) / (p.clock_ghz * 1000);
}

// ------------------------------------------------------------ outputs

namespace {

struct Summary {
    std::string json, text, bound_pipe;
    double time_us = 0, bound_util = 0;
};

std::string human_bytes(uint64_t b) {
    const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(b);
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

Summary summarise(const LaunchInfo& l, const Engine& eng, int number, double offset_us) {
    const Params& p = eng.params();
    const double cyc_us = 1.0 / (p.clock_ghz * 1000.0);
    const auto& cores = eng.cores();
    double span = 0;  // cycles from launch start to the last pipe idle
    int critical = -1;
    for (const auto& [i, t] : cores) {
        const double e = eng.core_end(i);
        if (critical < 0 || e > span) span = e, critical = i;
    }
    Summary s;
    // A replay of an ACL graph is one launch from the host: its first kernel
    // pays the fixed overhead, the others none (docs/cost-model.md).
    const double overhead_us = l.spec().replay_tail ? 0.0 : p.launch_us;
    s.time_us = span * cyc_us + overhead_us;
    // The bounding pipe: the busiest pipe of the core that finished last.
    int bound = -1;
    double crit_len = 0;
    if (critical >= 0) {
        const CoreTimes& ct = cores.at(critical);
        crit_len = eng.core_end(critical) - ct.start;
        for (int pi = 0; pi < kPipeCount; ++pi)
            if (ct.busy[pi] > 0 && (bound < 0 || ct.busy[pi] > ct.busy[bound])) bound = pi;
        if (bound >= 0) {
            s.bound_pipe = pipe_short_name(static_cast<Pipe>(bound));
            s.bound_util = crit_len > 0 ? ct.busy[bound] / crit_len : 0;
        }
    }
    // Per pipe over the cores: the busiest core's busy time and the mean.
    std::array<double, kPipeCount> busy_max{}, busy_sum{};
    std::array<int, kPipeCount> users{};
    for (const auto& [i, t] : cores)
        for (int pi = 0; pi < kPipeCount; ++pi)
            if (t.busy[pi] > 0) {
                busy_max[pi] = std::max(busy_max[pi], t.busy[pi]);
                busy_sum[pi] += t.busy[pi];
                ++users[pi];
            }
    uint64_t gm_bytes = 0;
    const auto& mv = eng.moved();
    for (int a = 0; a < kSpaceCount; ++a)
        for (int b = 0; b < kSpaceCount; ++b)
            if (a == static_cast<int>(Space::GM) || b == static_cast<int>(Space::GM)) gm_bytes += mv[a][b];
    const SocProfile& soc = l.soc();
    const LaunchSpec& spec = l.spec();
    const int per_group = spec.kind == KernelKind::Mix ? 3 : 1;
    const int capacity = spec.kind == KernelKind::Vec    ? soc.aiv
                         : spec.kind == KernelKind::Cube ? soc.aic
                                                         : std::min(soc.aic, soc.aiv / 2);
    const int groups = static_cast<int>(std::min<uint64_t>(spec.block_dim, static_cast<uint64_t>(capacity)));
    const int run_aic = spec.kind == KernelKind::Vec ? 0 : groups;
    const int run_aiv = spec.kind == KernelKind::Cube ? 0 : groups * (per_group == 3 ? 2 : 1);
    const double flops = static_cast<double>(eng.cube_flops() + eng.vector_flops());
    const double secs = s.time_us * 1e-6;
    const bool cube = eng.cube_flops() > 0;
    // Peaks of the cores this launch ran at once: fp16 Cube MACs, or vector lanes of fp16 elements.
    const double peak_tflops = cube ? run_aic * p.cube_fp16 * 2 * p.clock_ghz * 1e-3
                                    : run_aiv * (p.vec_plain / 2) * p.clock_ghz * 1e-3;
    const double achieved_tflops = secs > 0 ? flops / secs * 1e-12 : 0;
    // The roofline's memory side is HBM: GM reads the L2 served are not on it.
    const uint64_t hbm = eng.hbm_bytes();
    const double achieved_gbps = secs > 0 ? static_cast<double>(hbm) / secs * 1e-9 : 0;
    const double intensity = hbm ? flops / static_cast<double>(hbm) : 0;
    const double attainable = hbm ? std::min(peak_tflops, intensity * p.gm_gbps * 1e-3) : peak_tflops;

    std::string j = "{\"launch\":" + std::to_string(number) + ",\"kernel\":" + json_str(spec.kernel) +
                    ",\"soc\":" + json_str(soc.name) + ",\"kind\":" + json_str(to_string(spec.kind)) +
                    ",\"block_dim\":" + std::to_string(spec.block_dim) + ",\"time_us\":" + num(s.time_us) +
                    ",\"cores_time_us\":" + num(span * cyc_us) + ",\"launch_overhead_us\":" + num(overhead_us) +
                    ",\"starts_at_us\":" + num(offset_us) + ",\"ends_at_us\":" + num(offset_us + s.time_us) +
                    (spec.replay ? ",\"replay\":" + std::to_string(spec.replay) + ",\"replay_note\":" + json_str(spec.replay_note) : std::string()) +
                    ",\"clock_ghz\":" + num(p.clock_ghz, 3) + ",\"bound\":{\"pipe\":" + json_str(s.bound_pipe) +
                    ",\"utilisation\":" + num(s.bound_util) + ",\"core\":" +
                    json_str(critical >= 0 ? cores.at(critical).name : "") + "},\"pipes\":{";
    bool first = true;
    for (int pi = 0; pi < kPipeCount; ++pi) {
        if (!users[pi]) continue;
        j += std::string(first ? "" : ",") + json_str(pipe_short_name(static_cast<Pipe>(pi))) +
             ":{\"busy_us_max\":" + num(busy_max[pi] * cyc_us) + ",\"busy_us_mean\":" +
             num(busy_sum[pi] / users[pi] * cyc_us) + ",\"utilisation_max\":" + num(span > 0 ? busy_max[pi] / span : 0) +
             ",\"cores\":" + std::to_string(users[pi]) + "}";
        first = false;
    }
    j += "},\"bytes\":{";
    first = true;
    std::string bytes_text;
    for (int a = 0; a < kSpaceCount; ++a)
        for (int b = 0; b < kSpaceCount; ++b) {
            if (!mv[a][b]) continue;
            const std::string k = std::string(to_string(static_cast<Space>(a))) + "->" + to_string(static_cast<Space>(b));
            j += std::string(first ? "" : ",") + json_str(k) + ":" + std::to_string(mv[a][b]);
            bytes_text += (bytes_text.empty() ? "" : ", ") + k + " " + human_bytes(mv[a][b]);
            first = false;
        }
    j += "},\"flops\":{\"cube\":" + std::to_string(eng.cube_flops()) + ",\"vector\":" + std::to_string(eng.vector_flops()) +
         "},\"roofline\":{\"gm_bytes\":" + std::to_string(gm_bytes) + ",\"hbm_bytes\":" + std::to_string(hbm) +
         ",\"intensity_flop_per_byte\":" + num(intensity) +
         ",\"achieved_tflops\":" + num(achieved_tflops, 6) + ",\"achieved_gbps\":" + num(achieved_gbps, 3) +
         ",\"peak_tflops\":" + num(peak_tflops, 3) + ",\"peak_gbps\":" + num(p.gm_gbps, 1) +
         ",\"attainable_tflops\":" + num(attainable, 6) +
         ",\"fraction_of_attainable\":" + num(attainable > 0 ? achieved_tflops / attainable : 0) + "},\"cores\":[";
    first = true;
    for (const auto& [i, t] : cores) {
        const double len = eng.core_end(i) - t.start;
        j += std::string(first ? "" : ",") + "{\"core\":" + json_str(t.name) + ",\"start_us\":" + num(t.start * cyc_us) +
             ",\"end_us\":" + num(eng.core_end(i) * cyc_us) + ",\"instructions\":" + std::to_string(t.instructions) +
             ",\"pipes\":{";
        bool pf = true;
        for (int pi = 0; pi < kPipeCount; ++pi) {
            if (t.busy[pi] <= 0) continue;
            j += std::string(pf ? "" : ",") + json_str(pipe_short_name(static_cast<Pipe>(pi))) + ":{\"busy_us\":" +
                 num(t.busy[pi] * cyc_us) + ",\"utilisation\":" + num(len > 0 ? t.busy[pi] / len : 0) + "}";
            pf = false;
        }
        j += "},\"blocked_us\":{";
        pf = true;
        for (const auto& [what, cyc] : t.blocked) {
            j += std::string(pf ? "" : ",") + json_str(what) + ":" + num(cyc * cyc_us);
            pf = false;
        }
        j += "}}";
        first = false;
    }
    j += "]}";
    s.json = std::move(j);

    // The human table.
    char line[512];
    std::string x;
    std::snprintf(line, sizeof line, "launch %d: %s on %s (%s, block_dim %u): %.3f us simulated (cores %.3f us + launch %.3f us)\n",
                  number, spec.kernel.c_str(), soc.name, to_string(spec.kind), spec.block_dim, s.time_us, span * cyc_us,
                  overhead_us);
    x += line;
    if (spec.replay) x += "  " + spec.replay_note + (spec.replay_tail ? ": launch overhead paid by the replay's first kernel\n" : "\n");
    if (!s.bound_pipe.empty()) {
        std::snprintf(line, sizeof line, "  bound: %s %.0f%% busy on %s, the core that finished last\n",
                      s.bound_pipe.c_str(), s.bound_util * 100, cores.at(critical).name.c_str());
        x += line;
    }
    std::snprintf(line, sizeof line, "  %-6s %14s %14s %9s %7s\n", "pipe", "busy max (us)", "busy mean (us)", "util max",
                  "cores");
    x += line;
    for (int pi = 0; pi < kPipeCount; ++pi) {
        if (!users[pi]) continue;
        std::snprintf(line, sizeof line, "  %-6s %14.3f %14.3f %8.1f%% %7d\n", pipe_short_name(static_cast<Pipe>(pi)),
                      busy_max[pi] * cyc_us, busy_sum[pi] / users[pi] * cyc_us, span > 0 ? busy_max[pi] / span * 100 : 0,
                      users[pi]);
        x += line;
    }
    if (!bytes_text.empty()) x += "  bytes: " + bytes_text + "\n";
    std::snprintf(line, sizeof line,
                  "  roofline: %.3g flop per HBM byte, %.4g TFLOPS and %.4g GB/s of HBM achieved; attainable %.4g TFLOPS "
                  "(peak %.4g TFLOPS %s, %.0f GB/s HBM; %s of GM traffic, %s of it L2 hits)\n",
                  intensity, achieved_tflops, achieved_gbps, attainable, peak_tflops, cube ? "fp16 Cube" : "fp16 vector",
                  p.gm_gbps, human_bytes(gm_bytes).c_str(), human_bytes(gm_bytes > hbm ? gm_bytes - hbm : 0).c_str());
    x += line;
    if (critical >= 0 && !cores.at(critical).blocked.empty()) {
        x += "  blocked on " + cores.at(critical).name + ":";
        for (const auto& [what, cyc] : cores.at(critical).blocked) {
            std::snprintf(line, sizeof line, " %s %.3f us;", what.c_str(), cyc * cyc_us);
            x += line;
        }
        x.back() = '\n';
    }
    s.text = std::move(x);
    return s;
}

// Trace events of one launch: pid = launch, tid = core x pipe.
std::string trace_events(const LaunchInfo& l, const Engine& eng, int number, double offset_us, uint64_t& next_flow,
                         int rank, int pid_base) {
    const double cyc_us = 1.0 / (eng.params().clock_ghz * 1000.0);
    const std::string pid = std::to_string(pid_base + number);
    const std::string who = rank >= 0 ? "rank " + std::to_string(rank) + " launch " : "launch ";
    auto tid = [](int core, Pipe p) { return std::to_string(core * kPipeCount + static_cast<int>(p) % kPipeCount); };
    auto ts = [&](double cyc) { return num(offset_us + cyc * cyc_us); };
    std::string o = "{\"ph\":\"M\",\"pid\":" + pid + ",\"name\":\"process_name\",\"args\":{\"name\":" +
                    json_str(who + std::to_string(number) + ": " + l.spec().kernel +
                             (l.spec().replay ? " (" + l.spec().replay_note + ")" : std::string())) +
                    "}},\n{\"ph\":\"M\",\"pid\":" + pid +
                    ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + pid + "}}";
    std::set<std::pair<int, int>> tracks;
    for (const Slice& s : eng.slices()) tracks.emplace(s.core, static_cast<int>(s.pipe));
    for (const Flow& f : eng.flows()) {
        tracks.emplace(f.from_core, static_cast<int>(f.from_pipe));
        tracks.emplace(f.to_core, static_cast<int>(f.to_pipe));
    }
    for (auto [core, pi] : tracks) {
        auto it = eng.cores().find(core);
        const std::string name = (it != eng.cores().end() ? it->second.name : std::to_string(core)) + " / " +
                                 pipe_short_name(static_cast<Pipe>(pi));
        o += ",\n{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid(core, static_cast<Pipe>(pi)) +
             ",\"name\":\"thread_name\",\"args\":{\"name\":" + json_str(name) + "}}";
        o += ",\n{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid(core, static_cast<Pipe>(pi)) +
             ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + tid(core, static_cast<Pipe>(pi)) + "}}";
    }
    // Core by core, each core's events in its own order: the order in which
    // the host ran the cores (which core a poll let run next) does not show.
    std::vector<const Slice*> slices;
    slices.reserve(eng.slices().size());
    for (const Slice& s : eng.slices()) slices.push_back(&s);
    std::stable_sort(slices.begin(), slices.end(), [](const Slice* a, const Slice* b) { return a->core < b->core; });
    std::vector<const Flow*> flows;
    flows.reserve(eng.flows().size());
    for (const Flow& f : eng.flows()) flows.push_back(&f);
    std::stable_sort(flows.begin(), flows.end(), [](const Flow* a, const Flow* b) { return a->to_core < b->to_core; });
    for (const Slice* sp : slices) {
        const Slice& s = *sp;
        o += ",\n{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" + tid(s.core, s.pipe) + ",\"ts\":" + ts(s.start) +
             ",\"dur\":" + num(s.dur * cyc_us) + ",\"name\":" + json_str(s.op) + ",\"cat\":" +
             json_str(pipe_short_name(s.pipe)) + ",\"args\":{\"loc\":" + json_str(s.loc.file_line()) +
             ",\"bytes\":" + std::to_string(s.bytes) + ",\"flops\":" + std::to_string(s.flops) + "}}";
    }
    for (const Flow* fp : flows) {
        const Flow& f = *fp;
        const std::string id = std::to_string(next_flow++);
        o += ",\n{\"ph\":\"s\",\"pid\":" + pid + ",\"tid\":" + tid(f.from_core, f.from_pipe) + ",\"ts\":" +
             ts(f.from_t) + ",\"id\":" + id + ",\"name\":\"flag\",\"cat\":\"flag\"}";
        o += ",\n{\"ph\":\"f\",\"bp\":\"e\",\"pid\":" + pid + ",\"tid\":" + tid(f.to_core, f.to_pipe) + ",\"ts\":" +
             ts(f.to_t) + ",\"id\":" + id + ",\"name\":\"flag\",\"cat\":\"flag\"}";
    }
    return o;
}

}  // namespace

namespace {

// Writes one ended launch's summary, trace and stderr line, numbered in the
// order the host issued the launches. With s.mu held.
void emit_locked(Global& s, const LaunchInfo& l, const LaunchTiming& t) {
    const int number = ++s.launches;
    Summary sum = summarise(l, t.eng, number, t.offset_us);
    if (!s.trace_path.empty() || !s.profile_dir.empty()) {
        // The launch's cycles count from where it started on the clock
        // (launches of two streams may overlap, docs/semantics.md).
        std::string ev = trace_events(l, t.eng, number, t.offset_us, s.next_flow, s.rank, s.pid_base);
        if (const LaunchSpec& spec = l.spec(); spec.replay) {
            // The replay as one group on its own track: one slice per kernel
            // of the replay, named alike, back to back.
            const std::string rid = std::to_string(spec.replay);
            const std::string gp = std::to_string(s.pid_base);
            ev += ",\n{\"ph\":\"M\",\"pid\":" + gp + ",\"name\":\"process_name\",\"args\":{\"name\":" +
                  json_str(s.rank >= 0 ? "rank " + std::to_string(s.rank) + " ACL graph replays" : "ACL graph replays") +
                  "}}";
            ev += ",\n{\"ph\":\"M\",\"pid\":" + gp + ",\"tid\":" + rid + ",\"name\":\"thread_name\",\"args\":{\"name\":" +
                  json_str("replay " + rid) + "}}";
            ev += ",\n{\"ph\":\"X\",\"pid\":" + gp + ",\"tid\":" + rid + ",\"ts\":" + num(t.offset_us) + ",\"dur\":" +
                  num(sum.time_us) + ",\"name\":" + json_str("replay " + rid) + ",\"cat\":\"graph\",\"args\":{\"launch\":" +
                  std::to_string(number) + ",\"kernel\":" + json_str(spec.kernel) + ",\"note\":" +
                  json_str(spec.replay_note) + "}}";
        }
        if (!s.trace_path.empty()) {
            s.trace.path = s.trace_path;
            append_doc(s.trace, kTraceHead, ev, "\n]}\n");
        }
        if (!s.profile_dir.empty()) {
            if (!make_dir(s.profile_dir)) {
                std::fprintf(stderr, "ptosim: warning: cannot create PTO_SIM_PROFILE directory %s: %s\n",
                             s.profile_dir.c_str(), std::strerror(errno));
            } else {
                s.profile_trace.path = s.profile_dir + "/trace.json";
                append_doc(s.profile_trace, kTraceHead, ev, "\n]}\n");
                s.profile_summary.path = s.profile_dir + "/summary.json";
                append_doc(s.profile_summary, "[\n", sum.json, "\n]\n");
                s.profile_text.path = s.profile_dir + "/summary.txt";
                append_text(s.profile_text, sum.text);
            }
        }
    }
    if (s.print) {
        if (sum.bound_pipe.empty())
            std::fprintf(stderr, "ptosim: time: %s %.3f us simulated\n", l.spec().kernel.c_str(), sum.time_us);
        else
            std::fprintf(stderr, "ptosim: time: %s %.3f us simulated (bound: %s %.0f%%)\n", l.spec().kernel.c_str(),
                         sum.time_us, sum.bound_pipe.c_str(), sum.bound_util * 100);
    }
}

// Writes the outputs of the launches whose predecessors all ended. With s.mu held.
void flush_locked(Global& s) {
    while (!s.pending.empty() && s.pending.begin()->second.retired) {
        Pending pd = std::move(s.pending.begin()->second);
        s.pending.erase(s.pending.begin());
        for (size_t i = 0; i < pd.infos.size(); ++i) emit_locked(s, *pd.infos[i], *pd.timings[i]);
    }
}

// The launch's simulated time (us): its cores' span plus the launch overhead.
double launch_time_us(const LaunchSpec& spec, const Engine& eng) {
    double span = 0;
    for (const auto& [i, c] : eng.cores()) span = std::max(span, eng.core_end(i));
    const double cyc_us = 1.0 / (eng.params().clock_ghz * 1000.0);  // as summarise computes it
    return span * cyc_us + (spec.replay_tail ? 0.0 : eng.params().launch_us);
}

}  // namespace

void retire_ticket(uint64_t ticket) {
    if (!ticket) return;
    Global& s = g();
    std::lock_guard lk(s.mu);
    if (auto it = s.pending.find(ticket); it != s.pending.end()) it->second.retired = true;
    flush_locked(s);
}

void end(Launch& l, const Status& st) {
    LaunchTiming* raw = l.timing();
    if (!raw) return;
    l.set_timing(nullptr);
    std::shared_ptr<LaunchTiming> t(raw);
    const double time_us = st.ok() ? launch_time_us(l.spec(), t->eng) : 0;
    const double end_us = t->offset_us + time_us;
    if (st.ok()) {
        // The stream's task, or the host thread that ran the launch, goes on
        // from its end.
        if (t->task) t->task->end_us = std::max(t->task->end_us, end_us);
        else t_host_us = std::max(t_host_us, end_us);
    }
    Global& s = g();
    std::lock_guard lk(s.mu);
    Pending& pd = s.pending[t->ticket];
    if (st.ok()) {
        s.last_us = time_us;
        s.offset_us = std::max(s.offset_us, end_us);
        auto info = std::make_shared<LaunchInfo>();
        const LaunchSpec& spec = l.spec();
        info->spec_.kernel = spec.kernel;
        info->spec_.site = spec.site;
        info->spec_.target = spec.target;
        info->spec_.kind = spec.kind;
        info->spec_.block_dim = spec.block_dim;
        info->spec_.replay_note = spec.replay_note;
        info->spec_.replay = spec.replay;
        info->spec_.replay_tail = spec.replay_tail;
        info->soc_ = l.soc();
        pd.infos.push_back(std::move(info));
        pd.timings.push_back(std::move(t));
    }
    if (raw->own_ticket) pd.retired = true;
    flush_locked(s);
}

}  // namespace ptosim::cost

namespace ptosim {

void timing_poll(Core& c, const void* gm) {
    cost::LaunchTiming* t = c.launch ? c.launch->timing() : nullptr;
    const auto a = reinterpret_cast<uintptr_t>(gm);
    if (!t || !time_stamps() || !in_window_span(a)) return;
    if (!t->started[c.index]) t->start(c);
    if (t->spin[c.index] != a) t->spin_stamp[c.index] = read_stamp(a, 4);
    t->spin[c.index] = a;
}

void timing_publish(Core& c) {
    cost::LaunchTiming* t = c.launch ? c.launch->timing() : nullptr;
    if (!t) return;
    uintptr_t& spin = t->spin[c.index];
    if (!spin) return;
    // The dcci before a dsb flushed a plain store (pto-isa's TNOTIFY Set).
    const uintptr_t a = spin;
    spin = 0;
    const double end = t->eng.issue_time(c.index) + cost::link_latency_to(t->eng.params(), a);
    post_stamp(a, 4, t->offset_us + end / cost::cycles_per_us(t->eng));
}

// The URMA engine (urma.cpp): the doorbell store that ran a WQE returns
// when its transfer ended, so the completion the kernel polls next is not
// seen before it.
void timing_hold_pipe(Core& c, Pipe p, const char* what, const char* op, const SourceLoc& loc) {
    cost::LaunchTiming* t = c.launch ? c.launch->timing() : nullptr;
    if (!t) return;
    if (!t->started[c.index]) t->start(c);
    t->eng.hold_until(c.index, t->eng.pipe_free(c.index, p), what, op, loc);
}

void timing_observed(Core& c, const void* gm, uint64_t bytes, const char* op, const SourceLoc& loc) {
    cost::LaunchTiming* t = c.launch ? c.launch->timing() : nullptr;
    if (!t || !time_stamps()) return;
    if (!t->started[c.index]) t->start(c);
    t->spin[c.index] = 0;
    cost::observe(*t, c.index, reinterpret_cast<uintptr_t>(gm), bytes, op, loc);
}

uint64_t sys_cnt(Core& c) {
    cost::LaunchTiming* t = c.launch ? c.launch->timing() : nullptr;
    if (!t) return c.ops;
    if (!t->started[c.index]) t->start(c);
    const double us = t->offset_us + t->eng.issue_time(c.index) / cost::cycles_per_us(t->eng);
    return static_cast<uint64_t>(us * t->eng.params().sys_cnt_mhz);
}

}  // namespace ptosim

extern "C" double ptosim_last_launch_time_us(void) { return ptosim::cost::last_launch_us(); }

extern "C" double ptosim_simulated_time_us(void) { return ptosim::cost::simulated_clock_us(); }

extern "C" int ptosim_enable_timing(int on) {
    ptosim::cost::enable(on != 0);
    return 0;
}
