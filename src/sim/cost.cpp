// The cost model's engine (include/ptosim/cost.hpp; the model itself is
// written down in docs/cost-model.md). Everything here is driven by the
// records instructions dispatch; the figures come from Params.
#include <ptosim/cost.hpp>
#include "timing.hpp"
#include <ptosim/runtime.hpp>
#include <ptosim/peers.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace ptosim::cost {

namespace {

// Instructions whose class their pipe alone does not tell. Everything else
// takes the class of its pipe (classify()).
struct Named {
    const char* op;
    OpClass cls;
};
constexpr Named kTable[] = {
    // Transcendental and division: several passes of the vector ALU.
    {"TEXP", OpClass::VecTranscendental}, {"TLOG", OpClass::VecTranscendental}, {"TSQRT", OpClass::VecTranscendental},
    {"TRSQRT", OpClass::VecTranscendental}, {"TRECIP", OpClass::VecTranscendental}, {"TDIV", OpClass::VecTranscendental},
    {"TDIVS", OpClass::VecTranscendental}, {"TPOW", OpClass::VecTranscendental}, {"TPOWS", OpClass::VecTranscendental},
    {"TROWEXPANDEXPDIF", OpClass::VecTranscendental}, {"TCOLEXPANDEXPDIF", OpClass::VecTranscendental},
    {"TROWEXPANDDIV", OpClass::VecTranscendental}, {"TCOLEXPANDDIV", OpClass::VecTranscendental},
    {"TSIN", OpClass::VecTranscendental}, {"TCOS", OpClass::VecTranscendental}, {"TTANH", OpClass::VecTranscendental},
    {"TSIGMOID", OpClass::VecTranscendental}, {"TRANDOM", OpClass::VecTranscendental},
    // Reductions: a tree of passes over the row or column.
    {"TROWSUM", OpClass::VecReduce}, {"TROWMAX", OpClass::VecReduce}, {"TROWMIN", OpClass::VecReduce},
    {"TROWPROD", OpClass::VecReduce}, {"TCOLSUM", OpClass::VecReduce}, {"TCOLMAX", OpClass::VecReduce},
    {"TCOLMIN", OpClass::VecReduce}, {"TCOLPROD", OpClass::VecReduce}, {"TROWARGMAX", OpClass::VecReduce},
    {"TROWARGMIN", OpClass::VecReduce}, {"TCOLARGMAX", OpClass::VecReduce}, {"TCOLARGMIN", OpClass::VecReduce},
    {"TPAIRREDUCESUM", OpClass::VecReduce}, {"TPARTARGMAX", OpClass::VecReduce}, {"TPARTARGMIN", OpClass::VecReduce},
    // Gathers, scatters and permutations: element-granular addressing.
    {"TGATHER", OpClass::VecGather}, {"TGATHERB", OpClass::VecGather}, {"TSCATTER", OpClass::VecGather},
    {"TMGATHER", OpClass::VecGather}, {"TMSCATTER", OpClass::VecGather}, {"TTRANS", OpClass::VecGather},
    {"TINTERLEAVE", OpClass::VecGather}, {"TDEINTERLEAVE", OpClass::VecGather},
    {"TSORT32", OpClass::VecSort}, {"TMRGSORT", OpClass::VecSort},
    // The CCE intrinsics these issue on the executed pto-isa path, in the same
    // classes, so that both paths price a kernel alike.
    {"vgather", OpClass::VecGather}, {"vgatherb", OpClass::VecGather}, {"vreducev2", OpClass::VecGather},
    {"vbitsort", OpClass::VecSort}, {"vmrgsort4", OpClass::VecSort},
};

OpClass by_pipe(Pipe p) {
    switch (p) {
        case Pipe::V:
        case Pipe::V2: return OpClass::VecPlain;
        case Pipe::M: return OpClass::Cube;
        case Pipe::MTE1: return OpClass::Mte1;
        case Pipe::MTE2: return OpClass::Mte2;
        case Pipe::MTE3:
        case Pipe::MTE4:
        case Pipe::MTE5: return OpClass::Mte3;
        case Pipe::FIX: return OpClass::Fix;
        default: return OpClass::Scalar;
    }
}

bool touches(const Access* a, uint8_t n, Space s) {
    for (uint8_t i = 0; i < n; ++i)
        if (a[i].space == s) return true;
    return false;
}

int flag_key(Pipe s, Pipe d, int ev) { return (static_cast<int>(s) * kPipeCount + static_cast<int>(d)) * kEventIds + ev; }

const char* short_pipe(Pipe p) {
    static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX"};
    return static_cast<int>(p) < kPipeCount ? names[static_cast<int>(p)] : "?";
}

}  // namespace

const char* to_string(OpClass c) {
    static const char* names[] = {"scalar", "sync", "vector", "vector transcendental", "vector reduction",
                                  "vector gather", "vector sort", "cube", "MTE2", "MTE3", "MTE1", "FIX"};
    return names[static_cast<int>(c)];
}

OpClass classify(const OpRecord& r) {
    if (r.sync != SyncOp::None) return OpClass::Sync;
    // Keyed by the name's address: every record of an instruction passes the same literal.
    thread_local std::unordered_map<const char*, int> cache;
    auto [it, fresh] = cache.try_emplace(r.op, -1);
    if (fresh)
        for (const Named& n : kTable)
            if (std::strcmp(n.op, r.op) == 0) it->second = static_cast<int>(n.cls);
    if (it->second >= 0) {
        const auto c = static_cast<OpClass>(it->second);
        // A vector class only for vector-pipe records (a TTRANS on MTE1 is a move).
        if (r.pipe == Pipe::V || r.pipe == Pipe::V2) return c;
    }
    return by_pipe(r.pipe);
}

double dtype_bytes(const char* t) {
    if (!t || !*t) return 0;
    const std::string_view s(t);
    if (s == "half" || s == "bfloat16_t" || s == "int16_t" || s == "uint16_t") return 2;
    if (s == "float" || s == "int32_t" || s == "uint32_t") return 4;
    if (s == "int64_t" || s == "uint64_t") return 8;
    if (s.find("4") != std::string_view::npos && s.find("fp4") != std::string_view::npos) return 0.5;
    return 1;  // int8, uint8, the fp8 and hifloat8 types
}

namespace {
// The Cube rate of an input type.
double cube_rate(const Params& p, const char* t) {
    const std::string_view s(t ? t : "");
    if (s == "half" || s == "bfloat16_t") return p.cube_fp16;
    if (s == "float") return p.cube_fp32;
    if (s == "int8_t" || s == "uint8_t") return p.cube_int8;
    if (s.find("fp4") != std::string_view::npos || s.find("e2m1") != std::string_view::npos ||
        s.find("e1m2") != std::string_view::npos)
        return p.cube_fp4;
    if (s.empty()) return p.cube_fp16;
    return p.cube_fp8;
}
}  // namespace

// ------------------------------------------------------------ engine

Engine::Engine(const Params& p, int active_cores, bool keep_slices) : p_(p), keep_(keep_slices) {
    const double gm_per_cycle = p.gm_gbps / p.clock_ghz;  // GB/s over Gcycle/s
    gm_share_ = gm_per_cycle / std::max(1, active_cores);
    l2_share_ = p.l2_gbps / p.clock_ghz / std::max(1, active_cores);
    // A rank reaches each peer of its node over its own link (a full mesh):
    // the links together carry link_peak_gbps per peer.
    const int peers = std::min(std::max(1, process_ranks() - 1), std::max(1, p.ranks_per_node - 1));
    if (p.link_peak_gbps > 0) link_share_ = p.link_peak_gbps * peers / p.clock_ghz / std::max(1, active_cores);
    if (p.l2_bytes > 0) {
        const uint64_t line = std::max<uint64_t>(1, static_cast<uint64_t>(p.l2_line));
        capacity_lines_ = std::max<uint64_t>(1, static_cast<uint64_t>(p.l2_bytes) / line);
    }
}

Engine::CoreState& Engine::state(int core) {
    auto [it, fresh] = cores_.try_emplace(core);
    if (fresh) {
        times_.try_emplace(core);
        // A core no one placed starts at 0; its first instruction waits for the block's start-up.
        it->second.issue = p_.block_start;
        it->second.free.fill(p_.block_start);
    }
    return it->second;
}

void Engine::start_core(int core, double at, std::string name) {
    CoreState& s = state(core);
    s.issue = at + p_.block_start;
    s.free.fill(at + p_.block_start);
    CoreTimes& t = times_[core];
    t.start = t.end = at;
    t.name = std::move(name);
}

double Engine::begin_on(CoreState& s, Pipe p) const {
    return std::max(s.issue, s.free[static_cast<int>(p) % kPipeCount]);
}

double Engine::core_end(int core) const {
    auto it = cores_.find(core);
    if (it == cores_.end()) return 0;
    double e = it->second.issue;
    for (double f : it->second.free) e = std::max(e, f);
    return e;
}

uint64_t Engine::touch_lines(const Access* acc, uint8_t n, const OpRecord& r, bool write) {
    const uint64_t line = std::max<uint64_t>(1, static_cast<uint64_t>(p_.l2_line));
    uint64_t miss = 0;
    auto range = [&](uint64_t lo, uint64_t hi) {
        for (uint64_t l = lo / line; l * line < hi; ++l) {
            auto [it, fresh] = lines_.try_emplace(l, Line{seq_ + 1, write});
            Line& x = it->second;
            if (fresh) {
                ++seq_;
                miss += std::min(hi, (l + 1) * line) - std::max(lo, l * line);
                if (write) ++dirty_lines_;
                if (lru_on_) lru_.emplace(x.seq, l);
                continue;
            }
            if (write && !x.dirty) {
                x.dirty = true;
                ++dirty_lines_;
            }
            // Least recently used in the order the engine receives the
            // records (docs/cost-model.md, "The write-back L2", says why not
            // by simulated time).
            if (lru_on_) lru_.erase({x.seq, l});
            x.seq = ++seq_;
            if (lru_on_) lru_.emplace(x.seq, l);
        }
    };
    for (uint8_t i = 0; i < n; ++i) {
        const Access& a = acc[i];
        if (a.space != Space::GM) continue;
        if (a.runs == 0 || a.runs > r.n_runs) {
            range(a.offset, a.offset + a.bytes);
            continue;
        }
        // A strided tile: only its rows, walked like an odometer.
        const Runs& x = r.runs[a.runs - 1];
        std::array<uint64_t, Runs::kMaxDims> idx{};
        uint64_t k = 1;
        for (int d = 0; d < x.dims; ++d) k *= x.count[d];
        for (; k > 0; --k) {
            uint64_t at = a.offset;
            for (int d = 0; d < x.dims; ++d) at += idx[d] * x.pitch[d];
            range(at, at + x.run);
            for (int d = x.dims - 1; d >= 0 && ++idx[d] == x.count[d]; --d) idx[d] = 0;
        }
    }
    return miss;
}

uint64_t Engine::evict() {
    if (capacity_lines_ == 0 || lines_.size() <= capacity_lines_) return 0;
    if (!lru_on_) {
        for (const auto& [l, x] : lines_) lru_.emplace(x.seq, l);
        lru_on_ = true;
    }
    const uint64_t line = std::max<uint64_t>(1, static_cast<uint64_t>(p_.l2_line));
    uint64_t dirty = 0;
    auto it = lru_.begin();
    while (lines_.size() > capacity_lines_ && it != lru_.end()) {
        const auto [seq, l] = *it;
        if (seq >= protect_from_) {  // the current record's own lines stay
            ++it;
            continue;
        }
        const auto x = lines_.find(l);
        if (x->second.dirty) {
            dirty += line;
            --dirty_lines_;
        }
        lines_.erase(x);
        it = lru_.erase(it);
    }
    written_back_ += dirty;
    hbm_bytes_ += dirty;
    return dirty;
}

uint64_t Engine::hbm_bytes() const {
    if (capacity_lines_ == 0) return hbm_bytes_;
    return hbm_bytes_ + dirty_lines_ * std::max<uint64_t>(1, static_cast<uint64_t>(p_.l2_line));
}

uint64_t Engine::first_touch(const OpRecord& r) { return touch_lines(r.reads, r.n_reads, r, false); }

void Engine::present_in_l2(uint64_t lo, uint64_t hi) {
    // Before the launch's first instruction: older than any use in it.
    const uint64_t line = std::max<uint64_t>(1, static_cast<uint64_t>(p_.l2_line));
    for (uint64_t l = lo / line; l * line < hi; ++l) {
        auto [it, fresh] = lines_.try_emplace(l, Line{seq_ + 1, false});
        if (!fresh) continue;
        ++seq_;
        if (lru_on_) lru_.emplace(it->second.seq, l);
    }
    protect_from_ = seq_ + 1;
    evict();
}

int Engine::remote_rank_of(const OpRecord& r, bool writes) {
    const Access* a = writes ? r.writes : r.reads;
    const uint8_t n = writes ? r.n_writes : r.n_reads;
    for (uint8_t i = 0; i < n; ++i)
        if (a[i].space == Space::GM)
            if (const int peer = remote_peer(static_cast<uintptr_t>(a[i].offset)); peer >= 0) return peer;
    return -1;
}

bool link_between(const Params& p, int me, int peer, double& latency, double& bytes_per_cycle) {
    const int per_node = std::max(1, p.ranks_per_node);
    const bool same_node = me / per_node == peer / per_node;
    const double gbps = same_node ? p.link_gbps : p.roce_gbps;
    if (gbps <= 0) return false;
    latency = same_node ? p.lat_link : p.lat_roce;
    bytes_per_cycle = gbps / p.clock_ghz;
    return true;
}

double Engine::cost(const OpRecord& r, double gm_miss, double writeback) const {
    // Dirty lines this instruction's lines pushed out of L2 go to HBM at the
    // core's HBM share before it is done (docs/cost-model.md, "The model").
    if (writeback > 0) return cost(r, gm_miss) + writeback / gm_share_;
    const OpClass c = classify(r);
    const bool gm_in = touches(r.reads, r.n_reads, Space::GM), gm_out = touches(r.writes, r.n_writes, Space::GM);
    const double bytes = static_cast<double>(r.bytes);
    // A transfer that reaches another rank's window crosses the link
    // (docs/cost-model.md, "Across ranks"): its start-up plus its bytes at
    // the slower of the link and the pipe; an SDMA entry at the SDMA figures.
    if ((gm_in || gm_out) && (c == OpClass::Mte2 || c == OpClass::Mte3 || c == OpClass::Fix) &&
        (p_.link_gbps > 0 || p_.roce_gbps > 0)) {
        // A URMA transfer (urma.cpp) records only its local side; the
        // peer it reaches is in `event`.
        const bool urma = std::strncmp(r.op, "URMA ", 5) == 0;
        int peer = urma ? r.event : gm_in ? remote_rank_of(r, false) : -1;
        if (peer < 0 && gm_out && !urma) peer = remote_rank_of(r, true);
        double lat = 0, rate = 0;
        if (peer >= 0 && link_between(p_, process_rank(), peer, lat, rate)) {
            // A URMA WQE is priced as an SDMA entry: the NIC's descriptor
            // round trip and the link (docs/soc-profiles.md, "Timing", note 15).
            if ((urma || std::strcmp(r.op, "SDMA") == 0) && p_.sdma_gbps > 0) {
                // Within a node the SDMA figures stand for the whole transfer
                // (they were fitted to one); across nodes RoCE's start-up is added.
                const bool same_node = lat == p_.lat_link && rate == p_.link_gbps / p_.clock_ghz;
                const double share = link_share_ > 0 ? link_share_ : rate;
                return p_.lat_sdma + (same_node ? 0 : lat) +
                       bytes / std::min({rate, share, p_.sdma_gbps / p_.clock_ghz});
            }
            const double pipe_lat = c == OpClass::Mte2 ? p_.lat_mte2 : c == OpClass::Mte3 ? p_.lat_mte3 : p_.lat_fix;
            double pipe_rate = c == OpClass::Mte2 ? p_.mte2 : c == OpClass::Mte3 ? p_.mte3 : p_.fix;
            if (link_share_ > 0) pipe_rate = std::min(pipe_rate, link_share_);
            return pipe_lat + lat + bytes / std::min(pipe_rate, rate);
        }
    }
    auto vec = [&](double rate) {
        const double e = std::max(dtype_bytes(r.dtype), dtype_bytes(r.src_dtype));
        double elements = static_cast<double>(r.elements);
        // The mask-pattern TGATHER (its one read is the source) counts the
        // elements it keeps; the vreducev2 it issues streams the whole
        // source, which is what the unit reads.
        if (c == OpClass::VecGather && r.n_reads == 1 && r.src_shape.valid_cols && std::strcmp(r.op, "TGATHER") == 0)
            elements = static_cast<double>(r.src_shape.valid_rows) * r.src_shape.valid_cols;
        const double stream = elements > 0 && e > 0 ? elements * e : bytes;
        return p_.lat_vec + stream / rate;
    };
    if (p_.calibration != Calibration::None && c >= OpClass::VecPlain && c <= OpClass::VecSort) {
        // A published per-instruction formula, where one covers the record.
        double cycles = 0;
        if (calibrated_cycles(p_.calibration, r, cycles)) {
            // The list form of TMRGSORT also copies the merged result from
            // its tmp tile to dst behind a V barrier (pto-isa's TMrgsort:
            // vmrgsort4 into tmp, pipe_barrier(PIPE_V), copy_ubuf_to_ubuf),
            // which its record counts as bytes beyond the merge's 16 a
            // structure; priced as that barrier and copy are when they run.
            const uint64_t merge_bytes = r.elements * 16;
            if (r.bytes > merge_bytes && p_.calibration == Calibration::A2A3 && std::strcmp(r.op, "TMRGSORT") == 0)
                cycles += p_.barrier + p_.lat_vec + static_cast<double>(r.bytes - merge_bytes) / 2 / p_.vec_plain;
            return cycles;
        }
    }
    switch (c) {
        case OpClass::VecPlain: return vec(p_.vec_plain);
        case OpClass::VecTranscendental: return vec(p_.vec_transcendental);
        case OpClass::VecReduce: return vec(p_.vec_reduce);
        case OpClass::VecGather: return vec(p_.vec_gather);
        case OpClass::VecSort: return vec(p_.vec_sort);
        case OpClass::Cube: {
            const char* in = *r.src_dtype ? r.src_dtype : r.dtype;
            return p_.lat_cube + static_cast<double>(r.flops) / 2 / cube_rate(p_, in);
        }
        case OpClass::Mte2: {
            if (!gm_in) return p_.lat_mte2 + bytes / p_.mte2;
            const double miss = gm_miss < 0 ? bytes : std::min(bytes, gm_miss);
            // A read that reaches HBM waits its latency once, on top of the DMA's start-up.
            return p_.lat_mte2 + (miss > 0 ? p_.lat_hbm : 0) + miss / std::min(p_.mte2, gm_share_) +
                   (bytes - miss) / std::min(p_.mte2, l2_share_);
        }
        // A GM write goes to the write-back L2 at the L2 share when the
        // figures have one (l2_bytes > 0), else at the HBM share.
        case OpClass::Mte3: return p_.lat_mte3 + bytes / (gm_out ? std::min(p_.mte3, write_share()) : p_.mte3);
        case OpClass::Mte1: return p_.lat_mte1 + bytes / p_.mte1;
        case OpClass::Fix: return p_.lat_fix + bytes / (gm_out ? std::min(p_.fix, write_share()) : p_.fix);
        case OpClass::Scalar:
        case OpClass::Sync: return 0;
    }
    return 0;
}

double Engine::issue_time(int core) { return state(core).issue; }

double Engine::pipe_free(int core, Pipe p) {
    CoreState& s = state(core);
    return std::max(s.issue, s.free[static_cast<int>(p) % kPipeCount]);
}

void Engine::hold_until(int core, double until, const std::string& what, const char* op, const SourceLoc& loc) {
    CoreState& s = state(core);
    if (until <= s.issue) return;
    block(core, s, Pipe::S, s.issue, until, what);
    if (keep_) slices_.push_back({core, Pipe::S, s.issue, until - s.issue, op, loc, 0, 0});
    s.issue = until;
    CoreTimes& t = times_[core];
    t.end = std::max(t.end, until);
}

void Engine::record_untimed(int core) {
    state(core);
    ++times_[core].instructions;
}

void Engine::place(int core, CoreState& s, Pipe p, double start, double dur, const OpRecord& r) {
    const int pi = static_cast<int>(p) % kPipeCount;
    s.free[pi] = start + dur;
    CoreTimes& t = times_[core];
    t.busy[pi] += dur;
    t.end = std::max(t.end, start + dur);
    if (keep_) slices_.push_back({core, p, start, dur, r.op, r.loc, r.bytes, r.flops});
}

void Engine::block(int core, CoreState& s, Pipe p, double from, double until, const std::string& what) {
    (void)s;
    (void)p;
    if (until <= from) return;
    times_[core].blocked[what] += until - from;
}

void Engine::record(int core, const OpRecord& r) {
    CoreState& s = state(core);
    ++times_[core].instructions;
    s.issue += p_.issue;
    const int pi = static_cast<int>(r.pipe) % kPipeCount;
    switch (r.sync) {
        case SyncOp::SetFlag: {
            // Queued on the source pipe: it fires once what that pipe holds is done.
            const double at = begin_on(s, r.src);
            s.flags[flag_key(r.src, r.dst, r.event)] = {at + p_.flag, core, r.src};
            if (keep_) slices_.push_back({core, r.src, at, 0, r.op, r.loc, 0, 0});
            return;
        }
        case SyncOp::WaitFlag: {
            const int key = flag_key(r.src, r.dst, r.event);
            auto it = s.flags.find(key);
            const double from = begin_on(s, r.dst);
            const double ready = it != s.flags.end() ? it->second.t : from;
            const double until = std::max(from, ready);
            if (ready > from) {
                block(core, s, r.dst, from, ready,
                      std::string("wait_flag(") + to_string(r.src) + ", " + to_string(r.dst) + ", EVENT_ID" +
                          std::to_string(r.event) + ")");
            }
            if (r.dst == Pipe::S) s.issue = until;
            else s.free[static_cast<int>(r.dst)] = until;
            if (keep_) {
                slices_.push_back({core, r.dst, from, until - from, r.op, r.loc, 0, 0});
                if (it != s.flags.end()) flows_.push_back({core, r.src, it->second.t - p_.flag, core, r.dst, until});
            }
            if (it != s.flags.end()) s.flags.erase(it);
            return;
        }
        case SyncOp::PipeBarrier: {
            if (r.pipe == Pipe::ALL) {
                double t = s.issue;
                for (double f : s.free) t = std::max(t, f);
                if (t > s.issue) times_[core].blocked["pipe_barrier(PIPE_ALL)"] += t - s.issue;
                s.issue = t + p_.barrier;
            } else {
                place(core, s, r.pipe, begin_on(s, r.pipe), p_.barrier, r);
            }
            return;
        }
        case SyncOp::CrossSignal: {
            const double at = begin_on(s, r.pipe);
            s.last_signal = {at, core, r.pipe};
            if (keep_) slices_.push_back({core, r.pipe, at, 0, r.op, r.loc, 0, 0});
            return;
        }
        case SyncOp::CrossWait: {
            s.wait_pipe = r.pipe;
            s.wait_from = begin_on(s, r.pipe);
            s.wait_name = std::string(r.op) + "(" + std::to_string(r.event) + ")";
            s.wait_op = r.op;
            s.wait_loc = r.loc;
            return;
        }
        case SyncOp::SyncAll: {
            double t = s.issue;
            for (double f : s.free) t = std::max(t, f);
            s.last_signal = {t, core, Pipe::S};
            s.wait_from = t;
            s.wait_op = r.op;
            s.wait_loc = r.loc;
            return;
        }
        case SyncOp::None: break;
    }
    const OpClass c = classify(r);
    if (c == OpClass::Scalar) return;
    const double start = begin_on(s, r.pipe);
    protect_from_ = seq_ + 1;
    const double miss = c == OpClass::Mte2 ? static_cast<double>(first_touch(r)) : -1;
    if (miss > 0) hbm_bytes_ += static_cast<uint64_t>(miss);
    // A transfer that reads GM and writes nowhere fills L2 (the SDMA engine's
    // prefetch, pto-isa's TPREFETCH_ASYNC): a later read of its lines is a hit.
    if (c != OpClass::Mte2 && r.n_writes == 0 && touches(r.reads, r.n_reads, Space::GM))
        hbm_bytes_ += first_touch(r);
    if (touches(r.writes, r.n_writes, Space::GM)) {
        // Without the write-back L2 a write is HBM traffic as it happens;
        // with it, when its dirty line is written back (evict, hbm_bytes).
        if (capacity_lines_ == 0) hbm_bytes_ += r.bytes;
        // A written line stays in L2: a later read of it is a hit (write-allocate).
        touch_lines(r.writes, r.n_writes, r, true);
    }
    const uint64_t writeback = evict();
    place(core, s, r.pipe, start, cost(r, miss, static_cast<double>(writeback)), r);
    (void)pi;
    if (c == OpClass::Cube) cube_flops_ += r.flops;
    else if (c >= OpClass::VecPlain && c <= OpClass::VecSort) vec_flops_ += r.flops;
    else if (r.n_reads && r.n_writes)
        moved_[static_cast<int>(r.reads[0].space)][static_cast<int>(r.writes[0].space)] += r.bytes;
}

void Engine::signal(int core, const Channel& ch) { channels_[ch].push_back(state(core).last_signal); }

void Engine::forward(const std::vector<Channel>& from, const std::vector<Channel>& to) {
    Event merged{0, -1, Pipe::S};
    for (const Channel& ch : from) {
        auto& q = channels_[ch];
        size_t& i = consumed_[ch];
        if (i >= q.size()) continue;
        if (merged.core < 0 || q[i].t > merged.t) merged = q[i];
        ++i;
    }
    for (const Channel& ch : to) channels_[ch].push_back(merged);
}

void Engine::acquire(int core, const Channel& ch) {
    CoreState& s = state(core);
    auto& q = channels_[ch];
    size_t& i = consumed_[ch];
    if (i >= q.size()) return;
    const Event e = q[i++];
    const double ready = e.t + p_.cross_core;
    const double until = std::max(s.wait_from, ready);
    block(core, s, s.wait_pipe, s.wait_from, ready, s.wait_name);
    if (s.wait_pipe == Pipe::S) s.issue = std::max(s.issue, until);
    else s.free[static_cast<int>(s.wait_pipe)] = std::max(s.free[static_cast<int>(s.wait_pipe)], until);
    if (keep_) {
        slices_.push_back({core, s.wait_pipe, s.wait_from, until - s.wait_from, s.wait_op, s.wait_loc, 0, 0});
        if (e.core >= 0) flows_.push_back({e.core, e.pipe, e.t, core, s.wait_pipe, until});
    }
}

void Engine::contribute(int core, const Channel& ch) { channels_[ch].push_back(state(core).last_signal); }

void Engine::acquire_all(int core, const Channel& ch) {
    CoreState& s = state(core);
    double t = 0;
    for (const Event& e : channels_[ch]) t = std::max(t, e.t);
    t += p_.cross_core;
    block(core, s, Pipe::S, s.wait_from, t, "SYNCALL");
    if (keep_) slices_.push_back({core, Pipe::S, s.wait_from, std::max(0.0, t - s.wait_from), s.wait_op, s.wait_loc, 0, 0});
    s.issue = std::max(s.issue, t);
    for (double& f : s.free) f = std::max(f, t);
}

}  // namespace ptosim::cost

namespace ptosim::cost {
const char* pipe_short_name(Pipe p) { return short_pipe(p); }
}  // namespace ptosim::cost
