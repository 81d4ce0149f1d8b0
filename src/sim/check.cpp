// synccheck and racecheck, and the framework every tool shares: the model is
// written down in docs/checkers.md (memcheck and initcheck: check_mem.cpp).
// Each tool is one dispatch subscriber that reads the records every
// instruction and intrinsic passes through `dispatch`; with no tool selected
// nothing subscribes and the only cost is one null test per launch.
#include "check.hpp"
#include "code_address.hpp"
#include "file_write.hpp"
#include "hex.hpp"
#include "launch.hpp"
#include "timing.hpp"
#include "json_text.hpp"
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <optional>
#include <mutex>
#include <set>
#include <sstream>
#include <atomic>
#include <tuple>
#include <utility>

namespace ptosim::check {

namespace {

// What a pipe's instructions are ordered after: a clock value per (core,
// pipe). The core's own pipes are dense; other cores' enter only through a
// cross-core signal or SYNCALL, as sorted (core * kPipeCount + pipe, value).
using Remote = std::vector<std::pair<uint32_t, uint32_t>>;
struct Clock {
    std::array<uint32_t, kPipeCount> own{};
    Remote remote;
};

void join(Remote& a, const Remote& b) {
    if (b.empty()) return;
    if (a.empty()) {
        a = b;
        return;
    }
    Remote out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) out.push_back(a[i++]);
        else if (i == a.size() || b[j].first < a[i].first) out.push_back(b[j++]);
        else {
            out.emplace_back(a[i].first, std::max(a[i].second, b[j].second));
            ++i, ++j;
        }
    }
    a.swap(out);
}

void join(Clock& a, const Clock& b) {
    for (int i = 0; i < kPipeCount; ++i) a.own[i] = std::max(a.own[i], b.own[i]);
    join(a.remote, b.remote);
}

uint32_t remote_at(const Remote& r, uint32_t key) {
    auto it = std::lower_bound(r.begin(), r.end(), key, [](const auto& e, uint32_t k) { return e.first < k; });
    return it != r.end() && it->first == key ? it->second : 0;
}

// One earlier access to a buffer, kept until every pipe is ordered after it
// or a later access ordered after it makes it redundant.
// The bytes an access touches: [lo, hi), or with dims > 0 only the runs of
// `run` bytes at lo + sum(i_k * pitch[k]) for i_k < count[k] (Access).
struct Footprint {
    uint64_t lo = 0, hi = 0, run = 0;
    int dims = 0;
    std::array<uint64_t, Runs::kMaxDims> count{}, pitch{};

    static Footprint of(const OpRecord& r, const Access& a) {
        Footprint f;
        f.lo = a.offset;
        f.hi = a.offset + a.bytes;
        if (a.runs == 0 || a.runs > r.n_runs) return f;
        const Runs& x = r.runs[a.runs - 1];
        f.run = x.run;
        f.dims = x.dims;
        for (int k = 0; k < x.dims; ++k) f.count[k] = x.count[k], f.pitch[k] = x.pitch[k];
        return f;
    }
    uint64_t runs() const {
        uint64_t n = 1;
        for (int k = 0; k < dims; ++k) n *= count[k];
        return n;
    }
    // Bytes from the start of an index of dimension k to the end of its last run.
    uint64_t extent(int k) const {
        uint64_t e = run;
        for (int j = k + 1; j < dims; ++j) e += (count[j] - 1) * pitch[j];
        return e;
    }
};

// Whether the runs of y below dimension k, starting at base, touch [s, e).
bool hits_from(const Footprint& y, int k, uint64_t base, uint64_t s, uint64_t e) {
    if (k == y.dims) return base < e && base + y.run > s;
    const uint64_t ext = y.extent(k), p = y.pitch[k];
    if (e <= base) return false;
    const uint64_t jmax = std::min(y.count[k] - 1, (e - 1 - base) / p);
    const uint64_t jmin = s < base + ext ? 0 : (s - base - ext) / p + 1;
    for (uint64_t j = jmin; j <= jmax; ++j)
        if (hits_from(y, k + 1, base + j * p, s, e)) return true;
    return false;
}

bool hits(const Footprint& y, uint64_t s, uint64_t e) {
    if (e <= y.lo || s >= y.hi) return false;
    return !y.dims || hits_from(y, 0, y.lo, s, e);
}

// Rows of one pitch (tiles of one matrix): row j of the later-starting y
// begins r bytes into row q + j of x, so it meets that row when r < x.run
// and the next one when it runs past the pitch; j = 0 is the best chance.
bool same_pitch_rows_overlap(const Footprint& x, const Footprint& y) {
    const uint64_t p = x.pitch[0], d = y.lo - x.lo, q = d / p, r = d % p;
    return (r < x.run && q < x.count[0]) || (r + y.run > p && q + 1 < x.count[0]);
}

bool overlaps(const Footprint& a, const Footprint& b) {
    if (a.hi <= b.lo || b.hi <= a.lo) return false;
    if (!a.dims && !b.dims) return true;
    if (a.dims == 1 && b.dims == 1 && a.pitch[0] == b.pitch[0] && a.pitch[0] > 0 && a.run <= a.pitch[0] &&
        b.run <= b.pitch[0] && a.count[0] > 0 && b.count[0] > 0)
        return a.lo <= b.lo ? same_pitch_rows_overlap(a, b) : same_pitch_rows_overlap(b, a);
    const bool a_runs = a.dims && (!b.dims || a.runs() <= b.runs());
    const Footprint& x = a_runs ? a : b;
    const Footprint& y = a_runs ? b : a;
    // Walks x's runs like an odometer.
    std::array<uint64_t, Runs::kMaxDims> idx{};
    for (uint64_t n = x.runs(); n > 0; --n) {
        uint64_t at = x.lo;
        for (int k = 0; k < x.dims; ++k) at += idx[k] * x.pitch[k];
        if (hits(y, at, at + x.run)) return true;
        for (int k = x.dims - 1; k >= 0 && ++idx[k] == x.count[k]; --k) idx[k] = 0;
    }
    return false;
}

// Whether every byte of e is one of a's.
bool covers(const Footprint& a, const Footprint& e) {
    if (!a.dims) return e.lo >= a.lo && e.hi <= a.hi;
    return e.lo == a.lo && e.hi == a.hi && e.dims == a.dims && e.run == a.run && e.count == a.count &&
           e.pitch == a.pitch;
}

struct Shadow {
    Footprint at;
    uint32_t t;  // the access's clock on its own pipe
    int core;
    Pipe pipe;
    bool write;
    bool atomic;
    const char* op;
    SourceLoc loc;
};

struct CoreState {
    bool used = false;
    // clock[p]: what the instructions issued to pipe p are ordered after.
    std::array<Clock, kPipeCount> clock{};
    // What every instruction the scalar unit issues from now on is ordered
    // after: the scalar waits (wait_flag to PIPE_S, pipe_barrier(PIPE_ALL)).
    Clock issue{};
    // Pipe clocks captured by set_flag, by (src, dst, event).
    std::map<int, Clock> flag_clock;
    std::map<int, std::pair<SourceLoc, const char*>> flag_set_at;
    // The unit flag: the M clock of the last final-phase matmul, and the FIX
    // clock of the last final-phase store, if any.
    std::optional<Clock> unit_final_m, unit_final_fix;
    std::vector<Shadow> shadow[kSpaceCount];
    uint32_t inserts = 0;
    bool mask_reported = false;  // one mask-not-initialised report per core: its first vector instruction
};

// AccPhase::Final and STPhase::Final (pto/common/type.hpp).
constexpr uint8_t kUnitFinal = 3;

int flag_key(Pipe s, Pipe d, int ev) { return (static_cast<int>(s) * kPipeCount + static_cast<int>(d)) * kEventIds + ev; }

std::string flag_call(const char* fn, Pipe s, Pipe d, int ev) {
    return std::string(fn) + "(" + to_string(s) + ", " + to_string(d) + ", EVENT_ID" + std::to_string(ev) + ")";
}

using ptolab::common::hex;

// ------------------------------------------------------------ global state

std::mutex g_mu;
bool g_configured = false;
unsigned g_tools = 0;
std::string g_config_error;
int g_sub_sync = 0, g_sub_race = 0, g_sub_mem = 0, g_sub_init = 0;
std::string g_log;
std::vector<Report> g_reports;  // for take_reports
std::vector<Report> g_sarif;    // everything a .sarif log holds
constexpr size_t kKeptReports = 10000;

}  // namespace

// ------------------------------------------------------------ launch state

struct LaunchState {
    LaunchState(Launch& l, unsigned t) : launch(l), tools(t) {}
    ~LaunchState() { mem_init_delete(mem); }
    Launch& launch;
    unsigned tools;
    MemInit* mem = nullptr;  // memcheck and initcheck, when either is on
    std::vector<CoreState> cores;
    // Deduplicated reports, in order of first occurrence.
    std::map<std::tuple<std::string, std::string, std::string, std::string>, size_t> index;
    std::vector<Report> reports;
    // GM accesses of every core, by first byte; gm_span bounds the search back.
    std::multimap<uint64_t, Shadow> gm;
    uint64_t gm_span = 0;
    // Clocks carried by cross-core signals: tokens, queued per channel.
    std::vector<Remote> tokens;
    std::map<Channel, std::deque<int32_t>> chans;

    CoreState& state(const Core& c) {
        // Sized once: hooks hold references into it while other cores' state is reached.
        if (cores.empty()) cores.resize(launch.core_count());
        if (cores.size() <= static_cast<size_t>(c.index)) cores.resize(c.index + 1);
        CoreState& s = cores[c.index];
        s.used = true;
        return s;
    }
    CoreState& state_at(int index) {
        if (cores.empty()) cores.resize(launch.core_count());
        if (cores.size() <= static_cast<size_t>(index)) cores.resize(index + 1);
        return cores[index];
    }

    using Key = std::tuple<std::string, std::string, std::string, std::string>;
    static Key key_of(const std::string& tool, const std::string& kind, const SourceLoc& a, const SourceLoc& b) {
        return {tool, kind, a.str(), b.known() ? b.str() : ""};
    }
    // Counts one more occurrence of an existing report; false when there is none.
    bool repeat(const Key& key) {
        auto it = index.find(key);
        if (it == index.end()) return false;
        ++reports[it->second].count;
        return true;
    }

    Report& add(const Core& c, Report r) { return add_at(c.index, std::move(r)); }
    // Cores exist only while their block runs: reports name a core by index.
    Report& add_at(int core, Report r) {
        auto key = key_of(r.tool, r.kind, r.sites.empty() ? SourceLoc{} : r.sites[0].loc,
                          r.sites.size() < 2 ? SourceLoc{} : r.sites[1].loc);
        auto [it, fresh] = index.try_emplace(key, reports.size());
        if (!fresh) {
            ++reports[it->second].count;
            return reports[it->second];
        }
        const int per = launch.cores_per_group();
        r.kernel = launch.spec().kernel;
        r.core = launch.core_name(core);
        r.core_type = launch.core_type_of(core);
        r.block = core / per;
        r.subblock = per == 3 && core % per > 0 ? core % per - 1 : 0;
        if (r.severity.empty()) r.severity = "error";
        reports.push_back(std::move(r));
        return reports.back();
    }

    void on_sync(const Core& c, const OpRecord& r);
    void mask_check(const Core& c, const OpRecord& r);
    void on_race(const Core& c, const OpRecord& r);
    void on_mem(const Core& c, const OpRecord& r) {
        if (mem) mem_record(*mem, c, r);
    }
    void on_init(const Core& c, const OpRecord& r) {
        if (mem) init_record(*mem, c, r);
    }
    void sync_op(const Core& c, CoreState& s, const OpRecord& r);
    void access(const Core& c, CoreState& s, const OpRecord& r, const Access& a, bool write, uint32_t t);
    void local_access(const Core& c, CoreState& s, int owner, const OpRecord& r, const Access& a, bool write,
                      uint32_t t);
    bool check_pair(const Core& c, const Clock& mine, const OpRecord& r, const Access& a, const Footprint& f, bool write,
                    const Shadow& e);
    bool sibling_duplicate(const Core& c, const OpRecord& r, const Footprint& f, const Shadow& e);
    int32_t snapshot(const Core& c, Pipe p);
    void prune(const Core& c, int owner, CoreState& s, std::vector<Shadow>& list);
    void core_done(const Core& c);
    void finish(bool completed);
};

namespace {

bool valid_pipe(Pipe p) { return static_cast<int>(p) < kPipeCount && p != Pipe::ALL; }

void drain_all(CoreState& s) {
    Clock all = s.issue;
    for (auto& c : s.clock) join(all, c);
    for (auto& c : s.clock) c = all;
    s.issue = all;
}

std::string cross_fix(Launch& l, const Core& c, const Shadow& e, const std::string& first_core, const OpRecord& r) {
    const bool same_group = l.cores_per_group() == 3 && e.core / 3 == c.index / 3;
    const std::string p = to_string(e.pipe);
    if (same_group)
        return c.target == Target::A2A3
                   ? "after " + e.loc.str() + " signal from " + first_core + " with ffts_cross_core_sync(" + p +
                         ", 1 | (2 << 4) | (flag << 8)) and wait_flag_dev(flag) on " + c.name() + " before " + r.loc.str()
                   : "after " + e.loc.str() + " signal from " + first_core + " with set_intra_block(" + p +
                         ", id) and wait_intra_block(pipe, id) on " + c.name() + " before " + r.loc.str();
    std::string fix = "order the blocks: a SYNCALL after " + e.loc.str() + " on " + first_core + " and before " +
                      r.loc.str() + " on " + c.name();
    if (c.target == Target::A2A3)
        fix += " (or an FFTS barrier: ffts_cross_core_sync(" + p + ", 1 | (0 << 4) | (flag << 8)) after the first, "
               "wait_flag_dev(flag) before the second)";
    return fix;
}

}  // namespace

// synccheck: where each pending flag was set, a set of a flag still set,
// and vector work before the kernel set the mask.
void LaunchState::on_sync(const Core& c, const OpRecord& r) {
    if (!(tools & kSync)) return;
    if (r.pipe == Pipe::V && r.sync == SyncOp::None) return mask_check(c, r);
    if (r.sync != SyncOp::SetFlag && r.sync != SyncOp::WaitFlag) return;
    if (!valid_pipe(r.src) || !valid_pipe(r.dst) || r.event < 0 || r.event >= kEventIds) return;
    CoreState& s = state(c);
    const int key = flag_key(r.src, r.dst, r.event);
    if (r.sync == SyncOp::WaitFlag) {
        s.flag_set_at.erase(key);
        return;
    }
    if (!c.flag_set(r.src, r.dst, r.event)) {
        s.flag_set_at[key] = {r.loc, r.op};
        return;
    }
    // The pending set keeps its location.
    auto prev = s.flag_set_at.find(key);
    const SourceLoc first = prev != s.flag_set_at.end() ? prev->second.first : SourceLoc{};
    Report rep;
    rep.tool = "synccheck";
    rep.kind = "redundant-set-flag";
    rep.sites = {{first, "set_flag", r.src, "", c.name()}, {r.loc, "set_flag", r.src, "", c.name()}};
    const std::string f = flag_call("set_flag", r.src, r.dst, r.event);
    rep.message = f + " at " + r.loc.str() + " while the flag set at " + first.str() +
                  " is still set: a flag is one bit, so this signal is lost";
    rep.fix = "add " + flag_call("wait_flag", r.src, r.dst, r.event) + " between " + first.str() + " and " +
              r.loc.str() + ", or remove the set_flag at " + r.loc.str();
    add(c, std::move(rep));
}

// An A2A3 Vector core keeps the mask mode and mask the previous kernel on it
// left (docs/intrinsics/README.md, "Start state"), so a vector instruction
// before the kernel set both computes under whatever that kernel needed.
void LaunchState::mask_check(const Core& c, const OpRecord& r) {
    if (c.target != Target::A2A3 || c.type != CoreType::AIV || (c.vec.mode_set && c.vec.mask_set)) return;
    CoreState& s = state(c);
    if (s.mask_reported) return;
    s.mask_reported = true;
    const char* missing = c.vec.mode_set ? "set_vector_mask" : c.vec.mask_set ? "set_mask_norm (or set_mask_count)"
                                                                              : "set_mask_norm and set_vector_mask";
    Report rep;
    rep.tool = "synccheck";
    rep.kind = "mask-not-initialised";
    rep.sites = {{r.loc, r.op, r.pipe, "", c.name()}};
    rep.message = std::string(r.op) + " (PIPE_V) at " + r.loc.str() + " runs before the kernel called " + missing +
                  ": the mask mode and mask are what the previous kernel on this core left, so the instruction "
                  "may compute only part of its elements or fault";
    rep.fix = "call set_mask_norm(); set_vector_mask(-1, -1); at the start of the kernel, before " + r.loc.str();
    add(c, std::move(rep));
}

// racecheck: the pipes' clocks and every access.
void LaunchState::on_race(const Core& c, const OpRecord& r) {
    if (!(tools & kRace)) return;
    CoreState& s = state(c);
    if (r.sync != SyncOp::None || r.pipe == Pipe::ALL) return sync_op(c, s, r);
    if (!valid_pipe(r.pipe)) return;
    const int p = static_cast<int>(r.pipe);
    Clock& k = s.clock[p];
    join(k, s.issue);
    // A unit-flagged store drains what the last final matmul wrote, and a
    // unit-flagged matmul waits until the last final store drained.
    if (r.unit_flag && r.pipe == Pipe::FIX && s.unit_final_m) join(k, *s.unit_final_m);
    if (r.unit_flag && r.pipe == Pipe::M && s.unit_final_fix) join(k, *s.unit_final_fix);
    const uint32_t t = ++k.own[p];
    for (uint8_t i = 0; i < r.n_reads; ++i) access(c, s, r, r.reads[i], false, t);
    for (uint8_t i = 0; i < r.n_writes; ++i) access(c, s, r, r.writes[i], true, t);
    if (r.unit_flag == kUnitFinal && r.pipe == Pipe::M) s.unit_final_m = k;
    if (r.unit_flag == kUnitFinal && r.pipe == Pipe::FIX) s.unit_final_fix = k;
}

void LaunchState::sync_op(const Core& c, CoreState& s, const OpRecord& r) {
    switch (r.sync) {
        case SyncOp::SetFlag: {
            if (!valid_pipe(r.src) || !valid_pipe(r.dst) || r.event < 0 || r.event >= kEventIds) return;
            const int key = flag_key(r.src, r.dst, r.event);
            Clock& k = s.clock[static_cast<int>(r.src)];
            join(k, s.issue);
            // A set of a flag still set is lost: the pending set keeps its clock.
            if (!c.flag_set(r.src, r.dst, r.event)) s.flag_clock[key] = k;
            return;
        }
        case SyncOp::WaitFlag: {
            if (!valid_pipe(r.src) || !valid_pipe(r.dst) || r.event < 0 || r.event >= kEventIds) return;
            const int key = flag_key(r.src, r.dst, r.event);
            Clock& k = s.clock[static_cast<int>(r.dst)];
            join(k, s.issue);
            if (auto it = s.flag_clock.find(key); it != s.flag_clock.end()) {
                join(k, it->second);
                if (r.dst == Pipe::S) join(s.issue, it->second);
                s.flag_clock.erase(it);
            }
            return;
        }
        case SyncOp::PipeBarrier:
        case SyncOp::SyncAll:
            if (r.pipe == Pipe::ALL) drain_all(s);
            return;
        case SyncOp::None:
            if (r.pipe == Pipe::ALL) drain_all(s);
            return;
        case SyncOp::CrossSignal:
        case SyncOp::CrossWait:
            return;
    }
}

// Reports e against this access when they conflict and nothing orders them;
// returns whether this access is ordered after e.
// The two Vector sub-blocks of a mix group storing the same bytes from the
// same line: pto-isa's A5 mix tests run identical code with the same data on
// both (tload_mix, tmov_ub2l1), harmless exactly when the values agree.
bool LaunchState::sibling_duplicate(const Core& c, const OpRecord& r, const Footprint& f, const Shadow& e) {
    return c.type == CoreType::AIV && launch.core_type_of(e.core) == CoreType::AIV && launch.cores_per_group() == 3 &&
           e.core / 3 == c.index / 3 && e.loc.line == r.loc.line &&
           (e.loc.file == r.loc.file || (e.loc.file && r.loc.file && std::strcmp(e.loc.file, r.loc.file) == 0)) &&
           covers(f, e.at) && covers(e.at, f);
}

bool LaunchState::check_pair(const Core& c, const Clock& mine, const OpRecord& r, const Access& a, const Footprint& f,
                             bool write, const Shadow& e) {
    const uint32_t seen = e.core == c.index ? mine.own[static_cast<int>(e.pipe)]
                                            : remote_at(mine.remote, static_cast<uint32_t>(e.core * kPipeCount + static_cast<int>(e.pipe)));
    const bool ordered = e.t <= seen;
    if (ordered || !(write || e.write) || (write && e.write && r.atomic && e.atomic)) return ordered;
    const uint64_t lo = a.offset, hi = a.offset + a.bytes;
    const bool cross = e.core != c.index;
    const char* kind = e.write && write ? "write-after-write" : e.write ? "read-after-write" : "write-after-read";
    const bool duplicate = cross && e.write && write && sibling_duplicate(c, r, f, e);
    const std::string full_kind = !cross                ? kind
                                  : duplicate           ? "duplicate-store"
                                  : e.write && write    ? "multi-core-corruption"
                                                        : std::string("inter-core-") + kind;
    if (repeat(key_of("racecheck", full_kind, e.loc, r.loc))) return ordered;
    const std::string first_core = cross ? launch.core_name(e.core) : c.name();
    Report rep;
    if (duplicate) rep.severity = "warning";
    rep.tool = "racecheck";
    rep.kind = full_kind;
    rep.buffer = to_string(a.space);
    rep.lo = std::max(lo, e.at.lo);
    rep.hi = std::min(hi, e.at.hi);
    rep.sites = {{e.loc, e.op, e.pipe, e.write ? "write" : "read", first_core},
                 {r.loc, r.op, r.pipe, write ? "write" : "read", c.name()}};
    const std::string range = std::string(to_string(a.space)) + " [" + hex(rep.lo) + ", " + hex(rep.hi) + ")";
    if (!cross) {
        rep.message = std::string(r.op) + " (" + to_string(r.pipe) + ") at " + r.loc.str() + (write ? " writes " : " reads ") +
                      range + " that " + e.op + " (" + to_string(e.pipe) + ") at " + e.loc.str() +
                      (e.write ? " writes" : " reads") + "; no set_flag/wait_flag or barrier orders the two pipes";
        rep.fix = "add set_flag(" + std::string(to_string(e.pipe)) + ", " + to_string(r.pipe) + ", id) after " + e.loc.str() +
                  " and wait_flag(" + to_string(e.pipe) + ", " + to_string(r.pipe) + ", id) before " + r.loc.str() +
                  " (id: an event id free between them)";
    } else {
        rep.message = std::string(r.op) + " (" + to_string(r.pipe) + ") at " + r.loc.str() + " on " + c.name() +
                      (write ? " writes " : " reads ") + range + " that " + e.op + " (" + to_string(e.pipe) + ") at " +
                      e.loc.str() + " on " + first_core + (e.write ? " writes" : " reads") +
                      "; no cross-core flag or SYNCALL orders the two cores";
        rep.fix = cross_fix(launch, c, e, first_core, r);
        if (duplicate)
            rep.fix = "harmless only if both sub-blocks store the same values; otherwise let one store it "
                      "(if (get_subblockid() == 0)) or give each sub-block its half, or " + rep.fix;
        else if (e.write && write)
            rep.fix += "; if each block should write its own range, fix the offsets (AtomicAdd stores accumulate "
                       "without ordering)";
    }
    add(c, std::move(rep));
    return ordered;
}

void LaunchState::access(const Core& c, CoreState& s, const OpRecord& r, const Access& a, bool write, uint32_t t) {
    if (a.bytes == 0) return;
    if (a.space != Space::GM) {
        // A Cube<->Vector move (A5 TMOV Acc->Vec, TINSERT Vec->Mat) reaches
        // the other core's buffer: its history, judged by this core's clocks.
        int owners[2];
        const int n = access_cores(launch, c, r, a.space, owners);
        for (int i = 0; i < n; ++i) local_access(c, s, owners[i], r, a, write, t);
        return;
    }
    const Footprint f = Footprint::of(r, a);
    const Clock& mine = s.clock[static_cast<int>(r.pipe)];
    // An earlier access this one is ordered after and covers adds nothing a
    // later check needs, unless it is a write this one only reads.
    auto redundant = [&](const Shadow& e, bool ordered) {
        return ordered && covers(f, e.at) && (write || !e.write) && !(write && r.atomic && e.write && !e.atomic);
    };
    const Shadow mine_entry{f, t, c.index, r.pipe, write, write && r.atomic, r.op, r.loc};
    auto it = gm.lower_bound(f.lo > gm_span ? f.lo - gm_span : 0);
    while (it != gm.end() && it->first < f.hi) {
        const Shadow& e = it->second;
        if (!overlaps(e.at, f)) {
            ++it;
            continue;
        }
        const bool ordered = check_pair(c, mine, r, a, f, write, e);
        it = redundant(e, ordered) ? gm.erase(it) : std::next(it);
    }
    gm.emplace(f.lo, mine_entry);
    gm_span = std::max(gm_span, f.hi - f.lo);
}

void LaunchState::local_access(const Core& c, CoreState& s, int owner, const OpRecord& r, const Access& a, bool write,
                               uint32_t t) {
    const Footprint f = Footprint::of(r, a);
    const Clock& mine = s.clock[static_cast<int>(r.pipe)];
    auto redundant = [&](const Shadow& e, bool ordered) {
        return ordered && covers(f, e.at) && (write || !e.write) && !(write && r.atomic && e.write && !e.atomic);
    };
    const Shadow mine_entry{f, t, c.index, r.pipe, write, write && r.atomic, r.op, r.loc};
    CoreState& o = owner == c.index ? s : state_at(owner);
    auto& list = o.shadow[static_cast<int>(a.space)];
    size_t keep = 0;
    for (size_t i = 0; i < list.size(); ++i) {
        const Shadow& e = list[i];
        if (!overlaps(e.at, f) || !redundant(e, check_pair(c, mine, r, a, f, write, e))) list[keep++] = list[i];
    }
    list.resize(keep);
    list.push_back(mine_entry);
    if (++o.inserts % 256 == 0 || list.size() > 512) prune(c, owner, o, list);
}

// Drops accesses every pipe is ordered after: nothing issued later can race
// them. On A5 mix launches the Cube core and its Vector sub-blocks reach each
// other's UB and L1, so there every core of the group must be ordered after
// an access before it goes.
void LaunchState::prune(const Core& c, int owner, CoreState& s, std::vector<Shadow>& list) {
    int who[3] = {owner}, n = 1;
    if (c.target == Target::A5 && launch.cores_per_group() == 3) {
        n = 0;
        for (int m = owner / 3 * 3; m < owner / 3 * 3 + 3; ++m) who[n++] = m;
    }
    std::erase_if(list, [&](const Shadow& e) {
        const int q = static_cast<int>(e.pipe);
        const uint32_t key = static_cast<uint32_t>(e.core * kPipeCount + q);
        for (int i = 0; i < n; ++i) {
            const CoreState& w = who[i] == owner ? s : state_at(who[i]);
            for (int p = 0; p < kPipeCount; ++p) {
                if (p == static_cast<int>(Pipe::ALL)) continue;
                const uint32_t seen = e.core == who[i] ? w.clock[p].own[q] : remote_at(w.clock[p].remote, key);
                if (seen < e.t) return false;
            }
        }
        return true;
    });
}

// A core's flags left set, checked as its block finishes (its state goes
// with it).
void LaunchState::core_done(const Core& c) {
    if (!(tools & kSync)) return;
    CoreState* s = static_cast<size_t>(c.index) < cores.size() ? &cores[c.index] : nullptr;
    for (int a = 0; a < kPipeCount; ++a)
        for (int b = 0; b < kPipeCount; ++b)
            for (int ev = 0; ev < kEventIds; ++ev) {
                if (!c.flag_set(static_cast<Pipe>(a), static_cast<Pipe>(b), ev)) continue;
                const Pipe src = static_cast<Pipe>(a), dst = static_cast<Pipe>(b);
                SourceLoc at;
                if (s)
                    if (auto it = s->flag_set_at.find(flag_key(src, dst, ev)); it != s->flag_set_at.end())
                        at = it->second.first;
                Report rep;
                rep.tool = "synccheck";
                rep.kind = "flag-never-waited";
                rep.sites = {{at, "set_flag", src, "", c.name()}};
                rep.message = flag_call("set_flag", src, dst, ev) + " at " + at.str() +
                              " is never waited: the flag is still set when the kernel ends";
                rep.fix = "add " + flag_call("wait_flag", src, dst, ev) + " after " + at.str() + " where " +
                          to_string(dst) + " needs the data, before the kernel ends (a flag left set "
                          "lets the next kernel's first wait_flag on it pass early)";
                add(c, std::move(rep));
            }
}

void LaunchState::finish(bool completed) {
    if (!completed || !(tools & kSync)) return;
    auto name_of = [&](int index) { return index >= 0 ? launch.core_name(index) : std::string("?"); };
    // A counter of receiving core r still holding signals: FFTS flags are
    // consumed by wait_flag_dev, intra-block flags by wait_intra_block.
    auto left_set = [&](int r, int f, uint32_t count, const SignalSite& from, const char* counter,
                        const char* signal, const std::string& wait) {
        const std::string core = launch.core_name(r);
        Report rep;
        rep.tool = "synccheck";
        rep.kind = "cross-core-flag-left-set";
        rep.sites = {{from.loc, signal, Pipe::S, "", name_of(from.from)}};
        rep.message = std::string(counter) + " " + std::to_string(f) + " of " + core + " holds " +
                      std::to_string(count) + " signal(s) no " + wait.substr(0, wait.find('(')) +
                      " consumed; the last came from " + name_of(from.from) + " at " + from.loc.str();
        rep.fix = "add " + wait + " on " + core + " for every signal it receives, or remove the extra " + signal +
                  " at " + from.loc.str();
        add_at(r, std::move(rep));
    };
    for (const Launch::HeldSignals& h : launch.held_signals()) {
        const int f = h.flag;
        switch (h.counter) {
            case Launch::HeldSignals::Counter::Ffts:
                left_set(h.core, f, h.count, h.last, "FFTS flag", "ffts_cross_core_sync",
                         "wait_flag_dev(" + std::to_string(f) + ")");
                break;
            case Launch::HeldSignals::Counter::IntraBlock:
                left_set(h.core, f, h.count, h.last, "intra-block flag", "set_intra_block",
                         "wait_intra_block(pipe, " + std::to_string(f) + ")");
                break;
            case Launch::HeldSignals::Counter::FftsBarrier: {
                const SignalSite& from = h.last;
                Report rep;
                rep.tool = "synccheck";
                rep.kind = "cross-core-flag-left-set";
                rep.sites = {{from.loc, "ffts_cross_core_sync", Pipe::S, "", name_of(from.from)}};
                rep.message = "ffts_cross_core_sync(mode " + std::to_string(h.mode) + ", flag " + std::to_string(f) +
                              ") of " + launch.core_name(h.core) + " at " + from.loc.str() +
                              " never completed its barrier: not every member of the barrier sent the signal as often";
                rep.fix = "make every core of the barrier (mode " + std::to_string(h.mode) +
                          ") call ffts_cross_core_sync on flag " + std::to_string(f) +
                          " equally often, or remove the extra call at " + from.loc.str();
                add_at(h.core, std::move(rep));
                break;
            }
        }
    }
}

// ------------------------------------------------------------ cross-core edges

int32_t LaunchState::snapshot(const Core& c, Pipe p) {
    CoreState& s = state(c);
    Clock k = s.clock[static_cast<int>(p)];
    join(k, s.issue);
    Remote r;
    for (int q = 0; q < kPipeCount; ++q)
        if (k.own[q]) r.emplace_back(static_cast<uint32_t>(c.index * kPipeCount + q), k.own[q]);
    join(r, k.remote);
    tokens.push_back(std::move(r));
    return static_cast<int32_t>(tokens.size() - 1);
}

namespace {

LaunchState* race_state(Launch& l) {
    LaunchState* st = l.checker();
    return st && (st->tools & kRace) ? st : nullptr;
}

// Joins a token into what the core issues from now on.
void join_token(LaunchState& st, const Core& c, const Remote& r) {
    CoreState& s = st.state(c);
    Remote other;
    for (auto [key, v] : r) {
        if (static_cast<int>(key / kPipeCount) == c.index) {
            uint32_t& own = s.issue.own[key % kPipeCount];
            own = std::max(own, v);
        } else {
            other.emplace_back(key, v);
        }
    }
    join(s.issue.remote, other);
}

}  // namespace

void signal(Launch& l, const Core& from, Pipe pipe, const Channel& to) {
    cost::signal(l, from, to);
    if (LaunchState* st = race_state(l)) st->chans[to].push_back(st->snapshot(from, pipe));
}

void forward(Launch& l, const std::vector<Channel>& from, const std::vector<Channel>& to) {
    cost::forward(l, from, to);
    LaunchState* st = race_state(l);
    if (!st) return;
    Remote merged;
    for (const Channel& ch : from) {
        auto& q = st->chans[ch];
        if (q.empty()) continue;
        join(merged, st->tokens[q.front()]);
        q.pop_front();
    }
    st->tokens.push_back(std::move(merged));
    for (const Channel& ch : to) st->chans[ch].push_back(static_cast<int32_t>(st->tokens.size() - 1));
}

void acquire(Launch& l, const Core& c, const Channel& ch) {
    cost::acquire(l, c, ch);
    LaunchState* st = race_state(l);
    if (!st) return;
    auto& q = st->chans[ch];
    if (q.empty()) return;
    join_token(*st, c, st->tokens[q.front()]);
    q.pop_front();
}

void contribute(Launch& l, const Core& c, const Channel& ch) {
    cost::contribute(l, c, ch);
    LaunchState* st = race_state(l);
    if (!st) return;
    const int32_t mine = st->snapshot(c, Pipe::S);
    auto& q = st->chans[ch];
    if (q.empty()) q.push_back(mine);
    else join(st->tokens[q.front()], st->tokens[mine]);
}

void acquire_all(Launch& l, const Core& c, const Channel& ch) {
    cost::acquire_all(l, c, ch);
    LaunchState* st = race_state(l);
    if (!st) return;
    auto& q = st->chans[ch];
    if (!q.empty()) join_token(*st, c, st->tokens[q.front()]);
}

// ------------------------------------------------------------ configuration

namespace {

std::string configure_locked(std::string_view spec) {
    unsigned t = 0;
    size_t i = 0;
    while (i <= spec.size()) {
        size_t j = spec.find(',', i);
        if (j == std::string_view::npos) j = spec.size();
        std::string_view w = spec.substr(i, j - i);
        while (!w.empty() && w.front() == ' ') w.remove_prefix(1);
        while (!w.empty() && w.back() == ' ') w.remove_suffix(1);
        if (w == "sync" || w == "synccheck") t |= kSync;
        else if (w == "race" || w == "racecheck") t |= kRace;
        else if (w == "mem" || w == "memcheck") t |= kMem;
        else if (w == "init" || w == "initcheck") t |= kInit;
        else if (w == "all") t |= kAllTools;
        else if (!w.empty() && w != "none" && w != "0")
            return "PTO_SIM_CHECK: unknown tool '" + std::string(w) +
                   "'; use a comma list of sync, race, mem, init (or all), e.g. PTO_SIM_CHECK=sync,race";
        i = j + 1;
    }
    g_tools = t;
    g_configured = true;
    g_config_error.clear();
    // One dispatch subscriber per selected tool; none when all are off.
    auto toggle = [](int& id, bool on, void (LaunchState::*fn)(const Core&, const OpRecord&)) {
        if (on && !id) {
            id = subscribe([fn](const Core& c, const OpRecord& r) {
                if (c.launch && c.launch->checker()) (c.launch->checker()->*fn)(c, r);
            });
        } else if (!on && id) {
            unsubscribe(id);
            id = 0;
        }
    };
    toggle(g_sub_sync, t & kSync, &LaunchState::on_sync);
    toggle(g_sub_race, t & kRace, &LaunchState::on_race);
    toggle(g_sub_mem, t & kMem, &LaunchState::on_mem);
    toggle(g_sub_init, t & kInit, &LaunchState::on_init);
    return "";
}

void ensure_configured() {
    if (g_configured) return;
    const char* env = std::getenv("PTO_SIM_CHECK");
    g_config_error = configure_locked(env ? env : "");
    g_configured = true;
    if (const char* log = std::getenv("PTO_SIM_CHECK_LOG")) g_log = log;
}

std::string q(const std::string& s) { return json_quote(s); }

// A site's file and line for the logs: the user's call of the PTO instruction
// when the site is an intrinsic inside a PTO header (SourceLoc::pc), with the
// header's line as `via`; else the site's own.
struct LogLoc {
    std::string file;
    int line = 0;
    std::string via;  // "file:line" of the header, or ""
};
LogLoc log_loc(const SourceLoc& l) {
    LogLoc o{l.file ? l.file : "", l.line, ""};
    if (!l.file || !l.pc) return o;
    const std::string user = user_call_line(l.pc);
    const size_t colon = user.rfind(':');
    if (user.empty() || colon == std::string::npos || user == l.file_line()) return o;
    return {user.substr(0, colon), std::atoi(user.c_str() + colon + 1), l.file_line()};
}

void write_sarif_locked() {
    std::ostringstream f;
    f << "{\"version\":\"2.1.0\",\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"runs\":[{\"tool\":"
         "{\"driver\":{\"name\":\"ptosim-check\",\"informationUri\":\"docs/checkers.md\"}},\"results\":[";
    for (size_t i = 0; i < g_sarif.size(); ++i) {
        const Report& r = g_sarif[i];
        f << (i ? "," : "") << "{\"ruleId\":" << q(r.tool + "/" + r.kind) << ",\"level\":" << q(r.severity)
          << ",\"message\":{\"text\":" << q(r.message + ". Fix: " + r.fix) << "},\"locations\":[";
        bool first = true;
        for (const Site& s : r.sites) {
            if (!s.loc.known()) continue;
            const LogLoc at = log_loc(s.loc);
            f << (first ? "" : ",") << "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":" << q(at.file)
              << "},\"region\":{\"startLine\":" << at.line << "}}}";
            first = false;
        }
        f << "],\"occurrenceCount\":" << r.count << "}";
    }
    f << "]}]}\n";
    ptolab::common::write_file(g_log, f.str());
}

bool ends_with(const std::string& s, const char* suffix) {
    const size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

std::string configure(std::string_view spec) {
    std::lock_guard lk(g_mu);
    return configure_locked(spec);
}

unsigned tools() {
    std::lock_guard lk(g_mu);
    ensure_configured();
    return g_tools;
}

bool enabled(Tool t) { return (tools() & t) != 0; }

void set_log(std::string path) {
    std::lock_guard lk(g_mu);
    ensure_configured();
    g_log = std::move(path);
    g_sarif.clear();
}

std::vector<Report> take_reports() {
    std::lock_guard lk(g_mu);
    return std::exchange(g_reports, {});
}

std::string format_text(const Report& r) {
    std::string s = "ptosim: " + r.tool + ": " + r.severity + ": " + r.kind +
                    (r.kernel.empty() ? "" : " in kernel '" + r.kernel + "' on " + r.core) + ": " + r.message;
    if (r.count > 1) s += " (" + std::to_string(r.count) + " times)";
    s += "\n  fix: " + r.fix + "\n";
    return s;
}

std::string format_json(const Report& r) {
    std::ostringstream o;
    o << "{\"tool\":" << q(r.tool) << ",\"kind\":" << q(r.kind) << ",\"severity\":" << q(r.severity)
      << ",\"kernel\":" << q(r.kernel) << ",\"core\":" << q(r.core) << ",\"core_type\":" << q(to_string(r.core_type))
      << ",\"block\":" << r.block << ",\"subblock\":" << r.subblock << ",\"pipes\":[";
    for (size_t i = 0; i < r.sites.size(); ++i) o << (i ? "," : "") << q(to_string(r.sites[i].pipe));
    o << "]";
    if (!r.buffer.empty()) o << ",\"buffer\":" << q(r.buffer) << ",\"range\":[" << r.lo << "," << r.hi << "]";
    o << ",\"locations\":[";
    for (size_t i = 0; i < r.sites.size(); ++i) {
        const Site& s = r.sites[i];
        const LogLoc at = log_loc(s.loc);
        o << (i ? "," : "") << "{\"file\":" << q(at.file) << ",\"line\":" << at.line;
        if (!at.via.empty()) o << ",\"via\":" << q(at.via);
        o << ",\"op\":" << q(s.op) << ",\"pipe\":" << q(to_string(s.pipe)) << ",\"core\":" << q(s.core);
        if (!s.access.empty()) o << ",\"access\":" << q(s.access);
        o << "}";
    }
    o << "],\"count\":" << r.count << ",\"message\":" << q(r.message) << ",\"fix\":" << q(r.fix) << "}";
    return o.str();
}

// The log and take_reports' list get every report, a launch's or not.
static void keep(const std::vector<Report>& reports) {
    std::lock_guard lk(g_mu);
    // The reports were printed already; the log failing loses only the copy.
    if (!g_log.empty() && !reports.empty()) {
        try {
            if (ends_with(g_log, ".sarif")) {
                for (const Report& r : reports)
                    if (g_sarif.size() < kKeptReports) g_sarif.push_back(r);
                write_sarif_locked();
            } else {
                std::string lines;
                for (const Report& r : reports) lines += format_json(r) + "\n";
                ptolab::common::append_file(g_log, lines);
            }
        } catch (const ptolab::common::WriteError& e) {
            std::fprintf(stderr, "ptosim: error: PTO_SIM_CHECK_LOG: %s; the reports above are not in the log: free "
                         "space or set PTO_SIM_CHECK_LOG to a writable path\n", e.what());
        }
    }
    for (const Report& r : reports)
        if (g_reports.size() < kKeptReports) g_reports.push_back(r);
}

void emit(std::vector<Report> reports) {
    for (const Report& r : reports) std::fputs(format_text(r).c_str(), stderr);
    keep(reports);
}

// ------------------------------------------------------------ tolerated findings

namespace {
std::atomic<int> g_strict{-1};  // -1: PTO_SIM_STRICT not read yet
std::mutex g_noted_mu;
std::set<std::pair<std::string, std::string>> g_noted;  // (kind, site) already noted on stderr
}  // namespace

void set_strict(bool on) { g_strict.store(on ? 1 : 0); }

}  // namespace ptosim::check

namespace ptosim {

bool strict() {
    int s = check::g_strict.load(std::memory_order_relaxed);
    if (s < 0) {
        const char* v = std::getenv("PTO_SIM_STRICT");
        s = v && *v && std::strcmp(v, "0") != 0 ? 1 : 0;
        int expected = -1;
        check::g_strict.compare_exchange_strong(expected, s);
        s = check::g_strict.load();
    }
    return s == 1;
}

void tolerate(const SourceLoc& loc, Tolerated t) {
    if (strict())
        fault(loc, t.message + " (the device does not check this; PTO_SIM_STRICT makes it a fault): " + t.fix);
    Core& c = core();
    check::Report r;
    r.tool = "memcheck";
    r.kind = t.kind;
    r.buffer = t.buffer;
    r.lo = t.lo;
    r.hi = t.hi;
    r.sites = {{loc, t.op, t.pipe, t.buffer[0] ? (t.write ? "write" : "read") : "", c.name()}};
    r.message = std::move(t.message);
    r.fix = std::move(t.fix);
    c.launch->add_tolerated(c.index, std::move(r));
}

}  // namespace ptosim

namespace ptosim::check {

// ------------------------------------------------------------ launch hooks

Status begin(Launch& l) {
    std::lock_guard lk(g_mu);
    ensure_configured();
    if (!g_config_error.empty()) return {err::kInvalidParam, g_config_error};
    if (g_tools) {
        l.set_checker(new LaunchState(l, g_tools));
        if (g_tools & (kMem | kInit)) {
            LaunchState* st = l.checker();
            ReportSink sink;
            sink.repeat = [st](const std::string& tool, const std::string& kind, const SourceLoc& a, const SourceLoc& b) {
                return st->repeat(LaunchState::key_of(tool, kind, a, b));
            };
            sink.add = [st](int core, Report r) { st->add_at(core, std::move(r)); };
            st->mem = mem_init_new(l, g_tools, std::move(sink));
        }
    }
    return {};
}

void unwritten_register(Launch& l, const Core& c, const SourceLoc& loc, const char* op, int operand) {
    LaunchState* st = l.checker();
    const bool checked = st && (st->tools & kInit);
    if (checked && st->repeat(LaunchState::key_of("initcheck", "unwritten-register", loc, SourceLoc{}))) return;
    if (!checked) {
        // Without initcheck, one line on stderr per site in the process, as
        // for what the device tolerates (note_tolerated): the register costs
        // no tracking, and the run reads zeros the device would not have.
        std::lock_guard lk(g_noted_mu);
        if (!g_noted.emplace("unwritten-register", loc.file_line()).second) return;
    }
    Report r;
    r.tool = "initcheck";
    r.kind = "unwritten-register";
    r.sites = {{loc, op, Pipe::V, "read", c.name()}};
    r.message = std::string(op) + " (" + to_string(Pipe::V) + ") at " + loc.str() + " reads a vector register (operand " +
                std::to_string(operand) + ") that no instruction wrote since it was declared; ptosim reads it as "
                "zero, the device reads whatever the register last held";
    r.fix = "write the register before " + loc.str() +
            " (vbr or vdup for a constant, vlds, or an instruction that writes it whole); a register holds nothing "
            "defined when it is declared";
    if (checked) {
        st->add(c, std::move(r));
        return;
    }
    std::fprintf(stderr,
                 "ptosim: initcheck: note: unwritten-register in kernel '%s' on %s: %s; the device does not check "
                 "this, so the launch went on (PTO_SIM_CHECK=init, or ptolab check --tool=init, reports it with the "
                 "fix)\n",
                 l.spec().kernel.c_str(), c.name().c_str(), r.message.c_str());
}

void core_done(Launch& l, const Core& c) {
    if (LaunchState* st = l.checker()) st->core_done(c);
}

// Without memcheck, each tolerated finding gets one line on stderr, once
// per kind and site in the process: a loop of launches says it once.
static void note_tolerated(Launch& l, std::vector<std::pair<int, Report>>& found) {
    for (auto& [core, r] : found) {
        {
            std::lock_guard lk(g_noted_mu);
            if (!g_noted.emplace(r.kind, r.sites[0].loc.str()).second) continue;
        }
        std::fprintf(stderr,
                     "ptosim: memcheck: note: %s in kernel '%s' on %s: %s; the device does not check this, so the "
                     "launch went on (ptolab check reports it with the fix, PTO_SIM_STRICT=1 makes it a fault)\n",
                     r.kind.c_str(), l.spec().kernel.c_str(), l.core_name(core).c_str(), r.message.c_str());
    }
}

Status end(Launch& l, Status run) {
    LaunchState* st = l.checker();
    std::vector<std::pair<int, Report>> found = l.take_tolerated();
    if (!st || !(st->tools & kMem)) note_tolerated(l, found);
    if (!st) return run;
    if (st->tools & kMem)
        for (auto& [core, r] : found) {
            const uint64_t n = r.count;
            st->add_at(core, std::move(r)).count += n - 1;
        }
    l.set_checker(nullptr);
    st->finish(run.ok());
    int errors = 0;
    const Report* first_error = nullptr;
    for (const Report& r : st->reports) {
        std::fputs(format_text(r).c_str(), stderr);
        if (r.severity == "error" && !errors++) first_error = &r;
    }
    keep(st->reports);
    Status result = run;
    if (run.ok() && errors) {
        result = {first_error->core_type == CoreType::AIV ? err::kVectorCoreException : err::kAiCoreException,
                  "kernel '" + l.spec().kernel + "' (launched at " + l.spec().site.str() +
                      (l.spec().replay ? ", " + l.spec().replay_note : std::string()) + "): the checkers found " +
                      std::to_string(errors) + " error(s); the first: " + first_error->kind + " on " + first_error->core +
                      ": " + first_error->message};
    }
    delete st;
    return result;
}

}  // namespace ptosim::check
