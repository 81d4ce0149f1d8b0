// Intra-core event flags, A2A3 FFTS cross-core flags and A5 intra-block flags.
#include <ptosim/intrinsics.hpp>
#include "check.hpp"
#include "launch.hpp"
#include <cstdio>
#include <string>

namespace ptosim::intr {

namespace {

std::string flag_name(Pipe src, Pipe dst, int64_t ev) {
    return std::string("(") + to_string(src) + ", " + to_string(dst) + ", EVENT_ID" + std::to_string(ev) + ")";
}

void check_pipe(const SourceLoc& loc, const char* op, Pipe p, bool allow_all) {
    int v = static_cast<int>(p);
    if (v < 0 || v >= kPipeCount || (!allow_all && p == Pipe::ALL))
        fault(loc, std::string(op) + ": pipe value " + std::to_string(v) + " is not a valid pipe_t" +
                       (allow_all ? "" : " here (PIPE_ALL is only valid in pipe_barrier)"));
}

OpRecord sync_record(const char* op, Pipe pipe, const SourceLoc& loc, SyncOp kind = SyncOp::None, Pipe src = Pipe::S,
                     Pipe dst = Pipe::S, int64_t event = -1) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc;
    r.sync = kind;
    r.src = src;
    r.dst = dst;
    r.event = static_cast<int32_t>(event);
    return r;
}

}  // namespace

void set_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t ev) {
    Core& c = core();
    check_pipe(loc, "set_flag", src, false);
    check_pipe(loc, "set_flag", dst, false);
    if (ev < 0 || ev >= kEventIds)
        fault(loc, "set_flag: event id " + std::to_string(ev) + " is out of range; use EVENT_ID0..EVENT_ID7");
    dispatch(c, sync_record("set_flag", src, loc, SyncOp::SetFlag, src, dst, ev));
    uint8_t& bits = c.flags[static_cast<int>(src)][static_cast<int>(dst)];
    const uint8_t bit = static_cast<uint8_t>(1u << ev);
    // Under synccheck the record above was reported with both set_flag
    // locations; the kernel goes on with the flag set once, as the one-bit
    // hardware flag would be (docs/checkers.md, "synccheck").
    if ((bits & bit) && check::enabled(check::kSync)) return;
    if (bits & bit)
        fault(loc, "set_flag" + flag_name(src, dst, ev) + " while the flag is still set: two set_flag without a "
                   "wait_flag between them are illegal (flags are one bit); add the missing wait_flag");
    bits |= bit;
}

void wait_flag(const SourceLoc& loc, Pipe src, Pipe dst, int64_t ev) {
    Core& c = core();
    check_pipe(loc, "wait_flag", src, false);
    check_pipe(loc, "wait_flag", dst, false);
    if (ev < 0 || ev >= kEventIds)
        fault(loc, "wait_flag: event id " + std::to_string(ev) + " is out of range; use EVENT_ID0..EVENT_ID7");
    dispatch(c, sync_record("wait_flag", dst, loc, SyncOp::WaitFlag, src, dst, ev));
    uint8_t& bits = c.flags[static_cast<int>(src)][static_cast<int>(dst)];
    const uint8_t bit = static_cast<uint8_t>(1u << ev);
    // Only this core sets its own flags, and it runs in program order: an
    // unset flag here can never become set, which the deadlock report names.
    block_until(c, loc, [&bits, bit] { return (bits & bit) != 0; },
                [src, dst, ev] { return "wait_flag" + flag_name(src, dst, ev) + " but no set_flag" + flag_name(src, dst, ev) +
                                        " preceded it on this core; it is never set"; });
    bits = static_cast<uint8_t>(bits & ~bit);
}

namespace {
uint8_t& event_counter(Pipe src, Pipe dst) {
    thread_local uint8_t host[kPipeCount][kPipeCount] = {};
    const int a = static_cast<int>(src) % kPipeCount, b = static_cast<int>(dst) % kPipeCount;
    Core* c = current_core_or_null();
    return c ? c->event_ids[a][b] : host[a][b];
}
}  // namespace

int64_t next_event_id(Pipe src, Pipe dst) {
    uint8_t& n = event_counter(src, dst);
    const int64_t id = n;
    n = static_cast<uint8_t>((n + 1) % kEventIds);
    return id;
}
int64_t peek_event_id(Pipe src, Pipe dst) { return event_counter(src, dst); }
void reset_event_id(Pipe src, Pipe dst) { event_counter(src, dst) = 0; }

void pipe_barrier(const SourceLoc& loc, Pipe p) {
    Core& c = core();
    check_pipe(loc, "pipe_barrier", p, true);
    // With no subscriber (checkers, cost model, tracer) and the launch going
    // on, dispatch would only count the call and keep its location: do that
    // without building the record. pto-isa's headers put a barrier after
    // most vector instructions (docs/speed.md).
    if (!detail::g_has_subscribers && !(c.abandon && c.abandon->load(std::memory_order_relaxed))) [[likely]] {
        ++c.ops;
        c.last_loc = loc;
        c.last_op = "pipe_barrier";
        return;
    }
    dispatch(c, sync_record("pipe_barrier", p, loc, SyncOp::PipeBarrier, p, p));
}

void set_mask_norm(const SourceLoc& loc) {
    Core& c = core();
    dispatch(c, sync_record("set_mask_norm", Pipe::S, loc));
    c.mask_norm_set = true;
    c.vec.counter = false;
    c.vec.mode_set = true;
}

void set_vector_mask(const SourceLoc& loc, uint64_t hi, uint64_t lo) {
    Core& c = core();
    dispatch(c, sync_record("set_vector_mask", Pipe::S, loc));
    c.vector_mask_set = true;
    c.vec.mask[0] = lo;
    c.vec.mask[1] = hi;
    c.vec.mask_set = true;
}

void set_ffts_base_addr(const SourceLoc& loc, uint64_t addr) {
    Core& c = core();
    dispatch(c, sync_record("set_ffts_base_addr", Pipe::S, loc));
    c.ffts_base = addr;
    c.ffts_base_loc = loc;
}

namespace {

// A signal on a full 4-bit counter.
[[noreturn]] void counter_full(const std::string& what, const SourceLoc& loc) {
    fault(loc, what + " already holds 15 unconsumed signals (the counter is 4 bits); the receiver must wait "
                      "before more signals are sent");
}

std::string ffts_counter(const Launch& l, int core, int flag) {
    return "ffts_cross_core_sync: FFTS flag " + std::to_string(flag) + " of " + l.core_name(core);
}

// Racecheck's channels (check.hpp): a receiver's FFTS counter, a barrier
// member's pending signals, an A5 intra-block counter; SYNCALL rounds are 3, 4.
check::Channel ffts_channel(int receiver, int flag) { return {0, receiver, flag, 0}; }
check::Channel pending_channel(intptr_t barrier, size_t member, int flag) {
    return {1, barrier, static_cast<int64_t>(member), flag};
}
check::Channel intra_channel(int receiver, int flag) { return {2, receiver, flag, 0}; }

// Counts a signal from `from` into FFTS barrier (mode, key) of `members`;
// when every member has signalled, each receiver's counter goes up by one.
void barrier_signal(Launch& l, int mode, int key, const std::vector<int>& members, const std::vector<int>& receivers,
                    const Core& from, Pipe pipe, int flag, const SourceLoc& loc) {
    const SignalSite site{loc, from.index};
    const Launch::BarrierArrival a = l.ffts_barrier_add(mode, key, members, from.index, flag, site, l.clock_of(from));
    if (a.full)
        counter_full("ffts_cross_core_sync: FFTS flag " + std::to_string(flag) + " of " + from.name() + " (pending barrier)",
                     loc);
    check::signal(l, from, pipe, pending_channel(a.barrier, a.member, flag));
    if (!a.complete) return;
    if (l.checker() || l.timing()) {
        std::vector<check::Channel> in, out;
        for (size_t i = 0; i < members.size(); ++i) in.push_back(pending_channel(a.barrier, i, flag));
        for (int r : receivers) out.push_back(ffts_channel(r, flag));
        check::forward(l, in, out);
    }
    for (int r : receivers)
        if (!l.ffts_add(r, flag, site, a.stamp)) counter_full(ffts_counter(l, r, flag), loc);
    l.signalled();
}

}  // namespace

void ffts_cross_core_sync(const SourceLoc& loc, Pipe pipe, uint64_t config) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "ffts_cross_core_sync", pipe, false);
    const bool a5 = c.target == Target::A5;
    const int mode = static_cast<int>((config >> 4) & 0x3);
    // A5 keeps the all-cores mode 0 (pto-isa's A5 SYNCALL barriers the Vector
    // cores, the Cube cores, and the Cube cores of a mix launch with it);
    // within a group it signals with set_intra_block/wait_intra_block.
    if (a5 && mode != 0)
        fault(loc, "ffts_cross_core_sync mode " + std::to_string(mode) +
                       " is A2A3's (dav-c220) group signal; on A5 use set_intra_block/wait_intra_block (mode 0, all "
                       "cores of one type, runs on both)");
    // A core that never set a base signals through the one the runtime
    // programmed for the launch: mix kernels that pass on the device never
    // call set_ffts_base_addr (docs/semantics.md, "Cross-core flags"). A5
    // kernels have no FFTS base to set.
    if (a5) {
    } else if (c.ffts_base == 0) {
        Tolerated t;
        t.op = "ffts_cross_core_sync";
        t.kind = "ffts-base-unset";
        t.pipe = pipe;
        t.message = "ffts_cross_core_sync at " + loc.str() + " on a core that never called set_ffts_base_addr: the "
                    "CCE documentation asks the kernel to set the FFTS base from rtGetC2cCtrlAddr, but the runtime "
                    "sets it for the launch, so the signal went through the launch's FFTS block";
        t.fix = "pass the address rtGetC2cCtrlAddr returns into the kernel and call set_ffts_base_addr(addr) before "
                "the first cross-core signal";
        tolerate(loc, std::move(t));
    } else if (c.ffts_base != l.device().ffts_ctrl_addr()) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "0x%llx, but the device's FFTS control block is at 0x%llx",
                      static_cast<unsigned long long>(c.ffts_base),
                      static_cast<unsigned long long>(l.device().ffts_ctrl_addr()));
        fault(loc, "ffts_cross_core_sync: set_ffts_base_addr at " + c.ffts_base_loc.str() + " set the FFTS base to " +
                       buf + ", so the signal would reach no core (on the device the waiting cores hang); pass "
                       "the address rtGetC2cCtrlAddr returns into the kernel unchanged (the value, not what it points "
                       "to), or do not call set_ffts_base_addr at all");
    }
    const int flag = static_cast<int>((config >> 8) & 0xf);
    dispatch(c, sync_record("ffts_cross_core_sync", pipe, loc, SyncOp::CrossSignal, pipe, Pipe::S, flag));
    auto held = l.lock();
    l.note_signal(c, c.name() + " ffts_cross_core_sync(mode " + std::to_string(mode) + ", flag " + std::to_string(flag) +
                  ") at " + loc.str());
    const int g = static_cast<int>(c.block_idx);
    const bool mix = l.cores_per_group() == 3;
    auto aivs = [&] { return std::vector<int>{l.group_member(c, 1).index, l.group_member(c, 2).index}; };
    switch (mode) {
        case 0: {  // all cores of the sender's type in the launch
            std::vector<int> same;
            for (int i = 0; i < l.core_count(); ++i)
                if (l.core_type_of(i) == c.type) same.push_back(i);
            barrier_signal(l, 0, static_cast<int>(c.type), same, same, c, pipe, flag, loc);
            break;
        }
        case 1:  // the two Vector sub-blocks of one group
            if (c.type != CoreType::AIV || !mix)
                fault(loc, "ffts_cross_core_sync mode 1 synchronises the two Vector sub-blocks of a mix group; it "
                           "needs a mix launch (dav-c220) and a Vector core");
            barrier_signal(l, 1, g, aivs(), aivs(), c, pipe, flag, loc);
            break;
        case 2:  // a Cube core and its two Vector sub-blocks
            if (!mix)
                fault(loc, "ffts_cross_core_sync mode 2 synchronises a Cube core with its Vector sub-blocks; it needs "
                           "a mix launch (--cce-aicore-arch=dav-c220)");
            if (c.type == CoreType::AIC) {
                for (int r : aivs()) {
                    if (!l.ffts_add(r, flag, {loc, c.index}, l.clock_of(c))) counter_full(ffts_counter(l, r, flag), loc);
                    check::signal(l, c, pipe, ffts_channel(r, flag));
                }
                l.signalled();
            } else {
                barrier_signal(l, 2, g, aivs(), {l.group_member(c, 0).index}, c, pipe, flag, loc);
            }
            break;
        default:
            fault(loc, "ffts_cross_core_sync: mode " + std::to_string(mode) +
                           " in config bits 4-5 is not defined; use 0 (all cores of a type), 1 (Vector sub-blocks of a "
                           "group) or 2 (Cube and its Vector sub-blocks)");
    }
    l.sync_point(c, held);
}

void wait_flag_dev(const SourceLoc& loc, int64_t flag) {
    Core& c = core();
    Launch& l = *c.launch;
    if (flag < 0 || flag >= kFftsFlags)
        fault(loc, "wait_flag_dev: flag " + std::to_string(flag) + " is out of range 0..15");
    dispatch(c, sync_record("wait_flag_dev", Pipe::S, loc, SyncOp::CrossWait, Pipe::S, Pipe::S, flag));
    auto held = l.lock();
    const int me = c.index, f = static_cast<int>(flag);
    block_until(c, loc, held, [&l, me, f] { return l.ffts_held(me, f) >= 1; }, [&l, me, f] {
        return "wait_flag_dev(" + std::to_string(f) + ") needs 1 release of FFTS flag " + std::to_string(f) +
               ", has " + std::to_string(l.ffts_held(me, f));
    });
    const uint64_t stamp = l.ffts_take(me, f);
    check::acquire(l, c, ffts_channel(c.index, static_cast<int>(flag)));
    l.sync_point(c, held, stamp);
}

void set_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "set_intra_block", pipe, false);
    if (c.target != Target::A5)
        fault(loc, "set_intra_block is an A5 (dav-c310) intrinsic; on A2A3 use ffts_cross_core_sync/wait_flag_dev");
    if (l.cores_per_group() != 3)
        fault(loc, "set_intra_block signals between the Cube core and its Vector sub-blocks; it needs a mix launch "
                   "(--cce-aicore-arch=dav-c310)");
    if (id < 0 || id >= kIntraBlockFlags)
        fault(loc, "set_intra_block: flag id " + std::to_string(id) + " is out of range 0..31");
    dispatch(c, sync_record("set_intra_block", pipe, loc, SyncOp::CrossSignal, pipe, Pipe::S, id));
    auto held = l.lock();
    int to;
    int flag;
    if (c.type == CoreType::AIC) {  // ids 16..31 address sub-block 1
        to = l.group_member(c, id < 16 ? 1 : 2).index;
        flag = static_cast<int>(id % 16);
    } else {  // the Cube core tells the sub-blocks apart by id + 16 * subblock
        to = l.group_member(c, 0).index;
        flag = static_cast<int>(id % 16 + 16 * c.subblock_id);
    }
    if (!l.intra_add(to, flag, {loc, c.index}, l.clock_of(c)))
        counter_full("set_intra_block: intra-block flag " + std::to_string(flag) + " of " + l.core_name(to), loc);
    check::signal(l, c, pipe, intra_channel(to, flag));
    l.note_signal(c, c.name() + " -> " + l.core_name(to) + " intra-block flag " + std::to_string(flag) + " at " + loc.str());
    l.signalled();
    l.sync_point(c, held);
}

void wait_intra_block(const SourceLoc& loc, Pipe pipe, int64_t id) {
    Core& c = core();
    Launch& l = *c.launch;
    check_pipe(loc, "wait_intra_block", pipe, false);
    if (c.target != Target::A5)
        fault(loc, "wait_intra_block is an A5 (dav-c310) intrinsic; on A2A3 use ffts_cross_core_sync/wait_flag_dev");
    if (id < 0 || id >= kIntraBlockFlags)
        fault(loc, "wait_intra_block: flag id " + std::to_string(id) + " is out of range 0..31");
    dispatch(c, sync_record("wait_intra_block", pipe, loc, SyncOp::CrossWait, Pipe::S, pipe, id));
    int flag = static_cast<int>(c.type == CoreType::AIC ? id : id % 16);
    auto held = l.lock();
    const int me = c.index;
    block_until(c, loc, held, [&l, me, flag] { return l.intra_held(me, flag) >= 1; }, [&l, me, flag] {
        return "wait_intra_block(" + std::to_string(flag) + ") needs 1 signal on intra-block flag " +
               std::to_string(flag) + ", has " + std::to_string(l.intra_held(me, flag));
    });
    const uint64_t stamp = l.intra_take(me, flag);
    check::acquire(l, c, intra_channel(c.index, flag));
    l.sync_point(c, held, stamp);
}

}  // namespace ptosim::intr

namespace ptosim::intr {

namespace {

const char* kind_name(SyncAllCores who) {
    switch (who) {
        case SyncAllCores::AIV: return "SyncCoreType::AIVOnly";
        case SyncAllCores::AIC: return "SyncCoreType::AICOnly";
        default: return "SyncCoreType::Mix";
    }
}

// Whether `c` takes part; cores of the other type pass through, as pto-isa's
// SYNCALL compiles to nothing on them.
bool participates(const Launch& l, const Core& c, SyncAllCores who, const SourceLoc& loc) {
    if (who == SyncAllCores::Mix) {
        if (const_cast<Launch&>(l).cores_per_group() != 3)
            fault(loc, std::string("SYNCALL<") + kind_name(who) + "> synchronises the Cube and Vector cores of a mix "
                       "launch, but this launch runs only " + to_string(c.type) + " cores; build the kernel as a mix "
                       "kernel (--cce-aicore-arch=dav-c220 / dav-c310) or use SyncCoreType::" +
                       (c.type == CoreType::AIV ? "AIVOnly" : "AICOnly"));
        return true;
    }
    return (who == SyncAllCores::AIV) == (c.type == CoreType::AIV);
}

int participant_count(Launch& l, SyncAllCores who) {
    int n = 0;
    for (int i = 0; i < l.core_count(); ++i)
        if (who == SyncAllCores::Mix || (who == SyncAllCores::AIV) == (l.core_type_of(i) == CoreType::AIV)) ++n;
    return n;
}

}  // namespace

void syncall_hard(const SourceLoc& loc, SyncAllCores who) {
    Core& c = core();
    Launch& l = *c.launch;
    dispatch(c, sync_record("SYNCALL", Pipe::ALL, loc, SyncOp::SyncAll, Pipe::ALL, Pipe::ALL));
    if (!participates(l, c, who, loc)) return;
    const int total = participant_count(l, who);
    auto held = l.lock();
    const int kind = static_cast<int>(who);
    const uint64_t gen = l.syncall_round(kind);
    l.note_signal(c, c.name() + " arrived at SYNCALL<" + kind_name(who) + "> at " + loc.str());
    const check::Channel round{3, kind, static_cast<int64_t>(gen), 0};
    check::contribute(l, c, round);
    if (l.syncall_arrive(kind, total, l.clock_of(c))) l.signalled();
    block_until(c, loc, held, [&l, kind, gen] { return l.syncall_round(kind) != gen; }, [&l, kind, total, who] {
        return std::string("SYNCALL<") + kind_name(who) + "> (hardware mode) waits for all " + std::to_string(total) +
               " participating cores of the launch; " + std::to_string(l.syncall_arrived(kind)) + " have arrived";
    });
    check::acquire_all(l, c, round);
    // Every participant leaves the barrier at the latest arrival's clock.
    l.sync_point(c, held, l.syncall_released(kind));
}

void syncall_soft(const SourceLoc& loc, SyncAllCores who, int32_t* workspace, uint64_t ub_bytes, int32_t used_cores) {
    constexpr int kSlotInts = 8;  // one 32-byte cache line per core (SYNCALL_SOFT_SLOT_INT32)
    Core& c = core();
    Launch& l = *c.launch;
    dispatch(c, sync_record("SYNCALL", Pipe::ALL, loc, SyncOp::SyncAll, Pipe::ALL, Pipe::ALL));
    if (!participates(l, c, who, loc)) return;
    if (used_cores < 0)
        fault(loc, "SYNCALL (software mode): usedCores is " + std::to_string(used_cores) +
                       "; pass the number of participating cores, or 0 for all of them");
    int total = used_cores;
    int64_t index = c.block_idx;
    if (who == SyncAllCores::Mix) {
        const int64_t ratio = l.cores_per_group() - 1;  // Vector sub-blocks per Cube core
        if (total == 0) total = static_cast<int>(c.block_num * (1 + ratio));
        if (c.type == CoreType::AIV) index = total / (1 + ratio) + c.block_idx * c.subblock_dim + c.subblock_id;
    } else if (total == 0) {
        total = static_cast<int>(c.block_num);
    }
    const uint64_t slots_bytes = static_cast<uint64_t>(total) * kSlotInts * sizeof(int32_t);
    if (c.type == CoreType::AIV && ub_bytes < slots_bytes)
        fault(loc, "SYNCALL (software mode): the UB workspace tile holds " + std::to_string(ub_bytes) + " bytes but " +
                       std::to_string(total) + " participating cores need " + std::to_string(slots_bytes) +
                       " (SYNCALL_SOFT_SLOT_INT32 int32 values per core); enlarge the tile's columns");
    if (index >= total)
        fault(loc, "SYNCALL (software mode): " + c.name() + " is participant " + std::to_string(index) + " but usedCores is " +
                       std::to_string(total) + "; every participating core must be counted in usedCores");
    check_gm(workspace, slots_bytes, "SYNCALL workspace", loc);
    auto held = l.lock();
    int32_t* mine = workspace + index * kSlotInts;
    const int32_t value = *mine + 1;
    *mine = value;
    l.signalled();
    l.note_signal(c, c.name() + " wrote " + std::to_string(value) + " to its SYNCALL slot " + std::to_string(index) + " at " +
                  loc.str());
    const check::Channel round{4, static_cast<int>(who), value, 0};
    check::contribute(l, c, round);
    auto arrived = [workspace, total, value] {
        int n = 0;
        for (int i = 0; i < total; ++i) n += workspace[i * kSlotInts] >= value;
        return n;
    };
    block_until(c, loc, held, [arrived, total] { return arrived() == total; }, [arrived, total, value, workspace] {
        std::string late;
        for (int i = 0; i < total; ++i)
            if (workspace[i * kSlotInts] < value) late += (late.empty() ? "" : ", ") + std::to_string(i);
        return "SYNCALL (software mode) waits until all " + std::to_string(total) + " GM slots reach " +
               std::to_string(value) + "; " + std::to_string(arrived()) + " have (slots still behind: " + late +
               "; a zero-initialised workspace and every core calling SYNCALL equally often are required)";
    });
    check::acquire_all(l, c, round);
    // The slots carry no stamp: the core goes on at its own clock.
    l.sync_point(c, held);
}

}  // namespace ptosim::intr
